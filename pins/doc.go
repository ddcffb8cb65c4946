// Package pins owns kitsoki's pinned download artifacts as YAML files embedded
// into the binary ([FS]). It must not parse or check them: pkg/fetch does.
//
// One file per kind: llama-server.yaml (llama-server releases per platform),
// models.yaml (model weights) and shims.yaml (runtime shims).
package pins
