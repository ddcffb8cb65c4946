package cmd

import (
	"bytes"
	"testing"

	"kitsoki/pkg/diag"
)

func TestWarnDiagLine(t *testing.T) {
	for _, tc := range []struct {
		d    diag.Diagnostic
		want string
	}{
		{diag.Diagnostic{Severity: diag.Warning, Message: "hook x is disabled", Rule: "profile"}, "kitsoki: warning: hook x is disabled [profile]\n"},
		{diag.Diagnostic{File: "app.yaml", Line: 3, Col: 5, Severity: diag.Warning, Message: "m", Rule: "r"}, "kitsoki: warning: app.yaml:3:5: m [r]\n"},
	} {
		var b bytes.Buffer
		warnDiag(&b, tc.d)
		if b.String() != tc.want {
			t.Errorf("got %q, want %q", b.String(), tc.want)
		}
	}
}
