// Package fragment is the format of census's fragments: the sorted runs
// of records that the jobs of a run pass one another through the store,
// the successors of a tier shard for the next tier, the piece keys and
// piece records for the reductions, the classes, and the rows of the
// pieces table. A fragment is a header, its records and a trailer with a
// checksum; it is written once, front to back (Writer, WriteKeys and the
// other Write functions), and read once, front to back, checking as it
// goes (Reader).
//
// # Layout
//
// Fixed-size integers are little-endian. A uvarint is encoding/binary's:
// 7 bits a byte, the low group first, the high bit set on every byte but
// the last; a writer writes the shortest, a reader takes any of at most
// 10 bytes whose value fits 64 bits.
//
//	offset    size      field
//	header
//	0         4         magic "CNSF"
//	4         1         version, 1
//	5         1         kind (below)
//	6         1         rows of the board, 0..255
//	7         1         cols of the board, 0..255
//	8         1         g, bytes of the game's name, 0..255
//	9         g         the game's name, e.g. "clobber"
//	9+g       4         tier, uint32 (read back as an int32)
//	13+g      8         count, records in the payload, uint64
//	payload
//	21+g      ...       count records, of the kind's layout, one after another
//	trailer
//	size-8    4         crc32c (Castagnoli) of bytes [0, size-8): header and payload
//	size-4    4         magic "FSNC"
//
// Nothing follows the trailer. A fragment has no index and no length of
// its own beyond the count: a reader reads its records in order, and
// finds the trailer after the last. Several fragments may lie back to
// back in one blob of the store (a tier job writes those of all its next
// shards into one blob a part, a compaction one of each kind): a job
// message names each by its blob, offset, size, checksum and count
// (jobs.Blob), and a reader reads that byte range alone.
//
// # Kinds and their records
//
//	kind  name         a record
//	1     positions    key delta (uvarint)
//	2     deadfree     key delta (uvarint)
//	3     inplace      key delta (uvarint)
//	4     pieces       piece key, positions (uvarint), first tier (uvarint)
//	5     classpairs   piece key of the negation class, symmetric class hi, lo (uvarints), self-negative (uvarint, 1 or 0)
//	6     piecerows    piece key, positions, first tier, sym hi, sym lo, neg hi, neg lo, self-negative (uvarints)
//	7     classes      piece key of the negation class, flags (uvarint: 1 self-negative, 2 the other class; at most 3)
//
// Kinds 1 to 3 hold uint64 keys (positions, dead-free board keys,
// in-place piece keys), strictly increasing: each record is the key less
// the one before, the first key less 0. Every delta after the first is
// at least 1 and does not carry the key past 2^64-1.
//
// A piece key (games.PieceKey, two uint64 Hi and Lo) is coded against the
// piece key of the record before, {0, 0} for the first, in two uvarints:
//
//	same Hi as before:    0, then Lo less the Lo before (modulo 2^64)
//	another Hi:           Hi less the Hi before (modulo 2^64), then Lo in full
//
// Pieces (kind 4, Piece) and piece rows (kind 6, PieceRow) are strictly
// increasing by key, Hi first. The first tier is an int32 written as the
// uvarint of its sign extension to 64 bits (a negative tier takes 10
// bytes) and read back by truncation. Classes (kind 7, Class) are sorted
// by the negation class's key, then the flag of the other class, with
// no repeats; two records of one negation class code its key again as
// 0, 0. Class pairs (kind 5) are the classes of earlier versions of
// census, with the symmetric class's key in full where kind 7 keeps a
// bit (the other class when it is not the negation class's key): a
// reader still reads them, from a run begun by such a version, and no
// writer writes them. The kinds 64 and 65 of job messages name kept
// blobs and tablebase shards, which are not fragments.
//
// # Checks
//
// A Reader checks, and fails with an error wrapping ErrCorrupt when one
// fails: the magic bytes and the version; that the fragment is of the
// kind asked for; each uvarint; that keys and piece keys strictly
// increase, and a class's flags are at most 3; at the end of the last
// record (at once for a count of 0), the trailer's magic and checksum;
// that no byte follows the trailer; and, when the caller gives them
// (Options), the size and checksum that the fragment's writer reported
// (Info), which job messages carry. A record read before the end is
// checked by its own bytes only: a caller takes a fragment as sound when
// it has read it to the end without an error. A truncated fragment fails
// where its bytes run out.
//
// # Example
//
// The positions 0, 1 and 300 of Clobber 2x2, tier 1 (ExampleWriteKeys):
//
//	43 4e 53 46  01  01  02 02  07 63 6c 6f 62 62 65 72   magic, version 1, kind 1, 2x2, "clobber"
//	01 00 00 00  03 00 00 00 00 00 00 00                  tier 1, count 3
//	00  01  ab 02                                          deltas 0, 1, 299
//	b0 d9 dd 5d  46 53 4e 43                              crc32c 5dddd9b0, "FSNC"
//
// The payload of the pieces {0x102, 5} in 3 positions from tier 1, {0x102,
// 9} in 1 from tier 2 and {0x201, 3} in 200 from tier 2 (ExampleWritePieces):
//
//	82 02 05  03  01     Hi 0x102 less 0, Lo 5; positions 3; first tier 1
//	00 04     01  02     the same Hi, Lo 9 less 5; 1; 2
//	ff 01 03  c8 01  02  Hi 0x201 less 0x102, Lo 3; 200; 2
//
// # Sizes
//
// A dense run of keys takes a byte or two a key: a delta below 2^7 takes
// one byte, below 2^14 two. The header takes 21 bytes and the game's
// name, the trailer 8.
package fragment
