// Package schema defines what a census run leaves on disk: the layout of its
// output directory (layout.go), the summary, the per-tier table, the pieces
// and positions tables, their Arrow schemas, and the Parquet writers and
// readers for them. COLUMNS.md documents every column.
package schema
