package lint

import (
	"fmt"
	"strings"

	"kitsoki/pkg/story"
)

// checkImportExitFolded: in an imported story, an exit mapping's dotted
// to: is kept as written by the fold, like any dotted target (story-runtime
// §6.2), so it names a state of the top story's folded tree: upstream
// loads `to: mid.pc.pc2` and refuses `to: pc.pc2` once a transition of
// the child takes the exit (`state "mid.leaf.l1": transition target
// "pc.pc2" (resolved: "pc.pc2") does not exist`), as it does once a
// timeout or an effect's target: (on_complete) takes it; a mapping only
// on_error: takes, or none, loads (conformance import-exit-to-folded,
// import-exit-folded-timeout).
func checkImportExitFolded(c *checker, alias string, im *story.Import, ch *story.Story) {
	taken := map[string]bool{}
	for _, u := range childExitUses(ch, im.Overrides) {
		if u.resolved {
			taken[u.exit] = true
		}
	}
	for _, en := range sortedMapKeys(im.Exits) {
		ex := im.Exits[en]
		if !taken[en] || !foldedAbsolute(c.st, ex.To) {
			continue
		}
		path := strings.ReplaceAll(strings.TrimSpace(ex.To), "/", ".")
		if c.src.inFolded(foldedTop(c.st), path, 0) {
			continue
		}
		fix := "name a state of the importing story's tree, or one of this story's by its folded path"
		if sug := c.src.foldedSuggestion(c.st, path); sug != "" {
			fix = fmt.Sprintf("did you mean `%s` (under this alias only)?", sug)
		}
		c.rep.Errf(ex.ToPos, ruleTarget, "imports.%s: exits.%s.to: target %q (resolved: %q) does not exist: this story is imported, and a dotted target inside an imported story is kept as written by the fold, so it names a state of the importing story's tree, where the child's arms, timeouts and on_complete targets that take @exit:%s land; %s", alias, en, ex.To, path, en, fix)
	}
}
