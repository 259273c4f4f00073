// Package report turns the outputs of census runs into one self-contained
// HTML page: a header and charts per run, and, when there are several runs,
// a comparison table and the same charts overlaid. Every chart is drawn
// with gonum/plot and embedded as inline SVG, so the page needs no network
// and no other file; the charts can also be written as PNG files. The
// census of a loopy game (Mū tōrere) gets a section of its own, its
// summary's counts and the random player's chart, and is left out of the
// comparison. A run through the values stage whose directory holds its
// pieces files gets two more charts read from them: outcome classes by
// piece size and the cost of valuing by piece size.
package report
