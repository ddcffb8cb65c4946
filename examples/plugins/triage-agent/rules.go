package main

import (
	"regexp"
	"strings"
)

var (
	failRE     = regexp.MustCompile(`--- FAIL: (\S+)`)
	buildRE    = regexp.MustCompile(`(?m)(undefined: \S+|cannot use .+|syntax error.*|declared and not used.*)`)
	exitRE     = regexp.MustCompile(`(?i)exit code:?\s*(-?\d+)`)
	severityRE = regexp.MustCompile(`(?i)\bsev(?:erity)?\s*[:=]?\s*([0-9])\b`)
	serviceRE  = regexp.MustCompile(`(?i)\bservice\s*[:=]\s*([a-z0-9_.-]+)`)
)

// triage classifies a CI failure from the text of the prompt. Rules, first
// match wins: network/infrastructure errors escalate; timeouts retry; failing
// tests and build errors ask for a fix; a zero exit code needs nothing.
func triage(prompt string) map[string]any {
	low := strings.ToLower(prompt)
	out := map[string]any{"failing_tests": []string{}}
	if m := exitRE.FindStringSubmatch(prompt); m != nil && m[1] == "0" {
		out["action"], out["category"], out["confidence"] = "none", "green", 0.99
		out["reason"] = "the command succeeded"
		return out
	}
	switch {
	case strings.Contains(low, "connection refused") || strings.Contains(low, "no such host") || strings.Contains(low, "tls handshake"):
		out["action"], out["category"], out["confidence"] = "escalate", "infrastructure", 0.8
		out["reason"] = "the job could not reach a service it depends on; a human should check the environment"
	case strings.Contains(low, "test timed out") || strings.Contains(low, "deadline exceeded"):
		out["action"], out["category"], out["confidence"] = "retry", "flaky", 0.6
		out["reason"] = "a timeout, usually flaky: retry once before anyone looks at it"
	case failRE.MatchString(prompt):
		var tests []string
		seen := map[string]bool{}
		for _, m := range failRE.FindAllStringSubmatch(prompt, -1) {
			if !seen[m[1]] {
				seen[m[1]] = true
				tests = append(tests, m[1])
			}
		}
		out["failing_tests"] = tests
		out["action"], out["category"], out["confidence"] = "fix", "test", 0.9
		out["reason"] = "deterministic test failure in " + strings.Join(tests, ", ")
	case buildRE.MatchString(prompt):
		out["action"], out["category"], out["confidence"] = "fix", "build", 0.9
		out["reason"] = "the code does not compile: " + strings.TrimSpace(buildRE.FindString(prompt))
	default:
		out["action"], out["category"], out["confidence"] = "escalate", "unknown", 0.3
		out["reason"] = "no rule matched the failure output"
	}
	return out
}

// extractAlert pulls a severity (1-5, default 3) and a service name out of
// an alert text.
func extractAlert(prompt string) map[string]any {
	sev := 3
	if m := severityRE.FindStringSubmatch(prompt); m != nil {
		sev = int(m[1][0] - '0')
	}
	svc := "unknown"
	if m := serviceRE.FindStringSubmatch(prompt); m != nil {
		svc = strings.ToLower(m[1])
	}
	return map[string]any{"severity": sev, "service": svc}
}

// summarize answers with the first non-empty line of the prompt's last
// paragraph, prefixed, so the answer is visibly derived from the prompt.
func summarize(prompt string) string {
	paras := strings.Split(strings.TrimSpace(prompt), "\n\n")
	last := strings.TrimSpace(paras[len(paras)-1])
	line, _, _ := strings.Cut(last, "\n")
	return "noted: " + strings.TrimSpace(line)
}
