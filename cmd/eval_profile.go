package cmd

import (
	"errors"
	"fmt"

	"kitsoki/pkg/eval"
	"kitsoki/pkg/plugin"
	"kitsoki/pkg/story"
)

// evalOperatorProfile resolves the operator's plugin assembly for an eval
// run, as kitsoki run does: a disabled alias is refused, and every call
// (candidates and judge) goes through the profile's hook chain (redact,
// budget, external hooks). The caller closes the returned chain.
func evalOperatorProfile(st *story.Story, profile string, opts *eval.RunOptions) (*plugin.Chain, error) {
	asm, err := plugin.Assemble(plugin.Options{StoryDir: st.Dir, ProfilePath: profile, Story: st})
	if err != nil {
		var pe *plugin.ProfileError
		if errors.As(err, &pe) && pe.ReadErr != nil {
			return nil, profileReadError(profile, pe)
		}
		return nil, usagef("plugin profile:\n%v", err)
	}
	chain := asm.NewChain()
	opts.Hooks = chain.AgentHooks()
	opts.Refuse = func(alias string) error {
		if ag, ok := asm.Agent(alias); ok && !ag.Enabled {
			return fmt.Errorf("%s is disabled in the plugin assembly (%s); see `kitsoki plugins`", alias, ag.Reason)
		}
		return nil
	}
	return chain, nil
}
