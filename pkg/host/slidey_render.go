package host

import (
	"context"
	"fmt"
	"strings"
)

// HandlerSlideyRender is upstream's slide-deck renderer (the slidey tool).
const HandlerSlideyRender = "host.slidey.render"

// slideyHandler serves host.slidey.render as upstream answers it without
// slidey: spec_path and format (mp4, pdf or html, trimmed, any case) are
// checked first, then slidey is looked for ($SLIDEY_HOME, else slidey on
// PATH). With slidey installed kitsoki renders nothing
// (docs/compat/hosts.md).
type slideyHandler struct {
	look   lookPathFunc
	getenv func(string) string
}

func (h slideyHandler) Call(ctx context.Context, c *Call) (Result, error) {
	const name = HandlerSlideyRender
	spec := strings.TrimSpace(strArg(c.Args, "spec_path"))
	if spec == "" {
		return domainErr("%s: spec_path argument is required", name), nil
	}
	format := strings.ToLower(strings.TrimSpace(strArg(c.Args, "format")))
	switch format {
	case "":
		return domainErr("%s: format argument is required (mp4|pdf|html)", name), nil
	case "mp4", "pdf", "html":
	default:
		return domainErr("%s: unsupported format %q (must be mp4, pdf, or html)", name, format), nil
	}
	if h.getenv("SLIDEY_HOME") == "" && !cliPresent(h.look, "slidey") {
		return domainErr("%s: slidey not found: set SLIDEY_HOME to the slidey checkout or add `slidey` to PATH", name), nil
	}
	return notDriven(name, "slidey", fmt.Sprintf("%s of %s", format, spec)), nil
}
