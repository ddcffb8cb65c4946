package schema

// Strings that fill schema files (keywords, type names, the draft URLs),
// held once and boxed: quickDecode returns these instead of allocating a
// copy for each occurrence (commonBoxed[i].(string) is the string itself,
// with no allocation), and the boxed values as they are (a string put in
// an interface is allocated otherwise). The table is static data;
// commonIndex maps a spelling to its index.
var commonBoxed = [...]any{
	"type",
	"description",
	"string",
	"items",
	"array",
	"required",
	"properties",
	"object",
	"additionalProperties",
	"minLength",
	"title",
	"number",
	"minimum",
	"maximum",
	"$schema",
	"enum",
	"boolean",
	"integer",
	"null",
	"minItems",
	"maxItems",
	"maxLength",
	"pattern",
	"format",
	"const",
	"default",
	"examples",
	"$ref",
	"$defs",
	"definitions",
	"$id",
	"id",
	"$anchor",
	"$comment",
	"allOf",
	"anyOf",
	"oneOf",
	"not",
	"if",
	"then",
	"else",
	"patternProperties",
	"propertyNames",
	"minProperties",
	"maxProperties",
	"uniqueItems",
	"contains",
	"prefixItems",
	"additionalItems",
	"exclusiveMinimum",
	"exclusiveMaximum",
	"multipleOf",
	"dependencies",
	"dependentRequired",
	"dependentSchemas",
	"unevaluatedProperties",
	"unevaluatedItems",
	"readOnly",
	"writeOnly",
	"deprecated",
	"date-time",
	"uri",
	"email",
	"http://json-schema.org/draft-07/schema#",
	"https://json-schema.org/draft/2020-12/schema",
	"http://json-schema.org/draft-04/schema#",
	"http://json-schema.org/draft-06/schema#",
	"https://json-schema.org/draft/2019-09/schema",
}

// commonIndex is the index of b in commonBoxed, or -1.
func commonIndex(b []byte) int {
	switch string(b) {
	case "type":
		return 0
	case "description":
		return 1
	case "string":
		return 2
	case "items":
		return 3
	case "array":
		return 4
	case "required":
		return 5
	case "properties":
		return 6
	case "object":
		return 7
	case "additionalProperties":
		return 8
	case "minLength":
		return 9
	case "title":
		return 10
	case "number":
		return 11
	case "minimum":
		return 12
	case "maximum":
		return 13
	case "$schema":
		return 14
	case "enum":
		return 15
	case "boolean":
		return 16
	case "integer":
		return 17
	case "null":
		return 18
	case "minItems":
		return 19
	case "maxItems":
		return 20
	case "maxLength":
		return 21
	case "pattern":
		return 22
	case "format":
		return 23
	case "const":
		return 24
	case "default":
		return 25
	case "examples":
		return 26
	case "$ref":
		return 27
	case "$defs":
		return 28
	case "definitions":
		return 29
	case "$id":
		return 30
	case "id":
		return 31
	case "$anchor":
		return 32
	case "$comment":
		return 33
	case "allOf":
		return 34
	case "anyOf":
		return 35
	case "oneOf":
		return 36
	case "not":
		return 37
	case "if":
		return 38
	case "then":
		return 39
	case "else":
		return 40
	case "patternProperties":
		return 41
	case "propertyNames":
		return 42
	case "minProperties":
		return 43
	case "maxProperties":
		return 44
	case "uniqueItems":
		return 45
	case "contains":
		return 46
	case "prefixItems":
		return 47
	case "additionalItems":
		return 48
	case "exclusiveMinimum":
		return 49
	case "exclusiveMaximum":
		return 50
	case "multipleOf":
		return 51
	case "dependencies":
		return 52
	case "dependentRequired":
		return 53
	case "dependentSchemas":
		return 54
	case "unevaluatedProperties":
		return 55
	case "unevaluatedItems":
		return 56
	case "readOnly":
		return 57
	case "writeOnly":
		return 58
	case "deprecated":
		return 59
	case "date-time":
		return 60
	case "uri":
		return 61
	case "email":
		return 62
	case "http://json-schema.org/draft-07/schema#":
		return 63
	case "https://json-schema.org/draft/2020-12/schema":
		return 64
	case "http://json-schema.org/draft-04/schema#":
		return 65
	case "http://json-schema.org/draft-06/schema#":
		return 66
	case "https://json-schema.org/draft/2019-09/schema":
		return 67
	}
	return -1
}
