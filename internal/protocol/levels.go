package protocol

import "slices"

// The syslog levels of notifications/message and logging/setLevel.
const (
	LevelDebug     = "debug"
	LevelInfo      = "info"
	LevelNotice    = "notice"
	LevelWarning   = "warning"
	LevelError     = "error"
	LevelCritical  = "critical"
	LevelAlert     = "alert"
	LevelEmergency = "emergency"
)

// logLevels are the levels, least severe first.
var logLevels = [...]string{LevelDebug, LevelInfo, LevelNotice, LevelWarning, LevelError, LevelCritical, LevelAlert, LevelEmergency}

// LogLevels are the log levels, least severe first (a new slice each call).
func LogLevels() []string { return slices.Clone(logLevels[:]) }

// LevelRank is a level's place among LogLevels (0 for debug), or -1 for a
// level the specification does not name.
func LevelRank(level string) int { return slices.Index(logLevels[:], level) }

// LevelName is the level of rank r (LevelRank's inverse), or "" for a
// rank outside 0 to 7.
func LevelName(r int) string {
	if r < 0 || r >= len(logLevels) {
		return ""
	}
	return logLevels[r]
}
