package main

import (
	"log/slog"
	"os"
)

// newLogger logs warnings and errors on standard error, or nothing with
// --quiet; CENSUS_LOG=debug or info shows more.
func newLogger(quiet bool) *slog.Logger {
	level := slog.LevelWarn
	switch os.Getenv("CENSUS_LOG") {
	case "debug":
		level = slog.LevelDebug
	case "info":
		level = slog.LevelInfo
	}
	if quiet && level == slog.LevelWarn {
		level = slog.LevelError
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
}
