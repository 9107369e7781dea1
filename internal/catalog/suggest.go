// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxSuggestions is how many nearest values a finding lists.
const maxSuggestions = 3

// distance is the Levenshtein distance between a and b, ignoring case.
func distance(a, b string) int {
	ra := []rune(strings.ToLower(a))
	rb := []rune(strings.ToLower(b))
	if len(ra) == 0 {
		return len(rb)
	}
	if len(rb) == 0 {
		return len(ra)
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// nearest returns up to maxSuggestions candidates closest to input by
// case-insensitive edit distance, best first (ties keep candidate order).
// Only candidates within a distance that scales with the input length are
// returned, so unrelated values are not suggested.
func nearest(input string, candidates []string) []string {
	input = strings.TrimSpace(input)
	if input == "" || len(input) > 200 {
		return nil
	}
	limit := max(2, utf8.RuneCountInString(input)/3)
	type cand struct {
		s string
		d int
	}
	var found []cand
	for _, c := range candidates {
		if d := distance(input, c); d <= limit {
			found = append(found, cand{c, d})
		}
	}
	slices.SortStableFunc(found, func(a, b cand) int { return a.d - b.d })
	var out []string
	for _, f := range found {
		if !slices.Contains(out, f.s) {
			out = append(out, f.s)
		}
		if len(out) == maxSuggestions {
			break
		}
	}
	return out
}

// caseMatch returns the candidate equal to input ignoring case and
// surrounding white space, if any.
func caseMatch(input string, candidates []string) (string, bool) {
	t := strings.TrimSpace(input)
	for _, c := range candidates {
		if strings.EqualFold(t, c) {
			return c, true
		}
	}
	return "", false
}

// closestInts returns up to maxSuggestions values of vals closest to x,
// best first (ties prefer the smaller value).
func closestInts(x int, vals []int) []int {
	s := slices.Clone(vals)
	slices.SortStableFunc(s, func(a, b int) int {
		da, db := absInt(a-x), absInt(b-x)
		if da != db {
			return da - db
		}
		return a - b
	})
	if len(s) > maxSuggestions {
		s = s[:maxSuggestions]
	}
	return s
}

func absInt(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// didYouMean formats "; did you mean "x"?" for the best suggestion, or "".
func didYouMean(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return `; did you mean "` + s[0] + `"?`
}

// normalizeGuess lower-cases and trims a value for a did-you-mean lookup.
func normalizeGuess(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}
