package agent

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"strings"

	"kitsoki/pkg/story"
)

// Redacted replaces every secret value in redacted output.
const Redacted = "[REDACTED]"

// redactor masks the resolved env:/headers: values of every declaration.
// The zero value (no secrets) returns its input unchanged at no cost.
type redactor struct {
	r       *strings.Replacer
	secrets []string // longest first
}

func newRedactor(plugins map[string]*story.AgentPlugin) redactor {
	seen := map[string]bool{}
	var secrets []string
	for _, p := range plugins {
		if p == nil {
			continue
		}
		for _, v := range p.SecretValues() {
			if v != "" && !seen[v] {
				seen[v] = true
				secrets = append(secrets, v)
			}
		}
	}
	return redactorOf(secrets)
}

// redactorOf masks the given secret values.
func redactorOf(secrets []string) redactor {
	if len(secrets) == 0 {
		return redactor{}
	}
	secrets = slices.Clone(secrets)
	// Longest first, so a secret containing another is masked whole.
	sort.Slice(secrets, func(i, j int) bool {
		if len(secrets[i]) != len(secrets[j]) {
			return len(secrets[i]) > len(secrets[j])
		}
		return secrets[i] < secrets[j]
	})
	pairs := make([]string, 0, 2*len(secrets))
	for _, s := range secrets {
		pairs = append(pairs, s, Redacted)
	}
	return redactor{r: strings.NewReplacer(pairs...), secrets: secrets}
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

// String masks every secret in s.
func (rd redactor) String(s string) string {
	if rd.r == nil {
		return s
	}
	return rd.r.Replace(s)
}

// value returns a copy of a decoded JSON value with every string (keys
// included) masked. Values without secrets come back as they are.
func (rd redactor) value(v any) any {
	if rd.r == nil {
		return v
	}
	switch x := v.(type) {
	case string:
		return rd.r.Replace(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[rd.r.Replace(k)] = rd.value(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = rd.value(e)
		}
		return out
	default:
		return v
	}
}

func (rd redactor) mapValue(m map[string]any) map[string]any {
	if rd.r == nil || m == nil {
		return m
	}
	out, _ := rd.value(m).(map[string]any)
	return out
}

// raw masks secrets inside a raw JSON value, keeping the bytes verbatim
// when no secret occurs in them.
func (rd redactor) raw(b json.RawMessage) json.RawMessage {
	if rd.r == nil || len(b) == 0 {
		return b
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return json.RawMessage(strconv.Quote(rd.r.Replace(string(b))))
	}
	red := rd.value(v)
	out, err := json.Marshal(red)
	if err != nil {
		return b
	}
	orig, err := json.Marshal(v)
	if err == nil && bytes.Equal(orig, out) {
		return b
	}
	return out
}
