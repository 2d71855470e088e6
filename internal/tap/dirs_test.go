package tap

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// Wherever a tap publishes, with whatever environment its host gave it,
// a viewer with any environment looks there: the host's is not the
// viewer's (TypeScript-SDK hosts strip it to HOME, PATH and a few more).
func TestRuntimeDirsCoverEveryHostsEnvironment(t *testing.T) {
	uid := strconv.Itoa(os.Getuid())
	envs := map[string]map[string]string{
		"stripped":      {},
		"systemd":       {"XDG_RUNTIME_DIR": "/run/user/" + uid},
		"tmpdir only":   {"TMPDIR": "/var/tmp/me"},
		"both":          {"XDG_RUNTIME_DIR": "/run/user/" + uid, "TMPDIR": "/var/tmp/me"},
		"another xdg":   {"XDG_RUNTIME_DIR": "/elsewhere"},
		"empty entries": {"XDG_RUNTIME_DIR": "", "TMPDIR": ""},
	}
	getenv := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	// The hosts a viewer cannot know the environment of: one that strips
	// it, one that keeps the session's XDG_RUNTIME_DIR.
	for _, hostName := range []string{"stripped", "systemd", "empty entries"} {
		published := publishDir(getenv(envs[hostName]))
		for viewerName, viewer := range envs {
			if dirs := RuntimeDirs(getenv(viewer)); !slices.Contains(dirs, published) {
				t.Errorf("a tap under a %s host publishes in %s; a %s viewer looks only in %q", hostName, published, viewerName, dirs)
			}
		}
	}
	// A host with a variable of its own is found by a viewer that has it.
	for _, hostName := range []string{"tmpdir only", "both", "another xdg"} {
		host := envs[hostName]
		if dirs := RuntimeDirs(getenv(host)); !slices.Contains(dirs, publishDir(getenv(host))) {
			t.Errorf("%s: %q lacks %s", hostName, dirs, publishDir(getenv(host)))
		}
	}
	// The viewer's own directory comes first, and is RuntimeDir.
	if got := RuntimeDirs(os.Getenv)[0]; got != RuntimeDir() {
		t.Errorf("RuntimeDirs(os.Getenv)[0] = %s, RuntimeDir() = %s", got, RuntimeDir())
	}
	// The stripped host's place is always looked in.
	if dirs := RuntimeDirs(getenv(envs["systemd"])); !slices.Contains(dirs, filepath.Join("/tmp", "mcptui-"+uid)) {
		t.Errorf("dirs %q lack /tmp/mcptui-%s", dirs, uid)
	}
}
