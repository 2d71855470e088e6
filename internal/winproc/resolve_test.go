package winproc

import (
	"errors"
	"strings"
	"testing"
)

// files is a fake Windows file system: the set of files that exist,
// compared case-insensitively as NTFS does.
func files(paths ...string) func(string) bool {
	set := map[string]bool{}
	for _, p := range paths {
		set[norm(p)] = true
	}
	return func(p string) bool { return set[norm(p)] }
}

func norm(p string) string {
	return strings.ToLower(strings.ReplaceAll(p, "/", `\`))
}

func TestResolveLikeAWindowsHost(t *testing.T) {
	env := Env{
		Path:    `C:\Windows\System32;"C:\Program Files\nodejs\";C:\Users\me\AppData\Roaming\npm`,
		PathExt: ".COM;.EXE;.BAT;.CMD;.VBS",
		ComSpec: `C:\Windows\system32\cmd.exe`,
		Dir:     `C:\work`,
		IsFile: files(
			`C:\Windows\System32\cmd.exe`,
			`C:\Program Files\nodejs\node.exe`,
			`C:\Program Files\nodejs\npx`, // the sh script npm also installs
			`C:\Program Files\nodejs\npx.cmd`,
			`C:\Users\me\AppData\Roaming\npm\server.cmd`,
			`C:\Users\me\AppData\Roaming\npm\server.ps1`,
			`C:\work\bin\srv.exe`,
			`D:\tools\uvx.exe`,
		),
	}
	tests := []struct {
		name    string
		command string
		args    []string
		want    Command
	}{
		{"an exe found through PATHEXT", "node", []string{"server.js"},
			Command{Path: `C:\Program Files\nodejs\node.exe`, Args: []string{"node", "server.js"}}},
		{"npx is npx.cmd, through cmd.exe, not the sh script", "npx", []string{"-y", "@modelcontextprotocol/server-everything"},
			Command{Path: `C:\Windows\system32\cmd.exe`, Args: []string{"npx", "-y", "@modelcontextprotocol/server-everything"},
				CmdLine: `cmd.exe /d /e:ON /v:OFF /s /c ""C:\Program Files\nodejs\npx.cmd" -y @modelcontextprotocol/server-everything"`}},
		{"an extension given is kept", "node.exe", nil,
			Command{Path: `C:\Program Files\nodejs\node.exe`, Args: []string{"node.exe"}}},
		{"Claude Desktop's cmd /c", "cmd", []string{"/c", "npx", "-y", "pkg"},
			Command{Path: `C:\Windows\System32\cmd.exe`, Args: []string{"cmd", "/c", "npx", "-y", "pkg"}}},
		{"a later PATH entry", "server", []string{"--port=1"},
			Command{Path: `C:\Windows\system32\cmd.exe`, Args: []string{"server", "--port=1"},
				CmdLine: `cmd.exe /d /e:ON /v:OFF /s /c ""C:\Users\me\AppData\Roaming\npm\server.cmd" "--port=1""`}},
		{"relative to the directory, not PATH", `.\bin\srv`, nil,
			Command{Path: `C:\work\bin\srv.exe`, Args: []string{`.\bin\srv`}}},
		{"absolute with forward slashes", `D:/tools/uvx`, []string{"mcp-server-time"},
			Command{Path: `D:/tools/uvx.exe`, Args: []string{"D:/tools/uvx", "mcp-server-time"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Resolve(tt.command, tt.args, env)
			if err != nil {
				t.Fatal(err)
			}
			if got.Path != tt.want.Path || got.CmdLine != tt.want.CmdLine || strings.Join(got.Args, "|") != strings.Join(tt.want.Args, "|") {
				t.Errorf("Resolve(%q, %q):\n got %+v\nwant %+v", tt.command, tt.args, got, tt.want)
			}
		})
	}
	for _, missing := range []string{"python", `.\srv`, "server.ps1"} {
		if _, err := Resolve(missing, nil, env); !errors.Is(err, ErrNotFound) {
			t.Errorf("Resolve(%q) = %v, want ErrNotFound", missing, err)
		}
	}
}

func TestResolveDefaultsPathExtAndComSpec(t *testing.T) {
	got, err := Resolve("npx", nil, Env{Path: `C:\node`, IsFile: files(`C:\node\npx.cmd`)})
	if err != nil {
		t.Fatal(err)
	}
	if got.Path != DefaultComSpec {
		t.Errorf("Path = %q, want %q", got.Path, DefaultComSpec)
	}
}

func TestBatchCommandLineQuotesForCmd(t *testing.T) {
	tests := []struct {
		arg, want string
	}{
		{"plain", "plain"},
		{"", `""`},
		{"two words", `"two words"`},
		{"a&b|c>d", `"a&b|c>d"`},
		{`say "hi"`, `"say ""hi"""`},
		{`%PATH%`, `"%%cd:~,%PATH%%cd:~,%"`},
		{`C:\dir\`, `"C:\dir\\"`},
		{`back\"quote`, `"back\\""quote"`},
		{"^caret", `"^caret"`},
		{"@scope/pkg@1.2.3", "@scope/pkg@1.2.3"},
		{"héllo", "héllo"},
	}
	for _, tt := range tests {
		line, err := BatchCommandLine(`C:\n\x.cmd`, []string{tt.arg})
		if err != nil {
			t.Fatalf("%q: %v", tt.arg, err)
		}
		want := `cmd.exe /d /e:ON /v:OFF /s /c ""C:\n\x.cmd" ` + tt.want + `"`
		if line != want {
			t.Errorf("arg %q:\n got %s\nwant %s", tt.arg, line, want)
		}
	}
	for _, bad := range []string{"line\nbreak", "cr\r", "nul\x00"} {
		if _, err := BatchCommandLine(`C:\x.cmd`, []string{bad}); err == nil {
			t.Errorf("arg %q was accepted; cmd.exe would cut it", bad)
		}
	}
	if _, err := BatchCommandLine(`C:\x".cmd`, nil); err == nil {
		t.Error("a script name with a quote was accepted")
	}
}
