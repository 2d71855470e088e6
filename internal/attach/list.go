// Package attach is mcptui attach: the inspector, live and read-only, on a
// running tap's session (replay's backend following the tap's feed), with
// breakpoints for the viewer that asks; and the list of running taps.
package attach

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/internal/tap"
	"github.com/mcptui/mcptui/model"
)

// List writes the taps running in dirs (see tap.RuntimeDirs) as a table
// (host, server command, age, traffic), then where it looked; with none,
// it says so, where it looked, and how to start one. A directory that is
// not the user's own is named with why it was skipped.
func List(w io.Writer, dirs []string, now time.Time) error {
	var taps []tap.Info
	var looked []string
	for _, dir := range dirs {
		found, err := tap.List(dir)
		switch {
		case err != nil:
			looked = append(looked, fmt.Sprintf("%s (skipped: %v)", dir, err))
		case len(found) == 0:
			looked = append(looked, dir+" (none)")
		default:
			looked = append(looked, fmt.Sprintf("%s (%d)", dir, len(found)))
		}
		taps = append(taps, found...)
	}
	where := strings.Join(looked, ", ")
	if len(taps) == 0 {
		_, err := fmt.Fprintf(w, "No taps are running. Looked in %s.\nPut mcptui tap in front of a server in a host's config: mcptui tap --print-config NAME -- server...\n", inert.Line(where))
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tHOST\tSERVER\tAGE\tTO SERVER\tTO HOST\tVIEWERS")
	for _, in := range taps {
		host := in.Host
		if host == "" {
			host = "?"
		}
		server := strings.Join(append([]string{in.Command}, in.Args...), " ")
		fmt.Fprintf(tw, "%s\t%s (%d)\t%s\t%s\t%d lines, %s\t%d lines, %s\t%d\n",
			inert.Line(in.Name), inert.Line(host), in.HostPID, inert.Fit(inert.Line(server), 60), age(now.Sub(in.Started)),
			in.LinesSent, model.FormatSize(int(in.BytesSent)), in.LinesReceived, model.FormatSize(int(in.BytesReceived)), in.Viewers)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("attach: %w", err)
	}
	_, err := fmt.Fprintf(w, "\nmcptui attach NAME opens one. Looked in %s.\n", inert.Line(where))
	return err
}

// age is a duration as a person says it.
func age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}
