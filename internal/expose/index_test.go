package expose

import (
	"reflect"
	"testing"
)

// TestByFirstByte: the start-up indexes group every rule and phrase under
// its first byte, in order, as appending one by one would.
func TestByFirstByte(t *testing.T) {
	for name, tc := range map[string]struct {
		n     int
		first func(int) byte
		got   [256][]int
	}{
		"rules":   {len(prefixRules), func(i int) byte { return prefixRules[i].prefix[0] }, firstRule},
		"phrases": {len(phrases), func(i int) byte { return phrases[i].text[0] }, firstPhrase},
		"edges":   {5, func(i int) byte { return []byte{255, 0, 255, 7, 0}[i] }, edges()},
	} {
		var want [256][]int
		for i := 0; i < tc.n; i++ {
			want[tc.first(i)] = append(want[tc.first(i)], i)
		}
		if !reflect.DeepEqual(tc.got, want) {
			t.Errorf("%s: index differs from the one appending builds", name)
		}
	}
}

func edges() (index [256][]int) {
	byFirstByte(&index, []byte{255, 0, 255, 7, 0})
	return index
}
