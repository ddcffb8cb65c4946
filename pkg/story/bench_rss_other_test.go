//go:build !unix

package story

import "os"

// maxRSS is not measured where getrusage does not exist.
func maxRSS(*os.ProcessState) (int64, bool) { return 0, false }
