package toolcost

import (
	"bytes"
	"compress/flate"
	_ "embed" // the ranks
	"encoding/binary"
	"fmt"
	"io"
	"path"
)

//go:generate go run gen_ranks.go

// o200kRanks are o200k_base's tokens in rank order, each as its length
// (a uvarint) and its bytes, deflated (gen_ranks.go writes them from
// OpenAI's o200k_base.tiktoken): 1.1 MB in the binary where the
// .tiktoken text is 3.6 MB. They are decoded on first use only.
//
//go:embed o200k_base.ranks.z
var o200kRanks []byte

// o200kTokens is how many tokens o200k_base has.
const o200kTokens = 199998

// embeddedLoader is tiktoken-go's BpeLoader for the embedded ranks: it
// knows o200k_base alone, and fetches nothing.
type embeddedLoader struct{}

func (embeddedLoader) LoadTiktokenBpe(file string) (map[string]int, error) {
	if path.Base(file) != "o200k_base.tiktoken" {
		return nil, fmt.Errorf("toolcost: only o200k_base is embedded, not %s", path.Base(file))
	}
	return decodeRanks(o200kRanks)
}

// decodeRanks inflates and reads ranks written by gen_ranks.go.
func decodeRanks(z []byte) (map[string]int, error) {
	plain, err := io.ReadAll(flate.NewReader(bytes.NewReader(z)))
	if err != nil {
		return nil, fmt.Errorf("toolcost: inflating the ranks: %w", err)
	}
	ranks := make(map[string]int, o200kTokens)
	for len(plain) > 0 {
		n, w := binary.Uvarint(plain)
		if w <= 0 || uint64(len(plain)-w) < n {
			return nil, fmt.Errorf("toolcost: the ranks are cut short after %d tokens", len(ranks))
		}
		ranks[string(plain[w:w+int(n)])] = len(ranks)
		plain = plain[w+int(n):]
	}
	if len(ranks) != o200kTokens {
		return nil, fmt.Errorf("toolcost: %d ranks, want %d", len(ranks), o200kTokens)
	}
	return ranks, nil
}
