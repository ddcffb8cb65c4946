package compose_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"kitsoki/pkg/compose"
	"kitsoki/pkg/engine"
)

// An embedder builds a run the way every kitsoki command does: Load the
// story (compiled, with its view renderer), Resolve its plugin plan,
// Build the runtime (hook chain and agent registry), then hand the parts
// to a session and close the runtime at the end.
func Example() {
	dir, err := os.MkdirTemp("", "compose-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	app := `app: { id: lamp, version: 0.1.0 }
world:
  lit: { type: bool, default: false }
intents:
  light: {}
root: dark
states:
  dark:
    view: "It is dark."
    on:
      light:
        - target: bright
          effects:
            - set: { lit: true }
  bright:
    view: "The lamp is lit: {{ world.lit }}."
    terminal: true
`
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(app), 0o644); err != nil {
		fmt.Println(err)
		return
	}

	ld, err := compose.Load(dir, compose.LoadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	plan, err := compose.Resolve(ld, "") // "" = no --profile file
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
	turn, err := s.Fire(ctx, engine.Input{Intent: "light"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(turn.State)
	fmt.Println(turn.View)
	// Output:
	// bright
	// The lamp is lit: True.
}
