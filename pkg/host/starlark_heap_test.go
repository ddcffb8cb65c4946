package host

import (
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestStarlarkHeapWatch: scripts that keep many values each under the
// per-value checks (strings of just under 1 MiB, list slices, s.upper(),
// d.items()) are cancelled once the process's live heap passes the limit,
// an error that goes to on_error (redteam6: the first kept 3 GB in 3,000
// steps under kitsoki test --sandbox; 20,000 would exhaust the machine).
// Each would keep 4 GiB or more, against a 16 MiB limit (the product's is
// 2 GiB: the test's limit only sets how much each script allocates before
// the watch stops it).
func TestStarlarkHeapWatch(t *testing.T) {
	sidecar := "inputs: {}\noutputs:\n  n: { type: int }\n"
	files := map[string]string{}
	for name, body := range map[string]string{
		"strings": "    s = \"a\" * ((1 << 20) - 64)\n    keep = []\n    for i in range(4096):\n        keep.append(s + str(i))\n",
		"slices":  "    l = list(range(1 << 16))\n    keep = []\n    for i in range(4096):\n        keep.append(l[:])\n",
		"upper":   "    s = \"a\" * (1 << 20)\n    keep = []\n    for i in range(4096):\n        keep.append(s.upper())\n",
		"items":   "    d = {i: i for i in range(1 << 14)}\n    keep = []\n    for i in range(4096):\n        keep.append(d.items())\n",
	} {
		files[name+".star"] = "def main(ctx):\n" + body + "    return {\"n\": len(keep)}\n"
		files[name+".star.yaml"] = sidecar
	}
	dir := storytest.TempTree(t, files)
	h := NewStarlarkRun(StarlarkOptions{NoNetwork: true, heapLimit: 16 << 20})
	for _, name := range []string{"strings", "slices", "upper", "items"} {
		wantDomainErr(t, h, starEnv(dir), map[string]any{"script": name + ".star"}, name, "more than 16 MiB of live values")
	}
}
