package headless

import (
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// JUnit XML, as CI systems read it: one suite per script, one test case
// per step (mcptui run); one suite per era, one case per rule (mcptui check).

// JUnitSuites is a JUnit report's root.
type JUnitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []JUnitSuite `xml:"testsuite"`
}

// JUnitSuite is one test suite.
type JUnitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr"`
	Properties []JUnitProperty `xml:"properties>property"`
	Cases      []JUnitCase     `xml:"testcase"`
}

// JUnitProperty is a name=value property of a suite.
type JUnitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// JUnitCase is one test case; Failure or Error set when it did not pass.
type JUnitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *JUnitProblem `xml:"failure,omitempty"`
	Error     *JUnitProblem `xml:"error,omitempty"`
	Skipped   *JUnitProblem `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

// JUnitProblem is why a case failed.
type JUnitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// JUnitSeconds is a duration as JUnit writes it.
func JUnitSeconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

func seconds(d time.Duration) string { return JUnitSeconds(d) }

// WriteJUnit writes rep as JUnit XML.
func WriteJUnit(w io.Writer, rep *ScriptReport) error {
	suite := JUnitSuite{
		Name: rep.Script, Time: seconds(rep.Duration), Timestamp: rep.Started.UTC().Format("2006-01-02T15:04:05"),
		Properties: []JUnitProperty{{Name: "server", Value: rep.Server}, {Name: "protocol", Value: rep.Protocol}},
	}
	if rep.Connect != nil {
		suite.Cases = append(suite.Cases, JUnitCase{Name: "connect", Classname: rep.Script, Time: "0.000",
			Error: &JUnitProblem{Message: rep.Connect.Message, Type: rep.Connect.Kind, Text: strings.Join(rep.Connect.Stderr, "\n")}})
		suite.Errors = 1
	}
	for _, st := range rep.Steps {
		c := JUnitCase{Name: fmt.Sprintf("%d: %s", st.Line, st.Step), Classname: rep.Script, Time: seconds(st.Duration)}
		if !st.OK {
			c.Failure = &JUnitProblem{Message: st.Failures[0], Type: "expect", Text: strings.Join(st.Failures, "\n")}
			suite.Failures++
		}
		suite.Cases = append(suite.Cases, c)
	}
	suite.Tests = len(suite.Cases)
	doc := JUnitSuites{Name: "mcptui run", Tests: suite.Tests, Failures: suite.Failures, Errors: suite.Errors,
		Time: suite.Time, Suites: []JUnitSuite{suite}}
	return WriteJUnitSuites(w, doc)
}

// WriteJUnitSuites writes doc as JUnit XML.
func WriteJUnitSuites(w io.Writer, doc JUnitSuites) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func writeJUnitFile(path string, rep *ScriptReport) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("junit: %w", err)
	}
	if err := WriteJUnit(f, rep); err != nil {
		f.Close()
		return fmt.Errorf("junit: writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("junit: %w", err)
	}
	return nil
}
