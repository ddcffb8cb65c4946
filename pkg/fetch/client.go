package fetch

import (
	"cmp"
	"crypto/x509"
	"fmt"
	"kitsoki/internal/safefile"
	"net/http"
	"os"
	"sync"
)

// LazyHTTPClient returns a client that builds defaultHTTPClient (proxies,
// system certificate pool, SSL_CERT_FILE) on its first request: a warm
// start that moves no byte never loads the certificate pool. Call
// CheckTLSEnv first to report a bad SSL_CERT_FILE before anything starts.
func LazyHTTPClient() *http.Client { return lazyClient(defaultHTTPClient) }

func lazyClient(build func() (*http.Client, error)) *http.Client {
	return &http.Client{Transport: &lazyTransport{build: build}}
}

// lazyTransport builds the real transport once, on the first RoundTrip.
type lazyTransport struct {
	build func() (*http.Client, error)
	once  sync.Once
	rt    http.RoundTripper
	err   error
}

func (l *lazyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	l.once.Do(func() {
		c, err := l.build()
		if err != nil {
			l.err = err
			return
		}
		l.rt = cmp.Or[http.RoundTripper](c.Transport, http.DefaultTransport)
	})
	if l.err != nil {
		if r.Body != nil {
			r.Body.Close()
		}
		return nil, l.err
	}
	return l.rt.RoundTrip(r)
}

// CheckTLSEnv checks SSL_CERT_FILE, when set, without loading the system
// pool: the file must be readable and hold at least one PEM certificate.
func CheckTLSEnv() error {
	file := os.Getenv("SSL_CERT_FILE")
	if file == "" {
		return nil
	}
	pem, err := safefile.ReadFile(file, safefile.Data)
	if err != nil {
		return fmt.Errorf("SSL_CERT_FILE %s: %w (fix the path or unset it)", file, err)
	}
	if !x509.NewCertPool().AppendCertsFromPEM(pem) {
		return fmt.Errorf("SSL_CERT_FILE %s: no PEM certificate found (point it at a PEM bundle or unset it)", file)
	}
	return nil
}
