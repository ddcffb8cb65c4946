package trace

import (
	"regexp"
	"testing"
	"time"
)

// A session id is the UTC time, the app id with other characters folded
// to "-" ("story" when none is left) and four random hex digits, so that
// Resolve finds a run's trace by its time or its app.
func TestNewSessionID(t *testing.T) {
	at := time.Date(2026, 11, 30, 12, 39, 26, 0, time.FixedZone("CET", 3600))
	for app, want := range map[string]string{
		"ci-triage":    `^20261130T113926Z-ci-triage-[0-9a-f]{4}$`,
		"a b/c\n..d":   `^20261130T113926Z-a-b-c-\.\.d-[0-9a-f]{4}$`,
		"":             `^20261130T113926Z-story-[0-9a-f]{4}$`,
		"été":          `^20261130T113926Z--t--[0-9a-f]{4}$`,
		"v1.2_release": `^20261130T113926Z-v1\.2_release-[0-9a-f]{4}$`,
	} {
		if got := NewSessionID(app, at); !regexp.MustCompile(want).MatchString(got) {
			t.Errorf("NewSessionID(%q) = %q, want %s", app, got, want)
		}
	}
}
