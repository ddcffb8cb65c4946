package schema

import (
	"net/url"
	"strings"
)

// draft is a JSON Schema draft as the year or number the library uses
// (4, 6, 7, 2019, 2020); kitsoki needs it only to find the id and
// definitions keywords of a document and to name it in messages.
type draft int

const (
	draft4    draft = 4
	draft6    draft = 6
	draft7    draft = 7
	draft2019 draft = 2019
	draft2020 draft = 2020
)

// draftOfURL names the draft a $schema value selects. Any metaschema
// published at json-schema.org is known (the library carries them); the
// draft is read from its path, 2020-12 for the unversioned one.
func draftOfURL(s string) (draft, bool) {
	u, err := url.Parse(s)
	if err != nil || !isMetaschemaURL(u) {
		return 0, false
	}
	switch p := u.Path; {
	case strings.Contains(p, "draft-04"):
		return draft4, true
	case strings.Contains(p, "draft-06"):
		return draft6, true
	case strings.Contains(p, "draft-07"):
		return draft7, true
	case strings.Contains(p, "2019-09"):
		return draft2019, true
	}
	return draft2020, true
}

// draftOf is the draft a document is compiled with: its $schema, else
// 2020-12 (the library's default as kitsoki configures it).
func draftOf(doc any) draft {
	obj, _ := doc.(map[string]any)
	if s, ok := obj["$schema"].(string); ok {
		if d, known := draftOfURL(s); known {
			return d
		}
	}
	return draft2020
}

// idKeyword is the keyword that names a resource in d.
func (d draft) idKeyword() string {
	if d == draft4 {
		return "id"
	}
	return "$id"
}

// defsKeyword is where d keeps reusable subschemas.
func (d draft) defsKeyword() string {
	if d <= draft7 {
		return "definitions"
	}
	return "$defs"
}

func (d draft) String() string {
	switch d {
	case draft2019:
		return "draft 2019-09"
	case draft2020:
		return "draft 2020-12"
	}
	return "draft-0" + string(rune('0'+d))
}

// idOf is the resource id obj declares in d, without its fragment: ""
// when it declares none, or when d ignores it (beside "$ref" up to
// draft-07), or when it is only a fragment (a draft ≤ 7 anchor).
func idOf(obj map[string]any, d draft) string {
	if _, hasRef := obj["$ref"]; hasRef && d <= draft7 {
		return ""
	}
	id, _ := obj[d.idKeyword()].(string)
	return stripFragment(id)
}
