package expr

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestCorpusCompiles checks every expression in the stories under
// testdata/corpus (copied from the compatibility corpus, which the upstream
// engine accepts): every `when:` compiles as a guard, every effect value
// under set:/with:/slots:/emit_intent compiles as a {{ }} template, and
// every other templated string and every prompt and view file compiles with
// pongo2.
func TestCorpusCompiles(t *testing.T) {
	root := filepath.Join("testdata", "corpus")
	counts := map[string]int{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		switch filepath.Ext(path) {
		case ".yaml":
			var doc any
			if err := yaml.Unmarshal(b, &doc); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			walkCorpus(t, path, "", "", doc, counts)
		case ".md", ".pongo":
			l := NewPongoLoader(filepath.Dir(filepath.Dir(path)))
			if _, err := l.CompileFile(path); err != nil {
				t.Errorf("%s: %v", path, err)
			}
			counts["file"]++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Guard against a walk that silently checks nothing.
	if counts["guard"] < 25 || counts["value"] < 50 || counts["pongo"] < 50 || counts["file"] < 8 {
		t.Errorf("corpus walk checked too little: %v", counts)
	}
	t.Logf("checked %v", counts)
}

var effectValueKeys = map[string]bool{"set": true, "with": true, "slots": true, "emit_intent": true}

// walkCorpus visits a decoded YAML tree; mode is the effect-value key the
// value sits under ("" outside one).
func walkCorpus(t *testing.T, file, path, mode string, v any, counts map[string]int) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			p := path + "." + k
			switch {
			case k == "when":
				if s, ok := x.(string); ok {
					counts["guard"]++
					if _, err := CompileGuard(s); err != nil {
						t.Errorf("%s %s: %v", file, p, err)
					}
					continue
				}
			case k == "target" && strings.Contains(path, "on_complete"):
				// fix-tests uses an expr ternary in on_complete targets
				// ("{{ c ? 'a' : 'b' }}"), which pongo2 cannot parse: the
				// engine must render these with the {{ }} value engine.
				if s, ok := x.(string); ok {
					counts["value"]++
					if _, err := CompileTemplate(s); err != nil {
						t.Errorf("%s %s: %v", file, p, err)
					}
					continue
				}
			case k == "bind":
				continue // bind templates are not compiled upstream either
			case mode == "" && effectValueKeys[k]:
				// slots: under intents is a declaration without templates;
				// CompileValue accepts it all the same.
				counts["value"]++
				if err := CompileValue(x); err != nil {
					t.Errorf("%s %s: %v", file, p, err)
				}
				walkCorpus(t, file, p, k, x, counts)
				continue
			}
			walkCorpus(t, file, p, mode, x, counts)
		}
	case []any:
		for _, x := range v {
			walkCorpus(t, file, path+"[]", mode, x, counts)
		}
	case string:
		if mode != "" || !(strings.Contains(v, "{{") || strings.Contains(v, "{%")) {
			return
		}
		counts["pongo"]++
		if _, err := CompilePongo(v); err != nil {
			t.Errorf("%s %s: %v", file, path, err)
		}
	}
}
