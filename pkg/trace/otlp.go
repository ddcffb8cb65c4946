package trace

import (
	"bufio"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"time"

	"kitsoki/internal/safefile"
)

// OTLP span kinds and status codes (opentelemetry-proto, JSON mapping).
const (
	spanKindInternal = 1
	spanKindClient   = 3
	statusOK         = 1
	statusError      = 2
)

type otlpValue struct {
	StringValue *string  `json:"stringValue,omitempty"`
	IntValue    *string  `json:"intValue,omitempty"`
	DoubleValue *float64 `json:"doubleValue,omitempty"`
}

type otlpAttr struct {
	Key   string    `json:"key"`
	Value otlpValue `json:"value"`
}

type otlpStatus struct {
	Code    int    `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
}

type otlpSpan struct {
	TraceID           string      `json:"traceId"`
	SpanID            string      `json:"spanId"`
	ParentSpanID      string      `json:"parentSpanId,omitempty"`
	Name              string      `json:"name"`
	Kind              int         `json:"kind"`
	StartTimeUnixNano string      `json:"startTimeUnixNano"`
	EndTimeUnixNano   string      `json:"endTimeUnixNano"`
	Attributes        []otlpAttr  `json:"attributes,omitempty"`
	Status            *otlpStatus `json:"status,omitempty"`
}

type attrs []otlpAttr

func (a *attrs) str(k, v string) {
	if v != "" {
		*a = append(*a, otlpAttr{Key: k, Value: otlpValue{StringValue: &v}})
	}
}

func (a *attrs) int(k string, v int64) {
	s := strconv.FormatInt(v, 10)
	*a = append(*a, otlpAttr{Key: k, Value: otlpValue{IntValue: &s}})
}

func (a *attrs) float(k string, v float64) {
	*a = append(*a, otlpAttr{Key: k, Value: otlpValue{DoubleValue: &v}})
}

// unixNano is t as OTLP's unsigned nanoseconds since 1970: a time before
// 1970 (or none) is 0 and one past 2262 the largest (UnixNano is undefined
// there, and a negative count is no fixed64 a collector reads).
func unixNano(t time.Time) string {
	switch {
	case t.IsZero() || t.Unix() < 0:
		return "0"
	case t.After(maxNanoTime):
		return strconv.FormatInt(math.MaxInt64, 10)
	}
	return strconv.FormatInt(t.UnixNano(), 10)
}

var maxNanoTime = time.Unix(0, math.MaxInt64)

// spanEnd is end, or start when end is before it: a trace whose clock went
// back, or a negative duration_ms, would give a span a collector refuses.
func spanEnd(start, end time.Time) time.Time {
	if end.Before(start) {
		return start
	}
	return end
}

// callEnd is the end of a call of ms milliseconds from start, the longest
// a time.Duration holds when ms is more (the product overflows).
func callEnd(start time.Time, ms int64) time.Time {
	const most = math.MaxInt64 / int64(time.Millisecond)
	return start.Add(time.Duration(min(max(ms, 0), most)) * time.Millisecond)
}

// OTLPOptions tune ExportOTLP.
type OTLPOptions struct {
	ServiceName    string // resource service.name; default "kitsoki"
	ServiceVersion string
	// Content adds prompts, system prompts and answers to agent call
	// spans (gen_ai.input.messages, gen_ai.system_instructions,
	// gen_ai.output.messages), as the conventions' opt-in content; texts in
	// sidecars are read from beside TracePath.
	Content   bool
	TracePath string
}

// ExportOTLP streams a trace as an OTLP/JSON ExportTraceServiceRequest:
// one span for the run (written last), one per host call and one per agent
// call (GenAI attributes) under the host.agent.* call that made it. On a
// corrupt trace the JSON is still closed and the read error returned.
func ExportOTLP(r io.Reader, name string, out io.Writer, opt OTLPOptions) (err error) {
	opt.ServiceName = cmp.Or(opt.ServiceName, "kitsoki")
	rd := NewReader(r, ReadOptions{Name: name, KeepPayload: callPayload})
	h, err := rd.Header()
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(out, 64<<10)
	sum := sha256.Sum256([]byte("kitsoki-trace:" + h.WrittenAt.UTC().Format(time.RFC3339Nano) + ":" + h.AppID + ":" + h.Story))
	traceID := hex.EncodeToString(sum[:16])
	spanID := func(key string) string {
		s := sha256.Sum256([]byte(traceID + ":" + key))
		return hex.EncodeToString(s[:8])
	}
	runID := spanID("run")
	var res attrs
	res.str("service.name", opt.ServiceName)
	res.str("service.version", opt.ServiceVersion)
	res.str("kitsoki.app_id", h.AppID)
	head, _ := json.Marshal(struct {
		Attributes []otlpAttr `json:"attributes"`
	}{res})
	scope, _ := json.Marshal(map[string]string{"name": "kitsoki/trace", "version": opt.ServiceVersion})
	fmt.Fprintf(bw, `{"resourceSpans":[{"resource":%s,"scopeSpans":[{"scope":%s,"spans":[`, head, scope)
	n := 0
	write := func(s *otlpSpan) {
		b, _ := json.Marshal(s)
		if n > 0 {
			bw.WriteByte(',')
		}
		bw.WriteByte('\n')
		bw.Write(b)
		n++
	}
	calls := CallTracker{KeepPrompt: opt.Content}
	var texts *sidecarOnce[string] // each prompt or response sidecar read once
	if opt.Content && opt.TracePath != "" && opt.TracePath != "-" {
		texts = newSidecarOnce[string](opt.TracePath, safefile.Data, maxExportTexts)
	}
	var hosts hostTracker
	hostN := 0
	// An agent call's span nests under the host.agent.* call open when it
	// started; its provider is what agent.call.start says.
	hostSpanID := func(hc *HostCall, n int) string {
		if hc.StartLine > 0 {
			return spanID("host@" + strconv.Itoa(hc.StartLine))
		}
		return spanID("host:" + strconv.Itoa(n))
	}
	// call_id -> its parent span and what its agent.call.start said
	open := map[string]openSpan{}
	callParent := func(c *Call) string { return cmp.Or(open[c.CallID].parent, runID) }
	var st runStats
	writeHost := func(hc *HostCall) {
		hostN++
		write(hostSpan(hc, traceID, hostSpanID(hc, hostN), runID, st.last))
	}
	rerr := rd.Each(func(ev *Event) {
		st.observe(ev)
		if hc := hosts.observe(ev); hc != nil {
			writeHost(hc)
		}
		if ev.Kind == "agent.call.start" && ev.CallID != "" {
			sp := open[ev.CallID]
			if hc := hosts.openAgentCall(); hc != nil {
				sp.parent = hostSpanID(hc, 0)
			}
			sp.start = readCallStart(ev.Payload, opt.Content)
			open[ev.CallID] = sp
		}
		if c := calls.Observe(ev); c != nil {
			if c.Outcome == OutcomeError {
				st.callErrors++
			}
			write(callSpan(c, traceID, spanID(c.CallID+":"+strconv.Itoa(c.StartLine)), callParent(c), open[c.CallID].start, ev.TS, opt, texts))
			delete(open, c.CallID)
		}
	})
	for c := range calls.Open() {
		write(callSpan(c, traceID, spanID(c.CallID+":"+strconv.Itoa(c.StartLine)), callParent(c), open[c.CallID].start, st.last, opt, texts))
	}
	for _, hc := range hosts.pending() {
		writeHost(hc)
	}
	start, last := st.span(h.WrittenAt)
	var a attrs
	a.str("kitsoki.app_id", h.AppID)
	a.str("kitsoki.story", h.Story)
	a.int("kitsoki.events", int64(st.events))
	a.int("kitsoki.turns", int64(st.turns.n))
	a.int("kitsoki.agent_call_errors", int64(st.callErrors))
	run := &otlpSpan{TraceID: traceID, SpanID: runID, Name: "kitsoki run " + cmp.Or(h.AppID, "story"), Kind: spanKindInternal,
		StartTimeUnixNano: unixNano(start), EndTimeUnixNano: unixNano(last), Attributes: a}
	if rerr != nil {
		run.Status = &otlpStatus{Code: statusError, Message: rerr.Error()}
	}
	write(run)
	bw.WriteString("\n]}]}]}\n")
	if ferr := bw.Flush(); ferr != nil && rerr == nil {
		return fmt.Errorf("export: write: %w", ferr)
	}
	return rerr
}

// runStats counts what the run span reports: events, turns, failed agent
// calls, and the first and last timestamps.
type runStats struct {
	first, last        time.Time
	events, callErrors int
	turns              turnCounter
}

func (st *runStats) observe(ev *Event) {
	st.events++
	st.turns.see(ev.Turn)
	if st.first.IsZero() && !ev.TS.IsZero() {
		st.first = ev.TS
	}
	if ev.TS.After(st.last) {
		st.last = ev.TS
	}
}

// span is the run's start (the header's time, or the first event's when
// earlier or the header has none) and end (never before the start).
func (st *runStats) span(written time.Time) (start, end time.Time) {
	start, end = written, st.last
	if start.IsZero() || (!st.first.IsZero() && st.first.Before(start)) {
		start = st.first
	}
	if end.Before(start) {
		end = start
	}
	return start, end
}

// hostSpan is a host call's execute_tool span under the run; a call that
// has not returned ends at last.
func hostSpan(hc *HostCall, traceID, spanID, runID string, last time.Time) *otlpSpan {
	var a attrs
	a.str("gen_ai.operation.name", "execute_tool")
	a.str("gen_ai.tool.name", hc.Namespace)
	a.str("kitsoki.host.namespace", hc.Namespace)
	a.int("kitsoki.turn", int64(hc.Turn))
	a.str("kitsoki.state_path", hc.StatePath)
	end := hc.End
	if end.IsZero() {
		end = last
	}
	end = spanEnd(hc.Start, end)
	sp := &otlpSpan{TraceID: traceID, SpanID: spanID, ParentSpanID: runID,
		Name: "execute_tool " + hc.Namespace, Kind: spanKindInternal, StartTimeUnixNano: unixNano(hc.Start), EndTimeUnixNano: unixNano(end),
		Status: &otlpStatus{Code: statusOK}}
	switch {
	case hc.Error != "":
		a.str("error.type", "host_error")
		sp.Status = &otlpStatus{Code: statusError, Message: clip(hc.Error, 500)}
	case !hc.Returned:
		a.str("error.type", "incomplete")
		sp.Status = &otlpStatus{Code: statusError, Message: "the trace ends before the host call returned"}
	}
	sp.Attributes = a
	return sp
}

// openSpan is what the export holds of an agent call until its result:
// the span it nests under ("" for the run's) and what its start said.
type openSpan struct {
	parent string
	start  callStart
}

// callStart is what an agent.call.start tells the export: the provider
// (an older trace has none, and only "agent.claude" is known to be
// Anthropic's), whether the answer is JSON under a schema, and the sampling
// parameters the story passed in with: (only those the conventions name:
// a trace of many open calls holds no map of each one's with:).
type callStart struct {
	provider     string
	outputJSON   bool
	params       []requestParam
	systemPrompt string // kept only when content is exported
}

// requestParam is one gen_ai.request.* value: requestParams[at], an
// integer when isInt.
type requestParam struct {
	at    uint8
	isInt bool
	i     int64
	f     float64
}

// requestParams maps with: keys to their gen_ai.request.* attributes.
var requestParams = []struct{ with, attr string }{
	{"temperature", "gen_ai.request.temperature"},
	{"top_p", "gen_ai.request.top_p"},
	{"top_k", "gen_ai.request.top_k"},
	{"max_tokens", "gen_ai.request.max_tokens"},
	{"seed", "gen_ai.request.seed"},
}

func readCallStart(p any, content bool) callStart {
	raw, ok := p.(json.RawMessage)
	if !ok {
		return callStart{}
	}
	var s struct {
		Provider, Alias, Agent string
		Schema                 json.RawMessage
		Input                  struct {
			SchemaPath string `json:"schema_path"`
		}
		With         map[string]json.RawMessage
		SystemPrompt string `json:"system_prompt"`
	}
	_ = json.Unmarshal(raw, &s) // members of an unexpected type stay empty
	cs := callStart{provider: interned(s.Provider), params: readRequestParams(s.With)}
	if content {
		cs.systemPrompt = clipContent(s.SystemPrompt) // held while the call is open
	}
	if cs.provider == "" && cmp.Or(s.Alias, s.Agent) == defaultAgent {
		cs.provider = "anthropic"
	}
	cs.outputJSON = (len(s.Schema) > 0 && string(s.Schema) != "null") || s.Input.SchemaPath != ""
	return cs
}

// readRequestParams is the gen_ai.request.* sampling values of with:
// that are JSON numbers; anything else is not a parameter the convention
// names.
func readRequestParams(with map[string]json.RawMessage) []requestParam {
	var ps []requestParam
	for at, rp := range requestParams {
		raw := with[rp.with]
		if len(raw) == 0 || !(raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9')) {
			continue
		}
		if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil && rp.with != "temperature" && rp.with != "top_p" {
			ps = append(ps, requestParam{at: uint8(at), isInt: true, i: n})
		} else if f, err := strconv.ParseFloat(string(raw), 64); err == nil {
			ps = append(ps, requestParam{at: uint8(at), f: f})
		}
	}
	return slices.Clip(ps)
}

// addRequestParams adds the gen_ai.request.* attributes of ps.
func (a *attrs) addRequestParams(ps []requestParam) {
	for _, p := range ps {
		if p.isInt {
			a.int(requestParams[p.at].attr, p.i)
		} else {
			a.float(requestParams[p.at].attr, p.f)
		}
	}
}

// texts reads the content's sidecars (nil: none can be read).
func callSpan(c *Call, traceID, id, parent string, start callStart, fallbackEnd time.Time, opt OTLPOptions, texts *sidecarOnce[string]) *otlpSpan {
	var a attrs
	a.str("gen_ai.operation.name", "invoke_agent")
	a.str("gen_ai.provider.name", cmp.Or(start.provider, "unknown"))
	a.str("gen_ai.agent.name", c.AgentName())
	// The model asked for, and the one that answered: a fallback's differs.
	a.str("gen_ai.request.model", cmp.Or(c.RequestModel, c.Model))
	if c.Outcome == OutcomeOK {
		a.str("gen_ai.response.model", c.Model)
	}
	a.addRequestParams(start.params)
	if start.outputJSON {
		a.str("gen_ai.output.type", "json")
	}
	if c.InputTokens > 0 || c.OutputTokens > 0 {
		a.int("gen_ai.usage.input_tokens", c.InputTokens)
		a.int("gen_ai.usage.output_tokens", c.OutputTokens)
	}
	if c.CacheReadTokens > 0 {
		a.int("gen_ai.usage.cache_read.input_tokens", c.CacheReadTokens)
	}
	if c.CacheCreationTokens > 0 {
		a.int("gen_ai.usage.cache_creation.input_tokens", c.CacheCreationTokens)
	}
	a.str("kitsoki.verb", c.Verb)
	a.str("kitsoki.call_id", c.CallID)
	a.int("kitsoki.turn", int64(c.Turn))
	a.str("kitsoki.state_path", c.StatePath)
	a.str("kitsoki.episode_id", c.EpisodeID)
	if c.CostUSD > 0 {
		// The convention has no cost attribute; gen_ai.usage.cost is the
		// name observability backends read.
		a.float("gen_ai.usage.cost", c.CostUSD)
		a.float("kitsoki.cost_usd", c.CostUSD)
	}
	if c.SubEvents > 0 {
		a.int("kitsoki.sub_events", int64(c.SubEvents))
	}
	if opt.Content {
		a.addContent(c, start, texts)
	}
	if s := c.Substitution; s != nil {
		a.str("kitsoki.fallback.original_plugin", s.OriginalPlugin)
		a.str("kitsoki.fallback.plugin", s.FallbackPlugin)
		a.str("kitsoki.fallback.reason", s.Reason)
	}
	end := callEnd(c.Start, c.DurationMS)
	if c.Outcome == OutcomeOpen {
		end = spanEnd(c.Start, fallbackEnd)
	}
	sp := &otlpSpan{TraceID: traceID, SpanID: id, ParentSpanID: parent, Name: "invoke_agent " + c.AgentName(),
		Kind: spanKindClient, StartTimeUnixNano: unixNano(c.Start), EndTimeUnixNano: unixNano(end)}
	switch c.Outcome {
	case OutcomeOK:
		sp.Status = &otlpStatus{Code: statusOK}
	case OutcomeError:
		a.str("error.type", c.ErrorKind)
		sp.Status = &otlpStatus{Code: statusError, Message: clip(c.Error, 500)}
	default:
		a.str("error.type", "incomplete")
		sp.Status = &otlpStatus{Code: statusError, Message: "the trace ends before the call's result"}
	}
	sp.Attributes = a
	return sp
}

// hostFields reads the namespace and error strings of a harness.* payload.
func hostFields(p any) (ns, errText string) {
	raw, ok := p.(json.RawMessage)
	if !ok {
		return "", ""
	}
	var s struct{ Namespace, Error string }
	_ = json.Unmarshal(raw, &s)
	return s.Namespace, s.Error
}
