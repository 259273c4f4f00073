package solve

// Record is what the solve knows of a position for each player to move:
// the remoteness with Left to move (Left) and with Right to move (Right),
// the number of moves to the end of the game with best play, the winner
// ending it as fast as it can and the loser lasting as long as it can.
//
// Under normal play the player who cannot move loses, so a game that ends
// after r moves is lost by the player to move at the start when r is even
// and won when r is odd: the remoteness says who wins, and a record needs
// no other bit. A position whose mover has no move has remoteness 0 (lost);
// a won one 1 + the least remoteness of its options lost for the opponent
// to move; a lost one 1 + the greatest remoteness of its options.
type Record struct {
	Left, Right uint8
}

// Wins reports whether the player to move wins at remoteness r.
func Wins(r uint8) bool { return r&1 == 1 }

// LeftWins reports whether Left, moving first, wins.
func (r Record) LeftWins() bool { return Wins(r.Left) }

// RightWins reports whether Right, moving first, wins.
func (r Record) RightWins() bool { return Wins(r.Right) }

// Outcome is the class of the position: Left wins moving first when its
// remoteness with Left to move is odd, and moving second when its
// remoteness with Right to move is even.
func (r Record) Outcome() Outcome {
	var o Outcome
	if Wins(r.Left) {
		o |= LeftFirst
	}
	if !Wins(r.Right) {
		o |= LeftSecond
	}
	return o
}

// Negate is the record of the position with Left and Right exchanged: its
// Left to move is the original's Right to move.
func (r Record) Negate() Record { return Record{Left: r.Right, Right: r.Left} }

// MaxRemoteness bounds every remoteness a record holds: a game on a board
// of at most 64 squares ends within 64 moves.
const MaxRemoteness = 127

// Side combines the remotenesses of one player's options (each the
// option's remoteness with the opponent to move) into that player's
// remoteness: the zero Side has seen no option.
type Side struct {
	// win is 1 + the least even remoteness seen (0: none seen); most is
	// 1 + the greatest remoteness seen (0: no option).
	win, most uint8
}

// Add adds an option whose remoteness with the opponent to move is r.
func (s *Side) Add(r uint8) {
	if !Wins(r) && (s.win == 0 || r+1 < s.win) {
		s.win = r + 1
	}
	if r+1 > s.most {
		s.most = r + 1
	}
}

// Decided reports whether no further option can change the remoteness:
// the player wins at remoteness 1 (an option leaves the opponent no move).
func (s Side) Decided() bool { return s.win == 1 }

// Remoteness is the player's remoteness from the options added: the
// fastest win when some option is lost for the opponent, else the slowest
// loss, 0 when there was no option.
func (s Side) Remoteness() uint8 {
	if s.win != 0 {
		return s.win
	}
	return s.most
}
