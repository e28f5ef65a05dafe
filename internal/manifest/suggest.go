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
	// Not a list of the lists: that would send required and allowed to the
	// heap, and with them every caller's key list, even for a valid manifest.
	for _, k := range required {
		if oneEdit(key, k) {
			return suggestion(k)
		}
	}
	for _, k := range allowed {
		if oneEdit(key, k) {
			return suggestion(k)
		}
	}
	if comment && oneEdit(key, Comment) {
		return suggestion(Comment)
	}
	return ""
}

// suggestion is the hint for a key that is a typo of k.
func suggestion(k string) string { return "; did you mean " + strconv.Quote(k) + "?" }

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
