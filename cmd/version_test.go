package cmd

import (
	"runtime/debug"
	"testing"
)

func TestVersionFromBuildInfo(t *testing.T) {
	vcs := func(rev, mod string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: mod}}
	}
	cases := []struct {
		name         string
		v, c         string
		info         debug.BuildInfo
		wantV, wantC string
	}{
		{"plain go build in a checkout", "dev", "none",
			debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("0123456789abcdef0123", "false")},
			"dev", "0123456789ab"},
		{"dirty checkout", "dev", "none",
			debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("abc", "true")},
			"dev", "abc-dirty"},
		{"go install module@version", "dev", "none",
			debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}},
			"v1.4.0", "none"},
		{"ldflags win", "v2.0.0", "deadbee",
			debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}, Settings: vcs("abc", "false")},
			"v2.0.0", "deadbee"},
	}
	for _, tc := range cases {
		v, c := fromBuildInfo(tc.v, tc.c, &tc.info)
		if v != tc.wantV || c != tc.wantC {
			t.Errorf("%s: got (%s, %s), want (%s, %s)", tc.name, v, c, tc.wantV, tc.wantC)
		}
	}
}
