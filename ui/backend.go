package ui

import "github.com/mcptui/mcptui/internal/backend"

// Backend is everything the UI asks of the connection; see backend.Backend.
type Backend = backend.Backend

// Caller is the optional part of a Backend that sends composed requests.
type Caller = backend.Caller

// CallRequest is a request the person composed; see backend.CallRequest.
type CallRequest = backend.CallRequest

// LogLeveler is the optional part of a Backend that sets the server's log
// level; see backend.LogLeveler.
type LogLeveler = backend.LogLeveler
