package manifest

import "strconv"

// didYouMean names the key of required or allowed (and "$comment" when
// comment is set) that key is a typo of, as "; did you mean
// \"collections\"?", or returns "". A typo is one edit: a letter added,
// left out, changed, or two neighbours swapped, in a key of three letters
// or more. Two edits would also turn minLimit into maxLimit, or available
// into unavailable: other keys, not typos. It runs only for a manifest that
// fails.
func didYouMean(key string, required, allowed []string, comment bool) string {
	if len(key) < 3 {
		return ""
	}
	lists := [][]string{required, allowed}
	if comment {
		lists = append(lists, []string{Comment})
	}
	for _, list := range lists {
		for _, k := range list {
			if editDistance(key, k, 2) == 1 {
				return "; did you mean " + strconv.Quote(k) + "?"
			}
		}
	}
	return ""
}

// editDistance is the number of single-byte insertions, deletions,
// substitutions and swaps of neighbours that turn a into b (optimal string
// alignment), or limit when it is limit or more.
func editDistance(a, b string, limit int) int {
	if len(a)-len(b) >= limit || len(b)-len(a) >= limit || len(a) > 64 {
		return limit
	}
	// Three rows of the dynamic programme: two back, one back, this one.
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(b)], limit)
}
