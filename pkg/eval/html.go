package eval

import (
	"bytes"
	"cmp"
	"fmt"
	"html/template"
	"math"
	"sync"

	"kitsoki/internal/jsonvalue"
)

// maxHTMLRows is the most candidates and failure samples one page draws
// (eval run keeps 50 failure samples).
const maxHTMLRows = 1000

// RenderHTML renders a report as one self-contained HTML page (summary,
// candidates, an SVG chart of pass rate against cost, decision, failure
// samples), drawing at most maxHTMLRows rows of each list.
func RenderHTML(r *Report) ([]byte, error) {
	var buf bytes.Buffer
	cut := *r
	cut.Candidates, cut.FailureSamples = capRows(r.Candidates), capRows(r.FailureSamples)
	data := map[string]any{"R": &cut, "Chart": template.HTML(chartSVG(&cut)),
		"MoreCandidates": len(r.Candidates) - len(cut.Candidates), "MoreSamples": len(r.FailureSamples) - len(cut.FailureSamples)}
	if err := htmlTmpl().Execute(&buf, data); err != nil {
		return nil, fmt.Errorf("eval show --html: %v", err)
	}
	return buf.Bytes(), nil
}

func chartSVG(r *Report) string {
	const w, h, left, bottom, top, right = 560.0, 320.0, 60.0, 40.0, 20.0, 20.0
	maxCost := 0.0
	for _, c := range r.Candidates {
		if c.AvgCostUSD != nil && *c.AvgCostUSD > maxCost {
			maxCost = *c.AvgCostUSD
		}
	}
	maxCost = cmp.Or(maxCost, 1) * 1.1
	x := func(cost float64) float64 { return left + (w-left-right)*cost/maxCost }
	y := func(rate float64) float64 { return top + (h-top-bottom)*(1-rate) }
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" role="img" aria-label="pass rate against average cost">`, w, h, w, h)
	fmt.Fprintf(&b, `<rect x="%g" y="%g" width="%g" height="%g" fill="none" stroke="#999"/>`, left, top, w-left-right, h-top-bottom)
	for _, t := range []float64{0, 0.25, 0.5, 0.75, 1} {
		fmt.Fprintf(&b, `<line x1="%g" x2="%g" y1="%.1f" y2="%.1f" stroke="#eee"/><text x="%g" y="%.1f" font-size="11" text-anchor="end">%.2f</text>`, left, w-right, y(t), y(t), left-6, y(t)+4, t)
		fmt.Fprintf(&b, `<text x="%.1f" y="%g" font-size="11" text-anchor="middle">$%.4g</text>`, x(t*maxCost), h-bottom+16, t*maxCost)
	}
	if r.AdherenceBar != nil {
		fmt.Fprintf(&b, `<line x1="%g" x2="%g" y1="%.1f" y2="%.1f" stroke="#c33" stroke-dasharray="4 3"><title>min pass rate %.2f</title></line>`, left, w-right, y(r.AdherenceBar.MinPassRate), y(r.AdherenceBar.MinPassRate), r.AdherenceBar.MinPassRate)
		if r.AdherenceBar.MaxAvgCostUSD != nil && *r.AdherenceBar.MaxAvgCostUSD <= maxCost {
			cx := x(*r.AdherenceBar.MaxAvgCostUSD)
			fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%g" y2="%g" stroke="#c33" stroke-dasharray="4 3"><title>max avg cost</title></line>`, cx, cx, top, h-bottom)
		}
	}
	fmt.Fprintf(&b, `<text x="%g" y="%g" font-size="12" text-anchor="middle">avg cost (USD)</text>`, left+(w-left-right)/2, h-6)
	fmt.Fprintf(&b, `<text x="14" y="%g" font-size="12" text-anchor="middle" transform="rotate(-90 14 %g)">comparator pass rate</text>`, top+(h-top-bottom)/2, top+(h-top-bottom)/2)
	for _, c := range r.Candidates {
		cost := valueOr0(c.AvgCostUSD)
		fill := "#fff"
		if c.Pass {
			fill = "#2a7"
		}
		px, py := x(cost), y(math.Max(0, math.Min(1, c.ComparatorPassRate)))
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="6" fill="%s" stroke="#175"><title>%s pass_rate=%.2f cost=%.6f</title></circle>`, px, py, fill, template.HTMLEscapeString(c.Label()), c.ComparatorPassRate, cost)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="10">%s</text>`, px+8, py-6, template.HTMLEscapeString(candidateLabel(c.Profile, c.Model, "")))
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// htmlTmpl is parsed on first use, not at start-up.
var htmlTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"pct":  pct,
		"ms":   func(p *int64) string { return orDash(p, func(v int64) string { return fmt.Sprintf("%d ms", v) }) },
		"usd":  usdText,
		"rate": func(p *float64) string { return orDash(p, pct) },
		"ci": func(ci []float64) string {
			if len(ci) != 2 {
				return "–"
			}
			return pct(ci[0]) + "–" + pct(ci[1])
		},
		"json":  jsonString,
		"label": candidateLabel,
	}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>eval {{.R.Call}}</title>
<style>
body{font-family:system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin:1em 0}
th,td{border:1px solid #ccc;padding:4px 8px;text-align:right}
th:first-child,td:first-child{text-align:left}
tr.pass td:first-child{border-left:4px solid #2a7}
tr.fail td:first-child{border-left:4px solid #c33}
code,pre{background:#f6f6f6}
</style></head><body>
<h1>eval <code>{{.R.Call}}</code></h1>
<p>app <code>{{.R.App}}</code> · generated {{.R.GeneratedAt}}{{if .R.Run}} · {{.R.Run.Mode}} · {{.R.Run.Jobs}} calls{{end}}</p>
{{with .R.AdherenceBar}}<p>adherence bar: pass rate ≥ {{pct .MinPassRate}}{{if .MinPassKRate}}, pass^k ≥ {{rate .MinPassKRate}}{{end}}{{if .MaxP95LatencyMS}}, p95 ≤ {{ms .MaxP95LatencyMS}}{{end}}{{if .MaxAvgCostUSD}}, avg cost ≤ {{usd .MaxAvgCostUSD}}{{end}}</p>{{end}}
<h2>Candidates</h2>
<table><thead><tr><th>profile / model</th><th>effort</th><th>pass</th><th>comparator</th><th>95% interval</th><th>schema valid</th><th>contract</th><th>pass^k</th><th>p50</th><th>p95</th><th>p99</th><th>avg cost</th><th>p95 cost</th><th>retry</th><th>fallback</th><th>calls</th><th>rejected</th></tr></thead><tbody>
{{range .R.Candidates}}<tr class="{{if .Pass}}pass{{else}}fail{{end}}"><td>{{label .Profile .Model ""}}</td><td>{{.Effort}}</td><td>{{if .Pass}}pass{{else}}fail{{end}}</td><td>{{pct .ComparatorPassRate}}</td><td>{{ci .PassRateCI95}}</td><td>{{pct .SchemaValidRate}}</td><td>{{pct .ContractConformanceRate}}</td><td>{{rate .PassKRate}}</td><td>{{ms .P50LatencyMS}}</td><td>{{ms .P95LatencyMS}}</td><td>{{ms .P99LatencyMS}}</td><td>{{usd .AvgCostUSD}}</td><td>{{usd .P95CostUSD}}</td><td>{{rate .RetryRate}}</td><td>{{rate .FallbackRate}}</td><td>{{.ExamplesRun}}</td><td>{{.Rejected}}</td></tr>
{{end}}</tbody></table>
{{if .MoreCandidates}}<p>{{.MoreCandidates}} more candidates not shown; see the JSON report.</p>{{end}}
<h2>Pass rate against cost</h2>
{{.Chart}}
{{with .R.Decision}}<h2>Decision</h2>
<p>{{.Strategy}}: {{if .SelectedProfile}}<strong>{{label .SelectedProfile .SelectedModel .SelectedEffort}}</strong>{{else}}no candidate passed{{end}}{{if .FallbackProfile}} · fallback {{.FallbackProfile}}{{end}}</p>
{{if .RejectedSummary}}<p>rejected: {{.RejectedSummary}}</p>{{end}}{{end}}
{{if .R.FailureSamples}}<h2>Failure samples</h2>
<table><thead><tr><th>example</th><th>candidate</th><th>reason</th><th>expect</th><th>actual</th></tr></thead><tbody>
{{range .R.FailureSamples}}<tr><td>{{.Example}}</td><td>{{.Label}}</td><td style="text-align:left">{{.Reason}}</td><td style="text-align:left"><code>{{json .Expect}}</code></td><td style="text-align:left"><code>{{json .Actual}}</code></td></tr>
{{end}}</tbody></table>{{end}}
{{if .MoreSamples}}<p>{{.MoreSamples}} more failure samples not shown; see the JSON report.</p>{{end}}
</body></html>
`))
})

// pct is a rate as a whole percentage ("95%").
func pct(f float64) string { return fmt.Sprintf("%.0f%%", f*100) }

// orDash is f(*p), or "–" for an unmeasured (nil) p.
func orDash[T any](p *T, f func(T) string) string {
	if p == nil {
		return "–"
	}
	return f(*p)
}

// valueOr0 is *p, or T's zero value when p is nil.
func valueOr0[T any](p *T) (v T) {
	if p != nil {
		v = *p
	}
	return v
}

func jsonString(v any) string {
	if v == nil {
		return ""
	}
	b, err := jsonvalue.MarshalNoHTML(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
