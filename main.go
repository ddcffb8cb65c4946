// Command kitsoki is the toolchain for kitsoki stories.
package main

import (
	"os"

	"kitsoki/cmd"
)

func main() {
	os.Exit(cmd.Execute())
}
