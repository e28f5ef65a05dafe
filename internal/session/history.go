package session

import "github.com/pinholectx/pinhole/internal/project"

// HistorySize is how many snapshots a session keeps for after and prepare.
// An after or prepare naming an older snapshot is stale_snapshot.
const HistorySize = 8

type history struct {
	ids   []string
	snaps []*project.Snapshot
}

func (h *history) add(id string, s *project.Snapshot) {
	if len(h.ids) == HistorySize {
		h.ids, h.snaps = h.ids[1:], h.snaps[1:]
	}
	h.ids, h.snaps = append(h.ids, id), append(h.snaps, s)
}

// replace puts s in place of the snapshot kept as id, if it is kept.
func (h *history) replace(id string, s *project.Snapshot) {
	if i := h.index(id); i >= 0 {
		h.snaps[i] = s
	}
}

func (h *history) get(id string) *project.Snapshot {
	if i := h.index(id); i >= 0 && !h.snaps[i].Withheld {
		return h.snaps[i]
	}
	return nil
}

// index returns where the snapshot kept as id is, or -1.
func (h *history) index(id string) int {
	for i := len(h.ids) - 1; i >= 0; i-- {
		if h.ids[i] == id {
			return i
		}
	}
	return -1
}
