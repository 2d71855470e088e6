//go:build race

package demo

// raceBuild: the race detector's build allocates more (its
// instrumentation keeps values on the heap that escape analysis would not).
const raceBuild = true
