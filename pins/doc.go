// Package pins owns kitsoki's pinned download artifacts as YAML files embedded
// into the binary (llama-server releases, model weights, runtime shims). It
// must not parse or check them: pkg/fetch does.
//
// In full, it holds kitsoki's pinned download artifacts as human-readable
// YAML files embedded into the binary: llama-server releases per platform
// (llama-server.yaml), model weights (models.yaml) and runtime shims
// (shims.yaml). It only exposes the files; pkg/fetch parses and checks them.
package pins
