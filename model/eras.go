package model

import "github.com/mcptui/mcptui/internal/protocol"

// summary is a line's traffic summary, its era mark first.
func (s *Session) summary(env envelope, dir Direction, size int) string {
	return s.summaryWith(summarize(env), env, dir, size)
}

// summaryWith is summary for a line whose plain summary (summarize's) is
// sum.
func (s *Session) summaryWith(sum string, env envelope, dir Direction, size int) string {
	if s.conn.Phase == PhaseReady && protocol.HasEveryFeature(s.conn.Protocol) {
		return sum // the common case: nothing to look for
	}
	if mark := eraMark(env, dir, s.conn.Protocol, size); mark != "" {
		// First, where a narrow pane still shows it.
		if sum == "" {
			return mark
		}
		return mark + " " + sum
	}
	return sum
}

// eraMark is the mark a traffic summary gets for what a later protocol
// version brought and this message uses anyway — "(not in 2024-11-05:
// audio content)" — or "". version is the negotiated one (for the
// initialize answer, the one it names). The work is bounded: lines over
// summaryScanBytes are not looked into.
func eraMark(env envelope, dir Direction, version string, size int) string {
	if size > summaryScanBytes {
		return ""
	}
	var used []string
	switch env.kind {
	case KindResponse:
		if v, ok := str(member(env.result, "protocolVersion")); ok {
			version = v
		}
		used = resultFeatures(env.result)
	case KindNotification:
		if env.method == protocol.NotificationProgress && member(env.params, "message") != nil {
			used = append(used, protocol.FeatureProgressMessage)
		}
	case KindRequest:
		if dir == In && env.method == protocol.MethodElicit {
			used = append(used, protocol.FeatureElicitation)
		}
	}
	if version == "" || len(used) == 0 {
		return ""
	}
	return protocol.NotInAll(version, used...)
}

// resultFeatures names the later-era features a result uses: audio and
// resource links among its content (a tool's or a prompt's messages'),
// structured content, tools' annotations, titles and output schemas, and
// an initialize answer's completions capability.
func resultFeatures(res []byte) []string {
	v, _ := members(res, "content", "structuredContent", "messages", "tools", "capabilities")
	var used []string
	content := func(c []byte) {
		switch t, _ := str(member(c, "type")); t {
		case protocol.ContentAudio:
			used = append(used, protocol.FeatureAudioContent)
		case protocol.ContentResourceLink:
			used = append(used, protocol.FeatureResourceLink)
		}
	}
	eachElement(v[0], func(c []byte) bool { content(c); return true })
	if v[1] != nil {
		used = append(used, protocol.FeatureStructuredContent)
	}
	eachElement(v[2], func(m []byte) bool { content(member(m, "content")); return true })
	eachElement(v[3], func(t []byte) bool {
		tv, _ := members(t, "annotations", "title", "outputSchema")
		for i, f := range []string{protocol.FeatureToolAnnotations, protocol.FeatureTitle, protocol.FeatureOutputSchema} {
			if tv[i] != nil {
				used = append(used, f)
			}
		}
		return true
	})
	if member(v[4], "completions") != nil {
		used = append(used, protocol.FeatureCompletions)
	}
	return used
}
