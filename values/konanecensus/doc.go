// Package konanecensus values positions of Kōnane (package games/konane)
// as short partizan games in canonical form (package cgt): every
// arrangement of a row of N squares (Count), and the usual openings of a
// rectangle (CountOpenings).
//
// A position's value is the canonical form of {Left options | Right
// options}, each option a position valued the same way, memoised by
// position. Whole positions are valued without splitting them into
// independent groups of stones: on a row, two groups separated by two
// empty squares can still meet (in x o . . x o, White's last stone jumps
// to leave x o . o . ., and Black's first stone can then jump twice; o x
// . . o x x o . is 0, but its two groups, each on its own, sum to -1), so
// a sound split needs a gap that grows with the stones on either side (see
// Independent). The rows of a census are short enough to value whole; on
// a rectangle the same bound rarely splits anything, which is what limits
// the census of openings (see CountOpenings).
package konanecensus
