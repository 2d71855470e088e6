//go:build !unix

package userdir

import "io/fs"

// ownerOf is unknown here (Windows keeps owners in ACLs): ownership is
// not judged, only the mode bits Go reports.
func ownerOf(fs.FileInfo) (int, bool) { return 0, false }
