package all

import (
	"slices"
	"testing"

	"github.com/census-cgt/census/games"
)

// TestGroupImages checks that the images of a position under the start's
// symmetries are its whole orbit: as many distinct keys as the
// orbit-stabiliser count says, the key itself first, each in the same
// tier and with the same representative, which is the least of them.
func TestGroupImages(t *testing.T) {
	tests := []struct{ game, board string }{
		{"clobber", "4x4"}, {"clobber", "3x4"}, {"domineering", "4x4"}, {"domineering", "2x3"}, {"amazons", "3x3"}, {"amazons", "3x4"},
		{"clobber", "4x5"}, {"clobber", "3x3"}, {"domineering", "5x5"}, {"domineering", "3x5"},
	}
	for _, tt := range tests {
		t.Run(tt.game+"-"+tt.board, func(t *testing.T) {
			g, err := New(tt.game, tt.board, "")
			if err != nil {
				t.Fatal(err)
			}
			gr := games.StartGroup(g, true)
			sizes := map[uint64]int{}
			// The first three tiers, breadth first.
			tier := []uint64{g.Start()}
			var images []uint64
			for range 3 {
				var next []uint64
				for _, pos := range tier {
					images = gr.Images(pos, images[:0])
					if images[0] != pos {
						t.Fatalf("images of %s begin with %s", g.Format(pos), g.Format(images[0]))
					}
					if uint64(len(images)) != gr.Orbit(pos) {
						t.Fatalf("%s has %d images, orbit of %d", g.Format(pos), len(images), gr.Orbit(pos))
					}
					// The orbit one map at a time, as KeyMap.Apply moves
					// the squares.
					var want []uint64
					for _, m := range g.KeyMaps() {
						if m.Apply(g.Start()) == g.Start() {
							want = append(want, m.Apply(pos))
						}
					}
					slices.Sort(want)
					want = slices.Compact(want)
					sorted := slices.Clone(images)
					slices.Sort(sorted)
					if !slices.Equal(sorted, want) {
						t.Fatalf("images of %s are %v, the maps give %v", g.Format(pos), sorted, want)
					}
					if c, o := gr.CanonOrbit(pos); c != want[0] || o != uint64(len(want)) {
						t.Fatalf("CanonOrbit(%s) = %d, %d; want %d, %d", g.Format(pos), c, o, want[0], len(want))
					}
					if c := gr.Canon(pos); c != sorted[0] {
						t.Fatalf("Canon(%s) = %s, the least image is %s", g.Format(pos), g.Format(c), g.Format(sorted[0]))
					}
					if len(slices.Compact(sorted)) != len(images) {
						t.Fatalf("images of %s repeat: %v", g.Format(pos), images)
					}
					for _, im := range images {
						if gr.Canon(im) != gr.Canon(pos) || g.Tier(im) != g.Tier(pos) {
							t.Fatalf("image %s of %s is in another orbit or tier", g.Format(im), g.Format(pos))
						}
					}
					sizes[uint64(len(images))]++
					next = g.Expand(pos, g.Pieces(pos, nil), next, games.NewMoveStats(false), 1)
				}
				slices.Sort(next)
				tier = slices.Compact(next)
			}
			if gr.Size() > 1 && len(sizes) < 2 {
				t.Errorf("orbit sizes %v: the walk met no position of a smaller orbit than another", sizes)
			}
		})
	}
}
