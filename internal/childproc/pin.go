package childproc

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"kitsoki/internal/safefile"
)

// A pinned child: Config.SHA256 names the digest its program file must
// have. The file is hashed (streamed: any size, bounded memory) before
// every start, a restart included, and a mismatch refuses the start. The
// pin guards against a program changed or swapped at rest; it cannot stop
// one swapped in the instant between the check and the exec.

// isPin reports a sha256 pin: 64 hex digits.
func isPin(s string) bool {
	if len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// CheckPin reports whether pin is a well-formed sha256 pin (64 hex
// digits), for the loaders that read one; "" is no pin.
func CheckPin(pin string) error {
	if pin == "" || isPin(pin) {
		return nil
	}
	return fmt.Errorf("sha256: %q is not a sha256 digest: want 64 hex digits (sha256sum <program> prints it)", pin)
}

// checkPin hashes path (relative to dir unless absolute) against the pin;
// where names the pin in the error ("entry.sha256 in <manifest>").
func checkPin(path, dir, pin, where string) error {
	if !filepath.IsAbs(path) && dir != "" {
		path = filepath.Join(dir, path)
	}
	// safefile.Open: a FIFO (made executable, so PATH lookup finds it) is
	// refused unopened, never waited on for a writer
	f, err := safefile.Open(path, safefile.Stream)
	if err != nil {
		return fmt.Errorf("cannot check %s against its sha256 pin (%s): %v", path, where, safefile.ErrText(err))
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return fmt.Errorf("cannot check %s against its sha256 pin (%s): %v", path, where, safefile.ErrText(err))
	}
	got := hex.EncodeToString(h.Sum(nil))
	if got != strings.ToLower(pin) {
		return fmt.Errorf("%s does not match its sha256 pin (%s): expected %s, actual %s; if you trust the program as it is now, update the pin, otherwise find out who changed it",
			path, where, strings.ToLower(pin), got)
	}
	return nil
}
