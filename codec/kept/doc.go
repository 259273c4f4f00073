// Package kept is the format of a kept-positions blob: the sorted
// position keys of one tier shard, which a tier job of a run to be solved
// writes as it visits them in order, and which the solve stage reads
// whole. A Writer takes the keys one at a time in increasing order;
// Decode reads a blob in memory back into its header and keys.
//
// # Codes
//
// A key is stored as its code under the blob's squeeze s: the high 32-bit
// plane of a two-plane key (Clobber's and Amazons' white stones) moved
// down next to the s low bits of the low plane,
//
//	code = key & (2^32-1) | key>>32 << s        key = code & (2^s-1) | code>>s << 32
//
// so that the codes of a board of fewer than 32 squares lie below
// 2^(2*s) rather than 2^64. s is the board's squares when fewer than 32,
// else 32, when a code is its key (Squeeze). The squeeze keeps the order
// of keys whose low plane fits s bits; a Writer refuses any other key.
// A tablebase shard (package tablebase) stores its positions under the
// same codes, its header's Coding being s.
//
// # Layout
//
// All fixed-size integers are little-endian; a uvarint is
// encoding/binary's (7 bits a byte, low group first, the high bit set on
// every byte but the last). A blob is a header, blocks, an end and a
// trailer:
//
//	offset    size      field
//	header
//	0         4         magic "CNSK"
//	4         1         version, 1
//	5         1         s, the squeeze, 0..32
//	6         1         rows
//	7         1         cols
//	8         1         g, bytes of the game's name
//	9         g         the game's name, e.g. "clobber"
//	9+g       4         tier, uint32
//	blocks, from 13+g, one after another, each
//	          uvarint   n, codes in the block, 1..128
//	          uvarint   c, the block's first code
//	          1         k, the Rice parameter of the block's gaps, 0..63
//	          uvarint   len, bytes of the gaps' stream
//	          len       the n-1 gaps of the block's codes, Rice coded with k
//	end
//	          uvarint   0 (one byte 00): no more blocks
//	          uvarint   count, codes in the blob
//	trailer
//	size-8    4         crc32c (Castagnoli) of bytes [0, size-8)
//	size-4    4         magic "KSNC"
//
// The blocks hold the codes in increasing order, 128 to a block and the
// rest in the last; a blob of no codes has no blocks. A block's codes
// are c followed by the codes that its gaps give: each gap is a code less
// the one before it less one, and the stream that holds them is the
// Rice code of package rice (codec/rice has its bits): g>>k one-bits, a
// zero-bit and the k low bits of g, packed least significant bit first,
// the last byte padded with zero-bits. k is the one that makes the block's
// stream shortest (rice.Parameter); a block of one code has an empty
// stream (len 0). A block can be decoded alone, given where it starts.
//
// # Reading
//
// A blob is read whole, from the start: Decode checks the magic bytes,
// the trailer and the checksum, the version and the header's fields,
// then reads the blocks up to the 0 that ends them. A block of more than
// 128 codes, a k above 63, a stream that runs past the blob or whose
// gaps run past the stream or past 2^64, a first code not above the
// previous block's last, a count that is not the number of codes read,
// and any byte after the count are corrupt: Decode then fails with an
// error wrapping ErrCorrupt. Decode takes some blobs that no Writer
// writes (a short block before the last, a k that is not the best, bits
// set in a stream's padding, a uvarint longer than it need be): their
// keys are what the bytes say. The checksum in the trailer, which Info.Sum
// reports, is the one the job message's blob carries: the coordinator
// checks a blob it copies against it without decoding it.
//
// # Sizes
//
// A position of a shard spread about evenly over its codes takes some
// log2(mean gap) + 1.5 bits, and each block of 128 takes 4 to 15 bytes
// more (n, c, k and len); the header takes 13 bytes and the game's name,
// the end and the trailer 10 to 19.
//
// # Example
//
// Clobber on 2x2 (4 squares, s = 4), tier 1, keeping the positions
// 0x1_00000002 and 0x2_00000001: their codes are 0x12 and 0x21, one gap
// of 0x21-0x12-1 = 14, Rice coded with k = 3 as 1 0 then 0 1 1 (14 =
// binary 1110, its low 3 bits low bit first): one byte 19.
//
//	43 4e 53 4b  01  04  02 02  07 63 6c 6f 62 62 65 72  01 00 00 00   header
//	02 12 03 01 19                                                      block: n 2, c 0x12, k 3, len 1, the gap
//	00 02                                                               end: count 2
//	30 6e ff 5f  4b 53 4e 43                                            crc32c 5fff6e30, "KSNC"
package kept
