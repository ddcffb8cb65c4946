package fetch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/aliasmb"
)

func TestEmbeddedPins(t *testing.T) {
	p, err := LoadPins("")
	if err != nil {
		t.Fatal(err)
	}
	if p.DefaultModel() != "qwen2.5-1.5b-instruct" {
		t.Fatalf("default model %q", p.DefaultModel())
	}
	q, err := p.Model("")
	if err != nil || q.SHA256 != "6a1a2eb6d15622bf3c96857206351ba97e1af16c30d7a74ee38970e434e9407e" || q.Size != 1117320736 {
		t.Fatalf("qwen pin %+v %v", q, err)
	}
	if n, err := p.Model("nomic-embed-text-v1.5"); err != nil || n.Size != 84106624 {
		t.Fatalf("nomic pin %+v %v", n, err)
	}
	for _, plat := range [][2]string{{"linux", "amd64"}, {"darwin", "arm64"}} {
		a, err := p.LlamaServer(plat[0], plat[1])
		if err != nil || a.Release != "b9444" || a.Format != "tar.gz" {
			t.Fatalf("%v: %+v %v", plat, a, err)
		}
	}
	s, ok := p.Shim("linux", "amd64")
	if !ok || s.Format != "tar.bz2" || s.Extract["lib/libstdc++.so.6.0.30"] != "libstdc++.so.6" {
		t.Fatalf("shim %+v", s)
	}
	if len(p.All()) != 6 {
		t.Fatalf("All() = %d artifacts", len(p.All()))
	}
}

func TestPinErrorsNamePlatformAndEndpointMode(t *testing.T) {
	p, err := LoadPins("")
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.LlamaServer("linux", "arm64")
	if err == nil || !strings.Contains(err.Error(), `no llama-server pin for platform "linux/arm64"`) || !strings.Contains(err.Error(), "endpoint: mode") {
		t.Fatalf("err = %v", err)
	}
	_, err = p.Model("bge-small-en-v1.5")
	if err == nil || !strings.Contains(err.Error(), "bge-small-en-v1.5 weights: download pin not configured") || !strings.Contains(err.Error(), "endpoint: mode") {
		t.Fatalf("err = %v", err)
	}
	_, err = p.Model("nope")
	if err == nil || !strings.Contains(err.Error(), `no weights pin for model "nope"`) {
		t.Fatalf("err = %v", err)
	}
}

func TestOverlayReplacesAndAdds(t *testing.T) {
	sum := strings.Repeat("ab", 32)
	path := writeOverlay(t, `llama_server:
  linux/arm64:
    id: llama-test
    url: http://127.0.0.1:1/llama.tar.gz
    sha256: `+sum+`
    format: tar.gz
models:
  qwen2.5-1.5b-instruct:
    id: qwen2.5-1.5b-instruct
    url: http://127.0.0.1:1/q.gguf
    sha256: `+sum+`
`)
	p, err := LoadPins(path)
	if err != nil {
		t.Fatal(err)
	}
	if a, err := p.LlamaServer("linux", "arm64"); err != nil || a.Source != path {
		t.Fatalf("%+v %v", a, err)
	}
	if q, _ := p.Model("qwen2.5-1.5b-instruct"); q.URL != "http://127.0.0.1:1/q.gguf" {
		t.Fatalf("overlay did not replace: %+v", q)
	}
	if _, err := p.LlamaServer("darwin", "arm64"); err != nil {
		t.Fatal("embedded entry lost by overlay")
	}
	t.Setenv(EnvPins, path)
	if p, err := LoadPins(""); err != nil || p.LlamaServers["linux/arm64"] == nil {
		t.Fatalf("KITSOKI_PINS not read: %v", err)
	}
}

func TestOverlayErrorsNameFileAndFix(t *testing.T) {
	cases := map[string]string{
		"models:\n  m:\n    id: m\n    url: http://x/m\n    sha256: short\n":            "must be 64 lowercase hex",
		"models:\n  m:\n    id: m\n    url: ftp://x/m\n":                                "must be an http(s) URL",
		"models:\n  m:\n    id: m\n    url: http://x/m\n    colour: red\n":              `unknown key "colour"`,
		"models:\n  m:\n    id: m\n    url: http://x/m\n    formt: gguf\n":              "unknown key \"formt\"; did you mean `format`?",
		"model:\n  m:\n    id: m\n":                                                     ":1:1: top level: unknown key \"model\"; did you mean `models`?",
		"models:\n  m:\n    id: m\n    size: '5'\n":                                     `:4:11: models.m.size: expected an integer, got "5"`,
		"shims: {linux/amd64: {members: x}}\n":                                          `:1:32: shims.linux/amd64.members: expected a list, got "x" (write [x])`,
		"llama_server:\n  linux:\n    id: x\n    url: http://x/y\n    format: tar.gz\n": "platform goos/goarch",
		"llama_server:\n  linux/amd64:\n    id: x\n    url: http://x/y\n":               "format: is required",
		"models:\n  m:\n    id: ../m\n    url: http://x/m\n":                            "without slashes",
		"shims:\n  linux/amd64:\n    id: s\n    url: http://x/s\n    format: gguf\n":    "must be an archive",
		"llama_server: [1, 2]\n":                                                        "llama_server",
	}
	for body, want := range cases {
		path := writeOverlay(t, body)
		_, err := LoadPins(path)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%q: err = %v, want %q and the path", body, err, want)
		}
	}
	_, err := LoadPins(filepath.Join(t.TempDir(), "missing.yaml"))
	if err == nil || !strings.Contains(err.Error(), "--pins") {
		t.Fatalf("err = %v", err)
	}
}

func FuzzParsePins(f *testing.F) {
	for _, name := range []string{"llama-server.yaml", "models.yaml", "shims.yaml"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "pins", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("models: {m: {id: m, url: 'http://x', sha256: ''}}"))
	f.Add([]byte("llama_server: {linux/amd64: null}"))
	f.Add([]byte("\t- ["))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := parsePins(data, "fuzz.yaml")
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.yaml") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		for _, a := range p.All() {
			if a.ID == "" || a.URL == "" || strings.ContainsAny(a.ID, `/\`) {
				t.Fatalf("accepted bad artifact %+v", a)
			}
			if _, err := MirrorURL(a.URL, "http://mirror.local/base"); err != nil {
				t.Fatalf("accepted URL the mirror cannot rewrite: %v", err)
			}
		}
	})
}

func TestMirrorURL(t *testing.T) {
	got, err := MirrorURL("https://github.com/ggml-org/llama.cpp/releases/download/b9444/x.tar.gz", "https://mirror.corp/kitsoki/")
	if err != nil || got != "https://mirror.corp/kitsoki/github.com/ggml-org/llama.cpp/releases/download/b9444/x.tar.gz" {
		t.Fatalf("%q %v", got, err)
	}
	if got, _ := MirrorURL("https://a/b", ""); got != "https://a/b" {
		t.Fatal("empty mirror changed the URL")
	}
}

// TestPinsAliasTextBounded: a pins overlay's aliases repeat at most
// yamlnode.MaxAliasText of text, as every other YAML file's do; the error
// names the file and the alias's line.
func TestPinsAliasTextBounded(t *testing.T) {
	entry := "models:\n  m:\n    id: m\n    url: https://example.invalid/m.gguf\n    members:\n      - " + aliasmb.Anchors() + "\n" + strings.Repeat("      - *mb\n", 70)
	_, err := parsePins([]byte(entry), "o.yaml")
	if err == nil || !strings.HasPrefix(err.Error(), "o.yaml:70: the aliases of this pin file repeat more than 64 MB") {
		t.Errorf("parsePins = %.300v", err)
	}
	short := "models:\n  m:\n    id: m\n    url: https://example.invalid/m.gguf\n    members:\n      - &s vv\n" + strings.Repeat("      - *s\n", 200)
	if p, err := parsePins([]byte(short), "o.yaml"); err != nil || len(p.Models["m"].Members) != 201 {
		t.Errorf("short aliases: %v", err)
	}
}
