package coordinator

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/schema"
)

// ErrNoSpace marks a run stopped before a stage whose working data would
// not fit in the free space of one of its directories.
var ErrNoSpace = errors.New("not enough free space")

// NoSpaceError is a stage that would not fit: the estimate of the bytes it
// writes, and the free bytes of the directory that cannot hold them.
type NoSpaceError struct {
	Stage      string
	Dir        string
	Need, Free uint64
}

func (e *NoSpaceError) Error() string {
	return fmt.Sprintf("%s needs about %s of working data in %s, which has %s free: free some space there and run the same command again to resume",
		e.Stage, ByteSize(e.Need), e.Dir, ByteSize(e.Free))
}

func (e *NoSpaceError) Unwrap() error { return ErrNoSpace }

// ByteSize writes n bytes in binary units, e.g. 1.5 GiB.
func ByteSize(n uint64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := uint64(unit), 0
	for m := n / unit; m >= unit && exp < 5; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// spaceMargin is the factor by which a stage's estimate is raised before
// it is compared with the free space: the estimate extrapolates from the
// tier before, and later tiers of these games write a little more per
// record than earlier ones.
const spaceMargin = 1.25

// spaceBudget checks, before each tier and before the reductions, that
// the directories holding the run's working data have room for what the
// stage will write. What a tier writes (its successors' fragments, its
// piece records, its positions parts) is estimated from the tier before:
// the bytes it wrote per successor record it read, times the records the
// coming tier reads. The piece reduction writes the pieces table and the
// runs its jobs spill, estimated per row (pieceReductionBytes).
type spaceBudget struct {
	dirs []string
	// free reports the bytes free in a directory; ok is false when the
	// filesystem cannot tell.
	free func(dir string) (free uint64, ok bool, err error)
	// perRecord is the bytes the last tier wrote per record it read.
	perRecord float64
}

// spaceDirs are the directories whose free space the run checks.
func (cfg *Config) spaceDirs() []string {
	if cfg.NoSpaceCheck {
		return nil
	}
	dirs := slices.Clone(cfg.SpaceDirs)
	if r, ok := cfg.Store.(interface{ Root() string }); ok && !slices.Contains(dirs, r.Root()) {
		dirs = append(dirs, r.Root())
	}
	return dirs
}

func newSpaceBudget(dirs []string) *spaceBudget {
	return &spaceBudget{dirs: dirs, free: freeBytes}
}

// check fails with a *NoSpaceError when a directory has less free space
// than need (raised by spaceMargin).
func (b *spaceBudget) check(stage string, need uint64) error {
	return b.checkFloor(stage, uint64(float64(need)*spaceMargin))
}

// checkFloor fails with a *NoSpaceError when a directory has less free
// space than need.
func (b *spaceBudget) checkFloor(stage string, need uint64) error {
	if need == 0 {
		return nil
	}
	for _, d := range b.dirs {
		free, ok, err := b.free(d)
		if err != nil {
			return fmt.Errorf("free space of %s: %w", d, err)
		}
		if ok && free < need {
			return &NoSpaceError{Stage: stage, Dir: d, Need: need, Free: free}
		}
	}
	return nil
}

// checkTier checks the room for tier t, which reads incoming records,
// and for the compactions that run beside it, which write at most the
// compacting bytes they read.
func (b *spaceBudget) checkTier(t int, incoming, compacting uint64) error {
	return b.check(fmt.Sprintf("tier %d", t), uint64(b.perRecord*float64(incoming))+compacting)
}

// learn records what a finished tier read and wrote.
func (b *spaceBudget) learn(read uint64, written uint64) {
	if read > 0 {
		b.perRecord = float64(written) / float64(read)
	}
}

// pieceTableBytes and pieceRunBytes are what the piece reduction writes
// per row of the pieces table: the row itself (18-19 bytes of Parquet on
// Clobber 4x5 and 5x5 with zstd), and the row's share of the runs a piece
// job spills to sort its pieces (23-24 bytes), each rounded up.
// pieceTableFastBytes is the row with a faster codec than zstd (snappy
// and LZ4_RAW: files 1.39 to 1.69 times zstd's on Clobber and Amazons
// 4x5), rounded up.
const (
	pieceTableBytes     = 24
	pieceTableFastBytes = 42
	pieceRunBytes       = 24
)

// pieceReductionBytes estimates what the piece reduction of jobs piece
// jobs, parallel of them at once, has written at its peak: a row per piece
// of the orbit of each piece record (at most the group's size of them;
// repeats of a record in fragments not yet compacted count again, so this
// errs high), pieceTableBytes each; the runs of the jobs running at once,
// which each job deletes as it ends, pieceRunBytes a row of their share
// of the rows; and for the class records as many bytes again as the piece
// fragments hold. A parallel of zero counts every job's runs. A table
// written with another codec than zstd counts pieceTableFastBytes a row.
func pieceReductionBytes(pieceBlobs []jobs.Blob, groupSize, jobCount, parallel int, codec schema.Codec) uint64 {
	var records uint64
	for _, b := range pieceBlobs {
		if b.Kind == jobs.KindPieces {
			records += b.Count
		}
	}
	rows := records * uint64(groupSize)
	runs := rows * pieceRunBytes
	if jobCount > 0 && parallel > 0 && parallel < jobCount {
		runs = runs * uint64(parallel) / uint64(jobCount)
	}
	tableBytes := uint64(pieceTableBytes)
	if piecesCodecName(codec) != "" {
		tableBytes = pieceTableFastBytes
	}
	return rows*tableBytes + runs + blobBytes(pieceBlobs)
}

// A published run's peak working data, from which a fresh run of the same
// board from the standard start is refused before tier 0 when a directory
// cannot hold half of it. Half, because a later census may need less than
// the one that was measured: the refusal waits for a clear shortfall, and
// the estimates before each tier do the rest. The peaks are those of
// results/README.md.
var publishedPeaks = []struct {
	game, board string
	peak        uint64
	source      string
}{
	// 39.4 GB sampled, of which 2.4 GB were runs the piece jobs now delete.
	{"clobber", "5x5", 37_000_000_000, "results/clobber-5x5"},
}

// projectedNeed is the least working data a fresh run of game on board
// (rows x cols, either way round) from the standard start is expected to
// need, and where the projection comes from; zero when there is none.
func projectedNeed(game string, rows, cols int, start string) (uint64, string) {
	if start != "" {
		return 0, ""
	}
	for _, p := range publishedPeaks {
		if p.game == game && (p.board == fmt.Sprintf("%dx%d", rows, cols) || p.board == fmt.Sprintf("%dx%d", cols, rows)) {
			return p.peak / 2, fmt.Sprintf("the run (at least half the %s peak of the published run in %s)", ByteSize(p.peak), p.source)
		}
	}
	return 0, ""
}

// checkProjection refuses, before tier 0 of a fresh run, a board whose
// projected need does not fit: unlike a stage's estimate it is not raised
// by the margin, being a floor.
func (b *spaceBudget) checkProjection(game string, rows, cols int, start string) error {
	need, stage := projectedNeed(game, rows, cols, start)
	if need == 0 {
		return nil
	}
	return b.checkFloor(stage, need)
}

// blobBytes is the bytes of the fragments bs.
func blobBytes(bs []jobs.Blob) uint64 {
	var n uint64
	for _, b := range bs {
		n += uint64(b.Size)
	}
	return n
}

// blobRecords is the records the blobs bs hold.
func blobRecords(bs []jobs.Blob) uint64 {
	var n uint64
	for _, b := range bs {
		n += b.Count
	}
	return n
}

// begun reports whether a job of the batch has a done-record: the batch was
// started by an earlier start of the run, which checked its room then, and
// has already written some of what the estimate counts.
func (s state) begun(ctx context.Context, batch []jobs.Job) (bool, error) {
	for _, j := range batch {
		var done bool
		err := retry(ctx, func(ctx context.Context) error {
			var err error
			_, done, err = s.b.Done(ctx, j.Key())
			return err
		})
		if err != nil || done {
			return done, err
		}
	}
	return false, nil
}

// checkRoom runs check before a batch that no earlier start of the run has
// begun; in a run that is not resumed, none has.
func checkRoom(ctx context.Context, st state, resumed bool, b *spaceBudget, batch []jobs.Job, check func() error) error {
	if len(b.dirs) == 0 {
		return nil
	}
	if !resumed {
		return check()
	}
	begun, err := st.begun(ctx, batch)
	if err != nil || begun {
		return err
	}
	return check()
}
