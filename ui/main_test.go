package ui

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(hostileEnv); mode != "" {
		os.Exit(runHostile(mode))
	}
	os.Exit(m.Run())
}
