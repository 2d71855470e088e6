// Package release reads the facts of a release build from the tree's
// .goreleaser.yaml, so that what builds as a release does (the speed
// tool) and what checks a release build (the root package's tests) read
// them from the one file GoReleaser reads, in one way.
package release

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Config is the name of GoReleaser's configuration in a tree.
const Config = ".goreleaser.yaml"

var (
	inlineTags = regexp.MustCompile(`(?m)^\s+tags:\s*\[([^\]]*)\]`)
	anyTags    = regexp.MustCompile(`(?m)^\s+tags:`)
)

// Tags is the build tags of the release build of the tree dir, as its
// .goreleaser.yaml gives them: an inline list ("tags: [a, b]"); nil when
// it gives none. A tags key written another way (a block list) is an
// error, not an empty list, so that it cannot pass for no tags. A tree
// without the file is an error that wraps os.ErrNotExist.
func Tags(dir string) ([]string, error) {
	path := filepath.Join(dir, Config)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("release tags: %w", err)
	}
	m := inlineTags.FindSubmatch(data)
	if m == nil {
		if anyTags.Match(data) {
			return nil, fmt.Errorf("release tags: %s: tags is not an inline list (tags: [a, b])", path)
		}
		return nil, nil
	}
	var tags []string
	for _, f := range strings.Split(string(m[1]), ",") {
		if f = strings.TrimSpace(f); f != "" {
			tags = append(tags, f)
		}
	}
	return tags, nil
}
