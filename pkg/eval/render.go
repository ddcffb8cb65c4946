package eval

import (
	"fmt"

	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// exampleRenderer renders a call site's prompt and with: for an example as
// a live run does, with the example's args and the story's world defaults.
type exampleRenderer struct {
	cs    *CallSite
	p     *engine.PromptRenderer
	world map[string]any
}

// newRenderer prepares rendering for cs.
func newRenderer(st *story.Story, cs *CallSite) *exampleRenderer {
	return &exampleRenderer{cs: cs, p: engine.NewPromptRenderer(st), world: engine.StoryWorld(st)}
}

// World returns a fresh copy of the world snapshot sent with each call
// (JSON-shaped: what the wire carries).
func (r *exampleRenderer) World() map[string]any {
	return cloneMap(r.world)
}

// Render returns the rendered prompt and with: block for example args.
func (r *exampleRenderer) Render(args map[string]any) (string, map[string]any, error) {
	if args == nil {
		args = map[string]any{}
	}
	env := engine.CallEnv{World: r.world, StatePath: r.cs.StatePath, Plugin: r.cs.Effect != nil && r.cs.Effect.Agent() != ""}
	if r.cs.State != nil {
		env.StateDescription = r.cs.State.Description // templates may read state.description, as in a run
	}
	rc, err := r.p.RenderAgentCall(r.cs.Handler, r.cs.Call, r.cs.Effect.With, args, env)
	if err != nil {
		return "", nil, fmt.Errorf("call site %q: %w", r.cs.Call, err)
	}
	return rc.Prompt, rc.With, nil
}
