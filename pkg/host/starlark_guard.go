package host

import (
	"fmt"
	"maps"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"
)

// The builtins and methods that can make, in one call, a value much
// larger than their arguments are called through checks of the bound of
// their result (starlark_sizes.go), charged to the script's memBudget
// before they run: str, repr, print, fail, list, tuple, sorted,
// reversed, enumerate, zip, dict, set, getattr and json's encode, indent
// and decode as predeclared replacements (and int, which parses at most
// maxIntDigits characters); the string methods join,
// replace, format, split, rsplit and splitlines, and list.extend, by
// rewriting x.m(...) into __kitsoki_method[x.m](...). The methods that
// compare or hash (walkedMethods, starlark_walk.go) go the same way.

const sbMethod = "__kitsoki_method"

// methodBound bounds the result of recv.name(args, kwargs); 0 when the
// call is not one that grows.
type methodBound func(recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) uint64

// guardedMethods are the methods the rewrite routes through sbMethod.
var guardedMethods = map[string]methodBound{
	"join": func(recv starlark.Value, args starlark.Tuple, _ []starlark.Tuple) uint64 {
		s, ok := recv.(starlark.String)
		if !ok || len(args) != 1 {
			return 0
		}
		return joinBound(string(s), args[0])
	},
	"replace": func(recv starlark.Value, args starlark.Tuple, _ []starlark.Tuple) uint64 {
		s, ok := recv.(starlark.String)
		if !ok || len(args) < 2 {
			return 0
		}
		old, ok1 := args[0].(starlark.String)
		nw, ok2 := args[1].(starlark.String)
		if !ok1 || !ok2 {
			return 0
		}
		count := -1
		if len(args) > 2 {
			if c, err := starlark.AsInt32(args[2]); err == nil {
				count = c
			}
		}
		return replaceBound(string(s), string(old), string(nw), count)
	},
	"format": func(recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) uint64 {
		s, ok := recv.(starlark.String)
		if !ok {
			return 0
		}
		all := append(starlark.Tuple{}, args...)
		for _, kv := range kwargs {
			all = append(all, kv[1])
		}
		return formatBound(string(s), "{", all...)
	},
	"split":      splitBound,
	"rsplit":     splitBound,
	"splitlines": splitBound,
	"extend": func(recv starlark.Value, args starlark.Tuple, _ []starlark.Tuple) uint64 {
		l, ok := recv.(*starlark.List)
		if !ok || len(args) != 1 {
			return 0
		}
		return mulSat(addSat(uint64(l.Len()), lenOf(args[0])), slotBytes)
	},
}

// splitBound bounds s.split(...), s.rsplit(...) and s.splitlines(): at
// most one new string per byte of s, and one more.
func splitBound(recv starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) uint64 {
	s, ok := recv.(starlark.String)
	if !ok {
		return 0
	}
	return mulSat(uint64(len(s))+1, elemBytes)
}

// checked wraps fn: bound is charged before fn runs.
func (m *memBudget) checked(fn starlark.Value, name string, bound func(args starlark.Tuple, kwargs []starlark.Tuple) uint64) *starlark.Builtin {
	return starlark.NewBuiltin(name, func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := m.charge(bound(args, kwargs)); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		return starlark.Call(th, fn, args, kwargs)
	})
}

// method is fn, a method value x.m, checked when it is a guarded method
// of a string or a list.
func (m *memBudget) method(fn starlark.Value) starlark.Value {
	b, ok := fn.(*starlark.Builtin)
	if !ok || b.Receiver() == nil {
		return fn
	}
	if walk, ok := walkedMethods[b.Name()]; ok {
		return starlark.NewBuiltin(b.Name(), func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := walk(m.walkLimit, b.Receiver(), b.Name(), args); err != nil {
				return nil, err
			}
			return starlark.Call(th, b, args, kwargs)
		})
	}
	bound, ok := guardedMethods[b.Name()]
	if !ok {
		return fn
	}
	recv := b.Receiver()
	return m.checked(fn, b.Name(), func(args starlark.Tuple, kwargs []starlark.Tuple) uint64 {
		return bound(recv, args, kwargs)
	})
}

// predeclareGuards adds the checked builtins to d (after predeclare, and
// after json is in d).
func (m *memBudget) predeclareGuards(d starlark.StringDict) {
	u := starlark.Universe
	first := func(args starlark.Tuple) starlark.Value {
		if len(args) == 0 {
			return starlark.None
		}
		return args[0]
	}
	strAll := func(args starlark.Tuple, kwargs []starlark.Tuple) uint64 {
		var n uint64
		for _, a := range args {
			n = addSat(n, strBound(a, true)+1)
		}
		for _, kv := range kwargs {
			n = addSat(n, strBound(kv[1], true))
		}
		return n
	}
	copies := func(per uint64) func(args starlark.Tuple, _ []starlark.Tuple) uint64 {
		return func(args starlark.Tuple, _ []starlark.Tuple) uint64 {
			var n uint64
			for _, a := range args {
				n = max(n, lenOf(a))
			}
			return mulSat(n, per)
		}
	}
	d["str"] = m.checked(u["str"], "str", func(args starlark.Tuple, _ []starlark.Tuple) uint64 { return strBound(first(args), true) })
	d["repr"] = m.checked(u["repr"], "repr", func(args starlark.Tuple, _ []starlark.Tuple) uint64 { return strBound(first(args), false) })
	d["print"] = m.checked(u["print"], "print", strAll)
	d["fail"] = m.checked(u["fail"], "fail", strAll)
	for _, name := range []string{"list", "tuple", "sorted", "reversed", "set"} {
		d[name] = m.checked(u[name], name, copies(elemBytes))
	}
	for _, name := range []string{"enumerate", "zip", "dict"} {
		d[name] = m.checked(u[name], name, copies(2*elemBytes))
	}
	d["int"] = starlark.NewBuiltin("int", func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		x := first(args)
		for _, kv := range kwargs {
			if k, _ := starlark.AsString(kv[0]); k == "x" {
				x = kv[1]
			}
		}
		if s, ok := x.(starlark.String); ok && len(s) > maxIntDigits {
			return nil, fmt.Errorf("int: the string has %d characters, over the limit of %d for an integer; keep integers smaller", len(s), maxIntDigits)
		}
		return starlark.Call(th, u["int"], args, kwargs)
	})
	d["getattr"] = starlark.NewBuiltin("getattr", func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		v, err := starlark.Call(th, u["getattr"], args, kwargs)
		if err != nil {
			return v, err
		}
		return m.method(v), nil
	})
	d[sbMethod] = &checkOne{checkValue: sbMethod, m: m, check: func(fn starlark.Value) (starlark.Value, error) {
		return m.method(fn), nil
	}}
	if mod, ok := d["json"].(*starlarkstruct.Module); ok {
		d["json"] = m.checkedJSON(mod)
	}
}

// checkedJSON is the json module with encode, indent and decode checked.
func (m *memBudget) checkedJSON(mod *starlarkstruct.Module) *starlarkstruct.Module {
	members := maps.Clone(mod.Members)
	arg := func(args starlark.Tuple, kwargs []starlark.Tuple, i int, key string) string {
		if i >= 0 && i < len(args) {
			s, _ := starlark.AsString(args[i])
			return s
		}
		for _, kv := range kwargs {
			if k, _ := starlark.AsString(kv[0]); k == key {
				s, _ := starlark.AsString(kv[1])
				return s
			}
		}
		return ""
	}
	bounds := map[string]func(args starlark.Tuple, kwargs []starlark.Tuple) uint64{
		"encode": func(args starlark.Tuple, _ []starlark.Tuple) uint64 {
			if len(args) == 0 {
				return 0
			}
			return strBound(args[0], false)
		},
		"indent": func(args starlark.Tuple, kwargs []starlark.Tuple) uint64 {
			return indentBound(arg(args, kwargs, 0, "str"), arg(args, kwargs, -1, "prefix"), arg(args, kwargs, -1, "indent"))
		},
		"decode": func(args starlark.Tuple, kwargs []starlark.Tuple) uint64 {
			return decodeBound(arg(args, kwargs, 0, "x"))
		},
	}
	for name, bound := range bounds {
		if f, ok := members[name]; ok {
			members[name] = m.checked(f, "json."+name, bound)
		}
	}
	if dec, ok := members["decode"]; ok {
		members["decode"] = starlark.NewBuiltin("json.decode", func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if n := longestJSONNumber(arg(args, kwargs, 0, "x")); n > maxIntDigits {
				return nil, fmt.Errorf("json.decode: a number of %d digits, over the limit of %d for an integer; keep integers smaller", n, maxIntDigits)
			}
			return starlark.Call(th, dec, args, kwargs)
		})
	}
	return &starlarkstruct.Module{Name: mod.Name, Members: members}
}

// methodCall is x.m rewritten as __kitsoki_method[x.m] when m is a
// guarded method's name.
func methodCall(e syntax.Expr) syntax.Expr {
	dot, ok := e.(*syntax.DotExpr)
	if !ok {
		return e
	}
	_, guarded := guardedMethods[dot.Name.Name]
	if _, walked := walkedMethods[dot.Name.Name]; !guarded && !walked {
		return e
	}
	return checkOneIndex(sbMethod, dot.Dot, dot)
}

// longestJSONNumber is the longest run of digits outside the strings of
// JSON text src: json.decode reads an integer through big.Int, whose
// decimal parse is quadratic in one step.
func longestJSONNumber(src string) int {
	longest, run, inString := 0, 0, false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case !inString && c >= '0' && c <= '9':
			run++
			longest = max(longest, run)
			continue
		}
		run = 0
	}
	return longest
}

// longDigits is the position of the first run of more than maxIntDigits
// decimal digits in a script's source, and its length: the scanner
// reads an integer literal through big.Int, quadratic in one step no
// cancel interrupts, before any check of the script can run. A run inside
// a string or a comment counts too.
func longDigits(src []byte) (line, col, n int) {
	line, col = 1, 1
	run, runLine, runCol := 0, 0, 0
	for _, c := range src {
		if c >= '0' && c <= '9' {
			if run == 0 {
				runLine, runCol = line, col
			}
			if run++; run > maxIntDigits {
				n = run
			}
		} else {
			if n > 0 {
				return runLine, runCol, n
			}
			run = 0
		}
		if col++; c == '\n' {
			line, col = line+1, 1
		}
	}
	if n > 0 {
		return runLine, runCol, n
	}
	return 0, 0, 0
}
