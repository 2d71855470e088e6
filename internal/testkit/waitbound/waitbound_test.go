package waitbound

import (
	"flag"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	Parallel(7)
	os.Exit(m.Run())
}

// The default is raised; a -test.parallel on the command line would win
// (flag.Visit sees only the flags that were set).
func TestParallelRaisesTheDefault(t *testing.T) {
	if got := flag.Lookup("test.parallel").Value.String(); got != "7" && !explicit() {
		t.Errorf("test.parallel = %s, want 7", got)
	}
}

func explicit() bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	return set
}
