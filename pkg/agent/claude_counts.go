package agent

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"kitsoki/internal/jsonvalue"
)

// claudeRawUsage is the envelope's usage object as the CLI writes it.
type claudeRawUsage struct {
	InputTokens              json.RawMessage `json:"input_tokens"`
	OutputTokens             json.RawMessage `json:"output_tokens"`
	CacheReadInputTokens     json.RawMessage `json:"cache_read_input_tokens"`
	CacheCreationInputTokens json.RawMessage `json:"cache_creation_input_tokens"`
}

// readCounts reads the envelope's counts (num_turns, duration_ms, the
// usage tokens) from their raw members, and modelUsage's sole model
// (soleModel), or names the first that is no
// whole number. JSON does not tell 3.0 or 3e0 from 3, so a writer that
// prints a whole count as a float (a wrapper, another backend behind the
// same flags) gives the count; 3.5 is refused.
func (env *claudeEnvelope) readCounts() error {
	for _, c := range []struct {
		name string
		raw  json.RawMessage
		to   *int64
	}{
		{"num_turns", env.RawNumTurns, &env.NumTurns},
		{"duration_ms", env.RawDurationMS, &env.DurationMS},
		{"usage.input_tokens", env.RawUsage.InputTokens, &env.Usage.InputTokens},
		{"usage.output_tokens", env.RawUsage.OutputTokens, &env.Usage.OutputTokens},
		{"usage.cache_read_input_tokens", env.RawUsage.CacheReadInputTokens, &env.Usage.CacheReadInputTokens},
		{"usage.cache_creation_input_tokens", env.RawUsage.CacheCreationInputTokens, &env.Usage.CacheCreationInputTokens},
	} {
		n, err := wholeCount(c.raw)
		if err != nil {
			return fmt.Errorf("the result envelope's %s %w", c.name, err)
		}
		*c.to = n
	}
	var err error
	env.SoleModel, env.HasSoleModel, err = soleModel(env.ModelUsage)
	return err
}

// wholeCount reads a count member's JSON: absent or null is 0; a number
// is its value when it is whole and fits 64 bits, decided on its decimal
// text (a float64 would call 3.0000000000000000001 whole).
func wholeCount(raw json.RawMessage) (int64, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, nil
	}
	if kind := jsonvalue.RawKind(raw); kind != jsonvalue.KindNumber {
		return 0, fmt.Errorf("is %s: expected an integer", jsonvalue.WithArticle(kind))
	}
	sign, s := "", string(raw)
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		sign, s = "-", rest
	}
	mant, exp, _ := strings.Cut(strings.ToLower(s), "e")
	whole, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(whole+frac, "0")
	trimmed := strings.TrimRight(digits, "0")
	if trimmed == "" {
		return 0, nil
	}
	shift := len(digits) - len(trimmed) - len(frac) // the power of ten trimmed multiplies
	if exp != "" {
		e, err := strconv.Atoi(exp)
		if err != nil || e < -maxCountExp || e > maxCountExp {
			e = maxCountExp // past any shift: out of range, or a fraction
			if strings.HasPrefix(exp, "-") {
				e = -e
			}
		}
		shift += e
	}
	switch {
	case shift < 0:
		return 0, fmt.Errorf("is %s: expected an integer", raw)
	case len(trimmed)+shift > 19:
		return 0, fmt.Errorf("is %s: expected an integer of at most 64 bits", raw)
	}
	n, err := strconv.ParseInt(sign+trimmed+strings.Repeat("0", shift), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("is %s: expected an integer of at most 64 bits", raw)
	}
	return n, nil
}

// maxCountExp bounds the exponent wholeCount adds up: any larger one puts
// a number out of range or below 1.
const maxCountExp = 1 << 20
