// Package skills is the client side of the Skills extension
// (io.modelcontextprotocol/skills, SEP-2640): skills/list, skills/get,
// resources/directory/read, and the verification of a file read with
// resources/read against the digest and size its skill entry lists.
//
// The normative text is modelcontextprotocol/ext-skills,
// specification/stable/skills.mdx.
package skills

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcptui/mcptui/mcp"
)

// ExtensionID is the key the server declares under capabilities.extensions.
const ExtensionID = "io.modelcontextprotocol/skills"

// Declaration is what a server declared for the extension.
type Declaration struct {
	// Declared is whether the extension is under capabilities.extensions.
	Declared bool
	// DirectoryRead is the directoryRead setting (resources/directory/read).
	DirectoryRead bool
}

// Declared reads the extension's declaration from a server's capabilities.
func Declared(caps mcp.ServerCapabilities) Declaration {
	if len(caps.Extensions) == 0 {
		return Declaration{}
	}
	var exts map[string]json.RawMessage
	if json.Unmarshal(caps.Extensions, &exts) != nil {
		return Declaration{}
	}
	raw, ok := exts[ExtensionID]
	if !ok {
		return Declaration{}
	}
	var settings struct {
		DirectoryRead bool `json:"directoryRead"`
	}
	_ = json.Unmarshal(raw, &settings) // a malformed settings object is an empty one
	return Declaration{Declared: true, DirectoryRead: settings.DirectoryRead}
}

// File is one entry of a skill's resources: a file with its digest and size.
type File struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// Skill is one skill entry, as skills/list and skills/get return it.
type Skill struct {
	URI string `json:"uri"`
	// Name and Description are the frontmatter's.
	Name        string
	Description string
	// Frontmatter is the frontmatter object as received.
	Frontmatter json.RawMessage `json:"frontmatter"`
	// Files are the entry's resources; nil when Dynamic.
	Files []File
	// Dynamic is true when resources is the string "dynamic": the server
	// publishes no digests for the skill.
	Dynamic bool
	// Problem says why the entry is malformed ("" when it is not).
	Problem string
	// Raw is the entry as received.
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes an entry, keeping what is wrong with it in
// Problem rather than failing: an inspector shows a bad entry.
func (s *Skill) UnmarshalJSON(b []byte) error {
	var w struct {
		URI         string          `json:"uri"`
		Frontmatter json.RawMessage `json:"frontmatter"`
		Resources   json.RawMessage `json:"resources"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*s = Skill{URI: w.URI, Frontmatter: w.Frontmatter, Raw: append(json.RawMessage(nil), b...)}
	var fm struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	if err := json.Unmarshal(w.Frontmatter, &fm); err != nil || len(w.Frontmatter) == 0 {
		s.Problem = "frontmatter is not an object"
	}
	s.Name, s.Description = fm.Name, fm.Description
	var dyn string
	switch {
	case len(w.Resources) == 0 || string(w.Resources) == "null":
		s.Problem = "the entry has no resources"
	case json.Unmarshal(w.Resources, &dyn) == nil:
		if dyn == "dynamic" {
			s.Dynamic = true
		} else {
			s.Problem = fmt.Sprintf("resources is the string %q, not an array or \"dynamic\"", dyn)
		}
	default:
		if err := json.Unmarshal(w.Resources, &s.Files); err != nil {
			s.Problem = "resources is neither an array of files nor \"dynamic\""
		}
	}
	if s.Name == "" && s.Problem == "" {
		s.Problem = "frontmatter has no name"
	}
	return nil
}

// Root is the skill's directory URI: its SKILL.md URI without /SKILL.md.
func (s Skill) Root() string { return strings.TrimSuffix(s.URI, "/SKILL.md") }

// RelPath is a file's path relative to the skill's root (the URI itself
// when it is not under the root).
func (s Skill) RelPath(uri string) string {
	if rel, ok := strings.CutPrefix(uri, s.Root()+"/"); ok {
		return rel
	}
	return uri
}

// TotalSize is the sum of the files' sizes.
func (s Skill) TotalSize() int64 {
	var n int64
	for _, f := range s.Files {
		n += f.Size
	}
	return n
}

// File finds a file by its path relative to the skill's root or by URI.
func (s Skill) File(path string) (File, bool) {
	for _, f := range s.Files {
		if f.URI == path || s.RelPath(f.URI) == path {
			return f, true
		}
	}
	return File{}, false
}

// Caller sends one request and returns its result, raw (a client's
// Request, or the inspector's catalog's Call).
type Caller func(ctx context.Context, method string, params any) (json.RawMessage, error)

// List pages through skills/list.
func List(ctx context.Context, c *mcp.Client, opts ...mcp.RequestOption) ([]Skill, error) {
	return ListWith(ctx, func(ctx context.Context, method string, params any) (json.RawMessage, error) {
		return c.Request(ctx, method, params, opts...)
	})
}

// ListWith pages through skills/list, sending with call.
func ListWith(ctx context.Context, call Caller) ([]Skill, error) {
	var all []Skill
	cursor := ""
	for page := 0; ; page++ {
		if page >= 1000 {
			return all, errors.New("skills/list: more than 1000 pages")
		}
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		raw, err := call(ctx, "skills/list", params)
		if err != nil {
			return all, fmt.Errorf("skills/list: %w", err)
		}
		var res struct {
			Skills     []Skill `json:"skills"`
			NextCursor string  `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			return all, fmt.Errorf("skills/list: the result does not decode: %w", err)
		}
		all = append(all, res.Skills...)
		if res.NextCursor == "" {
			return all, nil
		}
		cursor = res.NextCursor
	}
}

// Get asks skills/get for the skill whose SKILL.md is at uri.
func Get(ctx context.Context, c *mcp.Client, uri string, opts ...mcp.RequestOption) (Skill, error) {
	raw, err := c.Request(ctx, "skills/get", map[string]any{"uri": uri}, opts...)
	if err != nil {
		return Skill{}, fmt.Errorf("skills/get %s: %w", uri, err)
	}
	var res struct {
		Skill *Skill `json:"skill"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return Skill{}, fmt.Errorf("skills/get %s: the result does not decode: %w", uri, err)
	}
	if res.Skill == nil {
		return Skill{}, fmt.Errorf("skills/get %s: the result has no skill", uri)
	}
	return *res.Skill, nil
}

// Verdict is the outcome of checking a file's bytes against its entry.
type Verdict struct {
	// OK is true when the size and the digest both match.
	OK bool
	// Unlisted is true when the entry has no digest for the file (a
	// dynamic skill, or a file missing from resources).
	Unlisted bool
	// Want and Got are the listed and the computed digest.
	Want, Got string
	// WantSize and GotSize are the listed and the read size.
	WantSize, GotSize int64
	// Reason says what did not match ("" when OK).
	Reason string
}

// Digest is the extension's digest of b: sha256: and 64 lowercase hex.
func Digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Verify checks b against f's size and digest.
func Verify(f File, b []byte) Verdict {
	v := Verdict{Want: f.Digest, Got: Digest(b), WantSize: f.Size, GotSize: int64(len(b))}
	switch {
	case f.Digest == "":
		v.Unlisted, v.Reason = true, "no digest listed"
	case v.GotSize != v.WantSize:
		v.Reason = fmt.Sprintf("size %d, the entry lists %d", v.GotSize, v.WantSize)
	case v.Got != v.Want:
		v.Reason = "digest " + v.Got + ", the entry lists " + v.Want
	default:
		v.OK = true
	}
	return v
}

// Read reads a file with resources/read and returns its raw bytes: the
// text's UTF-8 bytes, or the decoded blob.
func Read(ctx context.Context, c *mcp.Client, uri string, opts ...mcp.RequestOption) ([]byte, string, error) {
	r, err := c.ReadResource(ctx, uri, opts...)
	if err != nil {
		return nil, "", fmt.Errorf("resources/read %s: %w", uri, err)
	}
	return Bytes(r, uri)
}

// Bytes are the raw bytes of uri's contents in a resources/read result:
// the text's UTF-8 bytes, or the decoded blob; and its MIME type.
func Bytes(r *mcp.ReadResourceResult, uri string) ([]byte, string, error) {
	for _, ct := range r.Contents {
		if ct.URI != "" && ct.URI != uri {
			continue
		}
		switch {
		case ct.Text != nil:
			return []byte(*ct.Text), ct.MIMEType, nil
		case ct.Blob != nil:
			b, err := base64.StdEncoding.DecodeString(*ct.Blob)
			if err != nil {
				return nil, ct.MIMEType, fmt.Errorf("resources/read %s: the blob is not base64: %w", uri, err)
			}
			return b, ct.MIMEType, nil
		}
	}
	return nil, "", fmt.Errorf("resources/read %s: no contents for that URI", uri)
}

// Lookup finds a skill by name, by its SKILL.md URI or by its root; more
// than one skill of that name is an error naming their URIs (names are not
// unique, the extension says).
func Lookup(list []Skill, name string) (Skill, error) {
	var found []Skill
	for _, s := range list {
		if s.URI == name || s.Root() == name {
			return s, nil
		}
		if s.Name == name {
			found = append(found, s)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return Skill{}, fmt.Errorf("no skill named %q is listed", name)
	}
	uris := make([]string, len(found))
	for i, s := range found {
		uris[i] = s.URI
	}
	return Skill{}, fmt.Errorf("%d skills are named %q: give one URI of %s", len(found), name, strings.Join(uris, ", "))
}
