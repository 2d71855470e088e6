package inbox

import (
	"testing"

	"github.com/mcptui/mcptui/model"
)

// Under load an HTTP exchange's progress is shed (its totals run on), its
// start and its end never are.
func TestExchangeProgressShed(t *testing.T) {
	in := New(Limits{MaxEvents: 2, MaxBytes: 1 << 20, MaxBatch: 1000, Now: clock})
	in.Push(model.Exchange{Stamp: model.Stamp{Time: t0}, ID: 1})
	for i := range 100 {
		in.Push(model.ExchangeUpdate{Stamp: model.Stamp{Time: t0}, ID: 1, Messages: i + 1, Message: []byte(`{}`)})
	}
	in.Push(model.ExchangeUpdate{Stamp: model.Stamp{Time: t0}, ID: 1, Messages: 100, End: true})
	in.Push(model.Exchange{Stamp: model.Stamp{Time: t0}, ID: 2})
	evs := next(t, in)
	var starts, progress, ends int
	for _, ev := range evs {
		switch e := ev.(type) {
		case model.Exchange:
			starts++
		case model.ExchangeUpdate:
			if e.End {
				ends++
			} else {
				progress++
			}
		}
	}
	if starts != 2 || ends != 1 || progress == 0 || progress > 2 {
		t.Errorf("kept %d starts, %d ends, %d of 100 progress updates", starts, ends, progress)
	}
}
