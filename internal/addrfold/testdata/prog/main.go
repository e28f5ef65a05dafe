// Command prog is the Go program TestFoldGoProgram builds for wasip1 and
// runs before and after folding: the runtime's paths that read the code's
// structure (panics and recovery, tracebacks, stack growth, goroutines, the
// collector) and ordinary work on memory. Its output is deterministic.
package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
)

type point struct {
	X, Y int64
	Name string
	Tags [4]uint16
}

func recovered(f func()) (msg string) {
	defer func() { msg = fmt.Sprint(recover()) }()
	f()
	return "no panic"
}

//go:noinline
func deep(n int) int {
	var pad [64]byte
	pad[n%64] = byte(n)
	if n == 0 {
		return int(pad[0])
	}
	return deep(n-1) + int(pad[n%64]&1)
}

//go:noinline
func where() string {
	pc, file, line, ok := runtime.Caller(1)
	return fmt.Sprintf("%s %s:%d %v", runtime.FuncForPC(pc).Name(), file, line, ok)
}

func main() {
	var p *point
	fmt.Println("nil:", recovered(func() { fmt.Println(p.X) }))
	zero := 0
	fmt.Println("divide:", recovered(func() { fmt.Println(1 / zero) }))
	fmt.Println("index:", recovered(func() { s := []int{1}; i := 3; fmt.Println(s[i]) }))
	fmt.Println("error:", recovered(func() { panic(errors.New("planned")) }))
	fmt.Println("caller:", where())

	// The stack of a goroutine: frame names, lines and program counters'
	// offsets within their functions.
	for _, l := range strings.Split(string(debug.Stack()), "\n") {
		fmt.Println("stack:", strings.TrimSpace(l))
	}

	fmt.Println("deep:", deep(100000))

	var wg sync.WaitGroup
	sums := make(chan int64, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			var s int64
			for i := 0; i < 10000; i++ {
				s += int64(i * g)
				if i%1000 == 0 {
					runtime.Gosched()
				}
			}
			sums <- s
		}(g)
	}
	wg.Wait()
	close(sums)
	var total int64
	for s := range sums {
		total += s
	}
	fmt.Println("goroutines:", total)

	m := map[string]point{}
	for i := 0; i < 20000; i++ {
		k := "k" + strconv.Itoa(i*7919%20011)
		m[k] = point{X: int64(i), Y: int64(-i), Name: k, Tags: [4]uint16{uint16(i), 1, 2, 3}}
	}
	runtime.GC()
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var sum int64
	for _, k := range keys[:100] {
		sum += m[k].X*3 + m[k].Y + int64(m[k].Tags[0])
	}
	fmt.Println("map:", len(m), keys[0], keys[len(keys)-1], sum)

	big := make([]point, 5000)
	for i := range big {
		big[i] = point{X: int64(i), Name: strings.Repeat("é", i%5)}
	}
	cp := append([]point(nil), big...)
	sort.Slice(cp, func(i, j int) bool { return cp[i].X%97 < cp[j].X%97 || (cp[i].X%97 == cp[j].X%97 && cp[i].X < cp[j].X) })
	fmt.Println("slice:", cp[0].X, cp[1].X, cp[4999].X, len(cp[3].Name))

	fmt.Println("float:", strconv.FormatFloat(math.Pi*1e10, 'g', -1, 64), math.Sqrt(2), float32(1)/3)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Println("gc ran:", ms.NumGC > 0)
	os.Exit(3)
}
