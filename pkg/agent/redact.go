package agent

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/story"
)

// Redacted replaces every secret value in redacted output.
const Redacted = "[REDACTED]"

// minSecretBytes is the length under which a value is never masked: a
// value that short ("1", "ok", "x") occurs by chance in every prompt, key
// and number, and masking it would corrupt the trace without protecting
// anything. `validate` warns about such values (story rule secret-too-short).
const minSecretBytes = story.MinSecretBytes

// redactor masks the resolved env:/headers: values of every declaration,
// in every form a value takes in output (see secretForms).
// The zero value (no secrets) returns its input unchanged at no cost.
type redactor struct {
	r       *strings.Replacer
	secrets []string // every form of every secret, longest first
	// outside: a form may stand where a decoded value holds no string
	// (it has a quote, so it may span the JSON syntax, or it may be a
	// number): masking a value string by string can miss it (mapValue)
	outside bool
}

func newRedactor(plugins map[string]*story.AgentPlugin) redactor {
	var secrets []string
	for _, p := range plugins {
		if p == nil {
			continue
		}
		secrets = append(secrets, p.SecretValues()...)
	}
	return redactorOf(secrets)
}

// redactorOf masks the given secret values in all their forms. Values
// under MinSecretBytes are ignored. A value that spans lines (a PEM key, a
// JSON key file) is masked whole and each of its lines alone (trimmed, when
// not under MinSecretBytes): output that is logged a line at a time, or a
// tail that starts inside it, would otherwise show every line of it.
func redactorOf(values []string) redactor {
	var secrets []string
	all := slices.Clone(values)
	for _, v := range values {
		if len(v) >= minSecretBytes && strings.ContainsAny(v, "\n\r") {
			for l := range strings.FieldsFuncSeq(v, func(r rune) bool { return r == '\n' || r == '\r' }) {
				all = append(all, strings.TrimSpace(l))
			}
		}
	}
	for _, v := range all {
		if len(v) < minSecretBytes {
			continue
		}
		for _, f := range secretForms(v) {
			if len(f) >= minSecretBytes {
				secrets = append(secrets, f)
			}
		}
	}
	if len(secrets) == 0 {
		return redactor{}
	}
	// Longest first, so a secret containing another is masked whole
	// (strings.Replacer tries the pairs in argument order at each position);
	// the order is total, so a form two values share is kept once.
	slices.SortFunc(secrets, func(a, b string) int { return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a, b)) })
	secrets = slices.Compact(secrets)
	pairs := make([]string, 0, 2*len(secrets))
	for _, s := range secrets {
		pairs = append(pairs, s, Redacted)
	}
	outside := slices.ContainsFunc(secrets, func(s string) bool {
		return strings.Contains(s, `"`) || strings.Trim(s, "0123456789.eE+-") == ""
	})
	return redactor{r: strings.NewReplacer(pairs...), secrets: secrets, outside: outside}
}

// secretForms lists the ways a value v can appear in text kitsoki writes
// or relays: raw; inside a JSON string (Go's escaping with and without
// HTML escapes, ASCII-only \uXXXX escaping as Python and others emit it),
// once and twice over (JSON text quoted inside JSON); inside a Go %q;
// HTML-escaped; URL-encoded (query and path escaping, as in headers and
// URLs); and base64-encoded at any alignment (base64Forms).
func secretForms(v string) []string {
	forms := []string{v}
	add := func(s string) {
		if s != "" && !slices.Contains(forms, s) {
			forms = append(forms, s)
		}
	}
	for _, f := range []func(string) string{jsonInner, jsonInnerNoHTML, jsonInnerASCII} {
		once := f(v)
		add(once)
		add(f(once))
	}
	add(quoteInner(v))
	add(html.EscapeString(v))
	add(url.QueryEscape(v))
	add(url.PathEscape(v))
	for _, f := range base64Forms(v) {
		add(f)
	}
	return forms
}

// minBase64Secret is the length from which a secret is also masked
// base64-encoded: its encoded forms are then at least 8 characters, long
// enough not to occur by chance inside unrelated base64 data.
const minBase64Secret = 8

// base64Forms are the characters that encode v in base64 wherever v sits
// in the encoded bytes (an "Authorization: Basic" header holds user:secret,
// so the secret starts 0, 1 or 2 bytes into a 3-byte group), in the
// standard and URL-safe alphabets: for each alignment, the characters that
// depend on v's bytes alone (the first and last group, which share bits
// with the bytes around v, keep their shared characters).
func base64Forms(v string) []string {
	if len(v) < minBase64Secret {
		return nil
	}
	var out []string
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		for shift, skip := range []int{0, 2, 3} {
			full := (shift + len(v)) / 3 * 3 // whole groups only: the last depends on what follows v
			b := make([]byte, shift, shift+len(v))
			b = append(b, v...)
			s := enc.EncodeToString(b[:full])
			out = append(out, s[skip:])
		}
	}
	return out
}

func jsonInner(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

func jsonInnerNoHTML(s string) string {
	b, _ := jsonvalue.MarshalNoHTML(s)
	return string(b[1 : len(b)-1])
}

// jsonInnerASCII escapes every non-ASCII rune as \uXXXX (surrogate pairs
// above the BMP), lower-case hex as most encoders write it.
func jsonInnerASCII(s string) string {
	inner := jsonInnerNoHTML(s)
	var b strings.Builder
	for _, r := range inner {
		if r < utf8.RuneSelf {
			b.WriteRune(r)
			continue
		}
		if r > 0xFFFF {
			r -= 0x10000
			writeU(&b, 0xD800+(r>>10))
			writeU(&b, 0xDC00+(r&0x3FF))
			continue
		}
		writeU(&b, r)
	}
	return b.String()
}

func writeU(b *strings.Builder, r rune) { fmt.Fprintf(b, `\u%04x`, r) }

func quoteInner(s string) string {
	q := strconv.Quote(s)
	return q[1 : len(q)-1]
}

// safeCut returns the largest c <= n at which s can be cut and each side
// masked alone without any secret losing its mask: no complete occurrence
// spans c, and no occurrence that may continue past the end of s (a
// secret's head at the end of s) starts before c. Used to cut a stream
// (a long stderr line) into pieces.
func (rd redactor) safeCut(s string, n int) int {
	c := n
	for changed := true; changed; {
		changed = false
		for _, sec := range rd.secrets {
			for p := max(0, len(s)-len(sec)+1); p < min(len(s), c); p++ {
				if strings.HasPrefix(sec, s[p:]) {
					c, changed = p, true
					break
				}
			}
			lo := max(0, c-len(sec)+1)
			if hi := min(len(s), c+len(sec)-1); lo < hi {
				if i := strings.Index(s[lo:hi], sec); i >= 0 && lo+i < c {
					c, changed = lo+i, true
				}
			}
		}
	}
	return c
}

func (rd redactor) active() bool { return rd.r != nil }

// Redactor masks the secrets of a story's agent plugins in every form. A
// run builds one (pkg/compose) and shares it: the [Registry] masks its
// plugins' answers, stderr and events with it, and the plugin assembly
// masks what hook and host-provider processes (which inherit kitsoki's
// environment) write.
type Redactor struct{ rd redactor }

// NewRedactor masks the secret values (env:, headers:, api_key_env:) of
// every declaration in plugins, enabled or not.
func NewRedactor(plugins map[string]*story.AgentPlugin) *Redactor {
	return &Redactor{newRedactor(plugins)}
}

// Mask is the redactor's masking, nil when it holds no secret so that a
// caller can skip the masking altogether (nil on a nil Redactor too).
func (r *Redactor) Mask() func(string) string {
	if r == nil || !r.rd.active() {
		return nil
	}
	return r.rd.String
}

// or is r's redactor, or one built from plugins when r is nil.
func (r *Redactor) or(plugins map[string]*story.AgentPlugin) redactor {
	if r == nil {
		return newRedactor(plugins)
	}
	return r.rd
}

// String masks every secret in s.
func (rd redactor) String(s string) string {
	if rd.r == nil {
		return s
	}
	return rd.replace(s)
}

// replace is rd.r.Replace(s), returning s itself, not a copy of it, when
// no secret occurs in it: strings.Replacer builds its output in a buffer
// and copies that to a string (two copies of a big answer, per string
// masked). It writes an unchanged input in one piece; a secret found
// writes the text before it and the mask apart.
func (rd redactor) replace(s string) string {
	var w replaced
	_, _ = rd.r.WriteString(&w, s) // writes to memory cannot fail
	return w.result()
}

// replaced collects what a strings.Replacer writes: the first piece as it
// is, every later one after it in a builder.
type replaced struct {
	first  string
	pieces int
	b      strings.Builder
}

func (w *replaced) WriteString(p string) (int, error) {
	w.pieces++
	switch w.pieces {
	case 1:
		w.first = p
		return len(p), nil
	case 2:
		w.b.WriteString(w.first)
	}
	return w.b.WriteString(p)
}

func (w *replaced) Write(p []byte) (int, error) { return w.WriteString(string(p)) }

func (w *replaced) result() string {
	if w.pieces <= 1 {
		return w.first
	}
	return w.b.String()
}

// value returns a copy of a decoded JSON value with every string masked,
// map keys included (a plugin may echo a secret as a key: the raw
// submission's key is masked in place, so its parsed value's must be too).
// Values without secrets come back as they are.
func (rd redactor) value(v any) any {
	if rd.r == nil {
		return v
	}
	return jsonvalue.MapStrings(v, rd.replace, true)
}

// holds reports whether a decoded JSON value has a secret in a string or
// a map key.
func (rd redactor) holds(v any) bool {
	switch x := v.(type) {
	case string:
		return rd.replace(x) != x
	case map[string]any:
		for k, e := range x {
			if rd.replace(k) != k || rd.holds(e) {
				return true
			}
		}
	case []any:
		if slices.ContainsFunc(x, rd.holds) {
			return true
		}
	}
	return false
}

// mapValue masks the strings and keys of m. A secret its strings do not
// hold whole (one spanning the JSON syntax, or in a number) would survive
// that: when the masked map, encoded, still spells one, it is the encoded
// map masked, read again, or under "redacted" when that is not JSON.
func (rd redactor) mapValue(m map[string]any) map[string]any {
	if rd.r == nil || m == nil {
		return m
	}
	out, _ := rd.value(m).(map[string]any)
	if !rd.outside {
		return out
	}
	return jsonvalue.MaskEncoded(out, rd.replace, false)
}

// raw masks secrets inside a raw JSON value (or text), keeping the bytes
// verbatim when no secret occurs in them. The JSON-escaped forms are
// masked in place; when that would break the JSON (a raw form spanning
// its syntax), the value is decoded, masked and re-encoded instead.
func (rd redactor) raw(b json.RawMessage) json.RawMessage { return rd.rawOf(b, nil, false) }

// rawOf is raw for b whose JSON value, when decoded is true, is v (numbers
// json.Number, as decodeJSON reads them): b is then not decoded again.
func (rd redactor) rawOf(b json.RawMessage, v any, decoded bool) json.RawMessage {
	if rd.r == nil || len(b) == 0 {
		return b
	}
	value := func() (any, bool) { // b's JSON value
		if decoded {
			return v, true
		}
		v, err := decodeJSON(b)
		return v, err == nil
	}
	s := string(b)
	out := rd.replace(s)
	if strings.IndexByte(out, '\\') >= 0 {
		// JSON escapes may spell a secret in a way no listed form has
		// ("\u0073ecret", "\/" for "/", a mix): judge the decoded value.
		held := false
		if out == s && decoded {
			held = rd.holds(v) // out is b, whose value is v
		} else {
			held = rd.escaped(out)
		}
		if held {
			if v, ok := value(); ok {
				if enc, err := json.Marshal(rd.value(v)); err == nil {
					return enc
				}
			}
		}
	}
	if out == s {
		return b
	}
	wasJSON := decoded || json.Valid(b)
	if !wasJSON || json.Valid([]byte(out)) {
		return json.RawMessage(out)
	}
	v, ok := value()
	if !ok {
		return json.RawMessage(strconv.Quote(out))
	}
	enc, err := json.Marshal(rd.value(v))
	if err != nil || rd.replace(string(enc)) != string(enc) {
		// a secret the value's strings do not hold whole (one in a
		// number, or spanning the JSON syntax): the masked text, quoted
		return json.RawMessage(strconv.Quote(out))
	}
	return json.RawMessage(enc)
}

// escaped reports JSON text whose decoded strings or keys still hold a
// secret after its raw forms were masked.
func (rd redactor) escaped(text string) bool {
	v, err := decodeJSON([]byte(text))
	return err == nil && rd.holds(v)
}

// maskAnswer masks a plugin's answer where it enters the run: the
// submission, its parsed value a, meta, sub-event payloads and transcript,
// so nothing downstream (binds, world, say, views, the trace, --json) can
// hold a secret. Masking happens after schema validation; it returns the
// masked copy and a's value masked.
func (rd redactor) maskAnswer(resp *AskResponse, a answer) (*AskResponse, any) {
	if rd.r == nil || resp == nil {
		return resp, a.v
	}
	cp := *resp
	cp.Submission = rd.rawOf(resp.Submission, a.v, a.json)
	cp.Meta = rd.mapValue(resp.Meta)
	if len(resp.SubEvents) > 0 {
		cp.SubEvents = slices.Clone(resp.SubEvents)
		for i := range cp.SubEvents {
			cp.SubEvents[i].Payload = rd.raw(cp.SubEvents[i].Payload)
		}
	}
	cp.Transcript = rd.transcript(resp.Transcript)
	return &cp, rd.value(a.v)
}

// transcript returns a masked copy of t (nil for nil).
func (rd redactor) transcript(t *Transcript) *Transcript {
	if t == nil {
		return nil
	}
	cp := *t
	if rd.r == nil {
		return &cp
	}
	cp.Events = make([]json.RawMessage, len(t.Events))
	for i, e := range t.Events {
		cp.Events[i] = rd.raw(e)
	}
	return &cp
}

// maskedError is an underlying error whose text had a secret.
type maskedError struct{ msg string }

func (e *maskedError) Error() string { return e.msg }

// underlying returns err, or a masked stand-in when its text holds a secret.
func (rd redactor) underlying(err error) error {
	if rd.r == nil || err == nil {
		return err
	}
	msg := err.Error()
	if m := rd.replace(msg); m != msg {
		return &maskedError{msg: m}
	}
	return err
}

// reply is a default-path reply with its text masked.
func (rd redactor) reply(rp *Reply) *Reply {
	cp := *rp
	cp.Text = rd.String(rp.Text)
	return &cp
}
