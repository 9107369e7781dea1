// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package acctest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// guideTemplate is the maintainers' guide, whose list of the tests that
// need the emulator (in "Running against a sandbox project") is generated
// from the code.
const guideTemplate = "../../CONTRIBUTING.md"

// The generated list sits between these lines of the guide.
const (
	listBegin = "<!-- The table below is generated: ACCEL_UPDATE_GUIDE=1 go test ./internal/acctest -run TestEmulatorOnlyTestsListed -->"
	listEnd   = "<!-- End of the generated table. -->"
)

// emulatorOnly is one test that calls RequireEmulatorFor, with its reasons.
type emulatorOnly struct {
	test    string
	reasons []string
}

// findEmulatorOnly parses every test file under root and returns the
// acceptance tests that call RequireEmulatorFor, and a problem for each call
// the guide cannot list: RequireEmulator without a reason, a reason that is
// not a non-empty string literal, or a call outside a TestAcc function.
func findEmulatorOnly(root string) ([]emulatorOnly, []string, error) {
	var found []emulatorOnly
	var problems []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil || fn.Recv != nil {
				continue
			}
			var reasons []string
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				at := fset.Position(call.Pos())
				switch sel.Sel.Name {
				case "RequireEmulator":
					problems = append(problems, fmt.Sprintf("%s: %s calls RequireEmulator: call RequireEmulatorFor with the reason", at, fn.Name.Name))
				case "RequireEmulatorFor":
					why, ok := literal(call)
					switch {
					case !ok:
						problems = append(problems, fmt.Sprintf("%s: %s: the reason must be a non-empty string literal", at, fn.Name.Name))
					case !strings.HasPrefix(fn.Name.Name, "TestAcc"):
						problems = append(problems, fmt.Sprintf("%s: %s is not an acceptance test: call RequireEmulatorFor from the TestAcc function", at, fn.Name.Name))
					case strings.ContainsAny(why, "|\n"):
						problems = append(problems, fmt.Sprintf("%s: %s: the reason %q holds a character the guide's table cannot show", at, fn.Name.Name, why))
					default:
						reasons = appendNew(reasons, why)
					}
				}
				return true
			})
			if len(reasons) > 0 {
				found = append(found, emulatorOnly{test: fn.Name.Name, reasons: reasons})
			}
		}
		return nil
	})
	sort.Slice(found, func(i, j int) bool { return found[i].test < found[j].test })
	return found, problems, err
}

// literal is the reason of a RequireEmulatorFor call when it is a
// non-empty string literal.
func literal(call *ast.CallExpr) (string, bool) {
	if len(call.Args) != 2 {
		return "", false
	}
	lit, ok := call.Args[1].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil && strings.TrimSpace(s) != ""
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// emulatorOnlyTable is the guide's table of the tests that need the emulator.
func emulatorOnlyTable(tests []emulatorOnly) string {
	var b strings.Builder
	b.WriteString("| Test | Needs the emulator because it |\n|---|---|\n")
	for _, e := range tests {
		fmt.Fprintf(&b, "| `%s` | %s |\n", e.test, strings.Join(e.reasons, "; "))
	}
	return b.String()
}

// TestEmulatorOnlyTestsListed checks that every acceptance test skipped
// against a sandbox project says why, and that CONTRIBUTING.md
// lists exactly those tests with those reasons. ACCEL_UPDATE_GUIDE=1
// rewrites the list there instead.
func TestEmulatorOnlyTestsListed(t *testing.T) {
	tests, problems, err := findEmulatorOnly("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	if len(tests) == 0 {
		t.Fatal("found no test that calls RequireEmulatorFor: is the search rooted at internal/?")
	}
	b, err := os.ReadFile(guideTemplate)
	if err != nil {
		t.Fatal(err)
	}
	guide := string(b)
	before, rest, ok1 := strings.Cut(guide, listBegin+"\n")
	listed, after, ok2 := strings.Cut(rest, listEnd)
	if !ok1 || !ok2 {
		t.Fatalf("%s: want the generated table between the lines\n%s\n%s", guideTemplate, listBegin, listEnd)
	}
	want := emulatorOnlyTable(tests)
	if listed == want {
		return
	}
	if os.Getenv("ACCEL_UPDATE_GUIDE") == "1" {
		if err := os.WriteFile(guideTemplate, []byte(before+listBegin+"\n"+want+listEnd+after), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote the table in %s: run make docs", guideTemplate)
		return
	}
	t.Errorf("the table of tests that need the emulator in %s is stale: run ACCEL_UPDATE_GUIDE=1 go test ./internal/acctest -run TestEmulatorOnlyTestsListed, then make docs.\nwant:\n%s\ngot:\n%s", guideTemplate, want, listed)
}

// TestFindEmulatorOnly pins the search on a small tree: reasons are
// listed per test, nested calls (subtests, single cases) count, and each
// call the guide cannot list is reported.
func TestFindEmulatorOnly(t *testing.T) {
	dir := t.TempDir()
	src := `package x

func TestAccA(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "injects a stockout")
	cfg := ` + "`" + `
resource "x" "y" {
}
` + "`" + `
	_ = cfg
}

func TestAccB(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.emulatorOnly {
				tg.RequireEmulatorFor(t, "reads the emulator's zones")
			}
			tg.RequireEmulatorFor(t, "reads the emulator's zones")
		})
	}
}

func TestAccC(t *testing.T) { tg.RequireEmulator(t) }

func TestAccD(t *testing.T) { tg.RequireEmulatorFor(t, why) }

func helper(t *testing.T) { tg.RequireEmulatorFor(t, "holds a cluster") }

func TestAccE(t *testing.T) {}
`
	if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	got, problems, err := findEmulatorOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	table := emulatorOnlyTable(got)
	want := "| Test | Needs the emulator because it |\n|---|---|\n" +
		"| `TestAccA` | injects a stockout |\n" +
		"| `TestAccB` | reads the emulator's zones |\n"
	if table != want {
		t.Errorf("table:\n%s\nwant:\n%s", table, want)
	}
	wantProblems := []string{
		"TestAccC calls RequireEmulator",
		"TestAccD: the reason must be a non-empty string literal",
		"helper is not an acceptance test",
	}
	if len(problems) != len(wantProblems) {
		t.Fatalf("problems = %q, want %d", problems, len(wantProblems))
	}
	for i, w := range wantProblems {
		if !strings.Contains(problems[i], w) {
			t.Errorf("problem %d = %q, want it to contain %q", i, problems[i], w)
		}
	}
}
