package main

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// pasteText is a 1,000-character paste ending in marker, one line of
// words (so that a terminal without bracketed paste would not send enter).
func pasteText(marker string) string {
	var b strings.Builder
	for b.Len() < 1000-len(marker)-1 {
		b.WriteString("lorem ipsum dolor sit amet ")
	}
	s := b.String()[:1000-len(marker)-1] + " " + marker
	return s
}

// keyOf is the key press that types r.
func keyOf(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }

// typeKeys types n letters, each timed to the frame that shows it, and
// checks the screen shows the last of them.
func typeKeys(i *inspector, n int, where string) ([]time.Duration, error) {
	var lat []time.Duration
	var typed []rune
	for k := range n {
		r := rune('a' + k%26)
		d, err := i.press(keyOf(r))
		if err != nil {
			return nil, err
		}
		lat = append(lat, d)
		typed = append(typed, r)
	}
	tail := string(typed[max(len(typed)-6, 0):])
	if err := i.waitFor(tail, 5*time.Second); err != nil {
		return nil, fmt.Errorf("typing in %s: %w", where, err)
	}
	return lat, nil
}

// paste pastes 1,000 characters and times them to the frame that shows
// them; the screen must show the paste's end.
func paste(i *inspector, marker, where string) (time.Duration, error) {
	d, err := i.press(tea.PasteMsg{Content: pasteText(marker)})
	if err != nil {
		return 0, err
	}
	if !i.out.shows(marker) {
		return 0, fmt.Errorf("pasting in %s: the frame after the paste does not show its end", where)
	}
	return d, nil
}

// keyPaste types the paste as a terminal without bracketed paste sends it,
// one key press per character, and times it to the first view showing its
// end.
func keyPaste(i *inspector, marker, where string) (time.Duration, error) {
	t0 := time.Now()
	for _, r := range pasteText(marker) {
		i.p.Send(keyOf(r))
	}
	for !i.out.shows(marker) {
		if time.Since(t0) > 60*time.Second {
			return 0, fmt.Errorf("typing a paste in %s: its end never showed", where)
		}
		time.Sleep(time.Millisecond)
	}
	return time.Since(t0), nil
}

// runTyping times typing in the composer and in a form field of the
// catalog, and a 1,000-character paste in each.
func runTyping(cfg config, samples int, keyPasteToo bool) error {
	i, err := start(cfg)
	if err != nil {
		return err
	}
	defer i.quit()
	if err := waitFlood(i, cfg.rate); err != nil {
		return err
	}
	keys := max(samples/2, 10)
	step := func(msg tea.Msg) error { _, err := i.press(msg); return err }

	// The composer: n opens it on the method field.
	if err := step(keyOf('n')); err != nil {
		return err
	}
	if err := i.waitFor("params", 10*time.Second); err != nil {
		return fmt.Errorf("the composer: %w", err)
	}
	composer, err := typeKeys(i, keys, "the composer's method field")
	if err != nil {
		return err
	}
	for range 3 { // tab to the params field
		if err := step(tea.KeyPressMsg{Code: tea.KeyTab}); err != nil {
			return err
		}
	}
	composerPaste, err := paste(i, "PASTEEND1", "the composer's params")
	if err != nil {
		return err
	}
	var composerKeyPaste time.Duration
	if keyPasteToo {
		if composerKeyPaste, err = keyPaste(i, "KEYSEND2", "the composer's params"); err != nil {
			return err
		}
	}
	if err := step(tea.KeyPressMsg{Code: tea.KeyEscape}); err != nil {
		return err
	}

	// A form field: the catalog's tool, enter opens its form.
	if err := step(keyOf('E')); err != nil {
		return err
	}
	if err := i.waitFor(benchTool, 30*time.Second); err != nil {
		return fmt.Errorf("the catalog: %w", err)
	}
	if err := step(tea.KeyPressMsg{Code: tea.KeyEnter}); err != nil {
		return err
	}
	if err := i.waitFor(benchField, 30*time.Second); err != nil {
		return fmt.Errorf("the tool's form: %w", err)
	}
	form, err := typeKeys(i, keys, "a form field")
	if err != nil {
		return err
	}
	formPaste, err := paste(i, "PASTEEND3", "a form field")
	if err != nil {
		return err
	}

	frame := time.Second / 60
	frames := func(d time.Duration) string {
		return fmt.Sprintf("%.1f frames", float64(d)/float64(frame))
	}
	fmt.Printf("floodbench -typing: %s, 160x48, history cap %d MiB\n", rateName(cfg.rate), cfg.history>>20)
	fmt.Printf("  composer   keystroke→screen over %d keys: %s\n", len(composer), percentiles(composer))
	fmt.Printf("  form field keystroke→screen over %d keys: %s\n", len(form), percentiles(form))
	fmt.Printf("  1,000-character paste → screen: composer %v (%s), form field %v (%s)\n",
		composerPaste.Round(10*time.Microsecond), frames(composerPaste), formPaste.Round(10*time.Microsecond), frames(formPaste))
	if keyPasteToo {
		fmt.Printf("  the same 1,000 characters as key presses (no bracketed paste), composer: %v to the screen\n", composerKeyPaste.Round(time.Millisecond))
	}
	fmt.Printf("  peak RSS %s\n", peakRSS())
	return nil
}
