package host

import (
	"testing"
	"time"

	"kitsoki/internal/testing/storytest"
)

func TestZZProbe(t *testing.T) {
	sidecar := "inputs: {}\noutputs:\n  n: { type: int }\n"
	files := map[string]string{}
	deep := "def deep():\n    x = []\n    for i in range(1000000):\n        x = [x]\n    return x\n\n"
	scripts := map[string]string{
		"jsondeep": "def main(ctx):\n    v = json.decode(\"[\" * 5000000 + \"]\" * 5000000)\n    return {\"n\": 1}\n",
		"strdeep":  deep + "def main(ctx):\n    return {\"n\": len(str(deep()))}\n",
		"encdeep":  deep + "def main(ctx):\n    return {\"n\": len(json.encode(deep()))}\n",
		"eqdeep":   deep + "def main(ctx):\n    return {\"n\": 1 if deep() == deep() else 0}\n",
		"hashdeep": "def main(ctx):\n    x = ()\n    for i in range(1000000):\n        x = (x,)\n    d = {x: 1}\n    return {\"n\": 1}\n",
		"outdeep":  deep + "def main(ctx):\n    return {\"n\": 1, \"m\": deep()}\n",
		"intparse": "def main(ctx):\n    return {\"n\": int(\"7\" * 3000000) % 10}\n",
	}
	for k, v := range scripts {
		files[k+".star"] = v
		files[k+".star.yaml"] = sidecar
	}
	dir := storytest.TempTree(t, files)
	h := NewStarlarkRun(StarlarkOptions{NoNetwork: true})
	for _, k := range []string{"jsondeep", "eqdeep", "strdeep", "encdeep", "hashdeep", "outdeep"} {
		t0 := time.Now()
		res, err := call(t, h, starEnv(dir), map[string]any{"script": k + ".star"})
		e := res.Error
		if len(e) > 200 {
			e = e[:200]
		}
		t.Logf("%s: %v %q (%v)", k, err, e, time.Since(t0))
	}
}
