package coordinator

import (
	"strings"

	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/schema"
)

// ID is the ID of the run cfg describes: cfg.Run when set, else RunID of
// what determines its outputs, with "-kept" when the run keeps its
// positions (its tier jobs write more) and the pieces codec's name when it
// is not zstd (its pieces table differs), so that the same command names
// the same run. It fails for a game or board census does not know.
func (cfg Config) ID() (string, error) {
	if cfg.Run != "" {
		return cfg.Run, nil
	}
	id, err := RunID(cfg.Game, cfg.Board, cfg.Start, cfg.Shards, cfg.NoSymmetry, cfg.Positions)
	if err != nil {
		return "", err
	}
	if cfg.Keep {
		id += "-kept"
	}
	if c := piecesCodecName(cfg.PiecesCodec); c != "" {
		id += "-" + c
	}
	return id, nil
}

// KeptOutputs returns the manifest of cfg.Out when it holds the finished
// outputs of the run cfg describes, with its kept positions
// (CheckStageDir): a census whose solve can start from its outputs,
// without running it again. The outputs must be of the run's ID, game,
// board and start, with or without the symmetry reduction and the
// positions table as cfg asks, and, when cfg forces a sharding, with the
// kept positions of that sharding. false when they are not, or are not
// there.
func KeptOutputs(cfg Config) (schema.Manifest, bool) {
	id, err := cfg.ID()
	if err != nil {
		return schema.Manifest{}, false
	}
	g, err := all.New(cfg.Game, cfg.Board, cfg.Start)
	if err != nil {
		return schema.Manifest{}, false
	}
	d, err := CheckStageDir(cfg.Out, SolveStage)
	m, idx := d.Manifest, d.Kept
	if err != nil || m.Run != id || m.Game != g.Name() || m.Board != g.Board().String() || m.Start != g.Format(g.Start()) ||
		idx.NoSymmetry != cfg.NoSymmetry || hasPositions(m) != cfg.Positions {
		return m, false
	}
	for _, kt := range idx.Tiers {
		if cfg.Shards > 0 && kt.Shards != cfg.Shards {
			return m, false
		}
	}
	return m, true
}

// hasPositions tells whether the outputs of m hold a positions table.
func hasPositions(m schema.Manifest) bool {
	for _, f := range m.Files {
		if strings.HasPrefix(f.Path, schema.PositionsDir+"/") {
			return true
		}
	}
	return false
}
