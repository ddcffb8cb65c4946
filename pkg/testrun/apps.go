package testrun

import (
	"os"

	"kitsoki/pkg/flowtest"
	"kitsoki/pkg/story"
	"kitsoki/pkg/validate"
)

// SetApps sets the plan's stories and fixture glob from the command's
// arguments and --flows (flows): each argument names stories as validate
// takes them (warn gets the expansion's warnings), and the glob is
// relative to each story. In the `test flows APP` spelling (Upstream) the
// one argument is the story, and the glob, upstream's default when flows
// is "", is relative to the current directory.
func (p *Plan) SetApps(args []string, flows string, warn func(string)) error {
	p.Glob, p.Rel = flows, true
	if !p.Upstream {
		apps, err := validate.Expand(args, warn)
		if err != nil {
			return err
		}
		p.Apps = apps
		return nil
	}
	if _, err := os.Stat(args[0]); err != nil {
		return validate.StatError(args[0], err, "give the story directory or its app.yaml")
	}
	app := story.ManifestPath(args[0])
	if p.Glob == "" {
		p.Glob = flowtest.UpstreamGlob(app)
	}
	p.Apps, p.Rel = []string{app}, false
	return nil
}
