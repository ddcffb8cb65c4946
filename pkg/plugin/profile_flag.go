package plugin

import "kitsoki/internal/recost"

// CheckFlagProfile reads and parses the profile --profile names as the
// assembly will ([Assembly] reads it again), so a command can refuse an
// unreadable or malformed one before its other work: the error is the
// same *ProfileError. An empty path is no profile.
func CheckFlagProfile(path string) error {
	if path == "" {
		return nil
	}
	_, err := readProfileIn(nil, path, true, recost.NewBudget())
	return err
}
