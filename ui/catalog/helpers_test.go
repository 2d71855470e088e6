package catalog

import (
	"reflect"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/ui/catalog/argstore"
)

var progressValue = conn.Progress{Progress: 2, Total: 5, Message: "step 2 of 5"}

// reflectPath reads a store's file path (tests reopen it as a new run).
func reflectPath(s *argstore.Store) string {
	return reflect.ValueOf(s).Elem().FieldByName("path").String()
}
