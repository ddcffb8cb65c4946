package compose_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"kitsoki/pkg/compose"
	"kitsoki/pkg/engine"
)

// Embedding kitsoki in a Go program: load a story through the one
// composition root, build its plugin side, start a session on the compiled
// machine and drive it turn by turn, as kitsoki run and kitsoki test do.
func Example() {
	dir, _ := os.MkdirTemp("", "kitsoki-embed")
	defer os.RemoveAll(dir)
	_ = os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(`app: {id: door}
root: closed
world:
  opened: {type: int, default: 0}
intents:
  open: {}
states:
  closed:
    view: "The door is closed."
    on:
      open:
        - target: opened
          effects:
            - increment: {opened: 1}
  opened:
    terminal: true
    view: "The door is open ({{ world.opened }} time)."
`), 0o644)

	ld, err := compose.Load(dir, compose.LoadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	plan, err := compose.Resolve(ld, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	rt, err := plan.Build(compose.BuildOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rt.Close()

	ctx := context.Background()
	s, err := engine.Start(ctx, ld.Machine, engine.SessionOptions{
		Options: engine.Options{Agents: rt.Caller()},
		Views:   ld.Views,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	turn, err := s.Fire(ctx, engine.Input{Intent: "open"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(turn.State, s.Terminal())
	fmt.Println(turn.View)
	// Output:
	// opened true
	// The door is open (1 time).
}
