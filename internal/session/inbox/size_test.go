package inbox

import (
	"testing"
	"unsafe"

	"github.com/mcptui/mcptui/model"
)

// QueuedEventBytes counts a whole model.Wire: when the event grows, the
// bound on queued memory must grow with it.
func TestQueuedEventBytesHoldsAWire(t *testing.T) {
	if size := int(unsafe.Sizeof(model.Wire{})); size > QueuedEventBytes-2*16 {
		t.Errorf("a model.Wire is %d bytes, QueuedEventBytes counts %d of it", size, QueuedEventBytes-2*16)
	}
}
