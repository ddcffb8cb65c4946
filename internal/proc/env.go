package proc

import (
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
)

// inheritedEnv lists the variables [MinimalEnv] keeps from kitsoki's
// environment: what a program needs to find executables, write temp files
// and decode text (PATH, HOME, USER, LOGNAME, SHELL, TMPDIR/TEMP/TMP, LANG,
// LANGUAGE, LC_*, TZ, TERM), plus the Windows essentials (SYSTEMROOT,
// COMSPEC, PATHEXT, USERPROFILE, APPDATA, LOCALAPPDATA, PROGRAMDATA,
// WINDIR).
var inheritedEnv = []string{
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TMPDIR", "TEMP", "TMP",
	"LANG", "LANGUAGE", "TZ", "TERM",
	"SYSTEMROOT", "COMSPEC", "PATHEXT", "USERPROFILE", "APPDATA", "LOCALAPPDATA", "PROGRAMDATA", "WINDIR",
}

// MinimalEnv is the environment of a child that must not see kitsoki's
// secrets: the inherited variables of parent (os.Environ() form) plus
// extra, which wins on a clash (case-insensitively on Windows). The result
// is sorted by key so the child sees a deterministic environment.
func MinimalEnv(parent []string, extra map[string]string) []string {
	m := map[string]string{}
	for _, kv := range parent {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			continue
		}
		if inheritedKey(k) {
			m[k] = v
		}
	}
	for k, v := range extra {
		if runtime.GOOS == "windows" {
			for have := range m {
				if strings.EqualFold(have, k) {
					delete(m, have)
				}
			}
		}
		m[k] = v
	}
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	slices.Sort(out)
	return out
}

func inheritedKey(k string) bool {
	if runtime.GOOS == "windows" {
		k = strings.ToUpper(k)
	}
	return strings.HasPrefix(k, "LC_") || slices.Contains(inheritedEnv, k)
}

// FullEnv is the environment of a child that needs the user's whole
// configuration (the claude CLI, a story's own plugins): os.Environ() plus
// extra, which wins on a clash, extra's keys appended in sorted order.
func FullEnv(extra map[string]string) []string {
	env := os.Environ()
	if len(extra) == 0 {
		return env
	}
	out := env[:0:0]
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if _, over := extra[k]; !over {
			out = append(out, kv)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		out = append(out, k+"="+extra[k])
	}
	return out
}
