package cmd

import (
	"encoding/json"
	"io"
	"sync"

	"kitsoki/pkg/fetch"
)

// progressEvent is one line of --progress-json: what a script or a UI
// driving kitsoki needs to draw its own progress.
type progressEvent struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Phase   string `json:"phase"` // start, download, done, wait, verify, mismatch
	Host    string `json:"host,omitempty"`
	Done    int64  `json:"done"`
	Total   int64  `json:"total"`
	Resumed int64  `json:"resumed,omitempty"`
	Parts   int    `json:"parts,omitempty"`
}

// jsonProgress writes one progressEvent per report to w, a line each.
func jsonProgress(w io.Writer) fetch.ProgressFunc {
	var mu sync.Mutex
	enc := json.NewEncoder(w)
	return func(p fetch.Progress) {
		mu.Lock()
		defer mu.Unlock()
		_ = enc.Encode(progressEvent{ID: p.Artifact.ID, Kind: string(p.Artifact.Kind), Phase: string(p.Phase), Host: p.Host,
			Done: p.Done, Total: p.Total, Resumed: p.Resumed, Parts: p.Parts})
	}
}
