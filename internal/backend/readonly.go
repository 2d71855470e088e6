package backend

import "errors"

// ErrReadOnly is what a read-only backend (a recording replayed, a host's
// session watched through a tap) returns for every action, and the one
// sentence a read-only inspector says when a key that would send is
// pressed: short enough for an 80-column status line.
var ErrReadOnly = errors.New("read-only: mcptui only watches this session and sends nothing to its server")
