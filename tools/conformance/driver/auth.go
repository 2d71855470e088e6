package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Environment of the auth scenarios.
const (
	// envContext is the suite's scenario context (JSON): the
	// pre-registered client of auth/pre-registration.
	envContext = "MCP_CONFORMANCE_CONTEXT"
	// envBrowse makes the driver the browser mcptui opens ($BROWSER).
	envBrowse = "MCPTUI_CONFORMANCE_BROWSE"
)

// clientMetadataURL is the Client ID Metadata Document the suite's
// authorization servers expect (auth/basic-cimd): a user of mcptui would
// give theirs with --client-metadata-url once, for every server.
const clientMetadataURL = "https://conformance-test.local/client-metadata.json"

// authScript is what a person does with an OAuth-protected server: list
// the tools and call one, in one session (its token, and a step-up to
// more scopes, serve both).
const authScript = `# OAuth-protected server: list, then call (tools/call may need more scopes)
tools
call test-tool
`

// authFlow runs `mcptui run SCRIPT --browser … URL` natively over HTTP,
// with the driver as the browser: it follows the authorization URL's
// redirects to mcptui's loopback listener, as a person who agrees would.
func authFlow(ctx context.Context, d *driver, getenv func(string) string) error {
	script := filepath.Join(d.tmp, "auth.mcpt")
	if err := os.WriteFile(script, []byte(authScript), 0o600); err != nil {
		return fmt.Errorf("writing the script: %w", err)
	}
	args := []string{"run", script, "-v", "--protocol", d.version, "--browser", "--client-metadata-url", clientMetadataURL}
	env := []string{envBrowse + "=1", "BROWSER=" + program("", "driver")}
	if raw := getenv(envContext); raw != "" {
		var c struct {
			ClientID     string `json:"client_id"`
			ClientSecret string `json:"client_secret"`
		}
		if err := json.Unmarshal([]byte(raw), &c); err != nil {
			return fmt.Errorf("reading %s: %w", envContext, err)
		}
		if c.ClientID != "" {
			args = append(args, "--client-id", c.ClientID)
		}
		if c.ClientSecret != "" {
			env = append(env, "MCPTUI_CLIENT_SECRET="+c.ClientSecret)
		}
	}
	args = append(args, d.url)
	ctx, cancel := context.WithTimeout(ctx, stepTimeout)
	defer cancel()
	fmt.Fprintf(d.log, "driver: $ %s %s\n", filepath.Base(d.client), shellJoin(args))
	cmd := exec.CommandContext(ctx, d.client, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = d.log
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.Output()
	if len(out) > 0 {
		fmt.Fprintf(d.log, "driver: stdout: %s\n", compact(out))
	}
	if err != nil {
		return fmt.Errorf("%s run: %w", filepath.Base(d.client), err)
	}
	return nil
}

// browse is the driver as mcptui's browser: GET the authorization URL and
// follow its redirects (to the loopback listener).
func browse(ctx context.Context, args []string, log io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(log, "driver (browser): want one URL")
		return 2
	}
	ctx, cancel := context.WithTimeout(ctx, stepTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, args[0], nil)
	if err != nil {
		fmt.Fprintf(log, "driver (browser): %v\n", err)
		return 1
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintf(log, "driver (browser): %v\n", err)
		return 1
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	fmt.Fprintf(log, "driver (browser): %s answered %d: %s\n", resp.Request.URL.Redacted(), resp.StatusCode, strings.TrimSpace(string(body)))
	return 0
}
