package pins

import "embed"

//go:embed *.yaml
var files embed.FS

// FS returns the embedded pin files (*.yaml at the root).
func FS() embed.FS { return files }
