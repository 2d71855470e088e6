package kit

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image"
	_ "image/gif"  // dimensions of GIFs
	_ "image/jpeg" // dimensions of JPEGs
	_ "image/png"  // dimensions of PNGs
	"strings"

	"github.com/mcptui/mcptui/model"
)

// Media sums up base64 image or audio data for people: the MIME type, the
// decoded size, and the dimensions (PNG, JPEG, GIF) or the duration (WAV)
// when the data says. Data that is not base64 says so.
func Media(kind, mime, b64 string) string {
	parts := []string{kind}
	if mime != "" {
		parts = append(parts, mime)
	}
	data, err := base64.StdEncoding.DecodeString(strings.TrimSpace(b64))
	if err != nil {
		if data, err = base64.RawStdEncoding.DecodeString(strings.TrimSpace(b64)); err != nil {
			return strings.Join(append(parts, fmt.Sprintf("%s of data that is not base64", model.FormatSize(len(b64)))), ", ")
		}
	}
	parts = append(parts, model.FormatSize(len(data)))
	if cfg, format, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
		parts = append(parts, fmt.Sprintf("%d×%d %s", cfg.Width, cfg.Height, format))
	} else if d, ok := wavDuration(data); ok {
		parts = append(parts, d)
	}
	return strings.Join(parts, ", ")
}

// Decode decodes base64 (padded or not).
func Decode(b64 string) ([]byte, error) {
	data, err := base64.StdEncoding.DecodeString(strings.TrimSpace(b64))
	if err != nil {
		return base64.RawStdEncoding.DecodeString(strings.TrimSpace(b64))
	}
	return data, nil
}

// wavDuration reads a RIFF/WAVE header's byte rate and data size.
func wavDuration(b []byte) (string, bool) {
	if len(b) < 44 || string(b[0:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return "", false
	}
	var byteRate uint32
	for i := 12; i+8 <= len(b); {
		id, size := string(b[i:i+4]), binary.LittleEndian.Uint32(b[i+4:i+8])
		body := i + 8
		switch id {
		case "fmt ":
			if body+12 <= len(b) {
				byteRate = binary.LittleEndian.Uint32(b[body+8 : body+12])
			}
		case "data":
			if byteRate == 0 {
				return "", false
			}
			secs := float64(size) / float64(byteRate)
			return fmt.Sprintf("%.1f s", secs), true
		}
		i = body + int(size) + int(size&1)
	}
	return "", false
}
