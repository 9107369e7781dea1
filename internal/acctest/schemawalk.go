// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package acctest

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Kind says whether a type name is a resource or a data source.
type Kind string

// The kinds of SettableAttributes, spelled as in configuration.
const (
	Resource   Kind = "resource"
	DataSource Kind = "data"
)

// Attribute is one attribute a configuration can set, as the provider's
// schema declares it.
type Attribute struct {
	// Path is the attribute's path, its names joined by dots; the attributes
	// of a list or set of nested objects, or of a block, are named through
	// it ("tiers.name", "network_config.network").
	Path string
	// Block is set for a nested block (the block itself; the attributes in
	// it are listed under its path). A configuration writes it as a block,
	// not as an argument.
	Block bool
	// Collection is set for lists, sets and maps, nested or not, and for
	// blocks that may be repeated.
	Collection bool
	// Map is set for maps, nested or not.
	Map bool
	// String is set for string attributes.
	String bool
	// Required is set for required attributes.
	Required bool
}

// SettableAttributes lists every attribute of a resource or data source type
// that a configuration can set (optional or required), nested ones and
// blocks with their attributes included, from the schema the provider
// serves.
func SettableAttributes(t *testing.T, kind Kind, typeName string) []Attribute {
	t.Helper()
	srv, err := ProtoV6ProviderFactories["accel"]()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.GetProviderSchema(t.Context(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	schemas := resp.ResourceSchemas
	if kind == DataSource {
		schemas = resp.DataSourceSchemas
	}
	s := schemas[typeName]
	if s == nil || s.Block == nil {
		t.Fatalf("the provider serves no %s %s", kind, typeName)
	}
	var out []Attribute
	walkBlock("", s.Block, &out)
	slices.SortFunc(out, func(a, b Attribute) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// walkBlock lists the settable attributes of b and, through them, of its
// nested blocks.
func walkBlock(prefix string, b *tfprotov6.SchemaBlock, out *[]Attribute) {
	walkAttributes(prefix, b.Attributes, out)
	for _, nb := range b.BlockTypes {
		if nb.Block == nil {
			continue
		}
		at := Attribute{Path: prefix + nb.TypeName, Block: true, Required: nb.MinItems > 0}
		at.Collection = nb.Nesting == tfprotov6.SchemaNestedBlockNestingModeList || nb.Nesting == tfprotov6.SchemaNestedBlockNestingModeSet
		walkBlock(at.Path+".", nb.Block, out)
		*out = append(*out, at)
	}
}

func walkAttributes(prefix string, attrs []*tfprotov6.SchemaAttribute, out *[]Attribute) {
	for _, a := range attrs {
		if !a.Optional && !a.Required {
			continue
		}
		at := Attribute{Path: prefix + a.Name, Required: a.Required}
		switch {
		case a.NestedType != nil:
			at.Collection = a.NestedType.Nesting != tfprotov6.SchemaObjectNestingModeSingle
			at.Map = a.NestedType.Nesting == tfprotov6.SchemaObjectNestingModeMap
			walkAttributes(at.Path+".", a.NestedType.Attributes, out)
		case a.Type != nil:
			at.String = a.Type.Is(tftypes.String)
			at.Map = a.Type.Is(tftypes.Map{})
			at.Collection = a.Type.Is(tftypes.List{}) || a.Type.Is(tftypes.Set{}) || at.Map
		}
		*out = append(*out, at)
	}
}

// Unknown stands for a value Terraform knows only after apply: rendered as
// an output of the terraform_data resource UnknownSource, whose input holds
// the value.
type Unknown struct {
	Key   string
	Value any
}

// UnknownSource is the terraform_data resource whose output stands for
// values unknown at plan time.
const UnknownSource = "terraform_data.unknown"

// Case is one configuration of a resource or data source for
// UnknownConfig: Body is its arguments, in which some values are Unknown.
// Blocks holds the paths (as in Attribute.Path) written as blocks: a map
// there is one block, a list of maps repeated blocks, and an Unknown a
// dynamic block whose for_each is unknown until apply.
type Case struct {
	Name   string
	Body   map[string]any
	Blocks map[string]bool
}

// BlockPaths returns the paths of the blocks among attrs, for Case.Blocks.
func BlockPaths(attrs []Attribute) map[string]bool {
	out := map[string]bool{}
	for _, a := range attrs {
		if a.Block {
			out[a.Path] = true
		}
	}
	return out
}

// UnknownCases returns, for every attribute in attrs, a copy of full in
// which that attribute's value is unknown at plan time, and for every
// collection one in which each element is. full holds the value of every
// attribute to test, nested ones inside their parents; a nested attribute
// of a list of objects is made unknown in every element that sets it.
// When minimal is set, each case is also made from minimal (a configuration
// with few attributes set) with the attribute's value from full added, as
// the catalog's defaults apply only to attributes left out. missing lists
// the attributes full gives no value for. name, when set, is called on each
// body first, with the case's index, to make names unique.
//
// In a case made from full, the elements of a list of objects on the
// attribute's path that do not set the attribute are left out (see
// keepSetting): a case plans only the elements it is about, so that the
// plans stay small, while an attribute every element sets (a tier's name)
// keeps them all.
func UnknownCases(attrs []Attribute, full, minimal map[string]any, name func(i int, body map[string]any)) (cases []Case, missing []string) {
	n := 0
	key := func() string { n++; return fmt.Sprintf("v%d", n) }
	blocks := BlockPaths(attrs)
	add := func(label string, base map[string]any, fromFull bool, segs []string, with func(any) any) bool {
		body := copyBody(base)
		if name != nil {
			name(len(cases), body)
		}
		if fromFull {
			keepSetting(body, segs)
		}
		if !replaceAt(body, segs, with) {
			return false
		}
		cases = append(cases, Case{Name: label, Body: body, Blocks: blocks})
		return true
	}
	for _, a := range attrs {
		segs := strings.Split(a.Path, ".")
		whole := func(v any) any { return Unknown{Key: key(), Value: v} }
		if a.Block && !a.Collection {
			// A single block is unknown as a dynamic block over a
			// one-element list.
			whole = func(v any) any { return Unknown{Key: key(), Value: []any{v}} }
		}
		each := func(v any) any { return unknownElements(v, key) }
		if !add(a.Path, full, true, segs, whole) {
			missing = append(missing, a.Path)
			continue
		}
		var small map[string]any
		if minimal != nil {
			small = copyBody(minimal)
			copyAt(small, full, segs)
			add(a.Path+" (with few others)", small, false, segs, whole)
		}
		// The elements of repeated blocks cannot be unknown one by one: a
		// dynamic block with an unknown for_each makes the whole list unknown.
		if a.Collection && !a.Block {
			add(a.Path+"[*]", full, true, segs, each)
			if small != nil {
				add(a.Path+"[*] (with few others)", small, false, segs, each)
			}
		}
	}
	return cases, missing
}

// keepSetting removes, from every list of objects on the path segs in v,
// the elements that do not set the value at the rest of the path, unless
// none does.
func keepSetting(v any, segs []string) {
	m, ok := v.(map[string]any)
	if !ok || len(segs) < 2 {
		return
	}
	child := m[segs[0]]
	if list, ok := child.([]any); ok {
		kept := slices.DeleteFunc(slices.Clone(list), func(e any) bool { return !hasAt(e, segs[1:]) })
		if len(kept) > 0 {
			m[segs[0]] = kept
			list = kept
		}
		for _, e := range list {
			keepSetting(e, segs[1:])
		}
		return
	}
	keepSetting(child, segs[1:])
}

// hasAt reports whether v has a value at segs (through lists of objects).
func hasAt(v any, segs []string) bool {
	switch c := v.(type) {
	case map[string]any:
		child, ok := c[segs[0]]
		return ok && (len(segs) == 1 || hasAt(child, segs[1:]))
	case []any:
		return slices.ContainsFunc(c, func(e any) bool { return hasAt(e, segs) })
	}
	return false
}

// copyAt copies the value at segs from src into dst, through objects and,
// element by element, lists of objects.
func copyAt(dst, src any, segs []string) {
	switch d := dst.(type) {
	case map[string]any:
		s, ok := src.(map[string]any)
		if !ok {
			return
		}
		v, ok := s[segs[0]]
		if !ok {
			return
		}
		if _, has := d[segs[0]]; !has || len(segs) == 1 {
			d[segs[0]] = deepCopy(v)
			return
		}
		copyAt(d[segs[0]], v, segs[1:])
	case []any:
		s, ok := src.([]any)
		if !ok {
			return
		}
		for i := range min(len(d), len(s)) {
			copyAt(d[i], s[i], segs)
		}
	}
}

// unknownElements makes every element of a list or map unknown.
func unknownElements(v any, key func() string) any {
	switch c := v.(type) {
	case []any:
		out := make([]any, len(c))
		for i, e := range c {
			out[i] = Unknown{Key: key(), Value: e}
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(c))
		for _, k := range slices.Sorted(maps.Keys(c)) {
			out[k] = Unknown{Key: key(), Value: c[k]}
		}
		return out
	}
	return v
}

// replaceAt replaces the value at segs in v (through lists of objects) and
// reports whether there was one.
func replaceAt(v any, segs []string, with func(any) any) bool {
	switch c := v.(type) {
	case map[string]any:
		child, ok := c[segs[0]]
		if !ok {
			return false
		}
		if len(segs) == 1 {
			c[segs[0]] = with(child)
			return true
		}
		return replaceAt(child, segs[1:], with)
	case []any:
		found := false
		for _, e := range c {
			if replaceAt(e, segs, with) {
				found = true
			}
		}
		return found
	}
	return false
}

// copyBody returns a deep copy of a body.
func copyBody(body map[string]any) map[string]any {
	out := make(map[string]any, len(body))
	for k, v := range body {
		out[k] = deepCopy(v)
	}
	return out
}

func deepCopy(v any) any { return copyValue(v, false) }

// copyValue copies v through maps and lists; with resolve, each Unknown is
// replaced by its value.
func copyValue(v any, resolve bool) any {
	switch c := v.(type) {
	case Unknown:
		if resolve {
			return copyValue(c.Value, true)
		}
	case map[string]any:
		out := make(map[string]any, len(c))
		for k, e := range c {
			out[k] = copyValue(e, resolve)
		}
		return out
	case []any:
		out := make([]any, len(c))
		for i, e := range c {
			out[i] = copyValue(e, resolve)
		}
		return out
	}
	return v
}

// UnknownConfig renders the cases as blocks of kind and typeName named
// c0, c1, ..., after the terraform_data resource holding their unknown
// values: the files of UnknownConfigFiles in one text.
func UnknownConfig(kind Kind, typeName string, cases []Case) string {
	files := UnknownConfigFiles(kind, typeName, cases)
	var b strings.Builder
	b.WriteString(files[unknownsFile])
	for i := range cases {
		b.WriteString(files[caseFile(i)])
	}
	return b.String()
}

// unknownsFile is the file of UnknownConfigFiles holding the
// terraform_data resource; case i is in caseFile(i).
const unknownsFile = "unknowns.tf"

func caseFile(i int) string { return fmt.Sprintf("c%d.tf", i) }

// UnknownConfigFiles renders the cases as UnknownConfig does, as files of
// one module: the terraform_data resource in unknowns.tf and case i in
// c<i>.tf. The CLI reads and parses a diagnostic's whole file to show its
// source, once per diagnostic: with a file per case, a plan of a hundred
// cases that warns about each reads one case per warning instead of all of
// them (most of such a plan's CPU time in one file).
func UnknownConfigFiles(kind Kind, typeName string, cases []Case) map[string]string {
	inputs := map[string]any{}
	files := make(map[string]string, len(cases)+1)
	for i, c := range cases {
		collectUnknowns(c.Body, inputs)
		var b strings.Builder
		fmt.Fprintf(&b, "\n# %s\n%s %q \"c%d\" {\n", c.Name, kind, typeName, i)
		writeBody(&b, "  ", "", c.Body, c.Blocks)
		b.WriteString("}\n")
		files[caseFile(i)] = b.String()
	}
	files[unknownsFile] = fmt.Sprintf("resource %q %q {\n  input = %s\n}\n", "terraform_data",
		strings.TrimPrefix(UnknownSource, "terraform_data."), HCL(inputs))
	return files
}

// writeBody writes the arguments and blocks of body at indent; prefix is
// the path of body (ending in a dot) for looking up blocks.
func writeBody(b *strings.Builder, indent, prefix string, body map[string]any, blocks map[string]bool) {
	for _, k := range slices.Sorted(maps.Keys(body)) {
		v := body[k]
		if !blocks[prefix+k] {
			fmt.Fprintf(b, "%s%s = %s\n", indent, k, HCL(v))
			continue
		}
		switch c := v.(type) {
		case Unknown:
			elems, _ := c.Value.([]any)
			writeDynamic(b, indent, prefix+k, k, HCL(c), elems, blocks)
		case map[string]any:
			fmt.Fprintf(b, "%s%s {\n", indent, k)
			writeBody(b, indent+"  ", prefix+k+".", c, blocks)
			fmt.Fprintf(b, "%s}\n", indent)
		case []any:
			for _, e := range c {
				m, _ := e.(map[string]any)
				fmt.Fprintf(b, "%s%s {\n", indent, k)
				writeBody(b, indent+"  ", prefix+k+".", m, blocks)
				fmt.Fprintf(b, "%s}\n", indent)
			}
		case nil:
		default:
			fmt.Fprintf(b, "%s%s = %s\n", indent, k, HCL(v))
		}
	}
}

// writeDynamic writes a dynamic block named name (at path p) over
// forEach, whose content reads the block's arguments from the iterator:
// those of elems, the values forEach takes. An argument some elements
// leave out is read with lookup, as null for them; a block nested in the
// content is a dynamic block over the iterator's value, none when the
// element leaves it out.
func writeDynamic(b *strings.Builder, indent, p, name, forEach string, elems []any, blocks map[string]bool) {
	keys := map[string]int{}
	nested := map[string][]any{}
	for _, e := range elems {
		m, _ := e.(map[string]any)
		for key, v := range m {
			keys[key]++
			if !blocks[p+"."+key] {
				continue
			}
			switch c := v.(type) {
			case []any:
				nested[key] = append(nested[key], c...)
			case nil:
			default:
				nested[key] = append(nested[key], c)
			}
		}
	}
	fmt.Fprintf(b, "%sdynamic %q {\n%s  for_each = %s\n%s  content {\n", indent, name, indent, forEach, indent)
	for _, key := range slices.Sorted(maps.Keys(keys)) {
		value := fmt.Sprintf("%s.value.%s", name, key)
		if keys[key] < len(elems) {
			value = fmt.Sprintf("lookup(%s.value, %q, null)", name, key)
		}
		if !blocks[p+"."+key] {
			fmt.Fprintf(b, "%s    %s = %s\n", indent, key, value)
			continue
		}
		inner := fmt.Sprintf("[for x in [%s] : x if x != null]", value)
		if isRepeated(elems, key) {
			inner = fmt.Sprintf("%s.value.%s", name, key)
			if keys[key] < len(elems) {
				inner = fmt.Sprintf("lookup(%s.value, %q, [])", name, key)
			}
		}
		writeDynamic(b, indent+"    ", p+"."+key, key, inner, nested[key], blocks)
	}
	fmt.Fprintf(b, "%s  }\n%s}\n", indent, indent)
}

// isRepeated reports whether the elements hold key as a list: a repeated
// block rather than a single one.
func isRepeated(elems []any, key string) bool {
	for _, e := range elems {
		if m, ok := e.(map[string]any); ok {
			if _, ok := m[key].([]any); ok {
				return true
			}
		}
	}
	return false
}

func collectUnknowns(v any, into map[string]any) {
	switch c := v.(type) {
	case Unknown:
		into[c.Key] = c.Value
	case map[string]any:
		for _, e := range c {
			collectUnknowns(e, into)
		}
	case []any:
		for _, e := range c {
			collectUnknowns(e, into)
		}
	}
}

// HCL renders a Go value as a Terraform expression: strings, bools and
// numbers as literals, []any as a tuple, map[string]any as an object with
// quoted keys, Unknown as a reference to UnknownSource's output.
func HCL(v any) string {
	switch c := v.(type) {
	case Unknown:
		return UnknownSource + ".output." + c.Key
	case string:
		b, _ := json.Marshal(c)
		return strings.ReplaceAll(string(b), "${", "$${")
	case []any:
		parts := make([]string, len(c))
		for i, e := range c {
			parts[i] = HCL(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		var b strings.Builder
		b.WriteString("{\n")
		for _, k := range slices.Sorted(maps.Keys(c)) {
			fmt.Fprintf(&b, "    %s = %s\n", HCL(k), HCL(c[k]))
		}
		b.WriteString("  }")
		return b.String()
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}

// SetAt sets the attribute at path (names joined by dots, through lists of
// objects) in body to v, and reports whether body had a value there.
func SetAt(body map[string]any, path string, v any) bool {
	return replaceAt(body, strings.Split(path, "."), func(any) any { return v })
}

// AttributeError matches an error about the attribute at path (names
// joined by dots, as in Attribute.Path) set to "": Terraform shows the
// attribute's line, or the detail names its path (with list indexes) or
// quotes the empty value. Terraform shows a diagnostic on an attribute
// nested in an object attribute (not a block) at the resource's first
// line, hence the last two.
func AttributeError(path string) *regexp.Regexp {
	segs := strings.Split(path, ".")
	quoted := make([]string, len(segs))
	for i, s := range segs {
		quoted[i] = regexp.QuoteMeta(s)
	}
	full := strings.Join(quoted, `(\[\d+\])?\.`)
	leaf := quoted[len(quoted)-1]
	return regexp.MustCompile(`(?s)Error: .*(` + full + `|` + leaf + `\s*=\s*""|\s""\s)`)
}

// OptionalCollections returns the optional lists, sets and maps of attrs
// that are not blocks (a block left out is already the empty list).
func OptionalCollections(attrs []Attribute) []Attribute {
	var out []Attribute
	for _, a := range attrs {
		if a.Collection && !a.Block && !a.Required {
			out = append(out, a)
		}
	}
	return out
}

// EmptyValue is the empty value of a collection attribute: {} for a map,
// [] for a list or a set.
func EmptyValue(a Attribute) any {
	if a.Map {
		return map[string]any{}
	}
	return []any{}
}

// EmptyCollectionError matches an error about the collection at path set
// to its empty value: the detail names its path (with list indexes), or
// its name as an argument ("values = [...]" in the advice of an error on
// the block that holds it).
func EmptyCollectionError(path string) *regexp.Regexp {
	segs := strings.Split(path, ".")
	for i, s := range segs {
		segs[i] = regexp.QuoteMeta(s)
	}
	return regexp.MustCompile(`(?s)Error: .*(` + strings.Join(segs, `(\[\d+\])?\.`) + `|\b` + segs[len(segs)-1] + `\s*=)`)
}

// RequireValues stops the test when the configuration given to UnknownCases
// has no value for some settable attributes (its missing list), naming each,
// so that a new attribute is never left out of the generated cases.
func RequireValues(t *testing.T, missing []string) {
	t.Helper()
	if len(missing) > 0 {
		t.Fatalf("the test configuration has no value for %s: add one for each", strings.Join(missing, ", "))
	}
}
