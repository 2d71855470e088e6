package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/mcp"
)

func TestMCPOptions(t *testing.T) {
	cfg, err := Parse(strings.Fields("-e A=1 --unset HOME --cwd /srv --timeout 0 --protocol 2025-11-25 -- ./server"))
	if err != nil {
		t.Fatal(err)
	}
	o := cfg.MCPOptions()
	if o.RequestTimeout != mcp.NoTimeout {
		t.Errorf("--timeout 0 gave %v, want mcp.NoTimeout", o.RequestTimeout)
	}
	if o.Conn.Dir != "/srv" || len(o.Versions) != 1 || o.Versions[0] != "2025-11-25" {
		t.Errorf("options %+v", o)
	}
	if !o.Conn.FailLostAnswers {
		t.Error("a discarded answer whose id is readable would wait out the timeout (Conn.FailLostAnswers off)")
	}
	env := o.Conn.Env
	if len(env) != 2 || env[0].Name != "A" || env[0].Value == nil || *env[0].Value != "1" || env[1].Name != "HOME" || env[1].Value != nil {
		t.Errorf("env %+v", env)
	}
	cfg, err = Parse(strings.Fields("--timeout 5s -- ./server"))
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.MCPOptions().RequestTimeout; got != 5*time.Second {
		t.Errorf("--timeout 5s gave %v", got)
	}
}
