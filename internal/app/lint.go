package app

import (
	"github.com/mcptui/mcptui/internal/check/lint"
	"github.com/mcptui/mcptui/internal/schemaform"
	"github.com/mcptui/mcptui/model"
)

// liveLint is the inspector's live lint: every rule the traffic shows,
// the tools' structured output checked against their output schemas by
// schemaform's validator (which the model does not import: it plugs in
// here, through model.Config.Linter and session.Config.Linter).
func liveLint() model.Linter { return lint.NewWithSchemas(schemaform.Validator) }
