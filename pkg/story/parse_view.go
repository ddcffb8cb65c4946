package story

import (
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

var (
	viewKinds       = []string{"prose", "heading", "list", "kv", "code", "template", "banner", "choice", "media"}
	viewStringKinds = []string{"prose", "heading", "code", "template"}
	listBodyKeys    = []string{"items", "marker"}
	kvBodyKeys      = []string{"pairs"}
	bannerBodyKeys  = []string{"text", "subtitle", "color"}
	mediaBodyKeys   = []string{"handle", "caption", "kind", "path", "annotate_intent", "annotate_feedback_slot"}

	// The key lists of an element and its bodies, with when: (built once).
	elementKeys     = withWhen(viewKinds)
	listBodyKeysW   = withWhen(listBodyKeys)
	kvBodyKeysW     = withWhen(kvBodyKeys)
	bannerBodyKeysW = withWhen(bannerBodyKeys)
)

// withWhen returns keys followed by "when" (a new slice).
func withWhen(keys []string) []string { return append(slices.Clone(keys), "when") }

// parseView parses the four view forms (reference §4.6). where is the
// view's YAML path, which key and type messages name; place is the view as
// upstream's structure errors name it (`state "a": view`, `state "a"
// intent "go": transition view: view`), which starts with the place at.
func (p *fileParser) parseView(n *yaml.Node, where, place string, at diag.Place) *View {
	defer p.within(at)()
	d := yamlnode.Deref(n)
	if yamlnode.IsNull(d) {
		return nil
	}
	v := &View{Pos: p.Pos(n), HexEscapes: p.hexEscapes(d)}
	switch d.Kind {
	case yaml.ScalarNode:
		v.Kind, v.Template = "template", d.Value
	case yaml.SequenceNode:
		v.Kind = "elements"
		v.Elements = p.parseElements(d, where, place, false)
	case yaml.MappingNode:
		v.Kind = "extends"
		v.Blocks = map[string][]*ViewElement{}
		p.FieldsAt(d, yamlnode.Place{Where: "view"}, yamlnode.Place{Where: where}, diag.Error, yamlnode.Fields{
			{Key: "extends", Str: &v.Extends},
			{Key: "blocks", Read: func(_, val *yaml.Node) {
				p.Mapping(val, "view.blocks", nil, func(b string, _, bv *yaml.Node) {
					v.BlockOrder = append(v.BlockOrder, b)
					if bd := yamlnode.Deref(bv); bd != nil && bd.Kind == yaml.ScalarNode && !yamlnode.IsNull(bd) {
						// upstream decodes a block as a list of elements
						p.Errf(p.Pos(bv), RuleView, "%s.blocks.%s: a block is a list of view elements, not a string (write [{template: ...}])", where, b)
						v.Blocks[b] = []*ViewElement{{Kind: "template", Text: bd.Value, Pos: p.Pos(bd)}}
						return
					}
					v.Blocks[b] = p.parseElements(bv, where+".blocks."+b, where+".blocks."+b, true)
				})
			}},
			{Key: "template_file", Str: &v.TemplateFile},
		}, nil)
		// As upstream decodes the mapping form: an empty key is absent, and
		// template_file excludes a non-empty extends or blocks.
		switch {
		case v.TemplateFile != "" && (v.Extends != "" || len(v.BlockOrder) > 0):
			p.Errf(p.Pos(n), RuleView, "view: template_file is mutually exclusive with extends/blocks")
		case v.TemplateFile != "":
			v.Kind = "template_file"
		case v.Extends == "":
			p.Errf(p.Pos(n), RuleView, "view: must be a string, an array of elements, or an {extends, blocks} mapping: a mapping needs a non-empty extends: (a layout under views/) or template_file:")
		}
	default:
		p.Errf(p.Pos(n), RuleView, "view: must be a string, an array of elements, or an {extends, blocks} mapping: got %s", yamlnode.KindName(d))
	}
	return v
}

func (p *fileParser) parseElements(n *yaml.Node, where, place string, inBlock bool) []*ViewElement {
	var out []*ViewElement
	p.Seq(n, where, func(i int, it *yaml.Node) {
		el := new(ViewElement)
		if p.parseElementInto(el, it, yamlnode.Place{Where: yamlnode.Indexed(where, i)}, yamlnode.Indexed(place, i), inBlock) {
			out = append(out, el)
		}
	})
	return out
}

// parseElementInto parses an element into el (a zero ViewElement); false
// when the element is dropped (reported). place names the element in its
// body's structure errors.
func (p *fileParser) parseElementInto(el *ViewElement, n *yaml.Node, at yamlnode.Place, place string, inBlock bool) bool {
	d := yamlnode.Deref(n)
	el.Pos = p.Pos(n)
	if d == nil || d.Kind != yaml.MappingNode {
		p.ErrAt(p.Pos(n), p.at, RuleView, "%s: element must be a mapping with one kind key (one of %s), got %s", at.String(), strings.Join(viewKinds, " / "), yamlnode.KindName(n))
		return false
	}
	var kb [2]string
	kinds := kb[:0]
	var body *yaml.Node
	// Elements decode non-strictly upstream: unknown keys are warnings.
	p.MappingIn(d, at, elementKeys, "warning", func(key string, _, v *yaml.Node) {
		if key == "when" {
			el.When = p.StrAtPl(v, at, key)
			el.WhenPos = p.Pos(v)
			return
		}
		kinds = append(kinds, key)
		body = v
	})
	switch len(kinds) {
	case 0:
		p.ErrAt(p.Pos(n), p.at, RuleView, "%s: element has no kind (expected one of prose / heading / list / kv / code / template / banner / choice)", at.String())
		return false
	case 1:
	default:
		p.ErrAt(p.Pos(n), p.at, RuleView, "%s: element has multiple kinds set (%s); each element must declare exactly one", at.String(), strings.Join(kinds, ", "))
		return false
	}
	el.Kind = kinds[0]
	if slices.Contains(viewStringKinds, el.Kind) {
		el.Text = p.StrAtPl(body, at, el.Kind)
		el.TextPos = p.Pos(body)
		return true
	}
	where := at.String()
	if inBlock && el.Kind == "choice" {
		p.ErrAt(p.Pos(n), p.at, RuleView, "%s (choice): choice elements are not allowed inside extends/blocks views", where)
	}
	el.Body = p.Raw(body)
	el.strPos = p.bodyPositions(body)
	p.checkElementBody(el, n, body, where+" ("+el.Kind+")", place+" ("+el.Kind+")")
	return true
}

// checkElementBody checks a structured element's body, named bw in key and
// type messages and pw in structure errors.
func (p *fileParser) checkElementBody(el *ViewElement, n, body *yaml.Node, bw, pw string) {
	switch el.Kind {
	case "list":
		p.checkListBody(el, n, body, bw, pw)
	case "kv":
		p.MappingIn(body, yamlnode.Place{Where: bw}, kvBodyKeysW, "warning", func(key string, k, v *yaml.Node) {
			if key == "when" {
				p.nestedWhen(el, k)
				return
			}
			el.PairKeys = p.checkKVPairs(v, bw, pw)
		})
	case "banner":
		if strings.TrimSpace(p.bodyText(el, body, bw, bannerBodyKeysW, "text")) == "" {
			p.ErrAt(p.Pos(n), p.at, RuleView, "%s: banner requires a non-empty text", pw)
		}
	case "media":
		if strings.TrimSpace(p.bodyText(el, body, bw, mediaBodyKeys, "handle")) == "" {
			p.ErrAt(p.Pos(n), p.at, RuleView, "%s: media requires a non-empty handle", pw)
		}
	case "choice":
		if bd := yamlnode.Deref(body); bd == nil || bd.Kind != yaml.MappingNode {
			p.ErrAt(p.Pos(body), p.at, RuleView, "%s: choice: must be a mapping, got %s", bw, yamlnode.KindName(body))
		}
	}
}

// nestedWhen reports a when: inside an element's body (at k).
func (p *fileParser) nestedWhen(el *ViewElement, k *yaml.Node) {
	p.Errf(p.Pos(k), RuleView, "%s element: `when:` must be a sibling of `%s:` (element level), not nested inside the %s body — a nested guard is ignored. Dedent the `when:` to align with `%s:`.", el.Kind, el.Kind, el.Kind, el.Kind)
}

// bodyText checks a body of string values with the keys known (a when:
// among them is reported as nested) and returns the value of key.
func (p *fileParser) bodyText(el *ViewElement, body *yaml.Node, bw string, known []string, key string) string {
	text := ""
	p.MappingIn(body, yamlnode.Place{Where: bw}, known, "warning", func(k string, kn, v *yaml.Node) {
		if k == "when" && slices.Contains(known, "when") {
			p.nestedWhen(el, kn)
			return
		}
		s := p.Str(v, bw+"."+yamlnode.KeyText(k))
		if k == key {
			text = s
		}
	})
	return text
}

// checkListBody checks a list body: items (strings or labelled) and marker.
func (p *fileParser) checkListBody(el *ViewElement, n, body *yaml.Node, bw, pw string) {
	p.MappingIn(body, yamlnode.Place{Where: bw}, listBodyKeysW, "warning", func(key string, k, v *yaml.Node) {
		switch key {
		case "when":
			p.nestedWhen(el, k)
		case "items":
			cnt := 0
			p.Seq(v, bw+".items", func(i int, it *yaml.Node) {
				cnt++
				p.checkListItem(it, yamlnode.Indexed(bw+".items", i))
			})
			if cnt == 0 {
				p.ErrAt(p.Pos(n), p.at, RuleView, "%s: list requires items: with at least one entry", pw)
			}
		case "marker":
			p.Str(v, bw+".marker")
		}
	})
}

// checkListItem checks one item of a list element, named iw in messages.
func (p *fileParser) checkListItem(it *yaml.Node, iw string) {
	if id := yamlnode.Deref(it); id != nil && id.Kind == yaml.ScalarNode {
		if id.Value == "" {
			p.Errf(p.Pos(it), RuleView, "list item: empty string is not allowed")
		}
		return
	}
	var label, other string
	at := yamlnode.Place{Where: iw}
	// upstream decodes an item mapping strictly: {label, hint, when}
	p.FieldsAt(it, at, at, diag.Error, yamlnode.Fields{{Key: "label", Str: &label}, {Key: "hint", Str: &other}, {Key: "when", Str: &other}}, nil)
	if label == "" {
		p.Errf(p.Pos(it), RuleView, "list item: label is required")
	}
}

// checkKVPairs checks a kv element's pairs: and returns their keys in order.
func (p *fileParser) checkKVPairs(v *yaml.Node, bw, pw string) []string {
	cnt := 0
	var keys []string
	seen := map[string]bool{} // a merged mapping may repeat a key
	p.Mapping(v, bw+".pairs", nil, func(pk string, _, pv *yaml.Node) {
		cnt++
		if !seen[pk] {
			seen[pk] = true
			keys = append(keys, pk)
		}
		if pd := yamlnode.Deref(pv); pd == nil || pd.Kind != yaml.ScalarNode || (pd.Tag != "!!str" && pd.Tag != "!!null" && pd.Tag != "!!timestamp" && pd.Tag != "") {
			// Upstream requires string values (an unquoted date is one).
			p.ErrAt(p.Pos(pv), p.at, RuleView, "%s: kv pair %d (%s): value must be a string (got %s)", pw, cnt-1, pk, yamlnode.KindName(pv))
		}
	})
	if cnt == 0 {
		p.ErrAt(p.Pos(v), p.at, RuleView, "%s: kv requires pairs: with at least one entry", pw)
	}
	return keys
}

// bodyPositions returns the positions of the scalars below n (keys
// excluded) as ViewElement.StringPos reads them, in one exact allocation.
func (p *fileParser) bodyPositions(n *yaml.Node) []strAt {
	all := p.stringPositions(n, p.strScratch[:0], 0)
	p.strScratch = all[:0]
	if len(all) == 0 {
		return nil
	}
	var out []strAt
	if len(all) <= smallStrPos {
		out = slices.Clone(all) // document order: StringPos scans it
	} else {
		out = slices.Clone(sortPositions(all))
	}
	clear(all) // the scratch list lets go of the strings
	return out
}

// sortPositions sorts list stably by string, keeping each string's first
// position; entries past the returned length are zeroed.
func sortPositions(list []strAt) []strAt {
	slices.SortStableFunc(list, func(a, b strAt) int { return strings.Compare(a.s, b.s) })
	return slices.CompactFunc(list, func(a, b strAt) bool { return a.s == b.s })
}

// stringPositions appends the positions of the scalars below n, in order.
func (p *fileParser) stringPositions(n *yaml.Node, out []strAt, depth int) []strAt {
	d := yamlnode.Deref(n)
	if d == nil || depth > 32 {
		return out
	}
	switch d.Kind {
	case yaml.ScalarNode:
		if len(out) == cap(out) && len(out) >= 4096 {
			// A large body: keep only its distinct strings.
			out = sortPositions(out)
		}
		out = append(out, strAt{s: d.Value, line: int32(d.Line), col: int32(d.Column)})
	case yaml.MappingNode:
		for i := 1; i < len(d.Content); i += 2 {
			out = p.stringPositions(d.Content[i], out, depth+1)
		}
	case yaml.SequenceNode:
		for _, it := range d.Content {
			out = p.stringPositions(it, out, depth+1)
		}
	}
	return out
}
