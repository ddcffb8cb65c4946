package mcpserve

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"kitsoki/internal/lazyre"
)

// maxToolName is the longest tool name kitsoki emits (the strictest common
// provider limit).
const maxToolName = 64

const toolPrefix = "kitsoki_"

var verbRe = &lazyre.Regexp{Expr: `^[a-z0-9_]+$`}

// aliasSlug lowercases an alias and turns every character other than a-z and
// 0-9 into '_'.
func aliasSlug(alias string) string {
	return strings.Map(func(r rune) rune {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			return r
		}
		return '_'
	}, strings.ToLower(alias))
}

// toolName returns kitsoki_<slug>_<verb>. When that is longer than
// maxToolName, the slug is truncated and "_" plus the first 8 hex digits of
// sha256(alias) is appended, so the name stays stable and distinct.
func toolName(alias, verb string) (string, error) {
	if !verbRe.MatchString(verb) {
		return "", fmt.Errorf("agent verb %q of %s cannot be part of a tool name (only a-z, 0-9 and _)", verb, alias)
	}
	slug := aliasSlug(alias)
	if strings.Trim(slug, "_") == "" {
		return "", fmt.Errorf("agent alias %q has no letters or digits to name a tool after; rename it", alias)
	}
	name := toolPrefix + slug + "_" + verb
	if len(name) <= maxToolName {
		return name, nil
	}
	sum := sha256.Sum256([]byte(alias))
	suffix := "_" + hex.EncodeToString(sum[:])[:8]
	keep := maxToolName - len(toolPrefix) - len("_"+verb) - len(suffix)
	if keep < 1 {
		return "", fmt.Errorf("agent verb %q is too long for a %d-character tool name", verb, maxToolName)
	}
	return toolPrefix + slug[:keep] + suffix + "_" + verb, nil
}
