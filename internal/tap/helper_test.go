package tap

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"testing"
	"time"

	"github.com/mcptui/mcptui/model"
)

// The test binary is also the server (and the tap) the tests run: the
// os/exec helper-process idiom. roleEnv picks the role.
const roleEnv = "MCPTUI_TAP_TEST_ROLE"

func TestMain(m *testing.M) {
	if role := os.Getenv(roleEnv); role != "" {
		os.Exit(runRole(role))
	}
	os.Exit(m.Run())
}

// runRole is one scripted process.
func runRole(role string) int {
	switch role {
	case "echo":
		// Echo stdin to stdout byte for byte; exit 0 at EOF.
		if _, err := io.Copy(os.Stdout, os.Stdin); err != nil {
			return 9
		}
		fmt.Fprintln(os.Stderr, "echo: stdin closed")
		return 0
	case "lines":
		// A JSON-RPC server in miniature: answer each request line with a
		// result carrying its id, after writing a stderr line about it.
		sc := bufio.NewScanner(os.Stdin)
		sc.Buffer(nil, 64<<20)
		n := 0
		for sc.Scan() {
			n++
			fmt.Fprintf(os.Stderr, "got line %d\n", n)
			id := idOf(sc.Bytes())
			if id == "" {
				continue
			}
			fmt.Fprintf(os.Stdout, `{"jsonrpc":"2.0","id":%s,"result":{"n":%d}}`+"\n", id, n)
		}
		return 0
	case "crash":
		fmt.Fprintln(os.Stdout, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"bye"}}`)
		fmt.Fprintln(os.Stderr, "crashing with 3")
		return 3
	case "selfkill":
		fmt.Fprintln(os.Stdout, "about to die")
		killSelf()
		time.Sleep(time.Minute)
		return 0
	case "term":
		// Say ready, then wait for SIGTERM and exit 42 saying so.
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, syscall.SIGTERM)
		fmt.Fprintln(os.Stdout, "ready")
		<-sigs
		fmt.Fprintln(os.Stdout, "got TERM")
		return 42
	case "termdie":
		// Say ready, then die of SIGTERM (the default action).
		fmt.Fprintln(os.Stdout, "ready")
		time.Sleep(time.Minute)
		return 0
	case "grandchild":
		// Start a child that would live on, write its pid, exit.
		cmd := execSelf("sleeper")
		if err := cmd.Start(); err != nil {
			return 8
		}
		fmt.Fprintf(os.Stdout, "%d\n", cmd.Process.Pid)
		return 0
	case "closeout":
		// Close stdout at once (the host must see its end), then read
		// stdin to its end.
		os.Stdout.Close()
		_, _ = io.Copy(io.Discard, os.Stdin)
		return 0
	case "sleeper":
		time.Sleep(time.Hour)
		return 0
	case "tap":
		// The tap itself, as mcptui tap runs it.
		args := os.Args[1:]
		for i, a := range args {
			if a == "--" {
				args = args[i+1:]
				break
			}
		}
		return Main(Options{Command: args[0], Args: args[1:], Name: os.Getenv("MCPTUI_TAP_TEST_NAME"),
			Dir: os.Getenv("MCPTUI_TAP_TEST_DIR"), Record: os.Getenv("MCPTUI_TAP_TEST_RECORD")})
	}
	fmt.Fprintf(os.Stderr, "unknown role %q\n", role)
	return 2
}

// idOf is the raw id of a JSON-RPC request line, or "".
func idOf(line []byte) string {
	e := model.LineEntry(model.Out, line)
	if e.Kind != model.KindRequest {
		return ""
	}
	return string(e.ID)
}

// server is the command line of the test binary as a server in role.
func server(t testing.TB, role string) (string, []string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	envBin, err := exec.LookPath("env")
	if err != nil {
		t.Skip("SKIP: no env(1) to start the scripted server with its role")
	}
	return envBin, []string{roleEnv + "=" + role, "GORACE=atexit_sleep_ms=0", exe, "-test.run=^$"}
}

// execSelf is the test binary in role, as a child of this process.
func execSelf(role string) *exec.Cmd {
	exe, _ := os.Executable()
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), roleEnv+"="+role, "GORACE=atexit_sleep_ms=0")
	return cmd
}

// testDir is a private runtime directory for one test (created by the
// tap). It is short: a unix socket's path is limited to about 100 bytes.
func testDir(t testing.TB) string {
	t.Helper()
	d, err := os.MkdirTemp("", "tapt")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d + "/rt"
}
