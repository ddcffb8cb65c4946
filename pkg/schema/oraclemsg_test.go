package schema

import (
	"errors"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// libraryError flattens a library validation error the way pkg/schema
// did before the engine (leaves, stable-sorted by pointer, English
// printer, keyword prefix trimmed), for comparing message texts.
func libraryError(err error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return ""
	}
	p := message.NewPrinter(language.English)
	var leaves []*jsonschema.ValidationError
	var collect func(e *jsonschema.ValidationError)
	collect = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, e)
			return
		}
		for _, c := range e.Causes {
			collect(c)
		}
	}
	collect(ve)
	sort.SliceStable(leaves, func(i, j int) bool { return lessPointer(leaves[i].InstanceLocation, leaves[j].InstanceLocation) })
	var parts []string
	for _, l := range leaves {
		c := "schema"
		switch l.ErrorKind.(type) {
		case *kind.Not:
			c = "not"
		case *kind.FalseSchema:
			c = "false"
		case *kind.RefCycle:
			c = "$ref"
		default:
			if kp := l.ErrorKind.KeywordPath(); len(kp) > 0 {
				c = kp[0]
			}
		}
		msg := strings.TrimPrefix(l.ErrorKind.LocalizedString(p), c+": ")
		s := c + ": " + msg
		if ptr := jsonPointer(l.InstanceLocation); ptr != "" {
			s = ptr + ": " + s
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}
