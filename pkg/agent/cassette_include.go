package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"kitsoki/internal/human"
	"kitsoki/internal/jsoncost"
	"kitsoki/internal/lazyre"
	"kitsoki/internal/safefile"
	"kitsoki/pkg/story"
)

// includeLine is "<key>: !include <path>"; the path is the rest of the
// line, blanks inside it and a "# ..." after it included, as upstream
// reads it (conformance cassette-include-path).
var includeLine = &lazyre.Regexp{Expr: `^(\s*(?:- )?[^\s#:][^:#]*:)\s+!include\s+(.*\S)\s*$`}

// resolveIncludes is the line-based !include pre-pass: "<key>: !include
// <path>" is replaced by the file's content (compact JSON for *.json, a
// quoted string otherwise). Paths must be relative and stay inside dir;
// the cassette as included holds at most max bytes.
func resolveIncludes(dir string, data []byte, max int64) ([]byte, error) {
	if !bytes.Contains(data, []byte("!include")) {
		return data, nil
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		root = dir
	}
	if abs, err := filepath.Abs(root); err == nil {
		root = abs // (a cassette named relative to the working directory)
	}
	rt := safefile.NewRoot(root)
	defer rt.Close()
	lines := strings.Split(string(data), "\n")
	total := int64(len(data))
	for i, line := range lines {
		m := includeLine.FindStringSubmatch(strings.TrimRight(line, "\r"))
		if m == nil {
			continue
		}
		p := m[2]
		if filepath.IsAbs(p) || path.IsAbs(p) {
			return nil, fmt.Errorf("!include %q: absolute paths are not allowed", p)
		}
		full := filepath.Join(root, filepath.FromSlash(p))
		outside := fmt.Errorf("line %d: !include %q: path resolves outside the cassette directory", i+1, p)
		// refused before anything outside is looked at: the words must not
		// tell whether a file outside exists
		if !story.Confined(full, []string{root}) {
			return nil, outside
		}
		// read through the root: a link swapped in on the way since the
		// check is refused, never followed out
		content, err := rt.ReadFile(full, max)
		if errors.Is(err, safefile.ErrOutsideRoot) {
			return nil, fmt.Errorf("line %d: !include %q: a symlink on the way leads out of the cassette directory; link to a file inside it", i+1, p)
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: !include %q: %v", i+1, full, err)
		}
		named := full // a link's target names the kind of what it holds
		if real, err := filepath.EvalSymlinks(full); err == nil {
			named = real
		}
		var repl string
		if strings.EqualFold(filepath.Ext(named), ".json") {
			// decoded into any, as upstream inlines it: refused first when
			// that would take over jsoncost's limit (TestCassetteCostlyJSONIncludeIsRefused)
			if limit, over := jsoncost.Over(content, 0); over {
				return nil, fmt.Errorf("line %d: !include %q: the file is %s of JSON that would take over %s once read (millions of empty arrays, objects or values); include a smaller file", i+1, p, human.Size(int64(len(content))), human.Size(limit))
			}
			var err error
			if repl, err = includedJSON(content); err != nil {
				return nil, fmt.Errorf("!include %q: parse JSON: %v", p, err)
			}
		} else {
			q, _ := json.Marshal(string(content))
			repl = string(q)
		}
		// the cap holds for the cassette as included (quoted), not per
		// file: one file named on many lines would grow without bound
		if total += int64(len(repl)); total > max {
			return nil, fmt.Errorf("line %d: !include %q: the cassette with its included files passes %s, the cap for a cassette; include fewer or smaller files", i+1, p, human.Size(max))
		}
		lines[i] = m[1] + " " + repl
	}
	return []byte(strings.Join(lines, "\n")), nil
}

// includedJSON is an included *.json file as upstream inlines it: decoded
// and encoded again, so its numbers are float64's (1.0 is 1, 1e2 is 100,
// 12345678901234567 is 12345678901234568, one past the range refused),
// a key given twice is its last, and the keys are sorted (conformance
// cassette-include-json-numbers).
func includedJSON(content []byte) (string, error) {
	var v any
	if err := json.Unmarshal(content, &v); err != nil {
		return "", err
	}
	b, err := json.Marshal(v)
	return string(b), err
}
