package flowtest

import "os"

// sandboxLookupEnv is the environment a story loaded under --sandbox
// reads its ${VAR}s from: every variable set and empty, but KITSOKI_REPO
// (where @kitsoki/ imports resolve, the operator's choice). No plugin
// starts under the sandbox, so an agent plugin's or provider's ${VAR} is
// never sent; resolved, its value would be a secret the cassette answers
// are masked with, and a fixture could tell whether a variable of the CI
// job holds a value it guesses (and whether it is set at all: an unset
// one refuses the story).
func sandboxLookupEnv(name string) (string, bool) {
	if name == "KITSOKI_REPO" {
		return os.LookupEnv(name)
	}
	return "", true
}
