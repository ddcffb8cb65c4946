package trace

import (
	"cmp"
	"encoding/json"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"kitsoki/internal/termsafe"
	"kitsoki/pkg/diag"
)

// Category groups timeline lines (cmd/ picks a colour per category).
type Category string

// Timeline categories.
const (
	CatTurn   Category = "turn"
	CatState  Category = "state"
	CatIntent Category = "intent"
	CatWorld  Category = "world"
	CatHost   Category = "host"
	CatAgent  Category = "agent"
	CatSay    Category = "say"
	CatError  Category = "error"
	CatOther  Category = "other"
)

// Line is one rendered timeline entry.
type Line struct {
	Turn     int
	TS       time.Time
	Kind     string
	Category Category
	Label    string // short fixed-width word: enter, exit, move, host, agent...
	Text     string
	Call     *Call // set on the line that completes an agent call
}

// Timeline turns events into lines. Feed it every event in order (even ones
// the caller filters out) so agent calls pair up and sub-events are counted.
type Timeline struct {
	calls CallTracker
	// MaxValue bounds rendered values (0 means 80 runes).
	MaxValue int
}

// Feed renders ev. It returns ok=false for events the timeline folds into
// other lines (an agent call's sub-events, counted on its result line).
func (tl *Timeline) Feed(ev *Event) (Line, bool) {
	done := tl.calls.Observe(ev)
	ln := Line{Turn: ev.Turn, TS: ev.TS, Kind: ev.Kind, Category: CatOther, Label: ev.Kind}
	p := payloadMap(ev.Payload)
	raw := func(k string) string { return tl.raw(p, k) }
	switch ev.Kind {
	case "machine.state_entered":
		ln.Category, ln.Label, ln.Text = CatState, "enter", cmp.Or(raw("state"), ev.StatePath)
	case "machine.state_exited":
		ln.Category, ln.Label, ln.Text = CatState, "exit", cmp.Or(raw("state"), ev.StatePath)
	case "machine.transition":
		ln.Category, ln.Label, ln.Text = CatState, "move", tl.moveText(p)
	case "machine.intent_accepted":
		ln.Category, ln.Label, ln.Text = CatIntent, "intent", raw("intent")+slotsText(tl, p["slots"])
	case "turn.input":
		ln.Category, ln.Label, ln.Text = CatTurn, "input", tl.clip(cmp.Or(raw("input"), raw("intent")))
	case "turn.start":
		ln.Category, ln.Label = CatTurn, "start"
		ln.Text = tl.kv(p, "turn")
	case "turn.end":
		ln.Category, ln.Label, ln.Text = CatTurn, "end", tl.endText(p)
	case "machine.say":
		ln.Category, ln.Label, ln.Text = CatSay, "say", tl.clip(raw("text"))
	case "world.update":
		ln.Category, ln.Label, ln.Text = CatWorld, "world", tl.worldText(p)
	case "harness.called", "harness.dispatched":
		ln.Category, ln.Label = CatHost, "host"
		ln.Text = raw("namespace") + " " + strings.TrimPrefix(ev.Kind, "harness.") + " " + tl.value(p["args"])
	case "harness.returned":
		ln.Label = "host"
		ln.Category, ln.Text = tl.returnedText(p)
	case "harness.error":
		ln.Category, ln.Label, ln.Text = CatError, "host", "error ("+raw("phase")+"): "+tl.clip(raw("error"))
	case "machine.emit_intent":
		ln.Category, ln.Label, ln.Text = CatIntent, "emit", raw("intent")+slotsText(tl, p["slots"])
	case "session.story":
		ln.Category, ln.Label = CatOther, "story"
		files, _ := object(p["files"])
		ln.Text = fmt.Sprintf("%s (%s, %d files) hash %.12s", raw("app_id"), raw("entry"), len(files), raw("hash"))
	case "machine.validation_failed", "machine.guard_rejected", "machine.error":
		ln.Category, ln.Label, ln.Text = CatError, strings.TrimPrefix(ev.Kind, "machine."), tl.kv(p)
	case "agent.call.start":
		ln.Category, ln.Label, ln.Text = CatAgent, "agent", tl.callStartText(ev, p)
	case "agent.call.complete", "agent.call.error":
		ln.Category, ln.Label, ln.Call = CatAgent, "agent", done
		if ev.Kind == "agent.call.error" {
			ln.Category = CatError
		}
		if done != nil {
			ln.Text = callSummary(done)
		}
	default:
		if tl.calls.isSubEvent(ev) {
			return ln, false // a sub-event: counted on the call's result line
		}
		ln.Text = tl.kv(p)
	}
	// one line each: a newline from the trace would forge a timeline line;
	// clipped as a finding is, since a name or an error may be of any size
	ln.Label, ln.Text = termsafe.Line(diag.ClipMessage(ln.Label)), termsafe.Line(diag.ClipMessage(ln.Text))
	return ln, true
}

// raw is the payload member k as its text: a string as it is, anything
// else as value renders it.
func (tl *Timeline) raw(p map[string]any, k string) string {
	if p[k] == nil {
		return ""
	}
	if s, ok := text(p[k]); ok {
		return s
	}
	return tl.value(p[k])
}

// moveText is a transition's line: from → to, and the intent with its
// slots.
func (tl *Timeline) moveText(p map[string]any) string {
	text := fmt.Sprintf("%s → %s", tl.raw(p, "from"), tl.raw(p, "to"))
	if in := tl.raw(p, "intent"); in != "" {
		text += "  (" + in + slotsText(tl, p["slots"]) + ")"
	}
	return text
}

// endText is a turn end's line: the outcome, the state it went to, the
// error code.
func (tl *Timeline) endText(p map[string]any) string {
	text := tl.raw(p, "outcome")
	if to := tl.raw(p, "to"); to != "" {
		text += " → " + to
	}
	if code := tl.raw(p, "code"); code != "" {
		text += " (" + code + ")"
	}
	return text
}

// returnedText is a host call's result line: its error (an error line)
// or its data.
func (tl *Timeline) returnedText(p map[string]any) (Category, string) {
	text := tl.raw(p, "namespace") + " returned"
	if e := tl.raw(p, "error"); e != "" {
		return CatError, text + " error: " + tl.clip(e)
	}
	if d, ok := p["data"]; ok {
		text += " " + tl.value(d)
	}
	return CatHost, text
}

// callStartText is an agent call's first line: verb → agent (model), the
// call and its episode.
func (tl *Timeline) callStartText(ev *Event, p map[string]any) string {
	text := fmt.Sprintf("%s → %s", cmp.Or(tl.raw(p, "verb"), "?"), cmp.Or(tl.raw(p, "agent"), defaultAgent))
	if m := tl.raw(p, "model"); m != "" {
		text += " (" + m + ")"
	}
	text += "  call " + ev.CallID
	if ev.EpisodeID != "" {
		text += " episode " + ev.EpisodeID
	}
	return text
}

// Open returns the agent calls that have not finished (so far).
func (tl *Timeline) Open() iter.Seq[*Call] { return tl.calls.Open() }

// callSummary is the one-line result of an agent call: verb, outcome,
// duration, tokens, cost, fallback and sub-event count.
func callSummary(c *Call) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s ← %s", cmp.Or(c.Verb, "?"), c.Outcome)
	if c.Outcome == OutcomeError {
		fmt.Fprintf(&b, " [%s]", c.ErrorKind)
	}
	fmt.Fprintf(&b, " %s", FormatDuration(c.DurationMS))
	if c.InputTokens > 0 || c.OutputTokens > 0 {
		fmt.Fprintf(&b, " in=%d out=%d", c.InputTokens, c.OutputTokens)
	}
	if c.CostUSD > 0 {
		fmt.Fprintf(&b, " $%.4f", c.CostUSD)
	}
	if s := c.Substitution; s != nil {
		fmt.Fprintf(&b, " fallback %s → %s", cmp.Or(s.OriginalPlugin, "?"), cmp.Or(s.FallbackPlugin, "?"))
		if s.Reason != "" {
			fmt.Fprintf(&b, " (%s)", s.Reason)
		}
	}
	if c.SubEvents > 0 {
		fmt.Fprintf(&b, " · %d sub-events", c.SubEvents)
	}
	if c.Outcome == OutcomeError && c.Error != "" {
		fmt.Fprintf(&b, ": %s", clip(c.Error, 160))
	}
	return b.String()
}

// FormatDuration prints milliseconds as 850ms, 1.2s or 2m05s.
func FormatDuration(ms int64) string {
	switch {
	case ms < 1000:
		return fmt.Sprintf("%dms", ms)
	case ms < 60_000:
		return strconv.FormatFloat(float64(ms)/1000, 'f', 1, 64) + "s"
	}
	return fmt.Sprintf("%dm%02ds", ms/60_000, (ms%60_000)/1000)
}

// clip is clip at MaxValue runes (80 when it is not above 0).
func (tl *Timeline) clip(s string) string { return clip(s, cmp.Or(max(tl.MaxValue, 0), 80)) }

// clip shortens s to n runes with an ellipsis, showing line breaks as ⏎,
// reading no more of s than it keeps.
func clip(s string, n int) string {
	var b strings.Builder
	kept := 0
	for i := 0; i < len(s); {
		if kept == n {
			b.WriteString("…")
			return b.String()
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\r' && strings.HasPrefix(s[i+size:], "\n"):
			b.WriteString("⏎")
			size++
		case r == '\n':
			b.WriteString("⏎")
		default:
			b.WriteRune(r) // an invalid byte as U+FFFD, as a rune conversion does
		}
		i += size
		kept++
	}
	// Short enough: kept whole, invalid bytes as they were.
	s = strings.ReplaceAll(s, "\r\n", "⏎")
	return strings.ReplaceAll(s, "\n", "⏎")
}

// value renders a JSON value compactly: strings quoted, objects as JSON.
func (tl *Timeline) value(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(tl.clip(x))
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	case bigValue:
		return x.preview(tl)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return tl.clip(string(b))
}

// kv renders the payload's members (sorted) as k=v, skipping keys in skip.
func (tl *Timeline) kv(p map[string]any, skip ...string) string {
	keys := slices.DeleteFunc(slices.Sorted(maps.Keys(p)), func(k string) bool { return slices.Contains(skip, k) })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + tl.value(p[k])
	}
	return strings.Join(parts, " ")
}

func slotsText(tl *Timeline, v any) string {
	m, ok := object(v)
	if !ok || len(m) == 0 {
		return ""
	}
	return " " + tl.kv(m)
}

func (tl *Timeline) worldText(p map[string]any) string {
	var parts []string
	if m, ok := object(p["set"]); ok {
		parts = append(parts, "set "+tl.kv(m))
	}
	if m, ok := object(p["increment"]); ok {
		keys := slices.Sorted(maps.Keys(m))
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%s += %s", k, tl.value(m[k])))
		}
	}
	if s, ok := text(p["skipped"]); ok {
		parts = append(parts, "(skipped: "+s+")")
	}
	if len(parts) == 0 {
		return tl.kv(p)
	}
	return strings.Join(parts, "; ")
}
