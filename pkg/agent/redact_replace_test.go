package agent

import (
	"strings"
	"testing"

	"kitsoki/internal/testing/allocs"
)

// FuzzReplaceAsReplacer holds the redactor's masking to
// strings.Replacer.Replace, with a secret in its every form.
func FuzzReplaceAsReplacer(f *testing.F) {
	rd := redactorOf([]string{"sk-secret-0123456789", "pa$$ word/é"})
	for _, s := range []string{"", "plain", "sk-secret-0123456789", "a sk-secret-0123456789 b sk-secret-0123456789", "pa%24%24+word%2F%C3%A9", `pa$$ word\/\u00e9 x`, "sk-secret-012345678"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := rd.replace(s), rd.r.Replace(s); got != want {
			t.Fatalf("%q: got %q, want %q", s, got, want)
		}
	})
}

// Masking a big answer that holds no secret does not copy it; one that
// holds one is masked whole.
func TestMaskBigAnswerWithoutCopy(t *testing.T) {
	rd := redactorOf([]string{"sk-secret-0123456789"})
	answer := strings.Repeat("big answer ", 1<<20/11)
	var got any
	spent := allocs.During(func() { got = rd.value(map[string]any{"text": answer, "list": []any{answer}}) })
	if got.(map[string]any)["text"] != answer {
		t.Fatal("the answer changed")
	}
	t.Logf("masking an %d-byte answer twice: allocated %d", len(answer), spent)
	if spent > 64<<10 {
		t.Errorf("masking an %d-byte answer without a secret allocated %d bytes", len(answer), spent)
	}
	if got := rd.String(answer + "sk-secret-0123456789" + answer[:5]); got != answer+Redacted+answer[:5] {
		t.Errorf("the secret was not masked: %q", got[len(got)-40:])
	}
}
