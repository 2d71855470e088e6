package everything

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// helperEnv makes the test binary a run that starts the HTTP server,
// prints its URL and waits to be killed (reading its stdin, which the
// test holds open).
const helperEnv = "EVERYTHING_TEST_HELPER"

// TestHelperHTTPServer is the helper, run only with helperEnv set.
func TestHelperHTTPServer(t *testing.T) {
	if os.Getenv(helperEnv) == "" {
		t.Skip("the helper of TestKilledBinaryLeavesNoServer")
	}
	fmt.Println(HTTPServer(t, "streamableHttp"))
	_, _ = io.Copy(io.Discard, os.Stdin)
}

// TestKilledBinaryLeavesNoServer: a test binary killed mid-test (as a go
// test timeout kills it) runs no cleanup; the everything server it
// started goes with it all the same (a parent-death signal), instead of
// holding its port and a node process for ever.
func TestKilledBinaryLeavesNoServer(t *testing.T) {
	Server(t) // skips without the end-to-end tests; installs the server once
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestHelperHTTPServer$", "-test.v=false")
	cmd.Env = append(os.Environ(), helperEnv+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	u, perr := url.Parse(strings.TrimSpace(line))
	if err != nil || perr != nil || u.Port() == "" {
		_ = cmd.Process.Kill()
		t.Fatalf("the helper said %q (%v)", line, err)
	}
	addr := net.JoinHostPort("127.0.0.1", u.Port())
	listening := func() bool {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err == nil {
			c.Close()
		}
		return err == nil
	}
	if !listening() {
		_ = cmd.Process.Kill()
		t.Fatalf("nothing listens on %s while the helper runs", addr)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	deadline := time.Now().Add(time.Minute)
	for listening() {
		if time.Now().After(deadline) {
			t.Fatalf("the everything server still listens on %s a minute after its test binary was killed", addr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
