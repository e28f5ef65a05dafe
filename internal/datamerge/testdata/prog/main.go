// A Go program for wasip1 that reads data of every kind the linker writes
// (strings, tables, type descriptors through fmt and maps, function
// tables through a traceback) and prints what it read, for
// datamerge's TestMergeGoProgram.
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"unicode"
)

var table = [...]uint64{0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0xdeadbeef, 0, 0, 0, 0, 0, 0, 0, 0, 0, 42}

var words = map[string]int{"alpha": 1, "beta": 2, "gamma": 3}

type point struct {
	X, Y int
	Name string
}

func main() {
	keys := make([]string, 0, len(words))
	for k := range words {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Println("words:", keys, table)
	fmt.Printf("point: %+v\n", point{3, 4, "p"})
	fmt.Println("upper:", strings.Map(unicode.ToUpper, "grüße"), unicode.IsLetter('ß'))
	stack := string(debug.Stack())
	fmt.Println("stack names main.main:", strings.Contains(stack, "main.main"))
	runtime.GC()
	os.Exit(3)
}
