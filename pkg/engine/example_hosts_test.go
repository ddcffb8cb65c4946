package engine_test

import (
	"context"
	"fmt"

	"kitsoki/pkg/engine"
	"kitsoki/pkg/host"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

const ticketStory = `
app: { id: tickets, version: 0.1.0 }
world:
  ticket: { type: string, default: "" }
intents:
  file: {}
hosts: [host.tracker]
root: idle
states:
  idle:
    on:
      file:
        - target: filed
          effects:
            - invoke: host.tracker.create
              with: { title: "lamp broken" }
              bind: { ticket: id }
  filed: { terminal: true }
`

// An embedder serves a story's own host handler: a host.HandlerFunc
// registered in the session's registry under "host.tracker" answers every
// host.tracker.<op> call (longest dotted prefix, the op in Call.Op), and
// the story binds what its Result.Data holds. It lives here, not in
// pkg/host: host's test binary has tests inside package host, so an
// example there that links the engine makes go compile the engine again.
func ExampleCompileOptions_hosts() {
	reg := host.Builtins(host.Options{})
	reg.Register("host.tracker", host.HandlerFunc(func(ctx context.Context, c *host.Call) (host.Result, error) {
		fmt.Printf("%s %s title=%v\n", c.Handler, c.Op, c.Args["title"])
		return host.Result{Data: map[string]any{"id": "T-1"}}, nil
	}))

	st, ds := lint.LoadSource("app.yaml", []byte(ticketStory), story.Options{})
	if st == nil {
		fmt.Println(ds)
		return
	}
	m, err := engine.Compile(st, engine.CompileOptions{Hosts: reg})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	s, err := engine.Start(ctx, m, engine.SessionOptions{Hosts: reg})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	if _, err := s.Fire(ctx, engine.Input{Intent: "file"}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.State(), s.World()["ticket"])
	// Output:
	// host.tracker.create create title=lamp broken
	// filed T-1
}
