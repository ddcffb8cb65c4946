package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"kitsoki/internal/childproc"
	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/lazyre"
	"kitsoki/internal/proc"
	"kitsoki/pkg/host"
)

// An external plugin whose manifest lists hosts: is a host provider: one
// child process, through the same internal/childproc client as hook
// processes (process.go), serving those host handlers one call at a time,
// one JSON line each way. The wire ({"id":N,"type":"host.call",...} in;
// id?, data, error, infra_error, delay_ms, clarification out) is in README.md "Host
// handlers" and docs/compat/hosts.md. A line that is not a JSON object fails the call and stops
// the process (the stream is out of step); a JSON answer that is wrong fails the call and keeps it.

// defaultHostTimeout bounds one host-provider call when the manifest sets no
// entry.timeout_ms (host calls run programs: longer than a hook).
const defaultHostTimeout = 10 * time.Minute

var hostNameRe = &lazyre.Regexp{Expr: `^host\.[a-z0-9_]+(\.[a-z0-9_]+)*$`}

// checkManifestHosts validates hosts: and lists each as "host:<name>" in
// provides.
func checkManifestHosts(m *Manifest) error {
	seen := make(map[string]bool, len(m.Hosts))
	provides := make(map[string]bool, len(m.Provides)+len(m.Hosts))
	for _, p := range m.Provides {
		provides[p] = true
	}
	for i, h := range m.Hosts {
		if !hostNameRe.MatchString(h) {
			return fmt.Errorf("%s: hosts[%d] %q is not a host handler name; use host.<namespace>[.<op>] in lowercase, e.g. host.git", m.Path, i, h)
		}
		if host.IsAgentVerb(h) {
			return fmt.Errorf("%s: hosts[%d] %q is an agent verb the engine serves through agent_plugins; declare an agent plugin instead", m.Path, i, h)
		}
		if seen[h] {
			return fmt.Errorf("%s: hosts[%d] %q is listed twice", m.Path, i, h)
		}
		seen[h] = true
		if p := "host:" + h; !provides[p] {
			provides[p] = true
			m.Provides = append(m.Provides, p)
		}
	}
	return nil
}

// HostProvider is one external plugin that serves host handlers.
type HostProvider struct {
	ID       string   `json:"id"`
	Manifest string   `json:"manifest"`
	Hosts    []string `json:"hosts"`
	Enabled  bool     `json:"enabled"`
	Reason   string   `json:"reason,omitempty"`
}

// HostProviders lists the external host providers, sorted by id.
func (a *Assembly) HostProviders() []HostProvider {
	var out []HostProvider
	for _, id := range slices.Sorted(maps.Keys(a.manifests)) {
		if m := a.manifests[id]; len(m.Hosts) > 0 {
			st := a.plugin(id)
			out = append(out, HostProvider{ID: id, Manifest: m.Path, Hosts: slices.Clone(m.Hosts), Enabled: st.Enabled, Reason: st.Reason})
		}
	}
	return out
}

// sourceProvider is the host.Info.Source prefix of a provided handler.
const sourceProvider = "provider:"

// RegisterHostProviders registers the handlers of every enabled host
// provider in reg (a provider replaces a built-in of the same name: the
// operator installed it). Two providers claiming one name: the first by
// id wins and the other is reported in the warnings. The returned close
// stops the provider processes; call it when the run ends.
func (a *Assembly) RegisterHostProviders(reg *host.Registry) (closeAll func() error, warnings []Warning) {
	var procs []*hostProc
	claimed := map[string]string{}
	for _, hp := range a.HostProviders() {
		if !hp.Enabled {
			continue
		}
		m := a.manifests[hp.ID]
		p := newHostProc(m, a.childEnv, a.childAfter, a.mask)
		used := false
		for _, name := range m.Hosts {
			if other, dup := claimed[name]; dup {
				warnings = append(warnings, Warning{File: m.Path, Message: fmt.Sprintf("hosts: %s is already served by the host provider %s; this provider's claim is ignored", name, other)})
				continue
			}
			claimed[name] = hp.ID
			reg.RegisterInfo(name, p, host.Info{Source: sourceProvider + hp.ID, Summary: m.Summary})
			used = true
		}
		if used {
			procs = append(procs, p)
		}
	}
	return func() (err error) {
		for _, p := range procs {
			err = errors.Join(err, p.Close())
		}
		return err
	}, warnings
}

// hostProc is the host.Handler of one provider process.
type hostProc struct{ *pluginProc }

func newHostProc(m *Manifest, env proc.EnvPolicy, after func(time.Duration) <-chan time.Time, mask func(string) string) *hostProc {
	return &hostProc{newPluginProc(m, env, after, fmt.Sprintf("host provider %s (%s)", m.ID, m.Path), m.timeoutOr(defaultHostTimeout), mask)}
}

type hostRequest struct {
	ID      int64          `json:"id"`
	Type    string         `json:"type"`
	Handler string         `json:"handler"`
	Served  string         `json:"served,omitempty"`
	Op      string         `json:"op,omitempty"`
	Args    map[string]any `json:"args"`
	Env     hostEnv        `json:"env"`
}

type hostEnv struct {
	SessionID string         `json:"session_id,omitempty"`
	Turn      int64          `json:"turn"`
	State     string         `json:"state,omitempty"`
	StoryDir  string         `json:"story_dir,omitempty"`
	WorkDir   string         `json:"work_dir,omitempty"`
	World     map[string]any `json:"world,omitempty"`
}

type hostAnswer struct {
	// ID is the request's id, echoed (optional: matchID).
	ID         json.RawMessage `json:"id"`
	Data       map[string]any  `json:"data"`
	Error      string          `json:"error"`
	InfraError string          `json:"infra_error"`
	// DelayMS is how long the call takes in the run's (virtual) time.
	DelayMS int64 `json:"delay_ms"`
	// Clarification asks the user a question before a background call
	// can finish.
	Clarification *host.Clarification `json:"clarification"`
}

// Call sends one host call to the provider process.
func (p *hostProc) Call(ctx context.Context, c *host.Call) (host.Result, error) {
	served := c.Handler
	if c.Op != "" && strings.HasSuffix(c.Handler, "."+c.Op) {
		served = strings.TrimSuffix(c.Handler, "."+c.Op)
	}
	req := hostRequest{Type: "host.call", Handler: c.Handler, Served: served, Op: c.Op,
		Env: hostEnv{SessionID: c.Env.SessionID, Turn: c.Env.Turn, State: c.Env.State, StoryDir: c.Env.StoryDir, WorkDir: c.Env.WorkDir}}
	// NaN and ±Inf in the args and the world, which JSON cannot hold, go
	// as their texts, as an agent's with: and world do
	req.Args, _ = jsonvalue.NonFiniteText(c.Args).(map[string]any)
	req.Env.World, _ = jsonvalue.NonFiniteText(c.Env.World).(map[string]any)
	if req.Args == nil {
		req.Args = map[string]any{}
	}
	var res host.Result
	err := p.call(ctx, c.Handler, func(id int64) ([]byte, error) {
		req.ID = id
		line, err := json.Marshal(req)
		if err != nil {
			return nil, fmt.Errorf("%s: the call to %s does not encode as JSON: %v", p.who, c.Handler, err)
		}
		return line, nil
	}, func(out []byte, sent int64) error {
		var err error
		res, err = p.answer(c.Handler, out, sent)
		return err // a wrong answer keeps the process
	})
	return res, err
}

// answer decodes the provider's answer line out to the request with id
// sent (matchID: a line echoing an earlier id is not this call's answer).
func (p *hostProc) answer(handler string, out []byte, sent int64) (host.Result, error) {
	var a hostAnswer
	if err := jsonvalue.OneExact(out, &a); err != nil {
		// The stream is out of step (a log line on stdout, say): the answer
		// behind this line must not be read as the next call's reply.
		return host.Result{}, childproc.Fatal(fmt.Errorf("%s answered %s with a line that is not a JSON object: %q (%v); answer one {\"data\":...} object per line and log to stderr", p.who, handler, childproc.Snippet(p.mask, string(out)), err))
	}
	if err := p.stray.matchID(out, a.ID, sent, p.who, handler, p.mask); err != nil {
		return host.Result{}, err
	}
	if p.mask != nil { // a provider inherits kitsoki's environment: mask what it echoes, as an agent's answer is
		a.InfraError, a.Error = p.mask(a.InfraError), p.mask(a.Error)
		a.Data = maskJSON(p.mask, a.Data)
		if c := a.Clarification; c != nil {
			c.Question, c.Data = p.mask(c.Question), maskJSON(p.mask, c.Data)
		}
	}
	if a.InfraError != "" {
		return host.Result{}, fmt.Errorf("%s could not serve %s: %s", p.who, handler, a.InfraError)
	}
	if a.Data != nil {
		a.Data = jsonvalue.Ints(a.Data).(map[string]any)
	}
	if a.DelayMS < 0 || a.DelayMS > int64(math.MaxInt64/time.Millisecond) {
		return host.Result{}, fmt.Errorf("%s answered %s with delay_ms %d; give a non-negative number of milliseconds", p.who, handler, a.DelayMS)
	}
	if a.Clarification != nil && strings.TrimSpace(a.Clarification.Question) == "" {
		return host.Result{}, fmt.Errorf("%s answered %s with a clarification without a question", p.who, handler)
	}
	return host.Result{Data: a.Data, Error: a.Error, Delay: time.Duration(a.DelayMS) * time.Millisecond, Clarification: a.Clarification}, nil
}
