package oauth_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/httpconn/oauth"
)

// TestFileStoreRefusesWeakPlaces: a token is not written into a state
// directory someone else can write (a pre-existing world-writable
// $XDG_STATE_HOME/mcptui), nor into a token directory open to others, and a
// kept token file open to others or that is a link is not loaded; each
// refusal says why.
func TestFileStoreRefusesWeakPlaces(t *testing.T) {
	const server = "https://mcp.example/mcp"
	tok := &oauth.Token{AccessToken: "secret-access"}

	state := filepath.Join(t.TempDir(), "mcptui")
	if err := os.Mkdir(state, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(state, 0o777); err != nil {
		t.Fatal(err)
	}
	store := oauth.FileStore{Dir: filepath.Join(state, "tokens")}
	if err := store.Save(server, tok); err == nil || !strings.Contains(err.Error(), "can be written by others") {
		t.Fatalf("Save into a world-writable state dir: %v", err)
	}
	if files, _ := filepath.Glob(filepath.Join(state, "tokens", "*")); len(files) != 0 {
		t.Fatalf("written anyway: %v", files)
	}

	open := filepath.Join(t.TempDir(), "tokens")
	if err := os.Mkdir(open, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := (oauth.FileStore{Dir: open}).Save(server, tok); err == nil || !strings.Contains(err.Error(), "open to others") {
		t.Fatalf("Save into a 0755 token dir: %v", err)
	}

	good := oauth.FileStore{Dir: filepath.Join(t.TempDir(), "tokens")}
	if err := good.Save(server, tok); err != nil {
		t.Fatal(err)
	}
	if got, err := good.Load(server); err != nil || got == nil || got.AccessToken != tok.AccessToken {
		t.Fatalf("Load of a good token: %+v, %v", got, err)
	}
	files, _ := filepath.Glob(filepath.Join(good.Dir, "*.json"))
	if len(files) != 1 {
		t.Fatalf("token files: %v", files)
	}
	if err := os.Chmod(files[0], 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := good.Load(server); got != nil || err == nil || !strings.Contains(err.Error(), "open to others") {
		t.Fatalf("Load of a 0644 token file: %+v, %v", got, err)
	}
	if err := os.Chmod(files[0], 0o600); err != nil {
		t.Fatal(err)
	}
	elsewhere := filepath.Join(t.TempDir(), "planted.json")
	if err := os.Rename(files[0], elsewhere); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, files[0]); err != nil {
		t.Fatal(err)
	}
	if got, err := good.Load(server); got != nil || err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("Load of a token file that is a link: %+v, %v", got, err)
	}
}
