package eval

import (
	"bytes"
	"fmt"
	"strings"

	"kitsoki/internal/termsafe"
)

// maxMarkdownSamples is the most failure samples the Markdown summary
// lists: it is meant for a pull-request comment, not the whole report.
const maxMarkdownSamples = 10

// RenderMarkdown renders a report as a Markdown summary for a pull-request
// comment: the decision, a table of candidates and the first failure
// samples. Every value from the report is escaped, so a report cannot add
// markup, links or HTML to the comment.
func RenderMarkdown(r *Report) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "### kitsoki eval `%s`\n\n", codeSpan(r.Call))
	if d := r.Decision; d != nil {
		if d.SelectedProfile != "" {
			fmt.Fprintf(&b, "**Selected:** %s (%s)\n\n", mdCell(d.selectedLabel()), mdCell(d.Strategy))
		} else {
			fmt.Fprintf(&b, "**No candidate passed** the adherence bar (%s).\n\n", mdCell(d.Strategy))
		}
	}
	if a := r.AdherenceBar; a != nil {
		fmt.Fprintf(&b, "Adherence bar: pass rate ≥ %.2f", a.MinPassRate)
		if a.MinPassKRate != nil {
			fmt.Fprintf(&b, ", pass^k ≥ %.2f", *a.MinPassKRate)
		}
		if a.MaxP95LatencyMS != nil {
			fmt.Fprintf(&b, ", p95 ≤ %dms", *a.MaxP95LatencyMS)
		}
		if a.MaxAvgCostUSD != nil {
			fmt.Fprintf(&b, ", avg cost ≤ $%.6f", *a.MaxAvgCostUSD)
		}
		b.WriteString("\n\n")
	}
	b.WriteString("| candidate | verdict | pass rate | 95% interval | pass^k | p50 | p95 | p99 | avg cost | calls | rejected |\n")
	b.WriteString("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|\n")
	cands := capRows(r.Candidates)
	for _, c := range cands {
		verdict := "❌ fail"
		if c.Pass {
			verdict = "✅ pass"
		}
		ci := "–"
		if len(c.PassRateCI95) == 2 {
			ci = fmt.Sprintf("%.2f–%.2f", c.PassRateCI95[0], c.PassRateCI95[1])
		}
		fmt.Fprintf(&b, "| %s | %s | %.2f | %s | %s | %s | %s | %s | %s | %d | %s |\n",
			mdCell(c.Label()), verdict, c.ComparatorPassRate, ci,
			rateText(c.PassKRate),
			msText(c.P50LatencyMS), msText(c.P95LatencyMS), msText(c.P99LatencyMS), usdText(c.AvgCostUSD), c.ExamplesRun, mdCell(c.Rejected))
	}
	if more := len(r.Candidates) - len(cands); more > 0 {
		fmt.Fprintf(&b, "\n%d more candidates not shown; see the JSON report.\n", more)
	}
	flakyHead := false
	for _, c := range cands {
		if len(c.FlakyExamples) == 0 {
			continue
		}
		if !flakyHead {
			b.WriteString("\nFlaky (passed on some repeats, failed on others):\n\n")
			flakyHead = true
		}
		names := make([]string, len(c.FlakyExamples))
		for i, n := range c.FlakyExamples {
			names[i] = mdCell(n)
		}
		fmt.Fprintf(&b, "- %s: %s\n", mdCell(c.Label()), strings.Join(names, ", "))
	}
	if n := len(r.FailureSamples); n > 0 {
		fmt.Fprintf(&b, "\n<details><summary>Failure samples (%d)</summary>\n\n", n)
		for i, fs := range r.FailureSamples {
			if i == maxMarkdownSamples {
				fmt.Fprintf(&b, "- … %d more in the JSON report\n", n-i)
				break
			}
			fmt.Fprintf(&b, "- %s, example %s, repeat %d: %s\n", mdCell(fs.Label()), mdCell(fs.Example), fs.Repeat, mdCell(fs.Reason))
		}
		b.WriteString("\n</details>\n")
	}
	return b.Bytes()
}

// mdCell escapes text for one Markdown table cell: one line, no HTML, and
// every character that could start inline markup (emphasis, code, links,
// images, strike-through) or end the cell taken literally.
func mdCell(s string) string {
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case termsafe.IsControl(r):
			fmt.Fprintf(&b, "\\u%04X", r)
		case strings.ContainsRune("\\`*_{}[]|~", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// codeSpan is s inside a single-backtick code span: backticks, control and
// bidi characters removed, since a code span cannot escape them.
func codeSpan(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '`' || r == '\n' || r == '\t' || termsafe.IsControl(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, ""))
}
