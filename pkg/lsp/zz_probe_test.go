package lsp

import (
	"bufio"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

func TestZZProbe(t *testing.T) {
	frame := func(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }
	cases := map[string]string{
		"deep":     frame(`{"jsonrpc":"2.0","id":1,"method":"x","params":` + strings.Repeat("[", 1_000_000) + strings.Repeat("]", 1_000_000) + "}"),
		"deepobj":  frame(`{"jsonrpc":"2.0","id":1,"method":"x","params":` + strings.Repeat(`{"a":`, 1_000_000) + "1" + strings.Repeat("}", 1_000_000) + "}"),
		"batch":    frame("[" + strings.TrimSuffix(strings.Repeat(`{"jsonrpc":"2.0","id":1,"method":"x"},`, 1_000_000), ",") + "]"),
		"negid":    frame(`{"jsonrpc":"2.0","id":-1,"method":"x"}`),
		"floatid":  frame(`{"jsonrpc":"2.0","id":1.5,"method":"x"}`),
		"objid":    frame(`{"jsonrpc":"2.0","id":{},"method":"x"}`),
		"nullid":   frame(`{"jsonrpc":"2.0","id":null,"method":"x"}`),
		"boolid":   frame(`{"jsonrpc":"2.0","id":true,"method":"x"}`),
		"bigstrid": frame(`{"jsonrpc":"2.0","id":"` + strings.Repeat("i", 10<<20) + `","method":"x"}`),
		"dup":      "Content-Length: 5\r\nContent-Length: 2\r\n\r\n{}",
		"hugestr":  frame(`{"jsonrpc":"2.0","method":"x","params":"` + strings.Repeat("s", 100<<20) + `"}`),
	}
	for name, in := range cases {
		var m runtime.MemStats
		runtime.GC()
		start := time.Now()
		var v jsonrpc2.Request
		err := readFrame(bufio.NewReader(strings.NewReader(in)), &v, 1)
		runtime.ReadMemStats(&m)
		t.Logf("%s: %v id=%v notif=%v in %v, total alloc %d MB; err=%.200v", name, err == nil, v.ID, v.Notif, time.Since(start), m.TotalAlloc>>20, err)
	}
}
