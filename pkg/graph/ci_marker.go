package graph

import "strings"

// CI runners obey workflow commands ("##[", "##vso[", "##teamcity[")
// anywhere in a log line: each writer escapes the first '#' of such a
// marker its own way, so the drawing shows the same text and the log
// obeys nothing.
var (
	// yamlMarkers: a YAML double-quoted string (Mermaid's title).
	yamlMarkers = strings.NewReplacer("##[", `\u0023#[`, "##vso[", `\u0023#vso[`, "##teamcity[", `\u0023#teamcity[`)
	// xmlMarkers: SVG text and attribute values (a character reference).
	xmlMarkers = strings.NewReplacer("##[", "&#35;#[", "##vso[", "&#35;#vso[", "##teamcity[", "&#35;#teamcity[")
)

// startsMarker reports whether s starts with a CI marker.
func startsMarker(s string) bool {
	return strings.HasPrefix(s, "##[") || strings.HasPrefix(s, "##vso[") || strings.HasPrefix(s, "##teamcity[")
}
