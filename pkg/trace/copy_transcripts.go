package trace

import (
	"fmt"
	"path/filepath"
	"strings"

	"kitsoki/internal/atomicfile"
	"kitsoki/internal/lazyre"
	"kitsoki/internal/safefile"
)

// transcriptRef is a transcript_ref path naming a file of the trace's
// transcripts/ (offloadTranscript's name: <call_id>.jsonl).
var transcriptRef = &lazyre.Regexp{Expr: `"path":"transcripts/([A-Za-z0-9_-]+)\.jsonl"`}

// copyTranscripts copies the transcripts/<call_id>.jsonl and .timings
// files the trace data's transcript_ref members name, from beside src to
// beside dst, as upstream's --trace-out writes them there. They are read
// only from src's own transcripts/ folder (no link leads out of it), each
// at most limit bytes; inside root ("" for none) they are written through
// it.
func copyTranscripts(src, dst, root string, data []byte, limit int64) error {
	ids := namedIn(transcriptRef, data)
	if len(ids) == 0 {
		return nil
	}
	from := safefile.NewRoot(filepath.Join(filepath.Dir(src), transcriptsDir))
	defer from.Close()
	dir := filepath.Join(filepath.Dir(dst), transcriptsDir)
	if err := atomicfile.MkdirBelow(root, dir); err != nil {
		return fmt.Errorf("copy trace transcripts: %w", err)
	}
	for _, id := range ids {
		for _, name := range []string{id + ".jsonl", id + ".timings"} {
			b, err := from.ReadFile(filepath.Join(from.Dir(), name), limit)
			if err != nil {
				return fmt.Errorf("copy trace transcripts of %s: %s/%s: %s", src, transcriptsDir, name, strings.TrimSpace(safefile.Reason(err)))
			}
			if err := atomicfile.WriteBelow(root, filepath.Join(dir, name), b, 0o600); err != nil {
				return fmt.Errorf("copy trace transcripts: %w", err)
			}
		}
	}
	return nil
}
