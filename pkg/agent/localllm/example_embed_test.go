package localllm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	"kitsoki/pkg/agent/localllm"
)

// An embedder attached to a running llama-server (here a stand-in on
// loopback that answers POST /v1/embeddings) gets one vector per text,
// with the model's task prefix added and the vector truncated to Dim and
// re-normalised.
func ExampleNewEmbedder() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Input []string `json:"input"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		fmt.Println("server got:", req.Input[0])
		fmt.Fprint(w, `{"data":[{"index":0,"embedding":[3,4,12]}]}`)
	}))
	defer srv.Close()

	e, err := localllm.NewEmbedder(localllm.EmbedderConfig{Model: localllm.EmbedModelBGE, Endpoint: srv.URL, Dim: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer e.Close()
	vecs, err := e.Embed(context.Background(), []string{"where is the ticket?"}, localllm.EmbedQuery)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(vecs[0])
	// Output:
	// server got: search_query: where is the ticket?
	// [0.6 0.8]
}
