package load

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Report is what a load run measured. Latencies are in milliseconds.
type Report struct {
	// Loop is "open" (a fixed rate, latency from each request's due time)
	// or "closed" (a fixed concurrency, latency from each send).
	Loop        string   `json:"loop"`
	Sends       []string `json:"sends"`
	Target      string   `json:"server"`
	Transport   string   `json:"transport"`
	Sessions    int      `json:"sessions"`
	Concurrency int      `json:"concurrency,omitempty"`
	// OfferedRate is the open loop's rate (requests per second).
	OfferedRate float64 `json:"offeredRate,omitempty"`
	Warmup      string  `json:"warmup"`
	Duration    string  `json:"duration"`
	// Requests are the measured requests sent (the warm-up's are not);
	// Answered those the server answered (a result or an error answer);
	// Throughput the answers per second over the measured time (the
	// duration, or longer when the answers trail past its end).
	Requests       int64   `json:"requests"`
	WarmupRequests int64   `json:"warmupRequests"`
	Answered       int64   `json:"answered"`
	Throughput     float64 `json:"throughput"`
	MeasuredFor    string  `json:"measuredFor"`
	// Latency is from the time each request was due (open loop: queueing
	// behind a slow server counts) or sent (closed loop); Service from the
	// time it was sent.
	Latency Percentiles `json:"latencyMs"`
	Service Percentiles `json:"serviceMs"`
	// Errors counts the failed requests by kind: isError, "rpc CODE",
	// timeout, transport, unfinished; ErrorSamples holds the first
	// message of each kind.
	Errors       map[string]int64  `json:"errors"`
	ErrorSamples map[string]string `json:"errorSamples,omitempty"`
	ErrorRate    float64           `json:"errorRate"`
	Server       *ServerUsage      `json:"serverProcess"`
	HTTP         *SessionCounts    `json:"httpSessions,omitempty"`
	Generator    Generator         `json:"generator"`
	// Ramp is a --ramp run's steps and where the server stopped keeping up.
	Ramp  *Ramp    `json:"ramp,omitempty"`
	SLOs  []SLO    `json:"slos,omitempty"`
	Notes []string `json:"notes,omitempty"`
}

// Percentiles of a latency histogram, in milliseconds.
type Percentiles struct {
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	P999 float64 `json:"p99.9"`
	Max  float64 `json:"max"`
	Mean float64 `json:"mean"`
}

// ServerUsage is the server's process tree over the measured time.
type ServerUsage struct {
	NotMeasured   string  `json:"notMeasured,omitempty"`
	Processes     int     `json:"processes,omitempty"`
	RSSStartBytes int64   `json:"rssStartBytes,omitempty"`
	RSSPeakBytes  int64   `json:"rssPeakBytes,omitempty"`
	RSSEndBytes   int64   `json:"rssEndBytes,omitempty"`
	CPUSeconds    float64 `json:"cpuSeconds,omitempty"`
	// CPUPercent is of one core: 200 is two cores busy.
	CPUPercent float64 `json:"cpuPercent,omitempty"`
	Note       string  `json:"note,omitempty"`
}

// SessionCounts are the HTTP sessions the run opened and closed: a fresh
// initialize after the server dropped one counts as opened.
type SessionCounts struct {
	Opened int `json:"opened"`
	Closed int `json:"closed"`
	// Renewed are those opened because the server ended a session.
	Renewed int `json:"renewed"`
}

// Generator is mcptui's own share: when it is the bottleneck the figures
// measure it, not the server.
type Generator struct {
	CPUPercent float64 `json:"cpuPercent"`
	Cores      int     `json:"cores"`
	// SendLag is how late the open loop sent its requests behind their
	// due times (p99, ms): waits for a --max-in-flight slot included.
	SendLagP99 float64 `json:"sendLagP99Ms,omitempty"`
	Bottleneck bool    `json:"bottleneck"`
}

// SLO is one limit given on the command line and whether the run kept it.
type SLO struct {
	Name  string  `json:"name"`
	Limit float64 `json:"limit"`
	Value float64 `json:"value"`
	OK    bool    `json:"ok"`
}

// percentiles reads h (microseconds) as milliseconds.
func percentiles(h *hdr.Histogram) Percentiles {
	ms := func(us int64) float64 { return float64(us) / 1000 }
	if h.TotalCount() == 0 {
		return Percentiles{}
	}
	return Percentiles{
		P50: ms(h.ValueAtQuantile(50)), P90: ms(h.ValueAtQuantile(90)), P99: ms(h.ValueAtQuantile(99)),
		P999: ms(h.ValueAtQuantile(99.9)), Max: ms(h.Max()), Mean: math.Round(h.Mean()) / 1000,
	}
}

// Broken reports whether an SLO was broken.
func (r *Report) Broken() bool {
	return slices.ContainsFunc(r.SLOs, func(s SLO) bool { return !s.OK })
}

// WriteJSON writes r as one JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes r for a person.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	switch {
	case r.Ramp != nil:
		p("load: open loop ramping %g/s to %g/s over %d %s; warm-up %s, measured %s", r.Ramp.From, r.Ramp.To, r.Sessions, plural(r.Sessions, r.sessionWord()), r.Warmup, r.Duration)
	case r.Loop == "open":
		p("load: open loop at %g/s over %d %s; warm-up %s, measured %s", r.OfferedRate, r.Sessions, plural(r.Sessions, r.sessionWord()), r.Warmup, r.Duration)
	default:
		p("load: closed loop, %d in flight over %d %s; warm-up %s, measured %s", r.Concurrency, r.Sessions, plural(r.Sessions, r.sessionWord()), r.Warmup, r.Duration)
	}
	p("sends:      %s", strings.Join(r.Sends, " | "))
	p("")
	if r.Ramp != nil {
		writeRamp(p, r.Ramp)
		p("")
		p("over the whole ramp:")
		p("throughput: %.1f answers/s (%d requests, %d answered, over %s)", r.Throughput, r.Requests, r.Answered, r.MeasuredFor)
	} else if r.Loop == "open" {
		p("throughput: %.1f answers/s of %g/s offered (%d requests, %d answered, over %s)", r.Throughput, r.OfferedRate, r.Requests, r.Answered, r.MeasuredFor)
	} else {
		p("throughput: %.1f answers/s (%d requests, %d answered, over %s)", r.Throughput, r.Requests, r.Answered, r.MeasuredFor)
	}
	from := "from each request's due time"
	if r.Loop == "closed" {
		from = "from each send"
	}
	p("latency %s (ms):", from)
	p("  p50 %s  p90 %s  p99 %s  p99.9 %s  max %s", ms(r.Latency.P50), ms(r.Latency.P90), ms(r.Latency.P99), ms(r.Latency.P999), ms(r.Latency.Max))
	if r.Loop == "open" {
		p("service time, from each send (ms):")
		p("  p50 %s  p90 %s  p99 %s  p99.9 %s  max %s", ms(r.Service.P50), ms(r.Service.P90), ms(r.Service.P99), ms(r.Service.P999), ms(r.Service.Max))
	}
	if len(r.Errors) == 0 {
		p("errors:     none")
	} else {
		p("errors:     %d (%.2f%% of the requests)", sum(r.Errors), 100*r.ErrorRate)
		for _, k := range slices.Sorted(maps.Keys(r.Errors)) {
			p("  %-12s %d  e.g. %s", k, r.Errors[k], r.ErrorSamples[k])
		}
	}
	switch s := r.Server; {
	case s == nil:
	case s.NotMeasured != "":
		p("server:     not measured (%s)", s.NotMeasured)
	default:
		p("server:     CPU %.0f%% of a core (%.2fs), RSS %s at the start, %s peak, %s at the end (%d %s)",
			s.CPUPercent, s.CPUSeconds, mib(s.RSSStartBytes), mib(s.RSSPeakBytes), mib(s.RSSEndBytes), s.Processes, plural(s.Processes, "process"))
		if s.Note != "" {
			p("            %s", s.Note)
		}
	}
	if r.HTTP != nil {
		p("sessions:   %d opened, %d closed, %d renewed after the server ended one", r.HTTP.Opened, r.HTTP.Closed, r.HTTP.Renewed)
	}
	g := r.Generator
	line := fmt.Sprintf("mcptui:     CPU %.0f%% of a core (%d cores)", g.CPUPercent, g.Cores)
	if r.Loop == "open" {
		line += fmt.Sprintf(", sent %s ms late at p99", ms(g.SendLagP99))
	}
	p("%s", line)
	for _, s := range r.SLOs {
		verdict := "kept"
		if !s.OK {
			verdict = "BROKEN"
		}
		if strings.HasPrefix(s.Name, "max-error-rate") {
			p("SLO %s %g: %s (%.4f)", s.Name, s.Limit, verdict, s.Value)
		} else {
			p("SLO %s %sms: %s (%sms)", s.Name, ms(s.Limit), verdict, ms(s.Value))
		}
	}
	for _, n := range r.Notes {
		p("note: %s", n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (r *Report) sessionWord() string {
	if r.Transport == "stdio" {
		return "server process"
	}
	return "session"
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	if strings.HasSuffix(word, "ss") {
		return word + "es"
	}
	return word + "s"
}

func ms(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

func sum(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}

// durationString is d for the report.
func durationString(d time.Duration) string { return d.Round(time.Millisecond).String() }
