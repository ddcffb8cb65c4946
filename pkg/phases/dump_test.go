package phases

import (
	"encoding/json"
	"os"
	"testing"
)

func TestDumpExpansion(t *testing.T) {
	if os.Getenv("PHASES_DUMP") == "" {
		t.Skip("set PHASES_DUMP=<story dir> to print an expansion")
	}
	st := load(t, os.Getenv("PHASES_DUMP"))
	if err := Expand(st); err != nil {
		t.Fatal(err)
	}
	for _, s := range st.States {
		strip(s)
		data, _ := json.MarshalIndent(s, "", " ")
		t.Logf("%s", data)
	}
}
