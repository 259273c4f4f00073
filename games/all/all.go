// Package all names every game of the census and builds one by name.
package all

import (
	"errors"
	"fmt"
	"strings"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/amazons"
	"github.com/census-cgt/census/games/clobber"
	"github.com/census-cgt/census/games/domineering"
)

// ErrUnknownGame is returned by New for a name that is not a game.
var ErrUnknownGame = errors.New("unknown game")

// Names lists the games, as the CLI spells them.
var Names = []string{"clobber", "domineering", "amazons"}

// New returns the named game on a board "ROWSxCOLS" from start (a board
// diagram, or empty for the game's standard start). It fails with an error
// naming the bad value: ErrUnknownGame, games.ErrBadBoard or
// games.ErrBadDiagram.
func New(name, board, start string) (games.Game, error) {
	rows, cols, err := games.ParseBoard(board)
	if err != nil {
		return nil, err
	}
	var g games.Game
	switch name {
	case "clobber":
		g, err = clobber.New(rows, cols, start)
	case "domineering":
		g, err = domineering.New(rows, cols, start)
	case "amazons":
		g, err = amazons.New(rows, cols, start)
	default:
		return nil, fmt.Errorf("%w %q: want one of %s", ErrUnknownGame, name, strings.Join(Names, ", "))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return g, nil
}

// CGSuiteRuleset returns the CGSuite expression that builds a position of
// the named game from a grid string (see games.FormatCGSuite), e.g.
// "game.grid.Clobber". It fails with ErrUnknownGame for a name that is not
// a game.
func CGSuiteRuleset(name string) (string, error) {
	switch name {
	case "clobber":
		return clobber.CGSuiteRuleset, nil
	case "domineering":
		return domineering.CGSuiteRuleset, nil
	case "amazons":
		return amazons.CGSuiteRuleset, nil
	}
	return "", fmt.Errorf("%w %q: want one of %s", ErrUnknownGame, name, strings.Join(Names, ", "))
}
