package load

import (
	"sync"
	"time"
)

// procSample is one reading of the server's process tree.
type procSample struct {
	procs int
	rss   int64   // bytes resident
	cpu   float64 // CPU seconds used so far (user and system, reaped children included)
}

// sampler reads the server's process tree every interval while the run
// lasts: the peak resident memory and the CPU used between mark and the
// last reading.
type sampler struct {
	roots    []int
	interval time.Duration

	mu          sync.Mutex
	err         error
	marked      bool
	first, last procSample
	firstAt     time.Time
	lastAt      time.Time
	peakRSS     int64
	stop, done  chan struct{}
}

func newSampler(roots []int, interval time.Duration) *sampler {
	s := &sampler{roots: roots, interval: interval, stop: make(chan struct{}), done: make(chan struct{})}
	go s.loop()
	return s
}

func (s *sampler) loop() {
	defer close(s.done)
	t := time.NewTicker(s.interval)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.read(false)
		}
	}
}

// mark starts the measured part: the CPU figure counts from here.
func (s *sampler) mark() { s.read(true) }

func (s *sampler) read(mark bool) {
	ps, err := sampleTree(s.roots)
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		if s.err == nil && s.marked {
			s.err = err
		}
		return
	}
	if mark {
		s.marked, s.first, s.firstAt, s.peakRSS = true, ps, now, ps.rss
	}
	if !s.marked {
		return
	}
	s.last, s.lastAt = ps, now
	s.peakRSS = max(s.peakRSS, ps.rss)
}

// finish takes a last reading and stops the sampler.
func (s *sampler) finish() *ServerUsage {
	s.read(false)
	close(s.stop)
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.marked {
		return &ServerUsage{NotMeasured: "the server's processes could not be read"}
	}
	u := &ServerUsage{Processes: s.last.procs, RSSEndBytes: s.last.rss, RSSPeakBytes: s.peakRSS, RSSStartBytes: s.first.rss}
	if secs := s.lastAt.Sub(s.firstAt).Seconds(); secs > 0 {
		u.CPUSeconds = s.last.cpu - s.first.cpu
		u.CPUPercent = 100 * u.CPUSeconds / secs
	}
	if s.err != nil {
		u.Note = "stopped reading the server's processes: " + s.err.Error()
	}
	return u
}
