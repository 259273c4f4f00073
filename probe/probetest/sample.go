package probetest

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/solve"
	"github.com/census-cgt/census/tablebase"
)

// Sample draws about n positions of the solved run in dir at random, each
// as a diagram: a stored position of a tablebase file drawn with a chance
// proportional to its positions, then the image of it under a symmetry
// of the start drawn at random (a position as a player would give it, not
// its orbit's representative). It reads files files of the tablebase in
// full; the same seed draws the same positions.
func Sample(dir string, n, files int, seed uint64) ([]string, error) {
	m, err := schema.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	idx, err := schema.ReadTablebaseIndex(dir)
	if err != nil {
		return nil, err
	}
	g, err := all.New(m.Game, m.Board, m.Start)
	if err != nil {
		return nil, err
	}
	var maps []*games.KeyMap
	for _, km := range g.KeyMaps() {
		if !idx.NoSymmetry && km.Apply(g.Start()) == g.Start() || km == g.KeyMaps()[0] {
			maps = append(maps, km)
		}
	}
	var entries []schema.TablebaseFileEntry
	var total uint64
	for _, t := range idx.Tiers {
		for _, e := range t.Files {
			entries = append(entries, e)
			total += e.Count
		}
	}
	if total == 0 {
		return nil, fmt.Errorf("%s: an empty tablebase", dir)
	}
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var out []string
	for range files {
		// A file drawn by its positions, then n/files of its positions.
		x := r.Uint64N(total)
		var e schema.TablebaseFileEntry
		for _, e = range entries {
			if x < e.Count {
				break
			}
			x -= e.Count
		}
		want := make([]uint64, 0, n/files+1)
		for range n/files + 1 {
			want = append(want, r.Uint64N(e.Count))
		}
		slices.Sort(want)
		sh, err := tablebase.Open(filepath.Join(dir, filepath.FromSlash(e.Name)))
		if err != nil {
			return nil, err
		}
		var i uint64
		coding := sh.Header().Coding
		err = sh.All(func(code uint64, _ solve.Record) bool {
			for len(want) > 0 && want[0] == i {
				key := maps[r.IntN(len(maps))].Apply(jobs.TableKey(code, coding))
				out = append(out, g.Format(key))
				want = want[1:]
			}
			i++
			return len(want) > 0
		})
		sh.Close()
		if err != nil {
			return nil, err
		}
	}
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out, nil
}
