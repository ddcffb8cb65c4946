package pluginkit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// pollutingRole, set in the environment, makes the test binary a plugin
// whose handler prints to stdout and runs a child that does too.
const pollutingRole = "KITSOKI_PLUGINKIT_TEST_POLLUTE"

func TestMain(m *testing.M) {
	if os.Getenv(pollutingRole) != "" {
		err := Serve(func(ctx context.Context, req *Request) (*Response, error) {
			fmt.Println("stray print from the handler")
			if runtime.GOOS != "windows" {
				c := exec.Command("sh", "-c", "echo output of a child process")
				c.Stdout = os.Stdout
				if err := c.Run(); err != nil {
					return nil, err
				}
			}
			return &Response{Submission: json.RawMessage(`{"ok":true}`)}, nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// A plugin built on Serve that prints to stdout, or starts a child that
// does, still writes only JSON-RPC frames there: the stray output goes to
// stderr (kitsoki's log), and the answer arrives intact. A real process,
// since only its file descriptors show it.
func TestServeKeepsStrayStdoutOffTheProtocol(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), pollutingRole+"=1")
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"agent.ask","params":{"verb":"decide"}}` + "\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("plugin: %v\nstderr:\n%s", err, stderr.String())
	}
	rs := replies(t, stdout.String())
	if len(rs) != 1 || rs[0]["error"] != nil || fmt.Sprint(rs[0]["id"]) != "1" {
		t.Fatalf("stdout is not one answer frame:\n%s", stdout.String())
	}
	want := []string{"stray print from the handler"}
	if runtime.GOOS != "windows" {
		want = append(want, "output of a child process")
	}
	for _, w := range want {
		if !strings.Contains(stderr.String(), w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr.String())
		}
	}
}
