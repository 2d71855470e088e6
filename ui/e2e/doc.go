// Package e2e holds the inspector's end-to-end tests: the real mcptui
// binary, built from this module, in a real terminal (tmux), against a
// scripted MCP server. It has no code of its own.
package e2e
