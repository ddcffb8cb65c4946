package agent

import (
	"bytes"
	"encoding/json"

	"kitsoki/internal/childproc"
	"kitsoki/internal/human"
	"kitsoki/internal/jsoncost"
	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/schema"
)

// answer is a submission as checkSubmission read it.
type answer struct {
	// v is its JSON value (numbers json.Number), or its text; nil when
	// there is none.
	v any
	// json: v is the JSON value of the submission as it stands (not a
	// value read inside whitespace JSON does not allow around it, which
	// bytes.TrimSpace takes off); text: v is its text (not JSON, and no
	// schema asks for JSON).
	json, text bool
}

// bound is [Result.Value] for the submission raw, masked to masked,
// read as a (value: a.v masked, numbers as jsonvalue.Ints makes them, or
// readMasked's when masking changed the bytes). That is value, unless raw
// is not one JSON value as it stands (the text).
func bound(raw, masked json.RawMessage, a answer, value any) any {
	switch {
	case len(raw) == 0:
		return nil
	case !bytes.Equal(raw, masked) || a.json || a.text:
		return value
	}
	return string(masked)
}

// readMasked is a masked submission's value read as written (int
// numbers), or its text when it is not one JSON value: a secret spanning
// the JSON syntax makes the masked text another value than the answer's
// own, masked string by string.
func readMasked(masked json.RawMessage) any {
	v, err := decodeJSON(masked)
	if err != nil {
		return string(masked)
	}
	return jsonvalue.Ints(v)
}

// jsonSpace is the whitespace JSON allows around a value.
const jsonSpace = " \t\r\n"

// checkSubmission parses the submission and validates it against sch.
func (r *Registry) checkSubmission(sch *schema.Schema, sub json.RawMessage) (answer, *AskError) {
	trimmed := bytes.TrimSpace(sub)
	if len(trimmed) == 0 {
		if sch == nil {
			return answer{}, nil
		}
		return answer{}, Errorf(KindSchemaInvalid, "submission is not valid JSON: the plugin returned no submission (schema %s requires one)", sch.Path)
	}
	if limit, over := jsoncost.Over(trimmed, r.costFloor); over {
		// neither decoded nor bound as text: a schema's check would decode it
		return answer{}, Errorf(KindSchemaInvalid, "submission is %s of JSON that would take over %s once decoded (millions of empty arrays, objects or values); the agent must answer with fewer values", human.Size(int64(len(trimmed))), human.Size(limit))
	}
	v, perr := decodeJSON(trimmed)
	if perr != nil {
		if sch == nil {
			return answer{v: string(sub), text: true}, nil // no schema: the raw answer binds as text
		}
		detail := "submission is not valid JSON: " + perr.Error()
		if ve := sch.ValidateJSON(trimmed); ve != nil {
			detail = "submission is not valid JSON: " + ve.Error()
		}
		// Mask before the cut: a secret straddling it must not leave its head.
		return answer{}, &AskError{Kind: KindSchemaInvalid, Detail: detail + " (raw: " + childproc.Snippet(r.redact.String, string(sub)) + ")", Underlying: perr}
	}
	if sch != nil {
		if ve := sch.Validate(v); ve != nil {
			return answer{}, &AskError{Kind: KindSchemaInvalid, Detail: "submission does not satisfy " + sch.Path + ": " + ve.Error(), Underlying: ve}
		}
	}
	return answer{v: v, json: len(trimmed) == len(bytes.Trim(sub, jsonSpace))}, nil
}

// decodeJSON parses exactly one JSON value with json.Number numbers, so that
// an integer keeps every digit that fits an int64 (jsonvalue.Ints then
// picks int or float64; `1.0` stays a float, as written). It is the one
// decode of an answer (checkSubmission); masking reuses its value.
func decodeJSON(b []byte) (any, error) {
	var v any
	if err := jsonvalue.OneExact(b, &v); err != nil {
		return nil, err
	}
	return v, nil
}
