package cmd

import (
	"errors"

	"kitsoki/pkg/compose"
	"kitsoki/pkg/eval"
	"kitsoki/pkg/plugin"
)

// evalOperatorProfile resolves the operator's plugin assembly for an eval
// run through the composition root kitsoki run uses (compose.Resolve): a
// disabled alias is refused, and every call (candidates and judge) goes
// through the profile's hook chain (redact, budget, external hooks).
func evalOperatorProfile(v *eval.Validation, profile string, opts *eval.RunOptions) error {
	plan, err := compose.Resolve(v.Loaded, profile)
	if err != nil {
		var pe *plugin.ProfileError
		if errors.As(err, &pe) && pe.ReadErr != nil {
			return profileReadError(profile, pe)
		}
		return usagef("plugin profile:\n%v", err)
	}
	opts.Plan = plan
	return nil
}
