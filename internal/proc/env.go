package proc

import (
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
)

// EnvPolicy names what a child inherits from kitsoki's environment.
type EnvPolicy int

const (
	// EnvMinimal keeps only the variables a program needs to find
	// executables, write temp files and decode text (inheritedEnv): for
	// children that must not see kitsoki's secrets. The result is sorted.
	EnvMinimal EnvPolicy = iota
	// EnvInherit keeps kitsoki's whole environment, in its order: for
	// children that need the user's configuration (the claude CLI, a
	// story's own plugins and commands, llama-server).
	EnvInherit
)

// Var is one environment edit, applied after inheritance.
type Var struct {
	Key, Value string
	// Prepend puts Value first on the list variable Key (PATH,
	// LD_LIBRARY_PATH; joined with os.PathListSeparator) instead of
	// replacing it; Value alone when Key is unset or empty.
	Prepend bool
}

// Env is the environment a child sees: Policy's inherited variables, then
// Vars applied in order (a later edit of a key sees the earlier ones).
type Env struct {
	Policy EnvPolicy
	Vars   []Var
}

// Set returns edits setting m's entries, in key order.
func Set(m map[string]string) []Var {
	out := make([]Var, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, Var{Key: k, Value: m[k]})
	}
	return out
}

// Build returns the environment for parent (os.Environ() form). A key
// set twice in parent keeps its last value, as exec does; entries without
// '=' are dropped. Keys compare case-insensitively on Windows.
func (e Env) Build(parent []string) []string {
	type kv struct{ k, v string }
	var list []kv
	var raw []string // EnvInherit: Windows' "=C:=C:\dir" entries, kept as they are
	at := map[string]int{}
	norm := func(k string) string {
		if runtime.GOOS == "windows" {
			return strings.ToUpper(k)
		}
		return k
	}
	put := func(k, v string) {
		if i, ok := at[norm(k)]; ok {
			list[i].v = v
			return
		}
		at[norm(k)] = len(list)
		list = append(list, kv{k, v})
	}
	for _, s := range parent {
		k, v, ok := strings.Cut(s, "=")
		switch {
		case !ok:
			continue
		case k == "":
			if e.Policy == EnvInherit && strings.Contains(v, "=") {
				raw = append(raw, s)
			}
			continue
		case e.Policy == EnvMinimal && !inheritedKey(k):
			continue
		}
		put(k, v)
	}
	for _, x := range e.Vars {
		if x.Key == "" {
			continue
		}
		v := x.Value
		if i, ok := at[norm(x.Key)]; ok && x.Prepend && list[i].v != "" {
			v += string(os.PathListSeparator) + list[i].v
		}
		put(x.Key, v)
	}
	out := make([]string, 0, len(raw)+len(list))
	out = append(out, raw...)
	for _, x := range list {
		out = append(out, x.k+"="+x.v)
	}
	if e.Policy == EnvMinimal {
		slices.Sort(out)
	}
	return out
}

// inheritedEnv lists the variables [EnvMinimal] keeps from kitsoki's
// environment (LC_* too), plus the Windows essentials.
var inheritedEnv = []string{
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TMPDIR", "TEMP", "TMP",
	"LANG", "LANGUAGE", "TZ", "TERM",
	"SYSTEMROOT", "COMSPEC", "PATHEXT", "USERPROFILE", "APPDATA", "LOCALAPPDATA", "PROGRAMDATA", "WINDIR",
}

func inheritedKey(k string) bool {
	if runtime.GOOS == "windows" {
		k = strings.ToUpper(k)
	}
	return strings.HasPrefix(k, "LC_") || slices.Contains(inheritedEnv, k)
}
