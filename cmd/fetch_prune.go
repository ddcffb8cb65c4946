package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"kitsoki/internal/termsafe"
	"kitsoki/pkg/fetch"
)

// pruneResult is one line of fetch-models --prune (one object with --json).
type pruneResult struct {
	Path    string `json:"path"`
	Bytes   int64  `json:"bytes"`
	Removed bool   `json:"removed"`
	Error   string `json:"error,omitempty"`
}

// prunePins removes the cache entries no pin names; an entry another
// process holds stays and is reported. It fails (exit 1) only when a
// removal failed.
func prunePins(w, errw io.Writer, asJSON bool, pins *fetch.Pins, f *fetch.Fetcher) error {
	orphans, err := f.Orphans(pins)
	if err != nil {
		return findingf("fetch-models --prune: %v", err)
	}
	results := []pruneResult{}
	var freed int64
	failed := false
	for _, o := range orphans {
		r := pruneResult{Path: o.Path, Bytes: o.Bytes}
		switch err := f.Prune(o); {
		case err == nil:
			r.Removed, freed = true, freed+o.Bytes
		case errors.Is(err, fetch.ErrInUse):
			r.Error = err.Error()
		default:
			r.Error, failed = err.Error(), true
		}
		results = append(results, r)
	}
	if asJSON {
		data, err := json.MarshalIndent(results, "", "  ")
		if err != nil {
			return err
		}
		if _, err := w.Write(append(termsafe.JSON(data), '\n')); err != nil {
			return err
		}
	} else {
		for _, r := range results {
			if r.Removed {
				fmt.Fprintf(w, "removed %s (%s)\n", termsafe.Line(r.Path), fetch.ByteCount(r.Bytes))
			} else {
				fmt.Fprintf(errw, "kitsoki: kept %s: %s\n", termsafe.Line(r.Path), termsafe.Line(r.Error))
			}
		}
		fmt.Fprintf(w, "%d entries no pin names, %s freed\n", len(results), fetch.ByteCount(freed))
	}
	if failed {
		return silentExit(exitFinding)
	}
	return nil
}
