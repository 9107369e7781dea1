// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package examplecheck prepares the configurations under examples/ and the
// HCL blocks of docs/ for `terraform validate` against the provider's real
// schema, offline: it keeps what belongs to this provider and drops the
// blocks of other providers, which would need a registry to install.
package examplecheck

import (
	"regexp"
	"slices"
	"strings"
)

// Block is one top-level block of a Terraform file.
type Block struct {
	// Kind is the block type: resource, data, provider, terraform, module,
	// output, locals, variable, ephemeral, check, import, moved, list…
	Kind string
	// Label is the first label (a resource or provider type), "" if none.
	Label string
	// Name is the second label (a resource's name), "" if none.
	Name string
	// Text is the block's source, from its header line to its closing brace.
	Text string
}

var headerRE = regexp.MustCompile(`^([a-z_]+)(?:\s+"([^"]*)")?(?:\s+"([^"]*)")?`)

// TopLevelBlocks splits src into its top-level blocks by brace matching,
// outside strings, comments and heredocs; text between blocks (comments) is
// dropped. Single-line attributes at the top level (a .tfvars file) are
// not blocks and are dropped too.
func TopLevelBlocks(src string) []Block {
	var out []Block
	lines := strings.SplitAfter(src, "\n")
	for i := 0; i < len(lines); i++ {
		m := headerRE.FindStringSubmatch(lines[i])
		if m == nil || !strings.Contains(stripComment(lines[i]), "{") {
			continue
		}
		var b strings.Builder
		depth, heredoc := 0, ""
		for ; i < len(lines); i++ {
			line := lines[i]
			b.WriteString(line)
			if heredoc != "" {
				if strings.TrimSpace(line) == heredoc {
					heredoc = ""
				}
				continue
			}
			code := stripComment(line)
			if h := heredocStart(code); h != "" {
				heredoc = h
			}
			depth += braceDelta(code)
			if depth <= 0 {
				break
			}
		}
		out = append(out, Block{Kind: m[1], Label: m[2], Name: m[3], Text: b.String()})
	}
	return out
}

var heredocRE = regexp.MustCompile(`<<-?([A-Z_]+)\s*$`)

func heredocStart(code string) string {
	if m := heredocRE.FindStringSubmatch(strings.TrimRight(code, "\n")); m != nil {
		return m[1]
	}
	return ""
}

// stripComment removes a trailing # or // comment outside strings.
func stripComment(line string) string {
	in := false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '\\' && in:
			i++
		case c == '"':
			in = !in
		case !in && (c == '#' || (c == '/' && i+1 < len(line) && line[i+1] == '/')):
			return line[:i]
		}
	}
	return line
}

// braceDelta counts { minus } outside strings, without template
// interpolations ("${...}" is inside a string).
func braceDelta(code string) int {
	n, in := 0, false
	for i := 0; i < len(code); i++ {
		switch c := code[i]; {
		case c == '\\' && in:
			i++
		case c == '"':
			in = !in
		case !in && c == '{':
			n++
		case !in && c == '}':
			n--
		}
	}
	return n
}

// ours reports whether a block belongs to this provider or to Terraform
// itself (variables, locals, outputs and modules are Terraform's).
func ours(b Block) bool {
	switch b.Kind {
	case "resource", "data", "ephemeral", "list", "action":
		return strings.HasPrefix(b.Label, "accel_")
	case "provider":
		return b.Label == "accel"
	case "terraform":
		return false // replaced by RequiredProviders
	}
	return true
}

// RequiredProviders is the terraform block a checked module gets in place
// of its own, which may require providers that cannot be installed
// offline.
const RequiredProviders = "terraform {\n  required_providers {\n    accel = { source = \"accel-dev/accel\" }\n  }\n}\n"

// Foreign lists the references ("kubernetes_manifest.",
// "data.kubernetes_x.") to the resources and data sources of other
// providers that src declares.
func Foreign(src string) []string {
	var gone []string
	for _, b := range TopLevelBlocks(src) {
		if !ours(b) && (b.Kind == "resource" || b.Kind == "data") {
			prefix := b.Label + "."
			if b.Kind == "data" {
				prefix = "data." + prefix
			}
			gone = append(gone, prefix)
		}
	}
	return gone
}

// AccelOnly returns the blocks of src that belong to this provider or to
// Terraform, and the headers of those it drops: blocks of other providers,
// the terraform block, and the outputs, locals and checks that refer to a
// dropped resource or data source (of src, or among alsoGone: Foreign of
// the module's other files).
func AccelOnly(src string, alsoGone ...string) (kept string, dropped []string) {
	blocks := TopLevelBlocks(src)
	gone := append(Foreign(src), alsoGone...)
	var out strings.Builder
	for _, b := range blocks {
		if !ours(b) || refersTo(b.Text, gone) {
			dropped = append(dropped, strings.TrimSpace(strings.SplitN(b.Text, "\n", 2)[0]))
			continue
		}
		out.WriteString(b.Text)
		out.WriteString("\n")
	}
	return out.String(), dropped
}

func refersTo(text string, prefixes []string) bool {
	return slices.ContainsFunc(prefixes, func(p string) bool { return strings.Contains(text, p) })
}

// Snippet is a fenced code block of a Markdown page.
type Snippet struct {
	Text string
	// ExpectError is the summary of the error the page shows right after
	// the block, in a block of its own that starts "Error: <summary>": the
	// configuration is meant to fail with it.
	ExpectError string
}

// FencedBlocks returns the bodies of the Markdown code blocks of md fenced
// with one of langs (```terraform).
func FencedBlocks(md string, langs ...string) []string {
	var out []string
	for _, s := range Snippets(md, langs...) {
		out = append(out, s.Text)
	}
	return out
}

// Snippets returns the code blocks of md fenced with one of langs, each
// with the error the page shows after it, if any.
func Snippets(md string, langs ...string) []Snippet {
	var all []struct {
		lang, text string
	}
	var cur *strings.Builder
	lang := ""
	for _, line := range strings.SplitAfter(md, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			cur, lang = &strings.Builder{}, strings.TrimPrefix(trimmed, "```")
		case cur != nil && trimmed == "```":
			all = append(all, struct{ lang, text string }{lang, cur.String()})
			cur = nil
		case cur != nil:
			cur.WriteString(line)
		}
	}
	var out []Snippet
	for i, b := range all {
		if !slices.Contains(langs, b.lang) {
			continue
		}
		s := Snippet{Text: b.text}
		if i+1 < len(all) && all[i+1].lang == "" {
			if first, ok := strings.CutPrefix(strings.TrimSpace(all[i+1].text), "Error: "); ok {
				s.ExpectError = strings.TrimSpace(strings.SplitN(first, "\n", 2)[0])
			}
		}
		out = append(out, s)
	}
	return out
}

var varRE = regexp.MustCompile(`\bvar\.([a-zA-Z_][a-zA-Z0-9_-]*)`)

// UndeclaredVariables lists the variables src refers to and does not
// declare, in order: a documentation snippet uses var.project without its
// variable block.
func UndeclaredVariables(src string) []string {
	declared := map[string]bool{}
	for _, b := range TopLevelBlocks(src) {
		if b.Kind == "variable" {
			declared[b.Label] = true
		}
	}
	var out []string
	for _, m := range varRE.FindAllStringSubmatch(src, -1) {
		if !declared[m[1]] && !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// Elided reports whether a snippet marks arguments as left out ("# ...",
// "// ..."): its required arguments may be missing.
func Elided(src string) bool {
	for _, line := range strings.Split(src, "\n") {
		t := strings.TrimSpace(line)
		if t == "# ..." || t == "// ..." || strings.HasPrefix(t, "# ... ") {
			return true
		}
	}
	return false
}

var refRE = regexp.MustCompile(`\b(data\.)?(accel_[a-z_]+)\.([a-zA-Z0-9_-]+)`)

// Borrow returns the blocks among earlier (a page's previous snippets)
// that src refers to and does not declare, so that a snippet that goes on
// from the one before it can be validated alone.
func Borrow(src string, earlier []Block) string {
	declared := map[string]bool{}
	for _, b := range TopLevelBlocks(src) {
		declared[b.Kind+"."+b.Label+"."+b.Name] = true
	}
	var out strings.Builder
	for _, m := range refRE.FindAllStringSubmatch(src, -1) {
		kind := "resource"
		if m[1] != "" {
			kind = "data"
		}
		key := kind + "." + m[2] + "." + m[3]
		if declared[key] {
			continue
		}
		for _, b := range earlier {
			if b.Kind+"."+b.Label+"."+b.Name == key {
				out.WriteString(b.Text + "\n")
				declared[key] = true
				break
			}
		}
	}
	return out.String()
}
