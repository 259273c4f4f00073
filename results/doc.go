// Package results holds censuses published with the project: each run's
// summary.json and tiers.parquet under GAME-BOARD/, and README.md, whose
// tables and chart its tests regenerate from those summaries.
package results
