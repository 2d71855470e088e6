// Package e2e drives the real mcptui binary in tmux against the everything
// server (@modelcontextprotocol/server-everything): the catalog calls
// trigger-elicitation-request, the person fills the elicitation form the
// server sends, and the tool's reply shows what the server received.
package e2e
