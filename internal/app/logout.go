package app

import (
	"fmt"
	"io"

	"github.com/mcptui/mcptui/httpconn/oauth"
	"github.com/mcptui/mcptui/internal/cli"
)

// runLogout forgets the OAuth tokens --keep-token kept: the server's, or
// all of them.
func runLogout(cfg *cli.Config, stdout, stderr io.Writer) int {
	dir, err := oauth.DefaultTokenDir()
	if err != nil {
		fmt.Fprintf(stderr, "mcptui logout: %v\n", err)
		return 1
	}
	store := oauth.FileStore{Dir: dir}
	if cfg.LogoutAll() {
		n, err := store.DeleteAll()
		if err != nil {
			fmt.Fprintf(stderr, "mcptui logout: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "forgot %d kept token(s) in %s\n", n, dir)
		return 0
	}
	key := oauth.StoreKey(cfg.Target)
	tok, _ := store.Load(key)
	if err := store.Delete(key); err != nil {
		fmt.Fprintf(stderr, "mcptui logout: %v\n", err)
		return 1
	}
	if tok == nil {
		fmt.Fprintf(stdout, "no kept token for %s (in %s)\n", key, dir)
		return 0
	}
	fmt.Fprintf(stdout, "forgot the token for %s\n", key)
	return 0
}
