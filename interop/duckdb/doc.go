// Package duckdb checks that census's output tables read in DuckDB as the
// "Querying the results" section of docs/outputs.md says they do.
//
// It is a module of its own because DuckDB is a C++ library linked through
// cgo: the census module itself stays free of cgo, and only this module's
// tests pay for the DuckDB build. The tests build the census binary from the
// parent module, run small censuses, run every SQL block of that page's
// section against them and check each answer against summary.json and the
// Parquet files read independently.
package duckdb
