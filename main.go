// Command mcptui is a live terminal inspector for Model Context Protocol
// servers that speak stdio: it starts the server, connects to it as a client
// and shows everything that passes between them.
package main

import (
	"os"

	"github.com/mcptui/mcptui/internal/app"
)

func main() {
	os.Exit(app.Run(os.Args[1:], os.Stdout, os.Stderr))
}
