package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// As the browser, the driver follows the authorization endpoint's redirect
// to the loopback listener, with the code and state.
func TestBrowse(t *testing.T) {
	got := make(chan string, 1)
	listener := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.URL.RawQuery
	}))
	defer listener.Close()
	as := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("redirect_uri")+"?code=c&state="+r.URL.Query().Get("state"), http.StatusFound)
	}))
	defer as.Close()
	var log bytes.Buffer
	env := func(k string) string { return map[string]string{envBrowse: "1"}[k] }
	code := run(context.Background(), []string{as.URL + "/authorize?state=s1&redirect_uri=" + listener.URL + "/callback"}, env, &log)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, log.String())
	}
	if q := <-got; !strings.Contains(q, "code=c") || !strings.Contains(q, "state=s1") {
		t.Errorf("the listener got %q", q)
	}
}
