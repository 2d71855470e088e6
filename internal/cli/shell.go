package cli

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/mcptui/mcptui/internal/protocol"
)

// Shell completion and the man page are generated from what --help shows
// (Usage) and from the command table (commands): one place per fact.

// Shells are the shells mcptui completion writes a script for.
var Shells = []string{"bash", "zsh", "fish", "powershell"}

// ServersWord is the hidden subcommand the completion scripts call to
// complete --server: it prints the servers of the host configs, one name
// a line.
const ServersWord = "__servers"

// KnownProtocols are the protocol revisions mcptui speaks, newest first.
func KnownProtocols() []string { return protocol.NewestFirst() }

// Subcommands are the words that select a subcommand, sorted.
func Subcommands() []string {
	words := []string{"tap", "attach", "demo-server", "completion", "man", "explain"}
	for w := range commands {
		words = append(words, w)
	}
	slices.Sort(words)
	return words
}

var (
	longFlagRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|[\s\[|(])(--[a-z][a-z-]*[a-z])`) })
	shortFlagRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s+(-[a-zA-Z]), --`) })
)

// Flags are the flags --help names, long and short, sorted.
func Flags() []string {
	seen := map[string]bool{}
	for _, re := range []*regexp.Regexp{longFlagRE(), shortFlagRE()} {
		for _, m := range re.FindAllStringSubmatch(Usage, -1) {
			seen[m[1]] = true
		}
	}
	out := make([]string, 0, len(seen))
	for f := range seen {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// fileFlags take a file or directory.
var fileFlags = []string{"--config", "--record", "--junit", "--sarif", "--cwd", "--args", "--params"}

// CompletionScript is the completion script for shell.
func CompletionScript(shell string) (string, error) {
	subs, flags := strings.Join(Subcommands(), " "), strings.Join(Flags(), " ")
	shells := strings.Join(Shells, " ")
	files := strings.Join(fileFlags, "|")
	switch shell {
	case "bash":
		return fmt.Sprintf(`# bash completion for mcptui: source <(mcptui completion bash)
_mcptui() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  COMPREPLY=()
  case $prev in
    --server) COMPREPLY=($(compgen -W "$(mcptui %[4]s 2>/dev/null)" -- "$cur")); return 0 ;;
    completion) COMPREPLY=($(compgen -W "%[3]s" -- "$cur")); return 0 ;;
    --theme) COMPREPLY=($(compgen -W "auto dark light high-contrast" -- "$cur")); return 0 ;;
    --format) COMPREPLY=($(compgen -W "json text junit sarif" -- "$cur")); return 0 ;;
    %[5]s) COMPREPLY=($(compgen -f -- "$cur")); return 0 ;;
  esac
  local w
  for w in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    [[ $w == -- ]] && { COMPREPLY=($(compgen -c -- "$cur")); return 0; }
  done
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "%[2]s" -- "$cur"))
  elif [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "%[1]s" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _mcptui mcptui
`, subs, flags, shells, ServersWord, files), nil
	case "zsh":
		return fmt.Sprintf(`#compdef mcptui
# zsh completion for mcptui: source <(mcptui completion zsh), or save as _mcptui in $fpath
_mcptui() {
  case ${words[CURRENT-1]} in
    --server) compadd -- ${(f)"$(mcptui %[4]s 2>/dev/null)"}; return ;;
    completion) compadd -- %[3]s; return ;;
    --theme) compadd -- auto dark light high-contrast; return ;;
    --format) compadd -- json text junit sarif; return ;;
    %[5]s) _files; return ;;
  esac
  if (( ${words[(I)--]} && ${words[(I)--]} < CURRENT )); then _command_names; return; fi
  if [[ $PREFIX == -* ]]; then compadd -- %[2]s; return; fi
  if (( CURRENT == 2 )); then compadd -- %[1]s; return; fi
  _files
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then _mcptui "$@"; else compdef _mcptui mcptui; fi
`, subs, flags, shells, ServersWord, files), nil
	case "fish":
		var b strings.Builder
		b.WriteString("# fish completion for mcptui: mcptui completion fish | source\n")
		fmt.Fprintf(&b, "complete -c mcptui -f -n __fish_use_subcommand -a %q\n", subs)
		fmt.Fprintf(&b, "complete -c mcptui -f -n '__fish_seen_subcommand_from completion' -a %q\n", shells)
		for _, f := range Flags() {
			switch {
			case f == "--server":
				fmt.Fprintf(&b, "complete -c mcptui -l server -x -a '(mcptui %s 2>/dev/null)'\n", ServersWord)
			case strings.HasPrefix(f, "--"):
				req := ""
				if slices.Contains(fileFlags, f) {
					req = " -r -F"
				}
				fmt.Fprintf(&b, "complete -c mcptui -l %s%s\n", f[2:], req)
			default:
				fmt.Fprintf(&b, "complete -c mcptui -s %s\n", f[1:])
			}
		}
		return b.String(), nil
	case "powershell":
		quote := func(ws []string) string {
			q := make([]string, len(ws))
			for i, w := range ws {
				q[i] = "'" + w + "'"
			}
			return strings.Join(q, ",")
		}
		return fmt.Sprintf(`# PowerShell completion for mcptui: mcptui completion powershell | Out-String | Invoke-Expression
Register-ArgumentCompleter -Native -CommandName mcptui,mcptui.exe -ScriptBlock {
  param($wordToComplete, $commandAst, $cursorPosition)
  $words = @($commandAst.CommandElements | ForEach-Object { $_.ToString() })
  $prev = if ($wordToComplete) { $words[-2] } else { $words[-1] }
  $candidates = switch ($prev) {
    '--server' { @(mcptui %[4]s 2>$null) }
    'completion' { @(%[3]s) }
    default {
      if ($wordToComplete -like '-*') { @(%[2]s) }
      elseif ($words.Count -le 2) { @(%[1]s) }
    }
  }
  $candidates | Where-Object { $_ -like "$wordToComplete*" } | ForEach-Object {
    [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_)
  }
}
`, quote(Subcommands()), quote(Flags()), quote(Shells), ServersWord), nil
	}
	return "", usageError("completion: no shell %q (%s)", shell, strings.Join(Shells, ", "))
}

// ManPage is mcptui(1) in roff, made from Usage: its first line is NAME,
// its Usage block SYNOPSIS, and each of its other headed blocks a section.
func ManPage(version string) string {
	var b strings.Builder
	fmt.Fprintf(&b, ".TH MCPTUI 1 \"\" \"mcptui %s\" \"User Commands\"\n", roffEscape(version))
	lines := strings.Split(strings.TrimRight(Usage, "\n"), "\n")
	name, desc, _ := strings.Cut(lines[0], " — ")
	fmt.Fprintf(&b, ".SH NAME\n%s \\- %s\n", roffEscape(name), roffEscape(desc))
	open := false
	closeBlock := func() {
		if open {
			b.WriteString(".fi\n")
			open = false
		}
	}
	for _, l := range lines[1:] {
		switch {
		case strings.TrimSpace(l) == "":
			if open {
				b.WriteString("\n")
			}
		case !strings.HasPrefix(l, " ") && strings.HasSuffix(l, ":") || l == "Usage:":
			closeBlock()
			head := strings.TrimSuffix(l, ":")
			if head == "Usage" {
				head = "SYNOPSIS"
			}
			fmt.Fprintf(&b, ".SH %s\n.nf\n", roffEscape(strings.ToUpper(head)))
			open = true
		case !strings.HasPrefix(l, " "):
			closeBlock()
			fmt.Fprintf(&b, ".PP\n%s\n", roffEscape(l))
		default:
			if !open {
				b.WriteString(".nf\n")
				open = true
			}
			b.WriteString(roffEscape(l) + "\n")
		}
	}
	closeBlock()
	b.WriteString(".SH SEE ALSO\nThe README at https://github.com/mcptui/mcptui\n")
	return b.String()
}

// roffEscape keeps s literal in roff: backslashes doubled, a leading dot
// or quote guarded, a hyphen of a flag kept a hyphen, and every character
// past ASCII named by its code point (\[u2014]), since troff reads bytes.
func roffEscape(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 {
			b.WriteRune(r)
			continue
		}
		fmt.Fprintf(&b, `\[u%04X]`, r)
	}
	return b.String()
}
