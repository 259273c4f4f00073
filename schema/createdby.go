package schema

import (
	"runtime/debug"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
)

// censusVersion is the census version the files name; see SetVersion.
var censusVersion atomic.Pointer[string]

// SetVersion sets the census version that CreatedBy, and so every Parquet
// file written afterwards, names. The census command sets its own version
// before it writes anything; until then the version is the main module's
// from the build information, or "dev".
func SetVersion(v string) { censusVersion.Store(&v) }

// CreatedBy is the created_by of every Parquet file census writes: census
// and its version, then the Parquet library and its version, e.g.
// "census v1.4.0 (arrow-go parquet v18.8.0)". arrow-go's own default,
// "parquet-go version 18.8.0", names another library to readers that
// look at it (and some do, to work around known writer bugs).
func CreatedBy() string {
	return "census " + CensusVersion() + " (arrow-go parquet v" + arrow.PkgVersion + ")"
}

// CensusVersion is the census version CreatedBy names.
func CensusVersion() string {
	if v := censusVersion.Load(); v != nil {
		return *v
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
