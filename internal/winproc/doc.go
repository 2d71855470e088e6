// Package winproc starts a server on Windows the way the hosts (Claude
// Desktop, VS Code, Cursor) do: the command is resolved through PATH and
// PATHEXT, so that "npx" finds npx.cmd; a batch file runs through cmd.exe
// with its arguments quoted for cmd.exe's parser; and the server's whole
// process tree is held in a Job Object that is killed when mcptui's handle
// to it closes, so mcptui's own death takes the tree with it.
//
// Resolution and quoting are pure and run (and are tested) on every
// platform; the Job Object exists only on Windows.
package winproc
