package main

import "strings"

// hostSim predicts where a host fixture rests after each turn, so that
// most expect_state assertions hold on both engines and the fixtures
// mostly pass (a failing assertion tests only its message). It follows
// arcs and on_error redirects of calls whose stub fails at the top
// level; once a job is pending (its on_complete may move the session) or
// an emit could hop, it stops predicting.
type hostSim struct {
	states m
	stubs  m
	cur    string
	lost   bool // the state can no longer be predicted
	// calls are the foreground calls the last intent turn dispatched:
	// the handler name after the iface rewrite, and its literal call id
	calls [][2]string
	job   m // the job the last turn submitted, ending at its advance
}

// intent returns the state after an intent turn, and whether it is known.
func (s *hostSim) intent(name string) (string, bool) {
	s.calls = nil
	if s.job != nil {
		// a job left pending lands whenever an advance comes, perhaps
		// stale by then
		s.lost = true
	}
	if s.lost {
		return "", false
	}
	st, _ := s.states[s.cur].(m)
	arms, _ := st["on"].(m)[name].([]any)
	if len(arms) == 0 {
		return s.cur, true
	}
	arm := arms[0].(m)
	target, _ := arm["target"].(string)
	if to, stop := s.effects(asList(arm["effects"])); stop {
		return s.land(to)
	}
	if target == "." || target == "" {
		return s.cur, !s.lost
	}
	s.cur = target
	enter, _ := s.states[target].(m)["on_enter"].([]any)
	if to, stop := s.effects(enter); stop {
		return s.land(to)
	}
	return s.cur, !s.lost
}

// land is an on_error redirect to "to" ("." stays).
func (s *hostSim) land(to string) (string, bool) {
	if to != "." && to != "" {
		s.cur = to
		// the landing room's own calls have no on_error (hostSync(false))
		enter, _ := s.states[to].(m)["on_enter"].([]any)
		s.effects(enter)
	}
	return s.cur, !s.lost
}

// effects walks a chain: a job or an emit makes the state unknown; a
// failing call with on_error stops the chain with its target.
func (s *hostSim) effects(fx []any) (string, bool) {
	for _, x := range fx {
		e, _ := x.(m)
		if e["emit_intent"] != nil || e["when"] != nil {
			s.lost = true
			continue
		}
		inv, _ := e["invoke"].(string)
		if inv == "" {
			continue
		}
		if e["background"] == true {
			if s.job != nil {
				s.lost = true
			}
			s.job = e
			continue
		}
		name := inv
		if strings.HasPrefix(inv, "iface.ticket.") {
			name = "host.local_files.ticket." + strings.TrimPrefix(inv, "iface.ticket.")
		}
		id, _ := e["id"].(string)
		if strings.Contains(id, "{{") {
			id = ""
		}
		s.calls = append(s.calls, [2]string{name, id})
		if to, ok := e["on_error"].(string); ok && s.fails(inv) {
			return to, true
		}
	}
	return "", false
}

// advance ends the pending job: its on_complete chain runs unless it
// reads a field its job's data lacks (the whole chain then fails), and
// the first target whose when: passes is taken, its on_enter calls run.
func (s *hostSim) advance() {
	e := s.job
	s.job = nil
	if e == nil || s.lost {
		return
	}
	// the completion's calls are not the turn's (no harness.dispatched
	// in its batch)
	calls := s.calls
	defer func() { s.calls = calls }()
	st := s.stub(e["invoke"].(string))
	if st == nil || st["by_call"] != nil || st["request_clarification"] != nil {
		s.lost = true
		return
	}
	data, _ := st["data"].(m)
	_, hasData := st["data"]
	_, bad := st["error"]
	_, infra := st["infra_error"]
	status := "done"
	if bad || infra {
		status = "failed"
	}
	if infra {
		hasData, data = false, nil
	}
	chain := asList(e["on_complete"])
	for _, x := range chain {
		if set, ok := x.(m)["set"].(m); ok {
			for _, v := range set {
				if str, ok := v.(string); ok && !resultPathOK(str, hasData, data) {
					return // the chain fails: nothing set, no target
				}
			}
		}
	}
	for _, x := range chain {
		t, ok := x.(m)["target"].(string)
		if !ok {
			continue
		}
		if w, ok := x.(m)["when"].(string); ok && !strings.Contains(w, "'"+status+"'") {
			continue
		}
		s.land(t)
		return
	}
}

// resultPathOK reports whether a template's world.last_job_result.a.b
// paths render: every step but the last must reach a map.
func resultPathOK(tmpl string, hasData bool, data m) bool {
	const root = "world.last_job_result."
	for rest := tmpl; ; {
		i := strings.Index(rest, root)
		if i < 0 {
			return true
		}
		rest = rest[i+len(root):]
		end := strings.IndexAny(rest, " }|")
		if end < 0 {
			end = len(rest)
		}
		path := strings.Split(rest[:end], ".")
		if !hasData {
			return false
		}
		cur := data
		for _, k := range path[:len(path)-1] {
			next, ok := cur[k].(m)
			if !ok {
				return false
			}
			cur = next
		}
	}
}

// stub is the fixture's stub serving inv (exact name, then the longest
// prefix), or nil.
func (s *hostSim) stub(inv string) m {
	for p := inv; p != ""; {
		if v, ok := s.stubs[p].(m); ok {
			return v
		}
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			return nil
		}
		p = p[:i]
	}
	return nil
}

// fails reports whether the stub serving inv answers the call with an
// error (or nothing serves it); unsure answers (by_call, by_op, a
// clarification) make the state unknown.
func (s *hostSim) fails(inv string) bool {
	if strings.HasPrefix(inv, "iface.ticket.") {
		inv = "host.local_files.ticket." + strings.TrimPrefix(inv, "iface.ticket.")
	}
	st := s.stub(inv)
	if st == nil {
		return true
	}
	if st["by_call"] != nil || st["by_op"] != nil || st["request_clarification"] != nil {
		s.lost = true
		return false
	}
	_, bad := st["error"]
	_, infra := st["infra_error"]
	return bad || infra
}
