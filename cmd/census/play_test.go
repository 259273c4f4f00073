package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestPlayBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"play", "clobber", "3x4", "--player", "minimax-random:5"}, "minimax-random:5"},
		{[]string{"play", "clobber", "3x4", "--against", "greedy"}, "greedy"},
		{[]string{"play", "clobber", "3x4", "--games", "0"}, "--games 0"},
		{[]string{"play", "clobber", "3x4", "--seed", "-1"}, "-1"},
		{[]string{"play", "clobber", "3x4", "--max-states", "0"}, "--max-states 0"},
		{[]string{"play", "chess", "3x4"}, "chess"},
		{[]string{"play", "clobber", "3y4"}, "3y4"},
		{[]string{"play", "clobber", "3x4", "--start", "xo/ox"}, "xo/ox"},
		{[]string{"play", "mutorere", "7"}, "mutorere 7"},
		{[]string{"play", "clobber"}, "GAME BOARD"},
	} {
		stdout, stderr, code := census(t, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) || stdout != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("census %v: exit %d, stdout %q, stderr %q; want exit 2 and one line naming %q", c.args, code, stdout, stderr, c.want)
		}
	}
	stdout, _, code := census(t, "play", "--help")
	if code != 0 || !strings.Contains(stdout, "Usage:") || !strings.Contains(stdout, "minimax-random:D") {
		t.Errorf("census play --help: exit %d, %q", code, stdout)
	}
}

// TestPlaySeeded runs a sampled match twice with one seed: the output must
// be the same bit for bit, and another seed must change it.
func TestPlaySeeded(t *testing.T) {
	args := []string{"play", "domineering", "4x4", "--player", "minimax-random:3", "--against", "random", "--games", "400", "--sample", "--json"}
	a, stderr, code := census(t, append(args, "--seed", "9")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, _, _ := census(t, append(args, "--seed", "9")...)
	c, _, _ := census(t, append(args, "--seed", "10")...)
	if a != b {
		t.Errorf("seed 9 twice gave\n%s\nthen\n%s", a, b)
	}
	if a == c {
		t.Error("seeds 9 and 10 gave the same output")
	}
	var r playResult
	if err := json.Unmarshal([]byte(a), &r); err != nil {
		t.Fatal(err)
	}
	if r.Method != "sampled" || r.Seed == nil || *r.Seed != 9 || r.All.Tally == nil || r.All.Tally.Games != 400 || len(r.Seats) != 4 {
		t.Errorf("want 400 sampled games with seed 9 over 4 seats, got %+v", r)
	}
}

// TestPlayExact: the random player against the perfect one on Clobber 3x4
// is summed exactly; the start is lost for the player to move (a
// P-position, results/values), so P never wins moving first against the
// perfect player, and the perfect player always wins moving second.
func TestPlayExact(t *testing.T) {
	stdout, stderr, code := census(t, "play", "clobber", "3x4", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r playResult
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if r.Method != "exact" || r.Seed != nil || r.All.CILow != nil {
		t.Fatalf("want an exact result with no seed or interval, got %s", stdout)
	}
	for _, s := range r.Seats {
		if *s.PFirst && s.PWin != 0 || s.PWin+s.QWin < 1-1e-12 || s.PWin+s.QWin > 1+1e-12 {
			t.Errorf("seat %s: P %v, Q %v", s.Seat, s.PWin, s.QWin)
		}
	}
	stdout, _, _ = census(t, "play", "clobber", "3x4", "--player", "perfect")
	if !strings.Contains(stdout, "exact") || !strings.Contains(stdout, "all four seats     P wins 0.5000") {
		t.Errorf("perfect against perfect: %s", stdout)
	}
}
