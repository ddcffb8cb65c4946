package engine_test

import (
	"context"
	"fmt"

	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

const doorStory = `
app: { id: door, version: 0.1.0 }
world:
  knocks: { type: int, default: 0 }
intents:
  knock: {}
  open: {}
root: closed
states:
  closed:
    on:
      knock:
        - target: .
          effects:
            - increment: { knocks: 1 }
      open: [ { target: opened } ]
  opened: { terminal: true }
`

// countSink counts the events of each kind a session writes.
type countSink map[string]int

func (c countSink) Emit(ev engine.Event) error { c[ev.Kind]++; return nil }

// An embedder compiles a loaded story once, starts a session on it and
// fires one intent a turn; a turn the story does not allow comes back as a
// Rejection with one of the Code constants, and every trace event reaches
// the session's Sink with one of the Kind constants.
func ExampleStart() {
	st, ds := story.LoadSource("app.yaml", []byte(doorStory), story.Options{})
	if st == nil {
		fmt.Println(ds)
		return
	}
	m, err := engine.Compile(st, engine.CompileOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	sink := countSink{}
	s, err := engine.Start(ctx, m, engine.SessionOptions{Options: engine.Options{Sink: sink}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()

	for _, intent := range []string{"knock", "knock", "open", "knock"} {
		turn, err := s.Fire(ctx, engine.Input{Intent: intent})
		if err != nil {
			fmt.Println(err)
			return
		}
		if turn.Rejection != nil {
			fmt.Println(intent, "rejected:", turn.Rejection.Code)
			continue
		}
		fmt.Println(intent, "->", turn.State)
	}
	fmt.Println("knocks:", s.World()["knocks"], "terminal:", s.Terminal())
	fmt.Println("transitions:", sink[engine.KindTransition])
	// Output:
	// knock -> closed
	// knock -> closed
	// open -> opened
	// knock rejected: INTENT_NOT_ALLOWED_IN_STATE
	// knocks: 2 terminal: true
	// transitions: 3
}
