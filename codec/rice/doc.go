// Package rice is census's bit stream and its Rice code of the gaps
// between increasing codes: the coder of the kept-positions blob
// (codec/kept) and of the keys of a tablebase shard (tablebase). It
// writes and reads bits, not a file: the formats that use it frame its
// streams (the parameter, the stream's length in bytes) themselves.
//
// # Bit streams
//
// A stream is a sequence of bits packed into bytes least significant bit
// first: bit i of the stream is bit i%8 of byte i/8. A number of n bits
// is written low bit first, so that the n bits from position p, read as a
// little-endian integer shifted right by p, are the number. The last byte
// is padded with zero-bits; a stream's length is a whole number of bytes,
// which the format that holds it records.
//
//	byte     0                 1
//	bit      7 6 5 4 3 2 1 0   7 6 5 4 3 2 1 0
//	stream   7 6 5 4 3 2 1 0  15 14 ...      8    (stream positions)
//
// # The Rice code
//
// Codes c0 < c1 < ... < cn-1 (uint64) are stored as their first, c0,
// which the format stores on its own, and the gaps g_i = c_i - c_(i-1) - 1
// for i = 1..n-1 (a gap of 0 is two successive codes). Each gap is
// written with one parameter k, 0..63, as
//
//	g>>k one-bits    a zero-bit    the k low bits of g, low bit first
//
// so that a gap takes g>>k + 1 + k bits. The codes follow one another
// with nothing between them. A reader rebuilds c_i = c_(i-1) + g_i + 1; a
// code that runs past the stream's end, or whose quotient g>>k shifted
// back by k does not fit 64 bits, is corrupt, and so is a gap that takes
// the code past 2^64-1.
//
// The parameter is the k that makes the gaps' codes shortest (Parameter):
// of the k from two below the bit length of the mean gap, floor(sum of
// g / (n-1)), to one above it, none above 63 and none below the bit length
// of the largest gap less 16 (so that no gap takes more than 2^16 one-bits),
// the one of least total length, the least such k on a tie. For codes
// spread about evenly, a gap takes some log2(mean gap) + 1.5 bits. The
// choice is part of the format only in that writers make it the same way,
// so that the same codes always give the same bytes; a reader takes any k.
//
// # Example
//
// The codes 10, 13, 14, 30 have the gaps 2, 0, 15. With k = 2 they are
//
//	gap 2:   0      01      (quotient 0, then 2 = binary 10, low bit first)
//	gap 0:   0      00
//	gap 15:  1110   11      (quotient 3, then 3 = binary 11)
//
// 12 bits, 0 0 1 0 0 0 1 1 1 0 1 1 in stream order, which pack into the
// two bytes c4 0d (ExampleWriter).
package rice
