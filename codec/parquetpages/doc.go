// Package parquetpages writes Parquet files whose data pages it encodes
// itself, value by value, where arrow-go's writers go through column
// chunk writers, batches and encoders: a row costs a few appends to the
// page of each column. It writes the file arrow-go's writer
// (pqarrow.FileWriter, or file.Writer's column chunk writers) writes from
// the same rows, schema and properties, but for where the data pages are
// cut (and so the pages' statistics): the same Parquet schema, encodings,
// compression, column chunk statistics, row groups and footer, so that a
// reader sees the same table.
//
// NewWriter takes the Parquet schema, the writer properties and the
// key-value metadata; Columns are the file's columns, to each of which a
// row adds one value (AddBytes or AddString, AddInt64, AddInt32, AddBool,
// or AddNull); EndRow ends the row; Close writes the last row group and
// the footer. The package encodes the values, cuts and compresses the
// pages and keeps each row group's pages in memory, compressed, until the
// row group is full; arrow-go's page writer (file.NewPageWriter) writes
// the page headers and the dictionary page, and arrow-go's metadata
// builders the column chunk metadata and the footer. It imports nothing
// but the standard library and arrow-go.
//
// The format is the Apache Parquet format, as parquet-format's
// specification defines it: the file layout and the Thrift structures of
// parquet.thrift (PageHeader, DataPageHeader, DictionaryPageHeader,
// Statistics, ColumnChunk, ColumnMetaData, FileMetaData), serialized with
// Thrift's compact protocol (thrift-compact-protocol.md); the encodings
// of Encodings.md (PLAIN, RLE, DELTA_BINARY_PACKED,
// DELTA_LENGTH_BYTE_ARRAY, RLE_DICTIONARY); the codecs of Compression.md.
// What follows is what this package writes of it, byte by byte.
//
// # Columns
//
// Every column is flat: its repetition level is 0, and its definition
// level 0 (a required column, which has no levels in its pages) or 1 (an
// optional column, which this package fills with nulls only). A column's
// kind follows from its physical type and repetition and from the
// properties' encoding and dictionary for its path:
//
//	column                  properties                 data page encoding        values
//	required BYTE_ARRAY     dictionary                 RLE_DICTIONARY (8)        indices into the chunk's dictionary page
//	required BYTE_ARRAY     PLAIN                      PLAIN (0)                 length-prefixed byte arrays
//	required BYTE_ARRAY     DELTA_LENGTH_BYTE_ARRAY    DELTA_LENGTH_BYTE_ARRAY (6)
//	required INT64          PLAIN                      PLAIN (0)                 8 bytes each
//	required INT64          DELTA_BINARY_PACKED        DELTA_BINARY_PACKED (5)
//	required INT32          DELTA_BINARY_PACKED        DELTA_BINARY_PACKED (5)
//	required BOOLEAN        PLAIN                      PLAIN (0)                 a bit each
//	optional, any type      dictionary                 RLE_DICTIONARY (8)        none: an empty dictionary
//	optional, any type      PLAIN                      PLAIN (0)                 none
//
// In a Parquet 1.0 file (parquet.V1_0) RLE_DICTIONARY is PLAIN_DICTIONARY
// (2), as in arrow-go's writer. NewWriter refuses any other column, and
// properties that ask for data pages V2, encryption, page indexes, bloom
// filters, no statistics, or a dictionary with arrow-go's cost fallback
// (on by default for an uncompressed column: arrow-go's writer may then
// write the column PLAIN). A dictionary is never given up for PLAIN, as
// arrow-go's writer does once it passes the properties'
// DictionaryPageSizeLimit: a column of many distinct values should not
// have one.
//
// # File
//
// All integers outside Thrift structures are little-endian. A file is
//
//	size  field
//	4     magic "PAR1"
//	...   row group 0: column chunk 0, column chunk 1, ..., in schema order
//	...   row group 1, ...: none in a file of no rows
//	L     FileMetaData, Thrift compact
//	4     L, uint32
//	4     magic "PAR1"
//
// A row group holds the properties' MaxRowGroupLength rows; the last
// fewer. A column chunk is a dictionary page (in a dictionary column's
// chunk only) and then its data pages, each a PageHeader and the page's
// body:
//
//	size                   field
//	h                      PageHeader, Thrift compact
//	compressed_page_size   body: the page's bytes, compressed as the column's codec says
//
// A column's data page is cut when its values reach the properties'
// DataPageSize bytes (before compression; the writer looks every 1,024
// rows, so a page may pass it by up to 1,023 rows), and at the end of the
// row group. The size counted is the values' encoded bytes: the finished
// 128-value blocks of DELTA_BINARY_PACKED, 4 bytes an index of a
// dictionary column, the whole buffer of the other encodings. The pages
// of different columns are cut at different rows; a page holds whole
// rows.
//
// # Thrift compact protocol
//
// The page headers and the footer are Thrift structures in the compact
// protocol. A field is a header byte, (id delta << 4) | type, the id
// delta from the struct's previous field (1 to 15, which is all this
// package's structures need), then the value; a struct ends with a byte
// 00. The types:
//
//	type  name            value
//	1, 2  bool            none: type 1 is true, type 2 false
//	4     i16             zigzag ULEB128 varint
//	5     i32             zigzag ULEB128 varint (an enum too)
//	6     i64             zigzag ULEB128 varint
//	8     binary          ULEB128 length, then the bytes (a string too)
//	9     list            (size << 4) | element type when size < 15, else f0 | element type then ULEB128 size; then the elements
//	12    struct          its fields, then 00
//
// So 15 04 is an i32 field of id one more than the last's, of value 2;
// 2c a struct field of id two more.
//
// # Page header
//
// PageHeader (parquet.thrift), as arrow-go's page writer writes it:
//
//	id  field                    type    value
//	1   type                     i32     0 DATA_PAGE, 2 DICTIONARY_PAGE
//	2   uncompressed_page_size   i32     the body's bytes before compression
//	3   compressed_page_size     i32     the body's bytes in the file
//	4   crc                      -       not written
//	5   data_page_header         struct  a data page's DataPageHeader
//	7   dictionary_page_header   struct  a dictionary page's DictionaryPageHeader
//
// A data page's header begins 15 00 15 u 15 c 2c, a dictionary page's
// 15 04 15 u 15 c 4c, u and c the sizes as zigzag varints. The
// DataPageHeader of a data page V1:
//
//	id  field                        type    value
//	1   num_values                   i32     the page's values, nulls included: its rows
//	2   encoding                     i32     the column's (see Columns)
//	3   definition_level_encoding    i32     3 RLE
//	4   repetition_level_encoding    i32     3 RLE
//	5   statistics                   struct  the page's Statistics
//
// The DictionaryPageHeader:
//
//	id  field        type  value
//	1   num_values   i32   the dictionary's values
//	2   encoding     i32   0 PLAIN (2 PLAIN_DICTIONARY in a Parquet 1.0 file)
//	3   is_sorted    bool  false: the byte 12 (id delta 1, type 2)
//
// # Statistics
//
// The Statistics of a page and of a column chunk (ColumnMetaData field
// 12, the pages' merged), as arrow-go's column writers make them:
//
//	id  field        type    value
//	1   max          binary  max_value again, for a signed sort order only
//	2   min          binary  min_value again, for a signed sort order only
//	3   null_count   i64     the nulls
//	5   max_value    binary  the greatest value
//	6   min_value    binary  the least value
//
// A value is its PLAIN bytes without a length: 8 bytes for INT64, 4 for
// INT32, 1 (00 or 01) for BOOLEAN, the bytes of a BYTE_ARRAY. BOOLEAN,
// INT32 and INT64 without an unsigned annotation sort signed; INT32 and
// INT64 annotated unsigned (UINT_32, UINT_64) compare as unsigned
// integers, BYTE_ARRAY bytewise as unsigned bytes, and both write no
// legacy max and min. A min or max longer than the properties'
// MaxStatsSize (4,096 bytes by default) is left out, each on its own. A
// page of an optional column has null_count only (its rows); distinct
// count (4) is never written.
//
// # Page bodies
//
// A body before compression is, for a required column, the values
// alone: no levels. ULEB128 is the unsigned varint of encoding/binary
// (7 bits a byte, least significant first, high bit set on all but the
// last byte), zigzag ULEB128 the signed one ((v << 1) ^ (v >> 63)).
//
// PLAIN INT64: each value in 8 bytes; a uint64 column's values are their
// bits.
//
// PLAIN BOOLEAN: ceil(n/8) bytes, value i in bit i%8 (least significant
// first) of byte i/8, the last byte's unused bits 0.
//
// PLAIN BYTE_ARRAY, a value after another:
//
//	size  field
//	4     length l, uint32
//	l     the bytes
//
// DELTA_BINARY_PACKED, of INT64 and INT32 values (Encodings.md):
//
//	size       field
//	2          block size in values, ULEB128 128: 80 01
//	1          miniblocks a block, ULEB128 4: 04
//	varint     n, the values, ULEB128
//	varint     the first value, zigzag ULEB128
//	blocks     one for every 128 deltas after the first value, the last partial; none for n <= 1
//
// where a delta is a value less the one before it, wrapping around in
// int64 arithmetic (in int32 arithmetic in an INT32 column, sign
// extended), and a block of up to 128 deltas is
//
//	size       field
//	varint     min delta, the block's least delta, zigzag ULEB128
//	4          the bit width of each of its 4 miniblocks, 0 to 64; 0 for a miniblock without deltas
//	4*w each   the miniblocks that hold deltas: 32 values each, delta less min delta, bit-packed
//
// Bit-packed values at width w (here and in the hybrid below) are packed
// least significant bit first: value i takes bits i*w to i*w+w-1 of the
// run, bit b of the run being bit b%8 of its byte b/8. A miniblock is 32
// values, 4*w bytes, the last one holding deltas padded with zeros; a
// miniblock of width 0 takes no bytes, and the miniblocks past the last
// delta none either.
//
// DELTA_LENGTH_BYTE_ARRAY: the n values' lengths, DELTA_BINARY_PACKED as
// INT32 values, then the n values' bytes one after another.
//
// RLE_DICTIONARY: the indices of the values in the chunk's dictionary, as
// the RLE / bit-packed hybrid of Encodings.md behind a byte of bit width
// (and without the hybrid's 4-byte length):
//
//	size       field
//	1          w, the indices' bit width: 0 for an empty dictionary, 1 for one value, else the bits of d-1 for the d values the dictionary holds when the page is cut
//	runs       one RLE run when every index of the page is the same, else bit-packed runs
//
//	RLE run         varint  n << 1, ULEB128: n indices, the page's
//	                ceil(w/8)  the index, little-endian
//	bit-packed run  varint  (g << 1) | 1, ULEB128: g groups of 8 indices, g at most 63, so one byte
//	                g*w     8*g indices bit-packed at width w, the last run's last group padded with index 0
//
// A page of n indices takes ceil(n/504) bit-packed runs. A reader stops at
// num_values.
//
// Optional column (every row null): the definition levels, RLE at bit
// width 1 behind their length, and no values:
//
//	size    field
//	4       the levels' bytes that follow, uint32: the size of the varint, plus 1
//	varint  n << 1, ULEB128: one RLE run of n levels
//	1       00: the level, 0 (null)
//	1       00: a dictionary column's index bit width, for no indices (dictionary columns only)
//
// The dictionary page's body: the chunk's distinct values in the order
// they first came, PLAIN (a 4-byte length, then the bytes, each);
// num_values of them. An optional column's dictionary page is empty: 0
// values, 0 bytes before compression.
//
// # Compression
//
// The body of every page, dictionary page included, is compressed alone
// with the column's codec at its level (the properties'
// CompressionFor and CompressionLevelFor), through the codec
// compress.GetCodec returns: whatever codec a program registered for it
// (compress.RegisterCodec), else arrow-go's own. The page header is not
// compressed. The bodies are:
//
//	codec         body
//	UNCOMPRESSED  the bytes as they are
//	SNAPPY        a Snappy block (not the framing format): ULEB128 length, then the elements
//	GZIP          a gzip member (RFC 1952)
//	BROTLI        a Brotli stream (RFC 7932)
//	ZSTD          a Zstandard frame (RFC 8878): magic 28 b5 2f fd, frame header, blocks and (arrow-go's codec) a 4-byte content checksum
//	LZ4_RAW       an LZ4 block, without LZ4's frame
//
// uncompressed_page_size is the body's size before, compressed_page_size
// after.
//
// # Column chunk metadata and footer
//
// arrow-go's metadata builders write them, from what the package hands
// them. Each chunk's ColumnChunk is in the footer: file_offset (2, the
// offset of its first page) and meta_data (3), a ColumnMetaData:
//
//	id  field                     type            value
//	1   type                      i32             the physical type
//	2   encodings                 list<i32>       a dictionary chunk's RLE_DICTIONARY (8), PLAIN (0), RLE (3) (1.0: 2, 0, 3); another's its encoding, RLE (3)
//	3   path_in_schema            list<binary>    the column's path
//	4   codec                     i32             the compression
//	5   num_values                i64             the chunk's values, nulls included
//	6   total_uncompressed_size   i64             the pages' bytes, headers included, before compression
//	7   total_compressed_size     i64             the pages' bytes, headers included, in the file
//	9   data_page_offset          i64             the offset of the first data page
//	11  dictionary_page_offset    i64             the offset of the dictionary page (dictionary chunks only)
//	12  statistics                struct          the chunk's Statistics
//	13  encoding_stats            list<struct>    PageEncodingStats: 1 page_type, 2 encoding, 3 count, for the dictionary page and for the data pages
//
// After a chunk's pages arrow-go's page writer also serializes the
// ColumnChunk into a buffered Thrift transport that it never flushes:
// nothing of it reaches the file, unless it is over the buffer's 4,096
// bytes (min and max statistics of long byte arrays), when its first
// whole 4,096-byte buffers do. No offset points at those bytes, which
// arrow-go's own writer leaves in the same place; readers skip them.
//
// The footer's FileMetaData:
//
//	id  field                type             value
//	1   version              i32              1 for Parquet 1.0, 2 for 2.x
//	2   schema               list<struct>     the SchemaElements of the schema given, root first
//	3   num_rows             i64              the rows
//	4   row_groups           list<struct>     a RowGroup each: 1 columns (the ColumnChunks), 2 total_byte_size, 3 num_rows, 4 sorting_columns (the properties'; none by default), 5 file_offset, 6 total_compressed_size, 7 ordinal (i16)
//	5   key_value_metadata   list<struct>     the key-value metadata given, when there is some
//	6   created_by           binary           the properties' CreatedBy
//	7   column_orders        list<struct>     TYPE_ORDER for every column
//
// # Example
//
// The file of three rows of five columns: game, a BYTE_ARRAY with a
// dictionary ("clobber" each row); key, an INT64 annotated UINT_64,
// DELTA_BINARY_PACKED (5, 7, 9); n, an INT64, PLAIN (0, -1, -2); b, a
// BOOLEAN (false, true, false); v, an optional INT32 (null each row). No
// compression. It begins (TestDocExample checks these bytes):
//
//	offset  bytes                                   field
//	0000    50 41 52 31                             magic "PAR1"
//	        game's dictionary page:
//	0004    15 04 15 16 15 16                       DICTIONARY_PAGE, 11 bytes, 11 bytes
//	000a    4c 15 02 15 00 12 00                    dictionary_page_header: 1 value, PLAIN, not sorted
//	0011    00                                      end of PageHeader
//	0012    07 00 00 00 63 6c 6f 62 62 65 72        "clobber"
//	        game's data page:
//	001d    15 00 15 06 15 06                       DATA_PAGE, 3 bytes, 3 bytes
//	0023    2c 15 06 15 10 15 06 15 06              data_page_header: 3 values, RLE_DICTIONARY, RLE, RLE
//	002c    1c 36 00                                statistics: null_count 0
//	002f    28 07 63 6c 6f 62 62 65 72              max_value "clobber"
//	0038    18 07 63 6c 6f 62 62 65 72 00 00 00     min_value "clobber"; end of Statistics, DataPageHeader, PageHeader
//	0044    01 06 00                                bit width 1; RLE run of 3; index 0
//	        key's data page:
//	0047    15 00 15 14 15 14                       DATA_PAGE, 10 bytes, 10 bytes
//	004d    2c 15 06 15 0a 15 06 15 06              3 values, DELTA_BINARY_PACKED, RLE, RLE
//	0056    1c 36 00                                statistics: null_count 0 (unsigned: no legacy max, min)
//	0059    28 08 09 00 00 00 00 00 00 00           max_value 9
//	0063    18 08 05 00 00 00 00 00 00 00 00 00 00  min_value 5; ends
//	0070    80 01 04 03 0a                          block 128, 4 miniblocks, 3 values, first 5
//	0075    04 00 00 00 00                          min delta 2; widths 0, 0, 0, 0: no miniblock bytes
//	        n's data page:
//	007a    15 00 15 30 15 30                       DATA_PAGE, 24 bytes, 24 bytes
//	0080    2c 15 06 15 00 15 06 15 06              3 values, PLAIN, RLE, RLE
//	0089    1c 18 08 00 00 00 00 00 00 00 00        statistics: max 0 (signed: the legacy field)
//	0094    18 08 fe ff ff ff ff ff ff ff            min -2
//	009e    16 00                                   null_count 0
//	00a0    28 08 00 00 00 00 00 00 00 00           max_value 0
//	00aa    18 08 fe ff ff ff ff ff ff ff 00 00 00  min_value -2; ends
//	00b7    00 00 00 00 00 00 00 00                 0
//	00bf    ff ff ff ff ff ff ff ff                 -1
//	00c7    fe ff ff ff ff ff ff ff                 -2
//	        b's data page:
//	00cf    15 00 15 02 15 02                       DATA_PAGE, 1 byte, 1 byte
//	00d5    2c 15 06 15 00 15 06 15 06              3 values, PLAIN, RLE, RLE
//	00de    1c 18 01 01 18 01 00 16 00              statistics: max true, min false, null_count 0
//	00e7    28 01 01 18 01 00 00 00 00              max_value true, min_value false; ends
//	00f0    02                                      false, true, false: bit 1
//	        v's data page:
//	00f1    15 00 15 0c 15 0c                       DATA_PAGE, 6 bytes, 6 bytes
//	00f7    2c 15 06 15 00 15 06 15 06              3 values, PLAIN, RLE, RLE
//	0100    1c 36 06 00 00 00                       statistics: null_count 3; ends
//	0106    02 00 00 00 06 00                       2 bytes of levels: RLE run of 3 levels 0
//	010c    15 04 19 6c ...                         FileMetaData: version 2, schema of 6 elements, ...
package parquetpages
