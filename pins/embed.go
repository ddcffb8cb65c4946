// Package pins holds kitsoki's pinned download artifacts as human-readable
// YAML files embedded into the binary: llama-server releases per platform
// (llama-server.yaml), model weights (models.yaml) and runtime shims
// (shims.yaml). It only exposes the files; pkg/fetch parses and checks them.
package pins

import "embed"

//go:embed *.yaml
var files embed.FS

// FS returns the embedded pin files (*.yaml at the root).
func FS() embed.FS { return files }
