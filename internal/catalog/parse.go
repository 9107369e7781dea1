// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"strconv"
	"strings"
)

// Parsers for user strings. They never panic and never fold case: a value
// that differs from a valid one only in case does not parse, so that the
// caller can report it with a did-you-mean.

func itoa(n int) string { return strconv.Itoa(n) }

func isLower(b byte) bool { return b >= 'a' && b <= 'z' }
func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// parseUint parses a non-empty decimal without sign or leading zeros and
// with at most maxDigits digits.
func parseUint(s string, maxDigits int) (int, bool) {
	if s == "" || len(s) > maxDigits || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

// parseAcceleratorType splits "<prefix>-<size>", e.g. "v5litepod-16". The
// prefix is lower-case letters and digits; the size has no leading zeros.
func parseAcceleratorType(s string) (prefix string, size int, ok bool) {
	i := strings.LastIndexByte(s, '-')
	if i <= 0 || i > 16 {
		return "", 0, false
	}
	prefix = s[:i]
	for j := 0; j < len(prefix); j++ {
		if !isLower(prefix[j]) && !isDigit(prefix[j]) {
			return "", 0, false
		}
	}
	size, ok = parseUint(s[i+1:], 6)
	if !ok {
		return "", 0, false
	}
	return prefix, size, true
}

// parseTopology parses "AxB" or "AxBxC" with positive dimensions.
func parseTopology(s string) ([]int, bool) {
	if s == "" || len(s) > 20 {
		return nil, false
	}
	parts := strings.Split(s, "x")
	if len(parts) < 2 || len(parts) > 3 {
		return nil, false
	}
	dims := make([]int, len(parts))
	for i, p := range parts {
		n, ok := parseUint(p, 4)
		if !ok || n == 0 {
			return nil, false
		}
		dims[i] = n
	}
	return dims, true
}

func formatTopology(dims []int) string {
	parts := make([]string, len(dims))
	for i, d := range dims {
		parts[i] = itoa(d)
	}
	return strings.Join(parts, "x")
}

func product(dims []int) int {
	p := 1
	for _, d := range dims {
		p *= d
	}
	return p
}

// gkeVersion is a GKE version: MAJOR.MINOR[.PATCH[-gke.N]]. parts says how
// many of the four numbers were given; comparisons use the common precision.
type gkeVersion struct {
	nums  [4]int
	parts int
}

// parseGKEVersion parses "1.31", "1.31.2" or "1.31.2-gke.1115000".
func parseGKEVersion(s string) (gkeVersion, bool) {
	var v gkeVersion
	base, gke, hasGKE := strings.Cut(s, "-gke.")
	fields := strings.Split(base, ".")
	if len(fields) < 2 || len(fields) > 3 || (hasGKE && len(fields) != 3) {
		return v, false
	}
	for i, f := range fields {
		n, ok := parseUint(f, 4)
		if !ok {
			return v, false
		}
		v.nums[i] = n
	}
	v.parts = len(fields)
	if hasGKE {
		n, ok := parseUint(gke, 9)
		if !ok {
			return v, false
		}
		v.nums[3] = n
		v.parts = 4
	}
	return v, true
}

// olderGKE reports whether version, a GKE version such as
// "1.31.2-gke.1115000", is older than minVersion; false when either does not
// parse ("", "latest").
func olderGKE(version, minVersion string) bool {
	v, ok := parseGKEVersion(version)
	minV, okMin := parseGKEVersion(minVersion)
	return ok && okMin && compareGKE(v, minV) < 0
}

// compareGKE compares a and b on the precision both give: -1, 0 or 1.
func compareGKE(a, b gkeVersion) int {
	n := min(a.parts, b.parts)
	for i := 0; i < n; i++ {
		switch {
		case a.nums[i] < b.nums[i]:
			return -1
		case a.nums[i] > b.nums[i]:
			return 1
		}
	}
	return 0
}

func (v gkeVersion) String() string {
	s := itoa(v.nums[0]) + "." + itoa(v.nums[1])
	if v.parts >= 3 {
		s += "." + itoa(v.nums[2])
	}
	if v.parts == 4 {
		s += "-gke." + itoa(v.nums[3])
	}
	return s
}

// version is a framework version: 1 to 3 numeric components and an optional
// pre-release or local suffix ("2.5.0rc1", "0.4.37.dev20240101", "2.5+cpu").
type version struct {
	nums   [3]int
	parts  int
	suffix string
}

func parseVersion(s string) (version, bool) {
	var v version
	i := 0
	for v.parts < 3 {
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		n, ok := parseUint(s[i:j], 6)
		if !ok {
			return version{}, false
		}
		v.nums[v.parts] = n
		v.parts++
		i = j
		if i+1 < len(s) && s[i] == '.' && isDigit(s[i+1]) && v.parts < 3 {
			i++
			continue
		}
		break
	}
	rest := s[i:]
	if rest == "" {
		return v, true
	}
	if len(rest) > 40 {
		return version{}, false
	}
	switch c := rest[0]; {
	case isLower(c) || (c >= 'A' && c <= 'Z'):
	case c == '.' && len(rest) > 1 && (isLower(rest[1]) || (rest[1] >= 'A' && rest[1] <= 'Z')):
	case (c == '+' || c == '-') && len(rest) > 1 && rest[1] != '.' && rest[1] != '+' && rest[1] != '-':
	default:
		return version{}, false
	}
	for k := 0; k < len(rest); k++ {
		c := rest[k]
		if !isLower(c) && (c < 'A' || c > 'Z') && !isDigit(c) && c != '.' && c != '+' && c != '-' {
			return version{}, false
		}
	}
	v.suffix = rest
	return v, true
}

// compareVersion compares the numeric parts, padding missing ones with zeros.
func compareVersion(a, b version) int {
	for i := 0; i < 3; i++ {
		switch {
		case a.nums[i] < b.nums[i]:
			return -1
		case a.nums[i] > b.nums[i]:
			return 1
		}
	}
	return 0
}

func (v version) String() string {
	s := itoa(v.nums[0])
	for i := 1; i < v.parts; i++ {
		s += "." + itoa(v.nums[i])
	}
	return s + v.suffix
}

// tfName is a parsed TensorFlow runtime name:
// tpu-vm-tf-X.Y.Z[-pod][-pjrt|-se][-v4][unverified suffix].
type tfName struct {
	version string
	ver     version
	pod     bool
	api     string // "", "pjrt" or "se"
	v4      bool
	extra   string // an unverified suffix such as "-v5e-and-v6"
}

const tfPrefix = "tpu-vm-tf-"

// isTFName reports whether s claims to be a TensorFlow runtime name.
func isTFName(s string) bool { return strings.HasPrefix(s, tfPrefix) }

func parseTFName(s string, extras []string) (tfName, bool) {
	var t tfName
	rest, ok := strings.CutPrefix(s, tfPrefix)
	if !ok {
		return t, false
	}
	end := 0
	for end < len(rest) && (isDigit(rest[end]) || rest[end] == '.') {
		end++
	}
	t.version, rest = rest[:end], rest[end:]
	fields := strings.Split(t.version, ".")
	if len(fields) != 3 {
		return tfName{}, false
	}
	for i, f := range fields {
		n, ok := parseUint(f, 4)
		if !ok {
			return tfName{}, false
		}
		t.ver.nums[i] = n
	}
	t.ver.parts = 3
	rest, t.pod = strings.CutPrefix(rest, "-pod")
	if r, ok := strings.CutPrefix(rest, "-pjrt"); ok {
		rest, t.api = r, "pjrt"
	} else if r, ok := strings.CutPrefix(rest, "-se"); ok {
		rest, t.api = r, "se"
	}
	rest, t.v4 = strings.CutPrefix(rest, "-v4")
	for _, e := range extras {
		if rest == e {
			t.extra, rest = e, ""
			break
		}
	}
	if rest != "" {
		return tfName{}, false
	}
	return t, true
}

func (t tfName) String() string {
	s := tfPrefix + t.version
	if t.pod {
		s += "-pod"
	}
	if t.api != "" {
		s += "-" + t.api
	}
	if t.v4 {
		s += "-v4"
	}
	return s + t.extra
}

// zoneRegion returns the region of a well-formed zone name such as
// "us-central1-a" or the AI zone "us-central1-ai1a".
func zoneRegion(s string) (string, bool) {
	if len(s) > 63 {
		return "", false
	}
	parts := strings.Split(s, "-")
	if len(parts) != 3 {
		return "", false
	}
	area, loc, suffix := parts[0], parts[1], parts[2]
	if !allLower(area) {
		return "", false
	}
	i := 0
	for i < len(loc) && isLower(loc[i]) {
		i++
	}
	if i == 0 || i == len(loc) || !allDigits(loc[i:]) {
		return "", false
	}
	if !validZoneSuffix(suffix) {
		return "", false
	}
	return area + "-" + loc, true
}

// looksLikeRegion reports whether s has the form of a region ("us-central1").
func looksLikeRegion(s string) bool {
	_, ok := zoneRegion(s + "-a")
	return ok
}

func validZoneSuffix(s string) bool {
	if len(s) == 1 {
		return isLower(s[0])
	}
	rest, ok := strings.CutPrefix(s, "ai")
	if !ok || rest == "" {
		return false
	}
	i := 0
	for i < len(rest) && isDigit(rest[i]) {
		i++
	}
	if i == 0 {
		return false
	}
	tail := rest[i:]
	return tail == "" || (len(tail) == 1 && isLower(tail[0]))
}

func allLower(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isLower(s[i]) {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// GKEVersionMatches reports whether version, a node version as GKE's
// nodePools take it (a full version, or an alias such as "1.33" or
// "1.33.5", https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/projects.locations.clusters.nodePools/update),
// names reported, the full version GKE reports: equal on the precision
// version gives. "latest" and "-" name any version.
func GKEVersionMatches(version, reported string) bool {
	if version == "latest" || version == "-" {
		return true
	}
	v, ok := parseGKEVersion(version)
	r, okR := parseGKEVersion(reported)
	return ok && okR && compareGKE(v, r) == 0
}

// NewerGKEVersion reports whether a is newer than b on the precision both
// give; false when either does not parse.
func NewerGKEVersion(a, b string) bool {
	va, ok := parseGKEVersion(a)
	vb, okB := parseGKEVersion(b)
	return ok && okB && compareGKE(va, vb) > 0
}
