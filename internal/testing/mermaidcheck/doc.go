// Package mermaidcheck owns checking Mermaid text in tests with Mermaid's
// own parser ([Parse]): the npm mermaid package, with a jsdom window for
// the sanitizer it loads, installed once per pinned lock by
// internal/testing/npminstall. It must not be imported outside tests nor
// touch any network but the npm registry.
//
// testdata/ holds the pinned package.json and package-lock.json and
// check.mjs, which parses each file it is given and prints one JSON line
// per file.
package mermaidcheck
