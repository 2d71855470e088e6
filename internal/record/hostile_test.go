package record

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"os"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/testkit/racechild"
)

// The test binary doubles as a server printing what a recording must
// survive, when hostileEnv is set.
const hostileEnv = "MCPTUI_RECORD_TEST_SERVER"

// badUTF8 is a line that is JSON to encoding/json but invalid UTF-8.
var badUTF8 = []byte("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\"\xff\xfe bad\"}}")

func TestMain(m *testing.M) {
	if os.Getenv(hostileEnv) == "badutf8" {
		os.Stdout.Write(append(badUTF8, '\n'))
		os.Exit(0)
	}
	racechild.NoExitSleep() // the servers this binary starts are itself
	os.Exit(m.Run())
}

// record runs the test binary as the server of mode through conn, records
// everything into w, and returns the recorder closed.
func recordServer(t *testing.T, mode string, w *Recorder) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	v := mode
	c, err := conn.Dial(context.Background(), exe, nil, conn.Options{
		Env:      []conn.EnvVar{{Name: hostileEnv, Value: &v}},
		Observer: w.Observer(nil),
		Stderr:   w.Stderr(nil),
	})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not exit")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	w.WaitExits(ctx, 1)
}

// A line with invalid UTF-8 that conn discarded is recorded as base64, so
// that every line of the file is valid JSON Lines for a strict reader (jq
// and Python reject invalid UTF-8), and reads back byte for byte.
func TestInvalidUTF8IsRecordedAsBase64(t *testing.T) {
	var buf bytes.Buffer
	r := New(&buf, Header{Command: "srv"})
	recordServer(t, "badutf8", r)
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	raw := buf.Bytes()
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for n := 1; sc.Scan(); n++ {
		if !jsontext.Value(sc.Bytes()).IsValid() {
			t.Errorf("line %d is not strict JSON: %q", n, sc.Bytes())
		}
	}
	want := base64.StdEncoding.EncodeToString(badUTF8)
	if !bytes.Contains(raw, []byte(`"b64":"`+want+`"`)) {
		t.Fatalf("the discarded line is not recorded as base64:\n%s", raw)
	}
	rec, err := Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range rec.Entries {
		if e.Type == TypeDiscarded && !bytes.Equal(e.Content(), badUTF8) {
			t.Errorf("read back %q", e.Content())
		}
	}
}

// Writing to a full disk fails at the first write, and WriteFailed says so
// at once, long before Close.
func TestFullDiskIsSaidAtOnce(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	r, err := Create("/dev/full", Header{Command: "srv"})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-r.WriteFailed():
	case <-time.After(30 * time.Second):
		t.Fatal("a write to /dev/full was not reported before Close")
	}
	if r.Err() == nil {
		t.Fatal("WriteFailed without an Err")
	}
	r.Note("after the failure")
	if err := r.Close(); err == nil {
		t.Fatal("Close on /dev/full succeeded")
	}
}
