package pinhole_test

import (
	"errors"
	"fmt"
	"log"

	"github.com/pinholectx/pinhole"
)

const ticketsManifest = `{"pinhole": 1,
  "regions": [{"id": "tickets", "description": "Open support tickets"}],
  "collections": [{"region": "tickets", "from": "/tickets", "id": "/id",
    "fields": {"title": {"from": "/title"}, "owner": {"from": "/owner", "expose": "mask"}}}]}`

const ticketsState = `{"tickets": [
  {"id": "T-1", "title": "Printer on fire", "owner": "ada@example.com", "internal": "never declared"},
  {"id": "T-2", "title": "Password reset", "owner": "lin@example.com"}]}`

func Example() {
	s := pinhole.NewSession() // one per agent session

	// "": the session draws a random key for aliases and placeholders.
	if _, err := s.Load([]byte(ticketsManifest), ""); err != nil {
		log.Fatal(err)
	}
	if _, err := s.Observe([]byte(ticketsState)); err != nil {
		log.Fatal(err)
	}
	out, err := s.Describe([]byte(`{"record": ["T-2"]}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s\n", out)

	_, err = s.Describe([]byte(`{"record": ["T-9"]}`))
	var pe *pinhole.Error
	if errors.As(err, &pe) && pe.Code == pinhole.CodeUnknownRecord {
		fmt.Println(pe.Code, pe.Param)
	}
	// Output:
	// {"snapshot":"s1","limits":{"defaultLimit":8,"maxLimit":50,"maxRecordSelection":20,"maxRecordIds":1000,"maxFieldChars":512,"maxFeedback":20,"maxUnavailable":20,"maxResponseBytes":65536},"capabilities":[],"context":{"regions":[{"id":"tickets","description":"Open support tickets"}],"records":[{"id":"T-2","region":"tickets","fields":{"title":"Password reset","owner":"l***@example.com"}}],"recordIds":["T-1","T-2"],"recordIdsTotal":2,"recordsTotal":2,"state":{},"feedback":[],"feedbackTotal":0,"unavailable":[],"unavailableTotal":0}}
	// unknown_record record
}

// Prepare checks an agent's action against the snapshot it decided on and
// answers for the application's handler (with placeholders and aliases the
// agent passed resolved to the real values); After then tells the agent
// what its action changed.
func ExampleSession_Prepare() {
	s := pinhole.NewSession()
	_, err := s.Load([]byte(`{"pinhole": 1,
	  "regions": [{"id": "orders"}],
	  "collections": [{"region": "orders", "from": "/orders", "id": "/id", "fields": {"status": {"from": "/status"}}}],
	  "capabilities": [{"name": "order.ship", "description": "Ship one order", "scope": "record", "region": "orders",
	    "input": {"type": "object", "properties": {"carrier": {"enum": ["ups", "dhl"]}}, "required": ["carrier"]},
	    "unavailable": [{"when": {"field": "/status", "ne": "ready"}, "reason": "Only ready orders ship"}]}]}`), "")
	if err != nil {
		log.Fatal(err)
	}
	if _, err := s.Observe([]byte(`{"orders": [{"id": "SO-1", "status": "ready"}, {"id": "SO-2", "status": "open"}]}`)); err != nil {
		log.Fatal(err)
	}
	prepared, err := s.Prepare(pinhole.PrepareRequest{Capability: "order.ship", Record: "SO-1",
		Input: []byte(`{"carrier": "ups"}`), Snapshot: "s1"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s\n", prepared) // for the handler only

	_, err = s.Prepare(pinhole.PrepareRequest{Capability: "order.ship", Record: "SO-2", Input: []byte(`{"carrier": "ups"}`)})
	fmt.Println(err)

	// The handler ships SO-1; the session observes the store.
	if _, err := s.Observe([]byte(`{"orders": [{"id": "SO-1", "status": "shipped"}, {"id": "SO-2", "status": "open"}]}`)); err != nil {
		log.Fatal(err)
	}
	after, err := s.After("s1")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s\n", after)
	// Output:
	// {"ok":true,"snapshot":"s1","capability":"order.ship","record":"SO-1","input":{"carrier":"ups"}}
	// capability_unavailable: Only ready orders ship
	// {"from":"s1","to":"s2","records":{"changed":[{"id":"SO-1","region":"orders","fields":{"status":"shipped"}}],"added":[],"removed":[],"changedTotal":1,"addedTotal":0,"removedTotal":0},"state":{},"capabilities":{"available":[],"unavailable":[{"capability":"order.ship","record":"SO-1","reason":"Only ready orders ship"}]},"feedback":[],"feedbackTotal":0,"redescribe":{"required":false,"reasons":[]}}
}
