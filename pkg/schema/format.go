package schema

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// format assertions: drafts 4, 6 and 7 assert "format" for the names below
// (unknown names are annotations); 2019-09 and 2020-12 never assert it.
// Each checker sees only strings; other types always pass.

type formatCheck func(s string) error

func formatChecker(name string) formatCheck {
	switch name {
	case "json-pointer":
		return checkJSONPointer
	case "relative-json-pointer":
		return checkRelativeJSONPointer
	case "uuid":
		return checkUUID
	case "duration":
		return checkDuration
	case "period":
		return checkPeriod
	case "ipv4":
		return checkIPv4
	case "ipv6":
		return checkIPv6
	case "hostname":
		return checkHostname
	case "email":
		return checkEmail
	case "date":
		return checkDate
	case "time":
		return checkTime
	case "date-time":
		return checkDateTime
	case "uri", "iri":
		return checkURI
	case "uri-reference", "iri-reference":
		return checkURIReference
	case "uri-template":
		return checkURITemplate
	case "semver":
		return checkSemver
	case "regex":
		return checkRegex
	}
	return nil
}

func isDigit(c rune) bool { return c >= '0' && c <= '9' }

func leadingDigits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

func checkRegex(s string) error {
	_, err := regexp.Compile(s)
	return err
}

func checkJSONPointer(s string) error {
	if s == "" {
		return nil
	}
	if s[0] != '/' {
		return errors.New("not starting with /")
	}
	for i := 1; i < len(s); i++ {
		if s[i] == '~' {
			if i+1 >= len(s) || (s[i+1] != '0' && s[i+1] != '1') {
				return errors.New("~ must be followed by 0 or 1")
			}
			i++
		}
	}
	return nil
}

func checkRelativeJSONPointer(s string) error {
	n := leadingDigits(s)
	if n == 0 {
		return errors.New("must start with non-negative integer")
	}
	if n > 1 && s[0] == '0' {
		return errors.New("starts with zero")
	}
	if rest := s[n:]; rest != "#" {
		return checkJSONPointer(rest)
	}
	return nil
}

func checkUUID(s string) error {
	parts := strings.Split(s, "-")
	want := []int{8, 4, 4, 4, 12}
	if len(parts) != len(want) {
		return errors.New("must have 5 elements")
	}
	for i, p := range parts {
		if len(p) != want[i] {
			return fmt.Errorf("element %d must be %d characters long", i+1, want[i])
		}
		for _, c := range p {
			if !isDigit(c) && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
				return fmt.Errorf("non-hex character %q", c)
			}
		}
	}
	return nil
}

func checkDuration(s string) error {
	rest, ok := strings.CutPrefix(s, "P")
	if !ok {
		return errors.New("must start with P")
	}
	if rest == "" {
		return errors.New("nothing after P")
	}
	if w, ok := strings.CutSuffix(rest, "W"); ok {
		if w == "" || leadingDigits(w) != len(w) {
			return errors.New("invalid week")
		}
		return nil
	}
	date, tm, hasT := strings.Cut(rest, "T")
	if hasT && tm == "" {
		return errors.New("no time elements")
	}
	if strings.Contains(tm, "T") {
		return errors.New("more than one T")
	}
	if err := durationUnits(date, "YMD"); err != nil {
		return err
	}
	return durationUnits(tm, "HMS")
}

// durationUnits checks "<digits><unit>..." with units in the given order.
func durationUnits(s, order string) error {
	next := 0
	for s != "" {
		n := leadingDigits(s)
		if n == 0 {
			return errors.New("missing number")
		}
		if n == len(s) {
			return errors.New("missing unit")
		}
		u := strings.IndexByte(order, s[n])
		if u < 0 {
			return fmt.Errorf("invalid unit %q", s[n])
		}
		if u < next {
			return fmt.Errorf("unit %q out of order", s[n])
		}
		next = u + 1
		s = s[n+1:]
	}
	return nil
}

func checkPeriod(s string) error {
	start, end, ok := strings.Cut(s, "/")
	if !ok {
		return errors.New("missing slash")
	}
	if strings.HasPrefix(start, "P") {
		if err := checkDuration(start); err != nil {
			return err
		}
		return checkDateTime(end)
	}
	if err := checkDateTime(start); err != nil {
		return err
	}
	if strings.HasPrefix(end, "P") {
		return checkDuration(end)
	}
	return checkDateTime(end)
}

func checkIPv4(s string) error {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return errors.New("expected four decimals")
	}
	for _, p := range parts {
		if len(p) > 1 && p[0] == '0' {
			return errors.New("leading zeros")
		}
		n, err := strconv.Atoi(p)
		if err != nil {
			return err
		}
		if n < 0 || n > 255 {
			return errors.New("decimal must be between 0 and 255")
		}
	}
	return nil
}

func checkIPv6(s string) error {
	if !strings.Contains(s, ":") {
		return errors.New("missing colon")
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return err
	}
	if a.Zone() != "" {
		return errors.New("zone id is not a part of ipv6 address")
	}
	return nil
}

func checkHostname(s string) error {
	s = strings.TrimSuffix(s, ".")
	if len(s) > 253 {
		return errors.New("more than 253 characters long")
	}
	for _, label := range strings.Split(s, ".") {
		if len(label) == 0 || len(label) > 63 {
			return errors.New("label must be 1 to 63 characters long")
		}
		if label[0] == '-' || label[len(label)-1] == '-' {
			return errors.New("label starts or ends with hyphen")
		}
		for _, c := range label {
			if !isDigit(c) && c != '-' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
				return fmt.Errorf("invalid character %q", c)
			}
		}
	}
	return nil
}

func checkEmail(s string) error {
	if len(s) > 254 {
		return errors.New("more than 254 characters long")
	}
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return errors.New("missing @")
	}
	local, domain := s[:at], s[at+1:]
	if len(local) > 64 {
		return errors.New("local part more than 64 characters long")
	}
	if len(local) > 1 && local[0] == '"' && local[len(local)-1] == '"' {
		if strings.ContainsAny(local[1:len(local)-1], `\"`) {
			return errors.New("backslash and quote are not allowed within quoted local part")
		}
	} else {
		if strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, "..") {
			return errors.New("misplaced dot in local part")
		}
		for _, c := range local {
			if !isDigit(c) && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && !strings.ContainsRune(".!#$%&'*+-/=?^_`{|}~", c) {
				return fmt.Errorf("invalid character %q", c)
			}
		}
	}
	if len(domain) >= 2 && domain[0] == '[' && domain[len(domain)-1] == ']' {
		inner := domain[1 : len(domain)-1]
		if v6, ok := strings.CutPrefix(inner, "IPv6:"); ok {
			return checkIPv6(v6)
		}
		return checkIPv4(inner)
	}
	return checkHostname(domain)
}

func checkDate(s string) error {
	_, err := time.Parse("2006-01-02", s)
	return err
}

// checkTime checks an RFC 3339 full-time, leap seconds only at 23:59:60 UTC.
func checkTime(s string) error {
	if len(s) < 9 {
		return errors.New("less than 9 characters long")
	}
	if s[2] != ':' || s[5] != ':' {
		return errors.New("missing colon in correct place")
	}
	var hms [3]int
	for i, tok := range []string{s[0:2], s[3:5], s[6:8]} {
		n, err := strconv.Atoi(tok)
		if err != nil || n < 0 {
			return errors.New("invalid hour/min/sec")
		}
		hms[i] = n
	}
	h, m, sec := hms[0], hms[1], hms[2]
	if h > 23 || m > 59 || sec > 60 {
		return errors.New("hour/min/sec out of range")
	}
	rest := s[8:]
	if frac, ok := strings.CutPrefix(rest, "."); ok {
		n := leadingDigits(frac)
		if n == 0 {
			return errors.New("no digits in second fraction")
		}
		rest = frac[n:]
	}
	if rest != "z" && rest != "Z" {
		if len(rest) != 6 || (rest[0] != '+' && rest[0] != '-') || rest[3] != ':' {
			return errors.New("invalid offset")
		}
		oh, err1 := strconv.Atoi(rest[1:3])
		om, err2 := strconv.Atoi(rest[4:6])
		if err1 != nil || err2 != nil || oh < 0 || om < 0 || oh > 23 || om > 59 {
			return errors.New("invalid offset")
		}
		off := oh*60 + om
		if rest[0] == '+' {
			off = -off
		}
		total := ((h*60+m+off)%(24*60) + 24*60) % (24 * 60)
		h, m = total/60, total%60
	}
	if sec == 60 && (h != 23 || m != 59) {
		return errors.New("invalid leap second")
	}
	return nil
}

func checkDateTime(s string) error {
	if len(s) < 20 {
		return errors.New("less than 20 characters long")
	}
	if s[10] != 'T' && s[10] != 't' {
		return errors.New("11th character must be t or T")
	}
	if err := checkDate(s[:10]); err != nil {
		return err
	}
	return checkTime(s[11:])
}

// parseURIText parses s, refusing an unbracketed or invalid IPv6 host.
func parseURIText(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, err
	}
	if host := u.Hostname(); strings.Contains(host, ":") {
		if !strings.Contains(u.Host, "[") || !strings.Contains(u.Host, "]") {
			return nil, errors.New("ipv6 address not enclosed in brackets")
		}
		if err := checkIPv6(host); err != nil {
			return nil, err
		}
	}
	return u, nil
}

func checkURI(s string) error {
	u, err := parseURIText(s)
	if err != nil {
		return err
	}
	if !u.IsAbs() {
		return errors.New("relative url")
	}
	return nil
}

func checkURIReference(s string) error {
	if strings.Contains(s, `\`) {
		return errors.New(`contains \`)
	}
	_, err := parseURIText(s)
	return err
}

func checkURITemplate(s string) error {
	u, err := parseURIText(s)
	if err != nil {
		return err
	}
	for _, seg := range strings.Split(u.RawPath, "/") {
		seg, err := url.PathUnescape(seg)
		if err != nil {
			return err
		}
		open := false
		for _, c := range seg {
			switch c {
			case '{':
				if open {
					return errors.New("nested curly braces")
				}
				open = true
			case '}':
				if !open {
					return errors.New("nested curly braces")
				}
				open = false
			}
		}
		if open {
			return errors.New("no matching closing brace")
		}
	}
	return nil
}

func checkSemver(s string) error {
	if i := strings.IndexByte(s, '+'); i >= 0 {
		build := s[i+1:]
		if build == "" {
			return errors.New("build is empty")
		}
		for _, id := range strings.Split(build, ".") {
			if id == "" || !semverIdent(id) {
				return errors.New("invalid build identifier")
			}
		}
		s = s[:i]
	}
	if i := strings.IndexByte(s, '-'); i >= 0 {
		for _, id := range strings.Split(s[i+1:], ".") {
			if id == "" || !semverIdent(id) {
				return errors.New("invalid pre-release identifier")
			}
			if leadingDigits(id) == len(id) && len(id) > 1 && id[0] == '0' {
				return errors.New("pre-release numeric identifier starts with zero")
			}
		}
		s = s[:i]
	}
	core := strings.Split(s, ".")
	if len(core) != 3 {
		return errors.New("versionCore must have 3 numbers separated by dot")
	}
	for _, n := range core {
		if n == "" || leadingDigits(n) != len(n) || (len(n) > 1 && n[0] == '0') {
			return errors.New("invalid version number")
		}
	}
	return nil
}

func semverIdent(id string) bool {
	for _, c := range id {
		if !isDigit(c) && c != '-' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
			return false
		}
	}
	return true
}
