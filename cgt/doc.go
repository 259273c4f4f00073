// Package cgt computes with short partizan games in canonical form: the
// values of the census's pieces.
//
// # Games
//
// A Table stores canonical forms, each once (hash-consing): a game is an ID,
// its options are sorted lists of IDs, and two IDs of one table are equal
// exactly when the games are equal, so equality is an integer comparison.
// New builds the canonical form of {L | R} from games already in the table
// by deleting dominated options and bypassing reversible ones (Siegel,
// Combinatorial Game Theory, II.2). Neg, Add (memoised), Le, Ge, Lt and
// Confused are the group operations and the order; Outcome is the outcome
// class (L, R, N, P) of normal play; Birthday, Size (nodes of the canonical
// form), Stops and MeanTemp (from the thermograph) describe a game.
//
// Cheap cases skip the general algorithms: numbers (dyadic rationals) are
// recognised and built directly (the simplicity rule) and compared by
// value; a number added to a non-number moves only in the non-number
// (number translation) and is compared through the other game's options
// only (number avoidance); numbers, nimbers and ups add as x + n.↑ + *m
// without recursion, and {*a, *b, ... | same} is *mex.
//
// # Notation
//
// String writes a game as CGSuite's plain-text output does (its
// CanonicalShortGame.appendTo and Uptimal.appendTo, with the plain-text
// symbols of StyledTextOutput): 0, 3, -3/4; *, *2; ^, ^^, ^3, v, vv, v3
// with a number before and a star after (^*, 1/2v*); a switch G = -G as
// +-L for its Left options (+-1, +-{2|1}, +-{1,{2|1}}); x + Tiny(G) and
// x + Miny(G) as xTiny(G) and xMiny(G); any other game as {L|R}, options
// sorted numbers first, then nimbers, then other number-up-stars, then the
// rest, and a lone option written without braces and with one more slash
// ({2||1|0}) up to four slashes. Parse reads that notation back, and sums
// joined by '+'.
//
// Where this printer deviates from CGSuite's:
//   - Uptimals beyond x + n.↑ + *m (CGSuite's ^<n> and ^[n] for ↑^n and
//     its sums) are written as general forms {L|R}.
//   - Among options that are neither numbers, nimbers nor number-up-stars,
//     and among number-up-stars, the order is this package's (by number,
//     then ups, then nimber; then by option lists), which may differ from
//     CGSuite's uptimal-expansion order for the same set of options.
//
// # Mean and temperature
//
// MeanTemp computes the thermograph's walls as piecewise linear functions
// of the temperature above 0. As in CGSuite, a number m/2^k has mean
// m/2^k and temperature -1/2^k (so an integer has temperature -1), and a
// number plus an infinitesimal has temperature 0. Its cost grows with the
// size of the canonical form; callers cap it by Size.
//
// A Table is not safe for concurrent use: give each goroutine its own.
package cgt
