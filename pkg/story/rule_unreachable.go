package story

import "regexp"

var quotedRe = regexp.MustCompile(`'([^']*)'|"([^"]*)"`)

// checkUnreachable warns about states no path from root can enter.
// Every transition of a reachable state counts (any intent may arrive);
// templated targets count for every quoted state name they mention, and a
// templated target that names none makes the check give up.
func checkUnreachable(c *checker) {
	st := c.st
	if st.child || st.Root == "" || st.byPath[st.Root] == nil || st.Phases != nil {
		return
	}
	reached := map[*State]bool{}
	var queue []*State
	var enter func(s *State)
	enter = func(s *State) {
		if s == nil || reached[s] {
			return
		}
		reached[s] = true
		queue = append(queue, s)
		for p := s.Parent; p != nil; p = p.Parent {
			enter(p)
		}
		if s.Parallel {
			for _, ch := range s.Children {
				enter(ch)
			}
		} else if s.Initial != "" {
			if isTemplated(s.Initial) {
				for _, ch := range s.Children {
					enter(ch)
				}
			} else {
				enter(st.byPath[s.Path+"."+s.Initial])
			}
		}
	}
	giveUp := false
	follow := func(from *State, target string) {
		if isTemplated(target) {
			found := false
			for _, m := range quotedRe.FindAllStringSubmatch(target, -1) {
				name := m[1] + m[2]
				if t, err := from.Resolve(name); err == nil && t.State != nil {
					enter(t.State)
					found = true
				}
			}
			if !found {
				giveUp = true
			}
			return
		}
		t, err := from.Resolve(target)
		if err != nil {
			giveUp = true // a broken target is reported by its own rule
			return
		}
		if t.State != nil {
			enter(t.State)
		}
	}
	enter(st.byPath[st.Root])
	if r := st.Routing; r != nil && r.FreeFormFallbackState != "" {
		enter(st.byPath[r.FreeFormFallbackState])
	}
	for _, im := range st.Imports {
		for _, ex := range im.Exits {
			if ex.To != "" {
				enter(st.State(ex.To))
			}
		}
	}
	var effTargets func(s *State, list []*Effect)
	effTargets = func(s *State, list []*Effect) {
		for _, e := range list {
			if e.OnError != "" {
				follow(s, e.OnError)
			}
			if e.Target != "" {
				follow(s, e.Target)
			}
			effTargets(s, e.OnComplete)
			effTargets(s, e.Effects)
		}
	}
	for len(queue) > 0 && !giveUp {
		s := queue[0]
		queue = queue[1:]
		for _, in := range s.OnOrder {
			for _, t := range s.On[in] {
				follow(s, t.Target)
				effTargets(s, t.Effects)
			}
		}
		effTargets(s, s.OnEnter)
		effTargets(s, s.OnExit)
		if s.Timeout != nil {
			follow(s, s.Timeout.Target)
		}
	}
	if giveUp {
		return
	}
	for _, s := range st.AllStates() {
		if !reached[s] {
			c.rep.warnf(s.Pos, ruleUnreachable, "state %q is unreachable from root %q: no transition, on_error, timeout or on_complete target leads to it", s.Path, st.Root)
		}
	}
}
