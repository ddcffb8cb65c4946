//go:build !linux

package fetch

import "errors"

const canLimitFileSize = false

func limitFileSize(uint64) error { return errors.New("not supported") }
