//go:build !race

package demo

// raceBuild: see race_on_test.go.
const raceBuild = false
