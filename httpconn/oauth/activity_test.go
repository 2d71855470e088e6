package oauth_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcptui/mcptui/httpconn/oauth"
)

// activities records what SetOnActivity reports.
type activities struct {
	mu  sync.Mutex
	all []oauth.Activity
}

func (a *activities) add(x oauth.Activity) {
	a.mu.Lock()
	a.all = append(a.all, x)
	a.mu.Unlock()
}

func (a *activities) list() []oauth.Activity {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]oauth.Activity(nil), a.all...)
}

// An authorization after the connection opened reports itself running at
// each step, the URL to open among them, then its end once; requests that
// need none report nothing.
func TestActivity(t *testing.T) {
	t.Run("step-up", func(t *testing.T) {
		as := newAuthServer(t, "")
		ms := newMCPServer(t, as)
		ms.scopeHeader = "mcp:basic"
		ms.need = map[string]string{"tools/list": "mcp:basic", "tools/call": "mcp:write"}
		s := connect(t, ms.url(), oauth.Config{})
		if err := s.initialize(t); err != nil {
			t.Fatal(err)
		}
		var got activities
		s.tr.SetOnActivity(got.add)
		if err := s.call(t, "tools/list", `{}`); err != nil {
			t.Fatal(err)
		}
		if n := len(got.list()); n != 0 {
			t.Fatalf("%d activities for a request that needed no authorization", n)
		}
		if err := s.call(t, "tools/call", `{"name":"write","arguments":{}}`); err != nil {
			t.Fatal(err)
		}
		all := got.list()
		if len(all) < 3 || all[len(all)-1].Running || !all[0].Running || !strings.Contains(all[0].Step.Text, "the server wants the scope mcp:write") {
			t.Fatalf("activities %+v: want running steps from the step-up, then the end", all)
		}
		opened := false
		for _, a := range all[:len(all)-1] {
			if !a.Running {
				t.Errorf("ended before the last: %+v", all)
			}
			opened = opened || a.Step.Kind == "open" && strings.HasPrefix(a.Step.URL, as.issuer()+"/authorize?")
		}
		if !opened {
			t.Errorf("no step with the URL to open: %+v", all)
		}
	})
	t.Run("refresh", func(t *testing.T) {
		as := newAuthServer(t, "")
		as.refreshTokens, as.expiresIn = true, 60
		ms := newMCPServer(t, as)
		var mu sync.Mutex
		now := time.Now()
		clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
		s := connect(t, ms.url(), oauth.Config{Now: clock})
		if err := s.initialize(t); err != nil {
			t.Fatal(err)
		}
		var got activities
		s.tr.SetOnActivity(got.add)
		mu.Lock()
		now = now.Add(2 * time.Minute)
		mu.Unlock()
		if err := s.call(t, "tools/list", `{}`); err != nil {
			t.Fatal(err)
		}
		all := got.list()
		if len(all) != 2 || !all[0].Running || all[0].Step.Kind != "refresh" || all[1].Running {
			t.Fatalf("activities %+v: want the refresh, then its end", all)
		}
	})
}
