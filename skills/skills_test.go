package skills

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/mcp"
)

func TestVerify(t *testing.T) {
	b := []byte("hello\n")
	good := File{URI: "skill://x/SKILL.md", Digest: Digest(b), Size: int64(len(b))}
	if !strings.HasPrefix(good.Digest, "sha256:") || len(good.Digest) != len("sha256:")+64 {
		t.Fatalf("digest %q is not sha256: and 64 hex", good.Digest)
	}
	if v := Verify(good, b); !v.OK {
		t.Errorf("matching bytes: %+v", v)
	}
	if v := Verify(good, []byte("hellO\n")); v.OK || !strings.Contains(v.Reason, "the entry lists sha256:") {
		t.Errorf("same size, other bytes: %+v", v)
	}
	if v := Verify(good, []byte("hello")); v.OK || !strings.Contains(v.Reason, "size 5, the entry lists 6") {
		t.Errorf("other size: %+v", v)
	}
	if v := Verify(File{URI: good.URI}, b); v.OK || !v.Unlisted {
		t.Errorf("no digest: %+v", v)
	}
}

func TestDecodeEntries(t *testing.T) {
	var list []Skill
	raw := `[{"uri":"skill://a/b/refunds/SKILL.md","frontmatter":{"name":"refunds","description":"d"},"resources":[{"uri":"skill://a/b/refunds/SKILL.md","digest":"sha256:00","size":3}]},
	{"uri":"skill://daily/SKILL.md","frontmatter":{"name":"daily","description":"d"},"resources":"dynamic"},
	{"uri":"skill://bad/SKILL.md","frontmatter":{"name":"bad","description":"d"}},
	{"uri":"skill://odd/SKILL.md","frontmatter":{"name":"odd","description":"d"},"resources":"static"}]`
	if err := json.Unmarshal([]byte(raw), &list); err != nil {
		t.Fatal(err)
	}
	if list[0].Problem != "" || list[0].Root() != "skill://a/b/refunds" || list[0].RelPath(list[0].Files[0].URI) != "SKILL.md" {
		t.Errorf("first: %+v", list[0])
	}
	if !list[1].Dynamic || list[1].Problem != "" {
		t.Errorf("dynamic: %+v", list[1])
	}
	if list[2].Problem == "" || list[3].Problem == "" {
		t.Errorf("entries without valid resources decode without a problem: %q, %q", list[2].Problem, list[3].Problem)
	}
	if _, err := Lookup(list, "refunds"); err != nil {
		t.Error(err)
	}
	dup := append(list, list[0])
	dup[len(dup)-1].URI = "skill://c/refunds/SKILL.md"
	if _, err := Lookup(dup, "refunds"); err == nil || !strings.Contains(err.Error(), "2 skills are named") {
		t.Errorf("duplicate names: %v", err)
	}
}

func TestDeclared(t *testing.T) {
	caps := mcp.ServerCapabilities{Extensions: json.RawMessage(`{"io.modelcontextprotocol/skills":{"directoryRead":true}}`)}
	if d := Declared(caps); !d.Declared || !d.DirectoryRead {
		t.Errorf("%+v", d)
	}
	if d := Declared(mcp.ServerCapabilities{Extensions: json.RawMessage(`{"io.modelcontextprotocol/ui":{}}`)}); d.Declared {
		t.Errorf("%+v", d)
	}
}
