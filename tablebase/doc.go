// Package tablebase is the on-disk format of a solved run's tablebase: one
// file per tier shard holding, for every stored position of the shard, its
// solve.Record (the remoteness with Left to move and with Right to move),
// built to be read at random through a memory mapping.
//
// The caller maps each position key to a uint64 code (Header.Coding says
// how; this package stores it and never looks at codes otherwise) and
// hands Write the shard's codes, strictly increasing, with their records.
// Open maps a file and checks its header and index only, so that opening
// a file of many gigabytes reads none of its data pages; Lookup finds one
// code by a binary search of the index and the decoding of one block;
// All reads every pair in order. Decode does what Open does over bytes
// already in memory. A Shard is safe for concurrent use; an open one costs
// about 8 KiB of memory besides its mapping (the record decoding table).
//
// # Coding
//
// The positions are cut into blocks of B (256) positions, in order, each
// decodable alone: the block's first code is in the index, and the block
// holds two bit streams, its keys then its records. The keys are the gaps
// between successive codes, less one, Rice coded with the parameter k that
// makes the block's keys shortest (codec/rice, the coder of kept positions
// too): a gap g takes g>>k one-bits, a zero-bit and the k low bits of g,
// some log2(mean gap) + 1.5 bits for codes spread about evenly. The
// records are coded by one canonical Huffman code per file whose symbols
// are (Left, Right) pairs, built from the file's pair frequencies, codes
// at most 12 bits long; its table is in the header. Rare pairs do not each
// get a code: a table entry costs 3 bytes and takes at least 2^-12 of the
// code space, which a long tail of rare pairs would take from the frequent
// ones. Write gives codes to the m most frequent pairs, or to m-1 of them
// and an escape, for the m (of some 34 tried) that makes the file
// shortest; an escaped pair follows the escape's code in 14 raw bits. A
// file whose records are all one pair has a table of one entry with a code
// of length 0, and its records take no bits at all.
//
// Bit streams are packed least significant bit first: bit i of a stream
// is bit i%8 of its byte i/8. A Huffman code is written first bit first,
// so its bits appear reversed in the integer the stream holds, and a
// decoder indexes a table of 4096 entries with the stream's next 12 bits.
//
// # Layout
//
// All integers are little-endian; offsets count bytes from the start of
// the file. A file is a header, the blocks, the index and a trailer:
//
//	offset      size     field
//	header
//	0           4        magic "CNTB"
//	4           1        version, 1
//	5           1        coding: Header.Coding, stored for the caller
//	6           1        rows, 1..64
//	7           1        cols, 1..64
//	8           4        tier, uint32
//	12          4        shard, uint32, below shards
//	16          4        shards, uint32, at least 1
//	20          4        B, positions a block, 1..65536
//	24          8        count, positions in the file, uint64
//	32          1        g, bytes of the game's name, 1..32
//	33          g        the game's name, e.g. "clobber"
//	33+g        2        nsym, entries of the code table, 0..1024 (0 exactly when count is 0)
//	35+g        3*nsym   code table: per entry left:u8 right:u8 len:u8
//	blocks
//	H           ...      nblocks = ceil(count/B) blocks, one after another; H = 35+g+3*nsym
//	index
//	X           8*nb     first code of each block, uint64, strictly increasing
//	X+8*nb      8*nb     offset of each block, uint64: the first H, increasing, all below X
//	X+16*nb     4*nb     crc32c (Castagnoli) of each block's bytes
//	trailer
//	size-16     8        X, the offset of the index, uint64
//	size-8      4        crc32c of header, index and X: bytes [0, H) then [X, size-8)
//	size-4      4        magic "BTNC"
//
// where nb is nblocks and X = size - 16 - 20*nb, so that the file's size,
// count and B place the index, and the stored X must agree.
//
// The code table lists its entries in canonical order: by len, then left,
// then right. An entry is a pair, left and right each 0..127, or the
// escape, left and right both 255. With one entry, len is 0 and the entry
// is not the escape; with more, every len is 1..12 and the lengths make a
// complete prefix code (the sum of 2^-len is 1). The entries' codes are
// canonical: the first entry's is len zero-bits, and each next one is the
// previous plus one, shifted left by the difference of their lengths.
//
// Block j holds positions jB to min(jB+B, count)-1; its bytes run from its
// offset to the next block's offset, the last block's to X:
//
//	size        field
//	1           k, the Rice parameter, 0..63
//	uvarint     klen, bytes of the keys' stream
//	klen        keys: for each position after the block's first, the gap
//	            g = code - previous code - 1, as g>>k one-bits, a zero-bit
//	            and the k low bits of g; zero-bits pad to a byte
//	the rest    records: for each position of the block, the code of its
//	            pair, or the escape's code then Left in 7 bits and Right in
//	            7 bits; zero-bits pad to the block's end
//
// # Checksums
//
// Open and Decode check the magic bytes, the version, the trailer, the
// sizes, the header and index checksum, the code table and the index (its
// first codes increasing by at least B, its offsets increasing within the
// blocks); any fault, or a file that is truncated or not a tablebase, is
// an error wrapping ErrCorrupt. They read no block. Lookup and All check a
// block's checksum every time they decode it, and fail with ErrCorrupt,
// naming the block, when it or the block's coding is bad; the other blocks
// still read. All also checks that each stream's coding ends in the
// stream's last byte and that a block's codes lie below the next block's
// first. The checksum that Write reports (Info.Sum) covers the whole file
// as written and is not stored in it: it is for the store's manifest.
//
// # Lookup
//
// A lookup of code c finds the last block whose first code is at most c
// by a binary search of the index's first codes (none: c is absent),
// checks that block's checksum, then reads its keys and records side by
// side: while the current code is below c, it decodes the next gap and
// passes the current record (its length is in the decoding table). It
// stops at the first code at least c, or at the block's last; c is
// present if that code is c, and its record is the one at the records'
// position. The two streams are independent chains of work that the
// processor overlaps, which is why a block keeps them apart rather than
// interleaved. A lookup allocates nothing.
//
// # Limits and sizes
//
// Offsets and counts are 64-bit, so files have no size limit of their own,
// but Open maps the whole file, which must fit the address space. A file
// must not change while it is open (a file truncated under a mapping
// faults the reader): write it once, to a new name. Codes may be any
// uint64; B is at most 65536; records at most solve.MaxRemoteness (7
// bits); the code table at most 1024 entries; the game's name at most 32
// bytes; Write rejects anything else, naming the bad value, before writing
// a byte.
//
// On a synthetic shard of 1Mi positions (BenchmarkBlockSize: gaps
// exponentially distributed with mean 300; Left and Right each mostly
// within some 15 values and correlated, 1% anywhere), a file takes 2.19
// bytes a position: keys 1.21 (9.7 bits, the entropy of such gaps), records
// 0.88 (7.07 bits, against the pairs' entropy of 6.99) and index, framing
// and checksums 0.093. B = 256 keeps that last part below 0.1 byte a
// position; B = 128 takes 0.19 but halves a lookup's decoding (one block
// position is about 4 to 5 ns).
package tablebase
