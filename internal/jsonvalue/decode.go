package jsonvalue

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// One decodes data, which must hold exactly one JSON value with only
// whitespace around it, into v. Numbers decoded into an interface are
// float64: a number past float64's range is an error, an integer past 2^53
// loses digits (upstream's reading of host.run's stdout_json).
func One(data []byte, v any) error { return one(data, v, false) }

// OneExact is [One] with numbers decoded into an interface kept as
// [json.Number], every digit as written ("1e400" too); [Ints] or [Int64s]
// then pick the Go number. A child's answer line is read this way.
func OneExact(data []byte, v any) error { return one(data, v, true) }

func one(data []byte, v any, exact bool) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if exact {
		dec.UseNumber()
	}
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return errors.New("no JSON value (the input is empty)")
		}
		return err
	}
	if rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
		// Not dec.More: it reports no more after a stray '}' or ']'.
		return fmt.Errorf("unexpected %q after the JSON value (exactly one value expected)", rest[0])
	}
	return nil
}
