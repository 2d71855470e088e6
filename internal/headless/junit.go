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
// per step.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// WriteJUnit writes rep as JUnit XML.
func WriteJUnit(w io.Writer, rep *ScriptReport) error {
	suite := junitSuite{
		Name: rep.Script, Time: seconds(rep.Duration), Timestamp: rep.Started.UTC().Format("2006-01-02T15:04:05"),
		Properties: []junitProperty{{Name: "server", Value: rep.Server}, {Name: "protocol", Value: rep.Protocol}},
	}
	if rep.Connect != nil {
		suite.Cases = append(suite.Cases, junitCase{Name: "connect", Classname: rep.Script, Time: "0.000",
			Error: &junitProblem{Message: rep.Connect.Message, Type: rep.Connect.Kind, Text: strings.Join(rep.Connect.Stderr, "\n")}})
		suite.Errors = 1
	}
	for _, st := range rep.Steps {
		c := junitCase{Name: fmt.Sprintf("%d: %s", st.Line, st.Step), Classname: rep.Script, Time: seconds(st.Duration)}
		if !st.OK {
			c.Failure = &junitProblem{Message: st.Failures[0], Type: "expect", Text: strings.Join(st.Failures, "\n")}
			suite.Failures++
		}
		suite.Cases = append(suite.Cases, c)
	}
	suite.Tests = len(suite.Cases)
	doc := junitSuites{Name: "mcptui run", Tests: suite.Tests, Failures: suite.Failures, Errors: suite.Errors,
		Time: suite.Time, Suites: []junitSuite{suite}}
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
