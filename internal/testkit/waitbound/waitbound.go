// Package waitbound lets a package whose tests mostly wait on the servers
// they start (timeouts a silent server must run out, a probe's
// cancellation) run more of its parallel tests at once than go test's
// default, GOMAXPROCS: on two cores, two waiting tests at a time left the
// CPU idle for most of the package's run.
package waitbound

import (
	"flag"
	"fmt"
)

// Parallel sets -test.parallel to n unless the command line set it. Call
// it in TestMain, before m.Run (it parses the test flags).
func Parallel(n int) {
	if !flag.Parsed() {
		flag.Parse()
	}
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		if err := flag.Set("test.parallel", fmt.Sprint(n)); err != nil {
			panic(fmt.Sprintf("waitbound: %v", err))
		}
	}
}
