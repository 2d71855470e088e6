package protocol

import (
	"slices"
	"testing"
)

func TestRevisionsAreOrdered(t *testing.T) {
	r := Revisions()
	if !slices.IsSorted(r) || len(slices.Compact(slices.Clone(r))) != len(r) {
		t.Errorf("revisions are not strictly ascending: %v", r)
	}
	if r[0] != Oldest || r[len(r)-1] != Newest {
		t.Errorf("Oldest %s and Newest %s are not the ends of %v", Oldest, Newest, r)
	}
	nf := NewestFirst()
	slices.Reverse(nf)
	if !slices.Equal(nf, r) {
		t.Errorf("NewestFirst is not Revisions reversed: %v", NewestFirst())
	}
	i := slices.Index(r, LastInitializeEra)
	if i < 0 || i+1 >= len(r) || r[i+1] != FirstStateless || Stateless(LastInitializeEra) || !Stateless(FirstStateless) {
		t.Errorf("the eras do not meet between %s and %s in %v", LastInitializeEra, FirstStateless, r)
	}
	if !Known(PreRelease20241007) || Canonical(PreRelease20241007) != Oldest || Known("2024-10-00") {
		t.Error("the pre-release is not spoken as the oldest revision")
	}
	Revisions()[0] = "mutated"
	if Revisions()[0] != Oldest {
		t.Error("Revisions hands out its own array")
	}
}

// Every revision spoken has its catalog of requests and notifications.
func TestEveryRevisionHasCatalogs(t *testing.T) {
	for _, v := range Revisions() {
		if len(Requests(v)) == 0 || len(Notifications(v)) == 0 {
			t.Errorf("%s has no catalog: %v %v", v, Requests(v), Notifications(v))
		}
	}
	if Requests("2099-01-01") != nil || Notifications("2099-01-01") != nil {
		t.Error("a revision not spoken has a catalog")
	}
}

func TestNewestFeature(t *testing.T) {
	features := []string{FeatureAudioContent, FeatureToolAnnotations, FeatureProgressMessage, FeatureCompletions,
		FeatureStructuredContent, FeatureOutputSchema, FeatureTitle, FeatureResourceLink, FeatureElicitation}
	newest := ""
	for _, f := range features {
		since := Introduced(f)
		if !Known(since) {
			t.Errorf("%s arrived in %q, not a revision spoken", f, since)
		}
		newest = max(newest, since)
	}
	if newest != NewestFeature {
		t.Errorf("NewestFeature is %s, the table's newest %s", NewestFeature, newest)
	}
}

func TestLogLevels(t *testing.T) {
	l := LogLevels()
	if len(l) != 8 || l[0] != LevelDebug || l[7] != LevelEmergency || LevelRank(LevelWarning) != 3 || LevelRank("trace") != -1 {
		t.Errorf("log levels: %v", l)
	}
}
