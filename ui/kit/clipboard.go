package kit

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/model"
)

// ClipboardMaxBytes is the most Copy puts on the clipboard. The clipboard
// is written with OSC 52, base64 in one escape sequence, and terminals and
// multiplexers drop sequences past about 100,000 bytes (hterm's limit, and
// about where others stop) without a word: 72 KiB is 96 KiB of base64.
const ClipboardMaxBytes = 72 << 10

// Copy is the Cmd that puts text on the clipboard, and the status line
// that says so; text over ClipboardMaxBytes is refused (nil Cmd, ok
// false) with a status naming its size and, when instead is not "", how
// else to keep it ("w saves it to a file").
func Copy(text, what, instead string) (cmd tea.Cmd, status string, ok bool) {
	size := model.FormatSize(len(text))
	if len(text) > ClipboardMaxBytes {
		status = fmt.Sprintf("not copied: the %s is %s, more than terminals take on the clipboard (%s)",
			what, size, model.FormatSize(ClipboardMaxBytes))
		if instead != "" {
			status += "; " + instead
		}
		return nil, status, false
	}
	return tea.SetClipboard(text), fmt.Sprintf("copied the %s (%s) to the clipboard", what, size), true
}
