package plugin

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/recost"
)

// redactHook is the built-in redact provider at agent/pre-dispatch: every
// match of a pattern becomes "[redacted]" and every value of a named env
// var becomes "[redacted:NAME]", in the prompt and in every value of with:
// (maskWith).
type redactHook struct {
	patterns []*regexp.Regexp
	insts    []int      // what each pattern compiles to (recost.Insts)
	values   []envValue // longest first
}

type envValue struct{ name, value string }

func newRedactHook(cfg RedactConfig, getenv func(string) string) *redactHook {
	h := &redactHook{patterns: cfg.Patterns}
	for _, re := range cfg.Patterns {
		h.insts = append(h.insts, recost.Insts(re.String()))
	}
	for _, n := range cfg.Env {
		// A value under 4 bytes ("1", "ok") occurs by chance everywhere:
		// masking it would corrupt every prompt and protect nothing.
		if v := getenv(n); len(v) >= 4 {
			h.values = append(h.values, envValue{n, v})
		}
	}
	sort.SliceStable(h.values, func(i, j int) bool { return len(h.values[i].value) > len(h.values[j].value) })
	return h
}

func (h *redactHook) maskString(s string) string {
	s = h.secretsOnly(s)
	for _, re := range h.patterns {
		s = re.ReplaceAllString(s, "[redacted]")
	}
	return s
}

// secretsOnly masks env values only (for error texts).
func (h *redactHook) secretsOnly(s string) string {
	for _, v := range h.values {
		s = strings.ReplaceAll(s, v.value, "[redacted:"+v.name+"]")
	}
	return s
}

func (h *redactHook) Hook(_ context.Context, point Point, p Payload) (Result, error) {
	if point != pointPreDispatch || (len(h.patterns) == 0 && len(h.values) == 0) {
		return Result{Outcome: outcomeContinue}, nil
	}
	if reason := h.tooCostly(p); reason != "" {
		return Result{Outcome: outcomeHalt, Reason: reason}, nil
	}
	out := Payload{}
	if s, ok := p["prompt"].(string); ok {
		out["prompt"] = h.maskString(s)
	}
	if w, ok := p["with"].(map[string]any); ok {
		out["with"] = h.maskWith(w)
	}
	return Result{Outcome: outcomeContinue, Payload: out}, nil
}

// maskWith is with: as the model may see it: every string masked
// (maskString); a number whose text holds a named env value becomes that
// text masked, a string; and when the encoded result still spells one
// (a value spanning the JSON syntax, `","`, or in a key), it is that text
// masked, read again (jsonvalue.MaskEncoded), or under "redacted": the
// value is never sent whole, even at the cost of with:'s shape.
func (h *redactHook) maskWith(w map[string]any) map[string]any {
	out := jsonvalue.MapLeaves(jsonvalue.MapStrings(w, h.maskString, false), func(v any) any {
		switch v.(type) {
		case nil, bool, string:
			return v
		}
		enc, err := json.Marshal(v)
		if err != nil {
			return v
		}
		if m := h.secretsOnly(string(enc)); m != string(enc) {
			return m
		}
		return v
	}).(map[string]any)
	return jsonvalue.MaskEncoded(out, h.secretsOnly, true)
}

// tooCostly is why the patterns cannot mask p, or "": a pattern matched
// against the longest string of the prompt and with: past recost's bound
// would hold the run where neither --timeout nor a context reaches (a
// profile is the repository's, the prompt may quote any answer). The call
// is then not sent, rather than sent unmasked.
func (h *redactHook) tooCostly(p Payload) string {
	longest := 0
	if s, ok := p["prompt"].(string); ok {
		longest = len(s)
	}
	if w, ok := p["with"].(map[string]any); ok {
		jsonvalue.MapStrings(w, func(s string) string { longest = max(longest, len(s)); return s }, false)
	}
	for i, n := range h.insts {
		if err := recost.Check(n, longest); err != nil {
			return fmt.Sprintf("config.redact.patterns: %q cannot mask this call (not sent): %v", h.patterns[i].String(), err)
		}
	}
	return ""
}
