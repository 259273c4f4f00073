// Package schema defines what a census run leaves on disk: the summary, the
// per-tier table and the pieces table, their Arrow schemas, and the Parquet
// writers and readers for them. COLUMNS.md documents every column.
package schema
