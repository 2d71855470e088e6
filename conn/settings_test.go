package conn

import (
	"testing"
	"time"
)

func TestResolveCallOptions(t *testing.T) {
	d := ResolveCallOptions()
	if d.Timeout != DefaultTimeout || d.MaxTotal != DefaultMaxTotalTimeout || d.MaxBuffer != DefaultMaxBuffer || d.Progress != nil {
		t.Errorf("defaults: %+v", d)
	}
	ctl := &CallControl{}
	s := ResolveCallOptions(WithTimeout(time.Second), WithProgress(func(Progress) error { return nil }),
		WithResetTimeoutOnProgress(), WithMaxTotalTimeout(time.Minute), WithMeta([]byte(`{"a":1}`)), WithControl(ctl))
	if s.Timeout != time.Second || s.Progress == nil || !s.ResetOnProgress || s.MaxTotal != time.Minute || string(s.Meta) != `{"a":1}` || s.Control != ctl {
		t.Errorf("resolved: %+v", s)
	}
	deadline := time.Now().Add(time.Second)
	ext := ctl.Bind(7, deadline)
	ctl.Extend(time.Second)
	<-ext
	if ctl.ID() != 7 || ctl.TakeExtension() != time.Second {
		t.Errorf("bound control: id %d", ctl.ID())
	}
	ctl.Unbind()
	if _, ok := ctl.Deadline(); ok {
		t.Error("deadline kept after Unbind")
	}
}
