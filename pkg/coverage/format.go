package coverage

import (
	"io"
	"path/filepath"
	"strings"
)

// Profile formats [Write] knows.
const (
	FormatLCOV      = "lcov"
	FormatCobertura = "cobertura"
	FormatJSON      = "json"
)

// KnownFormat reports whether [Write] can write format ("" included: the
// file name then decides).
func KnownFormat(format string) bool {
	switch format {
	case "", FormatLCOV, FormatCobertura, FormatJSON:
		return true
	}
	return false
}

// FormatFor is format when given, else what the profile's file name says:
// .json is JSON, .xml Cobertura, standard output ("-") JSON, anything
// else LCOV.
func FormatFor(name, format string) string {
	if format != "" {
		return format
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json":
		return FormatJSON
	case ".xml":
		return FormatCobertura
	}
	if name == "-" {
		return FormatJSON
	}
	return FormatLCOV
}

// Write writes p in format: JSON, Cobertura, else LCOV.
func Write(w io.Writer, format string, p *Profile) error {
	switch format {
	case FormatJSON:
		return WriteJSON(w, p)
	case FormatCobertura:
		return WriteCobertura(w, p)
	}
	return WriteLCOV(w, p)
}
