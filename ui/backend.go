package ui

import "github.com/mcptui/mcptui/ui/backend"

// Backend is everything the UI asks of the connection; see backend.Backend.
type Backend = backend.Backend

// CallRequest is a request the person composed; see backend.CallRequest.
type CallRequest = backend.CallRequest
