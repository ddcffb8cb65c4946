package agent

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"kitsoki/internal/testing/agentplugins/mcpecho"
	"kitsoki/pkg/story"
)

// An mcp_http endpoint that redirects to another origin (another host or
// port, another scheme) gets neither the declared headers nor the call
// sent there: the call fails naming the redirect and the fix (before the
// fix, every declared header, Authorization included, followed the
// redirect, since the transport adds them to each request it sends). A
// redirect within the endpoint's origin is followed with them.
func TestMCPHTTPRedirectToAnotherOriginCarriesNoSecret(t *testing.T) {
	const token = "tok-redirect-5521"
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.Header.Get("Authorization"), token) {
			elsewhere.Add(1)
		}
		http.Error(w, "not here", http.StatusNotFound)
	}))
	t.Cleanup(other.Close)
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/mcp", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirector.Close)

	tr := newMCPTransport(t, &story.AgentPlugin{Endpoint: redirector.URL + "/mcp", Headers: map[string]string{"Authorization": "Bearer " + token}}, token)
	ae := askKind(t, tr, context.Background(), referenceRequest(), KindTransportError)
	if n := elsewhere.Load(); n != 0 {
		t.Fatalf("the declared Authorization header reached the other origin %d time(s)", n)
	}
	if !strings.Contains(ae.Detail, "redirected") || !strings.Contains(ae.Detail, "endpoint:") || strings.Contains(ae.Detail, token) {
		t.Fatalf("the error does not name the redirect and the fix: %s", ae.Detail)
	}

	// The same origin: followed, headers and all.
	f := newMCPFixture(t, mcpecho.Options{})
	mux := http.NewServeMux()
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/", http.StatusPermanentRedirect) })
	mux.Handle("/", f.srv)
	same := httptest.NewServer(mux)
	t.Cleanup(same.Close)
	tr2 := newMCPTransport(t, &story.AgentPlugin{Endpoint: same.URL + "/old", Headers: map[string]string{"Authorization": "Bearer " + token}}, token)
	if resp := askOK(t, tr2, referenceRequest()); string(resp.Submission) != referenceSubmission {
		t.Fatalf("submission %s", resp.Submission)
	}
	for _, h := range f.headers() {
		if h.Get("Authorization") != "Bearer "+token {
			t.Fatalf("headers lost on a same-origin redirect: %v", h)
		}
	}
}
