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
			if oneEdit(key, k) {
				return "; did you mean " + strconv.Quote(k) + "?"
			}
		}
	}
	return ""
}

// oneEdit reports whether one edit turns a into b: a byte added, left
// out or changed, or two neighbouring bytes swapped.
func oneEdit(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	// Past the common prefix, the rest must match after the one edit.
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	switch {
	case len(b)-len(a) == 1:
		return a[i:] == b[i+1:]
	case len(a) != len(b) || i == len(a):
		return false
	}
	return a[i+1:] == b[i+1:] || // changed
		i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:] // swapped
}
