package fetch

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"os"
	"strings"
)

// untrustedCert reports a TLS handshake that failed on the server's
// certificate: asking again cannot change it.
func untrustedCert(err error) bool {
	var ua x509.UnknownAuthorityError
	var ci x509.CertificateInvalidError
	var he x509.HostnameError
	var ve *tls.CertificateVerificationError
	return errors.As(err, &ua) || errors.As(err, &ci) || errors.As(err, &he) || errors.As(err, &ve)
}

// proxyFailure reports a request that could not reach the proxy the
// environment names for it.
func proxyFailure(err error) bool {
	op, ok := errors.AsType[*net.OpError](err)
	return ok && op.Op == "proxyconnect"
}

// networkHint is the advice for a request that failed before any answer:
// which setting decides the failure and how to change it ("" when none).
func networkHint(err error, src string) string {
	switch {
	case proxyFailure(err):
		return "; the download goes through the proxy " + envProxy(src) + ", which could not be reached: fix HTTPS_PROXY (or HTTP_PROXY), or list the host in NO_PROXY"
	case untrustedCert(err):
		return "; the server's TLS certificate is not trusted: if a proxy or firewall intercepts TLS, point SSL_CERT_FILE at its CA certificate (PEM)"
	}
	return ""
}

// envProxy names the proxy the environment gives for src and the variable
// that set it, its credentials masked.
func envProxy(src string) string {
	req, err := http.NewRequest(http.MethodGet, src, nil)
	if err != nil {
		return "from the environment"
	}
	u, err := http.ProxyFromEnvironment(req)
	if err != nil || u == nil {
		return "from the environment"
	}
	shown := u.Scheme + "://" + u.Host
	if u.User != nil {
		shown = u.Scheme + "://***@" + u.Host
	}
	name := "HTTPS_PROXY"
	if req.URL.Scheme == "http" {
		name = "HTTP_PROXY"
	}
	if os.Getenv(name) == "" && os.Getenv(strings.ToLower(name)) != "" {
		name = strings.ToLower(name)
	}
	return shown + " ($" + name + ")"
}
