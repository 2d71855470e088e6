// Package drawcheck holds a vet-style test: every string that reaches a
// drawing call that takes safe text (inert.Truncate, inert.Pad,
// inert.Cells, kit.Txt, kit.Own, kit.Fit, a kit.Seg's text, x/ansi's
// truncation, and any function whose parameter is named safe) must be
// text the program wrote or the output of the one inert path. The test
// type-checks the module's screens and follows each such argument back
// through local variables, concatenations, fmt.Sprintf and the functions
// that produce it; what it cannot show to be safe is reported, unless it
// is listed, with the reason, in allowed.
package drawcheck
