package host

import (
	"cmp"
	"fmt"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"
)

// Comparing (==, <, in, sorted, max, list.index) and hashing (a dict key,
// a set element) walk a value element by element inside one step, which
// neither the step budget, --timeout nor a cancel interrupts. A value that
// holds one child many times is small in memory and huge as a tree
// (x = [x] * 100 nine times is some 900 slots and 100^9 leaves; a tuple's
// hash has no depth limit at all), so before such an operation runs the
// nodes its walk can reach are counted, a shared child each time it is
// reached, stopping past maxWalk: the operation is then a script error
// naming it, the limit and the fix. Under the limit a walk costs no more
// than the same walk of a value of maxWalk elements held once.

// maxWalk bounds the nodes one comparison or hash may reach: as many as
// the longest range a script may build.
const maxWalk = maxRangeLen

// walker counts the nodes a comparison or a hash reaches. done says the
// walk ends where the counting stopped (upstream's own error there:
// comparison exceeded maximum recursion depth, an unhashable type);
// decided, that the comparison being counted ends there (a first
// difference), though an operation making more (in) goes on.
type walker struct {
	n             int
	done, decided bool
	// max replaces maxWalk (0 = maxWalk): memBudget.walkLimit, which a
	// test sets lower to reach it in milliseconds
	max int
}

// limit is the count past which the walk is refused.
func (w *walker) limit() int { return cmp.Or(w.max, maxWalk) }

func (w *walker) stop() bool { return w.done || w.decided || w.n > w.limit() }

// err is the script error of op when the count passed maxWalk.
func (w *walker) err(op string, hashing bool) error {
	if w.n <= w.limit() {
		return nil
	}
	if hashing {
		return fmt.Errorf("%s: hashing this key reaches over %d elements, counting a child held many times each time it is reached; use smaller keys", op, w.limit())
	}
	return fmt.Errorf("%s: comparing these values reaches over %d elements, counting a child held many times each time it is reached; compare smaller values", op, w.limit())
}

// enter counts a node a comparison reaches at depth, false when the walk
// goes no further (at depth 0 upstream's comparison fails: it ends there).
func (w *walker) enter(depth int) bool {
	if w.stop() {
		return false
	}
	w.n++
	if depth < 1 {
		w.done = true
		return false
	}
	return true
}

// pair counts the nodes starlark.CompareDepth(op, x, y, depth) reaches,
// walking both as it does (ordered: <, <=, >, >=, which do not stop at
// lengths that differ); an ordered comparison may walk the path to the
// first difference again at each level, at most depth times the count.
func (w *walker) pair(x, y starlark.Value, ordered bool, depth int) {
	if !w.enter(depth) {
		return
	}
	switch x := x.(type) {
	case *starlark.List:
		if y, ok := y.(*starlark.List); ok {
			w.pairs(x, y, ordered, depth)
			return
		}
	case starlark.Tuple:
		if y, ok := y.(starlark.Tuple); ok {
			w.pairs(x, y, ordered, depth)
			return
		}
	case *starlark.Dict, *starlarkstruct.Struct:
		if x.Type() == y.Type() && (ordered || starlark.Len(x) == starlark.Len(y)) {
			w.one(x, depth)
			return
		}
	case *starlark.Set:
		if y, ok := y.(*starlark.Set); ok && (ordered || x.Len() == y.Len()) {
			w.keysOf(x, false) // a subset test iterates y, an equality x
			w.keysOf(y, false)
			return
		}
	case starlark.String, starlark.Int, starlark.Float, starlark.Bool, starlark.NoneType, starlark.Bytes:
		if eq, err := starlark.Equal(x, y); err == nil && eq {
			return
		}
	default:
		return // a value of another kind: counted as a leaf
	}
	w.decided = true // the first difference decides the comparison
}

func (w *walker) pairs(x, y starlark.Indexable, ordered bool, depth int) {
	if x.Len() != y.Len() && !ordered {
		w.decided = true
		return
	}
	for i := 0; i < x.Len() && i < y.Len() && !w.stop(); i++ {
		w.pair(x.Index(i), y.Index(i), ordered, depth-1)
	}
}

// one counts the nodes a comparison of v at depth reaches on v's side:
// a bound of the comparison of v with anything.
func (w *walker) one(v starlark.Value, depth int) {
	if !w.enter(depth) {
		return
	}
	switch v := v.(type) {
	case *starlark.List:
		for i := 0; i < v.Len() && !w.stop(); i++ {
			w.one(v.Index(i), depth-1)
		}
	case starlark.Tuple:
		for _, x := range v {
			w.one(x, depth-1)
		}
	case *starlark.Dict:
		for k, x := range v.Entries() {
			if w.stop() {
				break
			}
			w.key(k) // looked up in the other dict
			w.one(x, depth-1)
		}
	case *starlark.Set:
		w.keysOf(v, false)
	case *starlarkstruct.Struct:
		for _, name := range v.AttrNames() {
			x, _ := v.Attr(name)
			if x != nil {
				w.one(x, depth-1)
			}
		}
	}
}

// key counts the nodes hashing v reaches (a tuple's and a struct's hash
// has no depth limit); the one comparison a lookup that finds v makes
// reaches no more.
func (w *walker) key(v starlark.Value) {
	if w.stop() {
		return
	}
	w.n++
	switch v := v.(type) {
	case starlark.Tuple:
		for _, x := range v {
			w.key(x)
		}
	case *starlarkstruct.Struct:
		for _, name := range v.AttrNames() {
			x, _ := v.Attr(name)
			if x != nil {
				w.key(x)
			}
		}
	case *starlark.List, *starlark.Dict, *starlark.Set:
		w.done = true // unhashable: the hash ends here
	}
}

// keysOf counts hashing every element of an iterable (a dict's keys;
// with pairs, the first of each pair (k, v) of any other iterable, as
// dict() and dict.update take them). Each element's count starts afresh
// where the one before it ended at an unhashable value: the caller stops
// there, and counting past it only overstates the walk.
func (w *walker) keysOf(v starlark.Value, pairs bool) {
	it, ok := v.(starlark.Iterable)
	if !ok {
		return
	}
	if _, ok := v.(*starlark.Dict); ok {
		pairs = false
	}
	i := it.Iterate()
	defer i.Done()
	var x starlark.Value
	for !w.stop() && i.Next(&x) {
		if p, ok := x.(starlark.Indexable); ok && pairs && p.Len() == 2 {
			x = p.Index(0)
		}
		w.key(x)
		w.done = false
	}
}

// containsWalk bounds x in y (nothing to count for a leaf x: each
// element is compared with it at one node, a hash reaches it alone).
func containsWalk(limit int, op string, x, y starlark.Value) error {
	if leaf(x) {
		return nil
	}
	w := walker{max: limit}
	switch y := y.(type) {
	case *starlark.List, starlark.Tuple:
		s := y.(starlark.Indexable)
		for i := 0; i < s.Len() && !w.stop(); i++ {
			w.pair(s.Index(i), x, false, starlark.CompareLimit)
			w.decided = false // Has goes on to the next element
		}
	case *starlark.Dict, *starlark.Set:
		w.key(x)
		return w.err(op, true)
	}
	return w.err(op, false)
}

// compareWalk bounds x op y for a comparison operator (nothing to count
// when either is a leaf: the walk ends at the first node).
func compareWalk(limit int, op string, x, y starlark.Value) error {
	if leaf(x) || leaf(y) {
		return nil
	}
	w := walker{max: limit}
	w.pair(x, y, op != "==" && op != "!=", starlark.CompareLimit)
	return w.err(op, false)
}

// keysWalk bounds x op y for |, &, ^ and - of sets or dicts, which hash
// every element of both.
func keysWalk(limit int, op string, x, y starlark.Value) error {
	switch x.(type) {
	case *starlark.Dict, *starlark.Set:
	default:
		return nil
	}
	w := walker{max: limit}
	w.keysOf(x, false)
	w.keysOf(y, false)
	return w.err(op, true)
}

// elemsWalk bounds comparing the elements of an iterable with each
// other (sorted, max, min): each element's walk is counted once; a sort
// compares each with a few others, as it does with a value held once.
func elemsWalk(limit int, op string, v starlark.Value) error {
	it, ok := v.(starlark.Iterable)
	if !ok {
		return nil
	}
	w := walker{max: limit}
	i := it.Iterate()
	defer i.Done()
	var x starlark.Value
	for !w.stop() && i.Next(&x) {
		w.one(x, starlark.CompareLimit)
		w.done = false
	}
	return w.err(op, false)
}

// countedKey wraps key, the key= of sorted, max or min: the keys it gives
// are counted as elementsWalk counts the elements, across one call.
func countedKey(limit int, op string, key starlark.Value) starlark.Value {
	w := walker{max: limit}
	return starlark.NewBuiltin(op+" key", func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		k, err := starlark.Call(th, key, args, kwargs)
		if err != nil {
			return nil, err
		}
		w.one(k, starlark.CompareLimit)
		w.done = false
		if err := w.err(op, false); err != nil {
			return nil, err
		}
		return k, nil
	})
}

// walkedBuiltin wraps fn, the builtin sorted, max or min (ordering its
// elements) or dict or set (hashing them), with a count of their walk
// before it runs.
func walkedBuiltin(limit int, fn starlark.Value, name string) *starlark.Builtin {
	return starlark.NewBuiltin(name, func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var err error
		switch name {
		case "dict", "set":
			w := walker{max: limit}
			for _, a := range args {
				w.keysOf(a, name == "dict")
			}
			err = w.err(name, true)
		default: // sorted, max, min
			kwargs = append([]starlark.Tuple(nil), kwargs...)
			keyed := false
			for i, kv := range kwargs {
				if k, _ := starlark.AsString(kv[0]); k == "key" && kv[1] != starlark.None {
					if _, ok := kv[1].(starlark.Callable); ok {
						kwargs[i] = starlark.Tuple{kv[0], countedKey(limit, name, kv[1])}
						keyed = true
					}
				}
			}
			if !keyed {
				var all starlark.Value = args
				if len(args) == 1 || name == "sorted" && len(args) > 0 {
					all = args[0]
				}
				err = elemsWalk(limit, name, all)
			}
		}
		if err != nil {
			return nil, err
		}
		return starlark.Call(th, fn, args, kwargs)
	})
}

// walkedMethods bound the methods that compare or hash their arguments,
// by their receiver's type (nil: the call walks nothing of note).
var walkedMethods = map[string]func(limit int, recv starlark.Value, name string, args starlark.Tuple) error{
	"index": listSearch, "remove": listSearch,
	"get": dictKey, "pop": dictKey, "setdefault": dictKey,
	"add": dictKey, "discard": dictKey,
	"update": setKeys, "union": setKeys, "intersection": setKeys, "difference": setKeys,
	"symmetric_difference": setKeys, "issubset": setKeys, "issuperset": setKeys,
}

// listSearch bounds list.index(x) and list.remove(x), which compare x with
// each element (set.remove hashes x).
func listSearch(limit int, recv starlark.Value, name string, args starlark.Tuple) error {
	if _, ok := recv.(*starlark.Set); ok {
		return dictKey(limit, recv, name, args)
	}
	if _, ok := recv.(*starlark.List); !ok || len(args) == 0 {
		return nil
	}
	return containsWalk(limit, name, args[0], recv)
}

// dictKey bounds a dict's get, pop and setdefault and a set's add,
// discard and remove: they hash their first argument.
func dictKey(limit int, recv starlark.Value, name string, args starlark.Tuple) error {
	switch recv.(type) {
	case *starlark.Dict, *starlark.Set:
	default:
		return nil
	}
	if len(args) == 0 {
		return nil
	}
	w := walker{max: limit}
	w.key(args[0])
	return w.err(name, true)
}

// setKeys bounds dict.update and the set methods that take iterables:
// they hash the receiver's elements (a copy) and every argument's.
func setKeys(limit int, recv starlark.Value, name string, args starlark.Tuple) error {
	switch recv.(type) {
	case *starlark.Dict, *starlark.Set:
	default:
		return nil
	}
	_, pairs := recv.(*starlark.Dict)
	w := walker{max: limit}
	w.keysOf(recv, false)
	for _, a := range args {
		w.keysOf(a, pairs)
	}
	return w.err(name, true)
}

// keyName is the check the rewrite puts around a subscript x[k] and a
// dict entry's key {k: v}: it counts hashing k before it is looked up.
const keyName = "__kitsoki_key"

// keyCall wraps e in keyName unless e is a literal, which hashes cheaply.
func keyCall(e syntax.Expr) syntax.Expr {
	if e == nil || isLiteral(e) {
		return e
	}
	at, _ := e.Span()
	return checkOneIndex(keyName, at, e)
}

// isLiteral says e is a number or a string, or one negated.
func isLiteral(e syntax.Expr) bool {
	if u, ok := e.(*syntax.UnaryExpr); ok && u.Op != syntax.NOT {
		e = u.X
	}
	_, ok := e.(*syntax.Literal)
	return ok
}

// predeclareWalks adds keyName and the walked builtins to d (after
// predeclareGuards).
func (m *memBudget) predeclareWalks(d starlark.StringDict) {
	d[keyName] = &checkOne{checkValue: keyName, m: m, check: func(k starlark.Value) (starlark.Value, error) {
		if leaf(k) {
			return k, nil
		}
		w := walker{max: m.walkLimit}
		w.key(k)
		if err := w.err("dict key", true); err != nil {
			return nil, err
		}
		return k, nil
	}}
	for _, name := range []string{"sorted", "max", "min", "dict", "set"} {
		fn, ok := d[name]
		if !ok {
			fn = starlark.Universe[name]
		}
		d[name] = walkedBuiltin(m.walkLimit, fn, name)
	}
}
