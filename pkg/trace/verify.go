package trace

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"kitsoki/internal/jsoncost"
	"kitsoki/internal/safefile"
)

// VerifyResult describes a trace that passed every read-time rule.
type VerifyResult struct {
	Header Header
	Events int
	Turns  int // distinct turns
	Bytes  int64
	// Cut: the last event is a trace.truncated line, the writer's word
	// that the trace reached its size bound (bound.go).
	Cut bool
}

// Verify reads a whole trace stream and applies every read-time rule in file
// order. It returns a *CorruptError for the first violation.
func Verify(r io.Reader, name string) (VerifyResult, error) {
	rd := NewReader(r, ReadOptions{Name: name, SkipPayload: true})
	return drain(rd)
}

func drain(rd *Reader) (VerifyResult, error) {
	var res VerifyResult
	h, err := rd.Header()
	if err != nil {
		return res, err
	}
	res.Header = h
	var turns turnCounter
	err = rd.Each(func(ev *Event) {
		res.Events++
		turns.see(ev.Turn)
		res.Cut = ev.Kind == TruncatedKind
	})
	res.Turns = turns.n
	res.Bytes = rd.BytesRead()
	return res, err
}

// VerifyFile verifies the trace at path in the reference's order: the
// whole-file rules (trailing newline, CRLF, NUL), then line by line.
func VerifyFile(path string) (VerifyResult, error) { return verifyFile(path, jsoncost.Floor) }

// verifyFile is VerifyFile with the blob payloads' decode-estimate floor
// given (ReadOptions.costFloor).
func verifyFile(path string, costFloor int64) (VerifyResult, error) {
	if err := precheckFile(path); err != nil {
		return VerifyResult{}, err
	}
	rd, err := OpenFile(path, ReadOptions{SkipPayload: true, CheckBlobs: true, costFloor: costFloor})
	if err != nil {
		return VerifyResult{}, err
	}
	defer rd.Close()
	return drain(rd)
}

// precheckFile applies rules 1-3 of the reference to a whole file.
func precheckFile(path string) error {
	f, err := safefile.Open(path, safefile.Stream)
	if err != nil {
		return fmt.Errorf("open trace %q: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("open trace %q: %w", path, err)
	}
	if !st.Mode().IsRegular() {
		return nil // a pipe or device: the streaming pass checks in file order
	}
	torn := false // a missing trailing newline is reported before anything else
	if size := st.Size(); size > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, size-1); err != nil {
			return fmt.Errorf("open trace %q: %w", path, err)
		}
		torn = last[0] != '\n'
	}
	buf := make([]byte, 1<<20)
	if torn {
		n, err := countNewlines(f, st.Size(), buf)
		if err != nil {
			return fmt.Errorf("open trace %q: %w", path, err)
		}
		return &CorruptError{Name: path, Line: 1 + n, Rule: RuleTrailingNewline, Msg: "trace corrupted: missing trailing newline at EOF"}
	}
	line := 1       // physical line number at buf[0]
	prevCR := false // previous chunk ended with '\r'
	for {
		n, err := f.Read(buf)
		chunk := buf[:n]
		if n > 0 {
			if prevCR && chunk[0] == '\n' {
				return crlfError(path, line)
			}
			if err := chunkFault(path, chunk, line); err != nil {
				return err
			}
			prevCR = chunk[n-1] == '\r'
		}
		line += bytes.Count(chunk, []byte{'\n'})
		switch {
		case err == io.EOF:
			return nil
		case err != nil:
			return fmt.Errorf("read trace %q: %w", path, err)
		}
	}
}

// countRange counts the '\n' bytes of f in [from, to).
func countRange(f *os.File, from, to int64, buf []byte) (int, error) {
	n := 0
	for from < to {
		k, err := f.ReadAt(buf[:min(int64(len(buf)), to-from)], from)
		n += bytes.Count(buf[:k], []byte{'\n'})
		from += int64(k)
		if err == io.EOF {
			return n, nil // the file shrank under us: counted what was there
		}
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// chunkFault is the first CRLF or NUL of chunk, whose first line is line:
// the earlier line is reported, and on one line the CRLF rule comes first.
func chunkFault(path string, chunk []byte, line int) error {
	lineAt := func(i int) int {
		if i < 0 {
			return -1
		}
		return line + bytes.Count(chunk[:i], []byte{'\n'})
	}
	cl, nl := lineAt(bytes.Index(chunk, []byte("\r\n"))), lineAt(bytes.IndexByte(chunk, 0))
	switch {
	case cl >= 0 && (nl < 0 || cl <= nl):
		return crlfError(path, cl)
	case nl >= 0:
		return &CorruptError{Name: path, Line: nl, Rule: RuleNUL, Msg: fmt.Sprintf("trace corrupted: NUL byte in line %d", nl)}
	}
	return nil
}

func crlfError(path string, line int) error {
	return &CorruptError{Name: path, Line: line, Rule: RuleCRLF, Msg: fmt.Sprintf("trace corrupted: CRLF line ending at line %d (JSONL requires LF-only)", line)}
}
