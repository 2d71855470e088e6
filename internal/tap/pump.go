package tap

import (
	"bytes"
	"errors"
	"io"
	"sync"
	"sync/atomic"

	"github.com/mcptui/mcptui/internal/protocol"
)

// relayBuffer is how much one read of a pump takes.
const relayBuffer = 256 << 10

// spliceMin is the least a read must hold to go through the kernel
// (splice(2)) rather than through the tap; smaller ones are cheaper to copy.
const spliceMin = 16 << 10

// maxHoldLine is the longest line a breakpoint can hold: a longer one is
// relayed as it comes while its direction is armed, unheld.
const maxHoldLine = protocol.MaxLineBytes

// dest is one side's input (the server's stdin, the host's stdout): the
// pump of its direction writes to it, and an answer given at a breakpoint
// of the other direction is written to it between two lines.
type dest struct {
	mu      sync.Mutex
	idle    *sync.Cond // signalled when a line ends or dest fails
	w       io.Writer
	also    io.Closer // closed with w (nil: none)
	midLine bool
	err     error
}

func newDest(w io.Writer) *dest {
	d := &dest{w: w}
	d.idle = sync.NewCond(&d.mu)
	return d
}

// write writes p whole.
func (d *dest) write(p []byte) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err != nil {
		return d.err
	}
	if _, err := d.w.Write(p); err != nil {
		d.err = err
		d.idle.Broadcast()
		return err
	}
	if len(p) > 0 {
		d.midLine = p[len(p)-1] != '\n'
		if !d.midLine {
			d.idle.Broadcast()
		}
	}
	return nil
}

// inject writes one line (with its newline) once the pump writing to d is
// between lines.
func (d *dest) inject(line []byte) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	for d.midLine && d.err == nil {
		d.idle.Wait()
	}
	if d.err != nil {
		return d.err
	}
	if _, err := d.w.Write(line); err != nil {
		d.err = err
		return err
	}
	return nil
}

// splice moves the n bytes src holds to the writer inside the kernel, all
// but the last, which it reads (into one, a byte long) and puts behind
// them: so that the line ends stay known, for answers injected between
// lines and for a breakpoint armed after. errNoSplice: nothing was moved.
func (d *dest) splice(s *splicer, n int, src io.Reader, one []byte) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err != nil {
		return d.err
	}
	err := s.gather(n - 1)
	if err == nil {
		_, err = io.ReadFull(src, one[:1])
	}
	if err == nil {
		err = s.add(one[:1])
	}
	if err == nil {
		err = s.flush()
	}
	if errors.Is(err, errNoSplice) {
		return err
	}
	if err != nil {
		d.err = err
		d.idle.Broadcast()
		return err
	}
	d.midLine = one[0] != '\n'
	if !d.midLine {
		d.idle.Broadcast()
	}
	return nil
}

// close closes the writer (EOF for the reader on the other end) and fails
// later writes.
func (d *dest) close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err == nil {
		d.err = io.ErrClosedPipe
	}
	d.idle.Broadcast()
	if c, ok := d.w.(io.Closer); ok {
		_ = c.Close()
	}
	if d.also != nil {
		_ = d.also.Close()
	}
}

// counters are the traffic of one direction. lines counts the lines the
// tap looked at: bytes it relayed by splice, unseen, count in bytes and
// spliced only.
type counters struct {
	lines, bytes, spliced atomic.Int64
}

// holder decides about lines while a direction is armed: the hub, where
// viewers set breakpoints.
type holder interface {
	// armed reports whether some viewer has a breakpoint on dir.
	armed(dir Direction) bool
	// matches reports whether a breakpoint on dir matches the line
	// (without its newline).
	matches(dir Direction, line []byte) bool
	// hold returns what to do with a whole line going dir (newline
	// included): go on unchanged, or what the viewer decided.
	hold(dir Direction, line []byte) verdict
}

// verdict is what happens to a held line. The zero verdict lets it go on
// unchanged, unmarked.
type verdict struct {
	// replace, when set, goes on instead of the line (an edit), with
	// newline.
	replace []byte
	// answer, when set, goes back to the sender instead (with newline).
	answer []byte
	// drop drops the line (set for an edit and an answer too).
	drop bool
	// mark says what was done to the line; markNew what the replacement
	// or the answer is.
	mark, markNew string
}

// pump relays one direction, raw, from src to dst. What the feed takes it
// copies, handing the bytes to the feed after each write; what nobody needs
// to see (no breakpoint armed on the direction, the feed full or over its
// rate, or no feed) it moves inside the kernel when it can (fast). While
// the direction is armed it goes line by line, so that lines matching a
// breakpoint can be held; once disarmed, between lines, it goes back.
type pump struct {
	fast  *splicer // nil: always copy
	dir   Direction
	src   io.Reader
	dst   *dest
	back  *dest // the sender's input, for answers
	feed  *feed // nil: no feed
	holds holder
	count *counters
	// small: the last read was too small to splice; the next one reads at
	// once rather than first asking the source how much it holds (a
	// trickle of small lines costs one read each, a flood goes back to
	// the kernel after one big read).
	small   bool
	pending []byte // the start of a line not yet complete (line mode)
	midLine bool   // the last byte relayed was not a newline
	bypass  bool   // the current line is relayed as it comes, unheld
}

// run relays until src ends or dst fails; then it closes dst (the reader
// on the other end sees EOF) and returns the error that stopped it (nil
// at EOF).
func (p *pump) run() error {
	buf := make([]byte, relayBuffer)
	defer p.fast.close()
	for {
		if p.fast != nil && !p.small {
			moved, err := p.trySplice(buf)
			if err != nil {
				return err
			}
			if moved {
				continue
			}
		}
		n, rerr := p.src.Read(buf)
		p.small = n < spliceMin
		if n > 0 {
			if err := p.relay(buf[:n]); err != nil {
				return err
			}
		}
		if rerr != nil {
			if len(p.pending) > 0 { // a last line without newline
				if err := p.pass(p.pending); err != nil {
					return err
				}
				p.pending = nil
			}
			p.dst.close()
			if rerr == io.EOF {
				return nil
			}
			return rerr
		}
	}
}

// trySplice waits until src holds bytes and moves them inside the kernel
// when nobody needs to see them; false: they are for a read.
func (p *pump) trySplice(buf []byte) (bool, error) {
	avail, err := p.fast.ready()
	if err != nil {
		p.fast = nil
		return false, nil
	}
	if avail < spliceMin || len(p.pending) > 0 || p.bypass || (p.holds != nil && p.holds.armed(p.dir)) {
		return false, nil
	}
	seq, t := p.feed.stamp()
	if p.feed.wants(avail, t) {
		return false, nil
	}
	switch err := p.dst.splice(p.fast, avail, p.src, buf); {
	case errors.Is(err, errNoSplice):
		p.fast = nil
		return false, nil
	case err != nil:
		return false, err
	}
	p.midLine = buf[0] != '\n'
	p.count.bytes.Add(int64(avail))
	p.count.spliced.Add(int64(avail))
	p.feed.skip(p.dir, avail, seq, t)
	return true, nil
}

// relay handles one read.
func (p *pump) relay(data []byte) error {
	if len(p.pending) == 0 && !p.bypass && (p.holds == nil || !p.holds.armed(p.dir)) {
		return p.pass(data)
	}
	if p.midLine && len(p.pending) == 0 {
		p.bypass = true // armed in the middle of a line: it goes on unheld
	}
	return p.lines(data)
}

// pass writes data through and feeds it.
func (p *pump) pass(data []byte) error {
	seq, t := p.feed.stamp()
	if err := p.dst.write(data); err != nil {
		return err
	}
	p.midLine = data[len(data)-1] != '\n'
	p.count.bytes.Add(int64(len(data)))
	p.count.lines.Add(int64(bytes.Count(data, nl)))
	if p.feed != nil {
		p.feed.push(p.dir, data, seq, t)
	}
	return nil
}

var nl = []byte{'\n'}

// lines handles data line by line: lines that match no breakpoint are
// written in one batch, a matching one is held.
func (p *pump) lines(data []byte) error {
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if p.bypass {
			if i < 0 {
				return p.pass(data)
			}
			p.bypass = false
			if err := p.pass(data[:i+1]); err != nil {
				return err
			}
			data = data[i+1:]
			continue
		}
		if i < 0 {
			if len(p.pending)+len(data) > maxHoldLine {
				// Too long to hold: what there is goes on now.
				head := append(p.pending, data...)
				p.pending, p.bypass = nil, true
				return p.pass(head)
			}
			p.pending = append(p.pending, data...)
			return nil
		}
		if len(p.pending) > 0 {
			line := append(p.pending, data[:i+1]...)
			p.pending = nil
			data = data[i+1:]
			if err := p.one(line); err != nil {
				return err
			}
			continue
		}
		// A batch of whole lines up to the first one to hold.
		end := 0
		for end < len(data) {
			j := bytes.IndexByte(data[end:], '\n')
			if j < 0 {
				break
			}
			line := data[end : end+j+1]
			if p.holds.armed(p.dir) && p.matches(line) {
				break
			}
			end += j + 1
		}
		if end > 0 {
			if err := p.pass(data[:end]); err != nil {
				return err
			}
			data = data[end:]
			continue
		}
		j := bytes.IndexByte(data, '\n')
		if err := p.one(data[:j+1]); err != nil {
			return err
		}
		data = data[j+1:]
	}
	return nil
}

// matches reports whether some breakpoint would hold the line.
func (p *pump) matches(line []byte) bool { return p.holds.matches(p.dir, trimEOL(line)) }

// one relays one whole line, holding it when a breakpoint matches.
func (p *pump) one(line []byte) error {
	if !p.holds.armed(p.dir) || !p.matches(line) {
		return p.pass(line)
	}
	v := p.holds.hold(p.dir, line)
	if !v.drop {
		if err := p.dst.write(line); err != nil {
			return err
		}
		p.count.bytes.Add(int64(len(line)))
		p.count.lines.Add(1)
		p.feed.pushLine(p.dir, line, v.mark, false)
		return nil
	}
	p.feed.pushLine(p.dir, line, v.mark, true)
	switch {
	case v.replace != nil:
		if err := p.dst.write(v.replace); err != nil {
			return err
		}
		p.count.bytes.Add(int64(len(v.replace)))
		p.count.lines.Add(1)
		p.feed.pushLine(p.dir, v.replace, v.markNew, false)
	case v.answer != nil:
		back := ToServer
		if p.dir == ToServer {
			back = ToHost
		}
		if err := p.back.inject(v.answer); err == nil {
			p.feed.pushLine(back, v.answer, v.markNew, false)
		}
	}
	return nil
}

// trimEOL is the line without its newline (and a carriage return before
// it).
func trimEOL(line []byte) []byte {
	line = bytes.TrimSuffix(line, nl)
	return bytes.TrimSuffix(line, []byte{'\r'})
}
