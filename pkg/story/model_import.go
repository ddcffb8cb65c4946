package story

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// Import is one imports: entry; Child is the loaded child (nil on failure).
type Import struct {
	Alias        string
	Source       string
	Version      string
	Entry        string
	Exits        map[string]*ImportExit
	WorldIn      []KV
	Hosts        string // inherit (default) or declared
	ExportIntent []string
	ImportIntent []string
	Overrides    *ImportOverrides
	HostBindings map[string]string
	// Path is the resolved child manifest path.
	Path  string
	Child *Story
	// Unread: the loader did not read the child, as the children it had
	// loaded already held more states than a fold copies
	// (MaxFoldImportedStates); FoldSize counts the import as past it.
	Unread bool
	Pos    Pos
	// Keys holds the position of each value ("source", "overrides.states.x",
	// ...), and of a mapping entry's key under path + keySuffix.
	Keys map[string]Pos
}

// At returns the position of the value at key, its closest parent's, or the alias's.
func (im *Import) At(key string) Pos {
	for k := key; k != ""; {
		if p, ok := im.Keys[k]; ok {
			return p
		}
		i := strings.LastIndexByte(k, '.')
		if i < 0 {
			break
		}
		k = k[:i]
	}
	return im.Pos
}

// keySuffix marks, in Import.Keys, the position of a mapping entry's key.
const keySuffix = "#key"

// AtKey is the position of the key naming the entry at path, else At(path).
func (im *Import) AtKey(path string) Pos {
	if p, ok := im.Keys[path+keySuffix]; ok {
		return p
	}
	return im.At(path)
}

// ImportExit maps a child exit to a parent state.
type ImportExit struct {
	To    string
	ToPos Pos
	Set   []KV
	Pos   Pos
}

// ImportOverrides replaces child states/intents/prompts. States and
// Intents hold the YAML written in the importer; the fold parses them
// (ParseStateIn, ParseIntentIn) into the child's scope.
type ImportOverrides struct {
	States  map[string]*yaml.Node
	Intents map[string]*yaml.Node
	Prompts map[string]string
	Pos     Pos
	// file and dir are the importer's, for the override's parse.
	file, dir string
}
