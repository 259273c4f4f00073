package jobs

import "fmt"

// The names of a run's blobs in the store, all under RUN/. This file is
// their one spelling: the kernels write them, the coordinator deletes by
// their prefixes.
//
//	RUN/tTTTT/bBBBBB/start.frag               the start, the one input of tier 0
//	RUN/tTTTT/sSSSSS-pPPP.frag                positions of tier T, part P of the successors of shard S of tier T-1
//	RUN/tTTTT/positions/sSSSSS-pPPP.frag      images gathered for shard S's positions table part, spilled
//	RUN/pieces/tTTTT/KIND-sSSSSS-pPPP.frag    piece keys and records of shard S of tier T, by reduce bucket, spilled
//	RUN/pieces/tTTTT/sSSSSS.frag              the last piece keys and records of shard S of tier T, every kind, by reduce bucket
//	RUN/pieces/compact/tTTTT/rBBBBB.frag      reduce bucket B's piece fragments of the tiers up to T, compacted
//	RUN/pieces/images/rBBBBB-pPPP.frag        the pieces of reduce bucket B's orbits, spilled to be sorted
//	RUN/classes/rBBBBB-pPPP.frag              class records of reduce bucket B, by class shard
//	RUN/tables/pieces/part-BBBBB.parquet      pieces table part of reduce bucket B
//	RUN/tables/positions/tTTTT/part-SSSSS.parquet  positions table part of shard S of tier T
//
// Every blob a tier job reads as input lies under TierPrefix of its tier,
// and so does every blob it spills only for itself; nothing under it is
// read once the tier is done, so the coordinator deletes it then.

// RunPrefix is the prefix of every blob of run: deleting it removes the
// run from the store.
func RunPrefix(run string) string { return run + "/" }

// TierPrefix is the prefix of the position fragments of tier of run
// (the inputs of the tier's jobs) and of what those jobs spill for
// themselves.
func TierPrefix(run string, tier int) string { return fmt.Sprintf("%s/t%04d/", run, tier) }

// startBlob names the fragment holding the start, for shard of tier 0.
func startBlob(run string, shard int) string {
	return fmt.Sprintf("%sb%05d/start.frag", TierPrefix(run, 0), shard)
}

// successorBlob names part of the successors that shard of tier-1 writes
// for tier.
func successorBlob(run string, tier, shard, part int) string {
	return fmt.Sprintf("%ss%05d-p%03d.frag", TierPrefix(run, tier), shard, part)
}

// positionImagesBlob names part of the images a tier job spills for its
// positions table part.
func positionImagesBlob(run string, tier, shard, part int) string {
	return fmt.Sprintf("%spositions/s%05d-p%03d.frag", TierPrefix(run, tier), shard, part)
}

// pieceKeysBlob names part of the piece fragments of kind k that shard of
// tier writes.
func pieceKeysBlob(run string, tier int, k Kind, shard, part int) string {
	return fmt.Sprintf("%s%s-s%05d-p%03d.frag", PieceTierPrefix(run, tier), k, shard, part)
}

// pieceLastBlob names the blob of the piece keys and records of every
// kind that shard of tier writes as it ends.
func pieceLastBlob(run string, tier, shard int) string {
	return fmt.Sprintf("%ss%05d.frag", PieceTierPrefix(run, tier), shard)
}

// PieceTierPrefix is the prefix of the piece fragments that the jobs of
// tier of run write; the coordinator deletes it once they are compacted.
func PieceTierPrefix(run string, tier int) string { return fmt.Sprintf("%s/pieces/t%04d/", run, tier) }

// CompactPrefix is the prefix of the runs of the compactions after tier of
// run.
func CompactPrefix(run string, tier int) string {
	return fmt.Sprintf("%s/pieces/compact/t%04d/", run, tier)
}

// compactBlob names the runs a compaction of bucket after tier writes.
func compactBlob(run string, tier, bucket int) string {
	return fmt.Sprintf("%sr%05d.frag", CompactPrefix(run, tier), bucket)
}

// pieceImagesPrefix is the prefix of the runs the piece job of bucket
// spills.
func pieceImagesPrefix(run string, bucket int) string {
	return fmt.Sprintf("%s/pieces/images/r%05d-", run, bucket)
}

// pieceImagesBlob names part of the pieces a piece job spills to sort them.
func pieceImagesBlob(run string, bucket, part int) string {
	return fmt.Sprintf("%sp%03d.frag", pieceImagesPrefix(run, bucket), part)
}

// classBlob names part of the class records a piece job writes.
func classBlob(run string, bucket, part int) string {
	return fmt.Sprintf("%s/classes/r%05d-p%03d.frag", run, bucket, part)
}

// piecesTableBlob names the pieces table part of a reduce bucket.
func piecesTableBlob(run string, bucket int) string {
	return fmt.Sprintf("%s/tables/pieces/part-%05d.parquet", run, bucket)
}

// positionsTableBlob names the positions table part of shard of tier.
func positionsTableBlob(run string, tier, shard int) string {
	return fmt.Sprintf("%s/tables/positions/t%04d/part-%05d.parquet", run, tier, shard)
}

// ValueKeysName names the piece keys a value job of shard of level values.
func ValueKeysName(run string, level, shard int) string {
	return fmt.Sprintf("%s/values/level-%04d/keys-%05d", run, level, shard)
}

// valueTableName names the value table a value job of shard of level
// writes.
func valueTableName(run string, level, shard int) string {
	return fmt.Sprintf("%s/values/level-%04d/table-%05d", run, level, shard)
}
