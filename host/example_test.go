package host_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"

	"github.com/pinholectx/pinhole"
	"github.com/pinholectx/pinhole/host"
)

func Example() {
	ctx := context.Background()
	wasm, err := os.ReadFile("../build/pinhole.wasm") // built by `make wasm`
	if err != nil {
		log.Fatal(err)
	}
	mod, err := host.Compile(ctx, wasm) // once per process
	if err != nil {
		log.Fatal(err)
	}
	defer mod.Close(ctx)

	s, err := mod.NewSession(ctx) // one per agent session
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close(ctx)

	manifest := []byte(`{"pinhole": 1,
	  "regions": [{"id": "tickets", "description": "Open support tickets"}],
	  "collections": [{"region": "tickets", "from": "/tickets", "id": "/id",
	    "fields": {"title": {"from": "/title"}, "owner": {"from": "/owner", "expose": "mask"}}}]}`)
	if _, err := s.Load(ctx, manifest, ""); err != nil { // "": a random session key
		log.Fatal(err)
	}
	state := []byte(`{"tickets": [
	  {"id": "T-1", "title": "Printer on fire", "owner": "ada@example.com"},
	  {"id": "T-2", "title": "Password reset", "owner": "lin@example.com"}]}`)
	if _, err := s.Observe(ctx, state); err != nil {
		log.Fatal(err)
	}
	out, err := s.Describe(ctx, []byte(`{"record": ["T-2"]}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s\n", out)

	_, err = s.Describe(ctx, []byte(`{"record": ["T-9"]}`))
	var pe *pinhole.Error
	if errors.As(err, &pe) && pe.Code == pinhole.CodeUnknownRecord {
		fmt.Println(pe.Code, pe.Param)
	}
	// Output:
	// {"snapshot":"s1","limits":{"defaultLimit":8,"maxLimit":50,"maxRecordSelection":20,"maxRecordIds":1000,"maxFieldChars":512,"maxFeedback":20,"maxUnavailable":20,"maxResponseBytes":65536},"capabilities":[],"context":{"regions":[{"id":"tickets","description":"Open support tickets"}],"records":[{"id":"T-2","region":"tickets","fields":{"title":"Password reset","owner":"l***@example.com"}}],"recordIds":["T-1","T-2"],"recordIdsTotal":2,"recordsTotal":2,"state":{},"feedback":[],"feedbackTotal":0,"unavailable":[],"unavailableTotal":0}}
	// unknown_record record
}
