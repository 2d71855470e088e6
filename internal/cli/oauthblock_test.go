package cli

import (
	"reflect"
	"testing"
)

// A host config entry's oauth block stands for --client-id,
// --redirect-port and --scope; each flag given on the command line wins.
func TestOAuthBlockIsTheFlags(t *testing.T) {
	path := writeConfig(t, ".vscode/mcp.json", `{"servers": {
		"web": {"type": "http", "url": "https://example.test/mcp", "oauth": {"clientId": "from-file", "callbackPort": 8123, "scopes": "a b"}}
	}}`)
	cfg, err := Parse([]string{"--config", path, "web"})
	if err != nil {
		t.Fatal(err)
	}
	oc, err := cfg.OAuthConfig()
	if err != nil || oc.ClientID != "from-file" || oc.RedirectPort != 8123 || !reflect.DeepEqual(oc.Scopes, []string{"a", "b"}) {
		t.Fatalf("from the block: %+v, %v", oc, err)
	}
	cfg, err = Parse([]string{"--client-id", "flag", "--redirect-port", "9000", "--scope", "c", "--config", path, "web"})
	if err != nil {
		t.Fatal(err)
	}
	oc, err = cfg.OAuthConfig()
	if err != nil || oc.ClientID != "flag" || oc.RedirectPort != 9000 || !reflect.DeepEqual(oc.Scopes, []string{"c"}) {
		t.Fatalf("the command line's: %+v, %v", oc, err)
	}
}
