package trace

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"kitsoki/internal/jsoncost"
	"kitsoki/internal/safefile"
)

// defaultMaxLineBytes bounds one trace line unless ReadOptions says otherwise.
const defaultMaxLineBytes = 64 << 20

// ReadOptions tune a Reader.
type ReadOptions struct {
	Name         string // named in errors; the path, or "-" for stdin
	MaxLineBytes int    // 0 means defaultMaxLineBytes
	SkipPayload  bool   // leave Event.Payload nil (faster when only the envelope matters)
	// KeepPayload, when set, keeps the payload only of the kinds it accepts.
	KeepPayload func(kind string) bool
	// Path is the trace file's path, for putting blob values back
	// (blob.go); OpenFile sets it. Empty: blob references stay as they are.
	Path string
	// CheckBlobs (with Path) checks that every blob a payload refers to
	// exists with its recorded size, even when payloads are skipped.
	CheckBlobs bool
	// BlobPreview, above 0, puts a blob back as a JSON string of its first
	// BlobPreview runes: memory stays flat for readers that clip values.
	BlobPreview int
	// costFloor is the floor of the decode estimate a payload with a blob
	// reference must pass (tooCostlyAt); 0 means jsoncost.Floor. Only
	// tests set it, to be refused without building the product's floor.
	costFloor int64
}

// Reader streams a trace, reporting each read-time rule at the first line
// that breaks it (VerifyFile applies the reference's whole-file rules
// first).
type Reader struct {
	br       *bufio.Reader
	opt      ReadOptions
	closer   io.Closer
	phys     int // physical lines read
	ord      int // non-blank lines read (header = 1)
	header   *Header
	started  bool
	lastTurn int
	lastSeq  int
	err      error
	long     []byte
	n        int64
	fast     bool      // the fast line decoder is on (FastDecodeEnv)
	side     *sidecars // the trace's agent-prompts/ files, read once each
}

// NewReader reads a trace from r.
func NewReader(r io.Reader, opt ReadOptions) *Reader {
	if opt.MaxLineBytes <= 0 {
		opt.MaxLineBytes = defaultMaxLineBytes
	}
	opt.Name = cmp.Or(opt.Name, "-")
	opt.costFloor = cmp.Or(opt.costFloor, jsoncost.Floor)
	return &Reader{br: bufio.NewReaderSize(r, 256<<10), opt: opt, fast: !fastDecodeOff()}
}

// OpenFile opens the trace at path for streaming; Close closes the file.
func OpenFile(path string, opt ReadOptions) (*Reader, error) {
	f, err := safefile.Open(path, safefile.Stream)
	if err != nil {
		return nil, fmt.Errorf("open trace %q: %w", path, err)
	}
	opt.Name, opt.Path = cmp.Or(opt.Name, path), cmp.Or(opt.Path, path)
	r := NewReader(f, opt)
	r.closer = f
	return r, nil
}

// Close closes the file opened by OpenFile; it is a no-op otherwise.
func (r *Reader) Close() error {
	if r.closer == nil {
		return nil
	}
	c := r.closer
	r.closer = nil
	return c.Close()
}

// sidecars is the reader's view of the trace's agent-prompts/ folder.
func (r *Reader) sidecars() *sidecars {
	if r.side == nil {
		r.side = newSidecars(r.opt.Path, int64(max(r.opt.MaxLineBytes, int(safefile.Cassette))))
	}
	return r.side
}

// BytesRead returns the number of bytes consumed so far.
func (r *Reader) BytesRead() int64 { return r.n }

func (r *Reader) corrupt(line int, rule Rule, err error, format string, a ...any) error {
	r.err = &CorruptError{Name: r.opt.Name, Line: line, Rule: rule, Msg: fmt.Sprintf(format, a...), Err: err}
	return r.err
}

func (r *Reader) tooLong(line int) error {
	return r.corrupt(line, RuleLineTooLong, nil,
		"trace corrupted: line %d is longer than the %d-byte line limit (raise the limit if the trace is genuine)", line, r.opt.MaxLineBytes)
}

// readLine returns the next physical line without its LF. At the end of a
// complete file it returns io.EOF.
func (r *Reader) readLine() ([]byte, error) {
	line, err := r.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		r.long = append(r.long[:0], line...)
		for err == bufio.ErrBufferFull && len(r.long) <= r.opt.MaxLineBytes {
			line, err = r.br.ReadSlice('\n')
			r.long = append(r.long, line...)
		}
		if err == bufio.ErrBufferFull {
			return nil, r.tooLong(r.phys + 1)
		}
		line = r.long
	}
	r.n += int64(len(line))
	if err == io.EOF {
		if len(line) == 0 {
			return nil, io.EOF
		}
		r.phys++
		return nil, r.corrupt(r.phys, RuleTrailingNewline, nil, "trace corrupted: missing trailing newline at EOF")
	}
	if err != nil {
		return nil, r.corrupt(r.phys+1, RuleRead, err, "read error at line %d: %v", r.phys+1, err)
	}
	r.phys++
	line = line[:len(line)-1]
	if len(line) > r.opt.MaxLineBytes {
		return nil, r.tooLong(r.phys)
	}
	if len(line) > 0 && line[len(line)-1] == '\r' {
		return nil, r.corrupt(r.phys, RuleCRLF, nil, "trace corrupted: CRLF line ending at line %d (JSONL requires LF-only)", r.phys)
	}
	if bytes.IndexByte(line, 0) >= 0 {
		return nil, r.corrupt(r.phys, RuleNUL, nil, "trace corrupted: NUL byte in line %d", r.phys)
	}
	return line, nil
}

// nextNonBlank returns the next non-blank line.
func (r *Reader) nextNonBlank() ([]byte, error) {
	for {
		line, err := r.readLine()
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		r.ord++
		return line, nil
	}
}

// Header reads (once) and returns the session.header.
func (r *Reader) Header() (Header, error) {
	if r.header != nil {
		return *r.header, nil
	}
	if r.err != nil {
		return Header{}, r.err
	}
	line, err := r.nextNonBlank()
	if err == io.EOF {
		return Header{}, r.corrupt(1, RuleHeaderMissing, nil, "trace missing session.header on line 1")
	}
	if err != nil {
		return Header{}, err
	}
	// Only kind and schema_version decide, as upstream: any other decoding
	// error is "not valid JSON" with encoding/json's words.
	var h struct {
		Kind          string `json:"kind"`
		SchemaVersion int    `json:"schema_version"`
	}
	if err := json.Unmarshal(line, &h); err != nil {
		return Header{}, r.corrupt(1, RuleHeaderJSON, err, "line 1 is not valid JSON: %v", err)
	}
	if h.Kind != headerKind {
		return Header{}, r.corrupt(1, RuleHeaderKind, nil, "trace missing session.header on line 1 (got kind=%q)", h.Kind)
	}
	if h.SchemaVersion > currentSchemaVersion {
		return Header{}, r.corrupt(1, RuleSchemaVersion, nil, "schema_version %d on disk exceeds highest supported %d", h.SchemaVersion, currentSchemaVersion)
	}
	hd := headerExtras(line)
	hd.SchemaVersion = h.SchemaVersion
	r.header = &hd
	return *r.header, nil
}

// headerExtras reads the header members upstream does not check, leaving
// one of the wrong type zero as upstream accepts it.
func headerExtras(line []byte) Header {
	var raw struct {
		WrittenAt json.RawMessage `json:"written_at"`
		AppID     json.RawMessage `json:"app_id"`
		Story     json.RawMessage `json:"story"`
		Generator json.RawMessage `json:"generator"`
	}
	var h Header
	if json.Unmarshal(line, &raw) != nil {
		return h
	}
	var at time.Time
	if len(raw.WrittenAt) > 0 && json.Unmarshal(raw.WrittenAt, &at) == nil {
		h.WrittenAt = at
	}
	h.AppID, h.Story, h.Generator = headerString(raw.AppID), headerString(raw.Story), headerString(raw.Generator)
	return h
}

func headerString(raw json.RawMessage) string {
	var s string
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// Each calls fn with every remaining event, in order, and returns nil at
// the end of the trace or the first error Next returns.
func (r *Reader) Each(fn func(*Event)) error {
	for {
		ev, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		fn(&ev)
	}
}

// Next returns the next event, or io.EOF after the last one. Any other error
// is a *CorruptError (or wraps one) and is returned again by later calls.
func (r *Reader) Next() (Event, error) {
	if r.header == nil {
		if _, err := r.Header(); err != nil {
			return Event{}, err
		}
	}
	if r.err != nil {
		return Event{}, r.err
	}
	line, err := r.nextNonBlank()
	if err != nil {
		return Event{}, err
	}
	n := r.ord
	var ev Event
	var payload []byte
	fast := false
	if r.fast {
		payload, fast = fastDecode(line, &ev)
	}
	if !fast {
		ev = Event{}
		if payload, err = r.decodeLine(n, line, &ev); err != nil {
			return Event{}, err
		}
	} else if ev.Kind == headerKind {
		return Event{}, r.corrupt(n, RuleDuplicateHeader, nil, "duplicate session.header at line %d", n)
	}
	if err := r.order(n, &ev); err != nil {
		return Event{}, err
	}
	ev.Line = n
	if r.opt.CheckBlobs && r.opt.Path != "" && bytes.Contains(payload, blobMarker) {
		if err := checkBlobs(r.sidecars(), payload, r.opt.costFloor); err != nil {
			return Event{}, r.corrupt(n, RuleBlob, err, "line %d: %v", n, err)
		}
	}
	if !r.opt.SkipPayload && payload != nil && (r.opt.KeepPayload == nil || r.opt.KeepPayload(ev.Kind)) {
		if r.opt.Path != "" && bytes.Contains(payload, blobMarker) {
			full, err := resolveBlobs(r.sidecars(), payload, r.opt.BlobPreview, r.opt.costFloor)
			if err != nil {
				return Event{}, r.corrupt(n, RuleBlob, err, "line %d: %v", n, err)
			}
			ev.Payload = json.RawMessage(full)
			return ev, nil
		}
		if fast { // the fast decoder's payload aliases the line buffer
			payload = bytes.Clone(payload)
		}
		ev.Payload = json.RawMessage(payload)
	}
	return ev, nil
}

// order applies the turn and seq rules, with the gap wording of the
// format's documentation rather than upstream's swapped one (A.5).
func (r *Reader) order(n int, ev *Event) error {
	switch {
	case ev.Turn < r.lastTurn:
		// lastTurn starts at 0, so a negative turn is out of order even
		// on the first event, as upstream (whose highest turn starts at 0)
		return r.corrupt(n, RuleTurnOrder, nil, "out-of-order turn at line %d: turn=%d arrives after turn=%d (cross-turn ordering violation)", n, ev.Turn, r.lastTurn)
	case !r.started || ev.Turn > r.lastTurn:
		if ev.Seq != 0 {
			return r.corrupt(n, RuleSeqGap, nil, "gap in seq within turn %d at line %d: expected seq 0, got %d", ev.Turn, n, ev.Seq)
		}
	case ev.Seq == r.lastSeq:
		return r.corrupt(n, RuleSeqDuplicate, nil, "duplicate (turn,seq) at line %d: turn=%d seq=%d", n, ev.Turn, ev.Seq)
	case ev.Seq < r.lastSeq:
		return r.corrupt(n, RuleSeqOrder, nil, "out-of-order (turn,seq) at line %d: turn=%d seq=%d (previous seq=%d)", n, ev.Turn, ev.Seq, r.lastSeq)
	case ev.Seq > r.lastSeq+1:
		return r.corrupt(n, RuleSeqGap, nil, "gap in seq within turn %d at line %d: expected seq %d, got %d", ev.Turn, n, r.lastSeq+1, ev.Seq)
	}
	r.started = true
	r.lastTurn, r.lastSeq = ev.Turn, ev.Seq
	return nil
}
