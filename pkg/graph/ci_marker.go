package graph

import "strings"

// A drawing is printed on a terminal or a CI log by default, and CI
// runners obey the older workflow command form ("##[error]" for GitHub
// Actions, "##vso[" for Azure Pipelines, "##teamcity[" for TeamCity)
// anywhere in a line. Each writer
// writes the first '#' of such a marker in its own escape, so the drawing
// shows the same text and the log obeys nothing.
var (
	// yamlMarkers: a YAML double-quoted string (Mermaid's title).
	yamlMarkers = strings.NewReplacer("##[", `\u0023#[`, "##vso[", `\u0023#vso[`, "##teamcity[", `\u0023#teamcity[`)
	// xmlMarkers: SVG text and attribute values (a character reference).
	xmlMarkers = strings.NewReplacer("##[", "&#35;#[", "##vso[", "&#35;#vso[", "##teamcity[", "&#35;#teamcity[")
)

// startsMarker reports whether s starts with "##[", "##vso[" or
// "##teamcity[".
func startsMarker(s string) bool {
	return strings.HasPrefix(s, "##[") || strings.HasPrefix(s, "##vso[") || strings.HasPrefix(s, "##teamcity[")
}
