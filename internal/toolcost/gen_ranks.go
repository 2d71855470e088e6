//go:build ignore

// gen_ranks writes o200k_base.ranks.z, the o200k_base ranks toolcost
// embeds, from tiktoken-go-loader's copy of OpenAI's o200k_base.tiktoken
// (found through the Go module cache: go mod download). The .tiktoken
// file is one "BASE64TOKEN RANK" line per token, 3.6 MB; the ranks are
// 0, 1, 2, … in file order, so the output keeps only the tokens, each as
// its length (a uvarint) and its bytes, deflated: about a third of the
// size. Run it with go generate ./internal/toolcost.
package main

import (
	"bufio"
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// source is the module holding the ranks, and sourceSHA256 the digest
// of its o200k_base.tiktoken (the one OpenAI publishes at
// openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken).
const (
	source       = "github.com/pkoukk/tiktoken-go-loader@v0.0.2"
	sourceSHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"
)

func main() {
	out, err := exec.Command("go", "mod", "download", "-json", source).Output()
	if err != nil {
		log.Fatalf("go mod download %s: %v", source, err)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.Dir == "" {
		log.Fatalf("go mod download %s: no directory (%v)", source, err)
	}
	raw, err := os.ReadFile(filepath.Join(mod.Dir, "assets", "o200k_base.tiktoken"))
	if err != nil {
		log.Fatal(err)
	}
	if sum := fmt.Sprintf("%x", sha256.Sum256(raw)); sum != sourceSHA256 {
		log.Fatalf("o200k_base.tiktoken has sha256 %s, want %s", sum, sourceSHA256)
	}
	var plain bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(raw))
	n := 0
	for sc.Scan() {
		if sc.Text() == "" {
			continue
		}
		tok64, rank, ok := strings.Cut(sc.Text(), " ")
		tok, err := base64.StdEncoding.DecodeString(tok64)
		if !ok || err != nil {
			log.Fatalf("line %d: %q", n+1, sc.Text())
		}
		if r, err := strconv.Atoi(rank); err != nil || r != n {
			log.Fatalf("line %d: rank %s, want %d: the format keeps no ranks", n+1, rank, n)
		}
		plain.Write(binary.AppendUvarint(nil, uint64(len(tok))))
		plain.Write(tok)
		n++
	}
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
	var z bytes.Buffer
	w, err := flate.NewWriter(&z, flate.BestCompression)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := w.Write(plain.Bytes()); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("o200k_base.ranks.z", z.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("o200k_base.ranks.z: %d tokens, %d bytes (from %d)\n", n, z.Len(), len(raw))
}
