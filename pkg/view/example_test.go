package view_test

import (
	"fmt"

	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
	"kitsoki/pkg/view"
)

const hallStory = `
app: { id: hall, version: 0.1.0 }
world:
  name: { type: string, default: "Ada" }
intents:
  leave: {}
root: hall
states:
  hall:
    view:
      - heading: "Hall of {{ world.name }}"
      - banner: { text: "WELCOME" }
      - list:
          items: [ "a door", "a lamp" ]
    on:
      leave: [ { target: out } ]
  out:
    view: "Goodbye, {{ world.name }}."
    terminal: true
`

// An embedder renders a state's view against the world as the engine does
// at the end of a turn: a typed view is laid out as plain text at upstream's
// 80 columns (a banner's rule is at least 40 wide), and a pongo2 string view
// is rendered as written.
func ExampleForStory() {
	st, ds := lint.LoadSource("app.yaml", []byte(hallStory), story.Options{})
	if st == nil {
		fmt.Println(ds)
		return
	}
	r, err := view.ForStory(st)
	if err != nil {
		fmt.Println(err)
		return
	}
	world := map[string]any{"name": "Grace"}
	for _, state := range []string{"hall", "out"} {
		out, err := r.RenderView(state, world, nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s:\n%s\n", state, out)
	}
	// Output:
	// hall:
	// Hall of Grace
	//
	// ════════════════════════════════════════
	//   WELCOME
	// ════════════════════════════════════════
	//
	// • a door
	// • a lamp
	// out:
	// Goodbye, Grace.
}
