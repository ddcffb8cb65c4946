package claudeargs

import (
	"fmt"
	"strings"
)

// valued are the options that take a value; -p takes none.
var valued = map[string]bool{
	"--output-format": true, "--model": true, "--system-prompt": true, "--append-system-prompt": true,
	"--mcp-config": true, "--allowedTools": true,
}

// Parse reads argv (without the program name) into option -> value ("" for
// -p). An unknown option, a value missing or starting with "-", a repeated
// option or an operand is an error worded as the CLI's.
func Parse(argv []string) (map[string]string, error) {
	opts := map[string]string{}
	for i := 0; i < len(argv); i++ {
		a := argv[i]
		if !strings.HasPrefix(a, "-") {
			return nil, fmt.Errorf("error: unexpected operand '%s'", a)
		}
		name, val, hasVal := strings.Cut(a, "=")
		switch {
		case name == "-p" && !hasVal:
		case !valued[name]:
			return nil, fmt.Errorf("error: unknown option '%s'", name)
		case !hasVal:
			if i+1 >= len(argv) || strings.HasPrefix(argv[i+1], "-") {
				return nil, fmt.Errorf("error: option '%s <value>' argument missing", name)
			}
			i++
			val = argv[i]
		}
		if _, dup := opts[name]; dup {
			return nil, fmt.Errorf("error: option '%s' given twice", name)
		}
		opts[name] = val
	}
	return opts, nil
}
