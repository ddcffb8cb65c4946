package diag

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"path/filepath"
	"strconv"
)

// codeClimateIssue is one finding in the Code Climate JSON GitLab's code
// quality report reads (artifacts: reports: codequality): the fields it
// requires, the path relative to the repository root.
type codeClimateIssue struct {
	Type        string              `json:"type"`
	Description string              `json:"description"`
	CheckName   string              `json:"check_name"`
	Fingerprint string              `json:"fingerprint"`
	Severity    string              `json:"severity"`
	Location    codeClimateLocation `json:"location"`
}

type codeClimateLocation struct {
	Path  string           `json:"path"`
	Lines codeClimateLines `json:"lines"`
}

type codeClimateLines struct {
	Begin int `json:"begin"`
}

// writeCodeClimate writes ds as one Code Climate JSON array: an error is
// "major", a warning "minor"; paths are relative to tool.Root (the
// repository root; "" is the working directory), as GitLab shows a finding
// on the merge request's diff only at a repository path. The fingerprint
// hashes the path, rule and message (and the count of identical findings
// before it), not the line, so a finding that only moved is not reported as
// new.
func writeCodeClimate(w io.Writer, ds []Diagnostic, tool ToolInfo) error {
	root := tool.Root
	if root == "" {
		root, _ = filepath.Abs(".")
	}
	issues := make([]codeClimateIssue, 0, len(ds))
	seen := map[string]int{}
	for _, d := range ds {
		path := repoPath(root, d.File)
		key := path + "\x00" + d.Rule + "\x00" + d.Message
		n := seen[key]
		seen[key]++
		sum := sha256.Sum256([]byte(key + "\x00" + strconv.Itoa(n)))
		severity := "minor"
		if d.Severity == Error {
			severity = "major"
		}
		issues = append(issues, codeClimateIssue{
			Type: "issue", Description: d.Message, CheckName: d.Rule, Fingerprint: hex.EncodeToString(sum[:16]),
			Severity: severity, Location: codeClimateLocation{Path: path, Lines: codeClimateLines{Begin: max(d.Line, 1)}},
		})
	}
	return writeIndented(w, issues)
}

// repoPath is file relative to root with forward slashes, or file as it is
// when it lies outside root.
func repoPath(root, file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return filepath.ToSlash(file)
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return filepath.ToSlash(file)
	}
	return filepath.ToSlash(rel)
}
