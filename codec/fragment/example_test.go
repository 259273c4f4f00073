package fragment_test

import (
	"bytes"
	"fmt"

	"github.com/census-cgt/census/codec/fragment"
	"github.com/census-cgt/census/games"
)

func ExampleWriteKeys() {
	var buf bytes.Buffer
	h := fragment.Header{Kind: fragment.KindPositions, Game: "clobber", Rows: 2, Cols: 2, Tier: 1}
	info, err := fragment.WriteKeys(&buf, h, []uint64{0, 1, 300})
	if err != nil {
		panic(err)
	}
	fmt.Printf("% x\n%d bytes, crc32c %08x\n", buf.Bytes(), info.Size, info.Sum)
	// Output:
	// 43 4e 53 46 01 01 02 02 07 63 6c 6f 62 62 65 72 01 00 00 00 03 00 00 00 00 00 00 00 00 01 ab 02 b0 d9 dd 5d 46 53 4e 43
	// 40 bytes, crc32c 5dddd9b0
}

func ExampleWritePieces() {
	var buf bytes.Buffer
	h := fragment.Header{Kind: fragment.KindPieces, Game: "clobber", Rows: 2, Cols: 2}
	_, err := fragment.WritePieces(&buf, h, []fragment.Piece{
		{Key: games.PieceKey{Hi: 0x102, Lo: 5}, Positions: 3, FirstTier: 1},
		{Key: games.PieceKey{Hi: 0x102, Lo: 9}, Positions: 1, FirstTier: 2},
		{Key: games.PieceKey{Hi: 0x201, Lo: 3}, Positions: 200, FirstTier: 2},
	})
	if err != nil {
		panic(err)
	}
	// The payload: between the header of 28 bytes and the trailer.
	fmt.Printf("% x\n", buf.Bytes()[28:buf.Len()-8])
	// Output:
	// 82 02 05 03 01 00 04 01 02 ff 01 03 c8 01 02
}
