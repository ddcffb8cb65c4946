package host

import (
	"strings"
	"testing"
	"time"
)

// call runs one handler call in a fresh environment. A hang is go test's
// -timeout to catch: a deadline of its own would fail a slow but live
// call on a loaded machine (TestStarlarkHeapWatch did under -race).
func call(t *testing.T, h Handler, env Env, args map[string]any) (Result, error) {
	t.Helper()
	return h.Call(t.Context(), &Call{Args: args, Env: env})
}

// mustOK fails unless the call succeeded without a domain error.
func mustOK(t *testing.T, h Handler, env Env, args map[string]any) map[string]any {
	t.Helper()
	res, err := call(t, h, env, args)
	if err != nil {
		t.Fatalf("infra error: %v", err)
	}
	if res.Error != "" {
		t.Fatalf("domain error: %s", res.Error)
	}
	return res.Data
}

// wantDomainErr fails unless the call ends in a domain error (no infra
// error) whose text contains want; what names the case.
func wantDomainErr(t *testing.T, h Handler, env Env, args map[string]any, what, want string) {
	t.Helper()
	res, err := call(t, h, env, args)
	if err != nil || !strings.Contains(res.Error, want) {
		t.Errorf("%s: domain error %q (infra error %v), want one containing %q", what, res.Error, err, want)
	}
}

// parseErrCase is a source a parser must refuse and a part of the error.
type parseErrCase struct{ src, want string }

// wantParseErrs fails for each case parse accepts, or refuses with an
// error that does not contain the case's want.
func wantParseErrs(t *testing.T, parse func(src []byte) error, cases []parseErrCase) {
	t.Helper()
	for _, c := range cases {
		if err := parse([]byte(c.src)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.src, err, c.want)
		}
	}
}

func fixedClock() func() time.Time {
	return func() time.Time { return time.Date(2026, 12, 1, 9, 19, 52, 0, time.UTC) }
}

func sprint(v any) string { return fmtSprint(v) }
