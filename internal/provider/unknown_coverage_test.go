// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// unknownTestName is the name of the test that makes each argument of a
// type unknown at plan time, in turn.
var unknownTestName = regexp.MustCompile(`^TestAcc\w+_unknownAtPlan$`)

// listResourcesWithoutUnknownTest names the list resources and why they
// have no unknown-at-plan test: a list resource serves terraform query
// (Terraform 1.14 and later) only, which has no apply after which an
// unknown value becomes known. A new list resource fails
// TestUnknownAtPlanCoverage until it is named here or given a test.
var listResourcesWithoutUnknownTest = map[string]string{
	"accel_tpu_vm":             "terraform query only",
	"accel_fallback_nodepools": "terraform query only",
}

// TestUnknownAtPlanCoverage reads the acceptance tests of this module and
// fails for every resource and data source the provider serves that has no
// test named TestAcc<Thing>_unknownAtPlan which takes its settable
// attributes from the schema (acctest.SettableAttributes with its kind and
// type name) and checks the plan's warnings
// (acctest.CheckNoUnknownOnlyWarnings with the same kind and type name),
// and for every list resource that has neither such a test nor an entry in
// listResourcesWithoutUnknownTest.
func TestUnknownAtPlanCoverage(t *testing.T) {
	t.Parallel()
	srv, err := acctest.ProtoV6ProviderFactories["accel"]()
	if err != nil {
		t.Fatal(err)
	}
	schema, err := srv.GetProviderSchema(t.Context(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	tested := unknownTests(t)
	for kind, schemas := range map[acctest.Kind]map[string]*tfprotov6.Schema{
		acctest.Resource:   schema.ResourceSchemas,
		acctest.DataSource: schema.DataSourceSchemas,
	} {
		if len(schemas) == 0 {
			t.Errorf("the provider serves no %s: the schema was not read", kind)
		}
		for typeName := range schemas {
			key := string(kind) + " " + typeName
			switch got := tested[key]; {
			case got.name == "":
				t.Errorf("%s has no TestAcc..._unknownAtPlan test that calls acctest.SettableAttributes(t, %s, %q)", key, kindExpr(kind), typeName)
			case !got.checksWarnings:
				t.Errorf("%s in %s does not call acctest.CheckNoUnknownOnlyWarnings(t, tg, %s, %q, cases)", got.name, got.file, kindExpr(kind), typeName)
			}
		}
	}
	if len(schema.ListResourceSchemas) == 0 {
		t.Error("the provider serves no list resource: the schema was not read")
	}
	for typeName := range schema.ListResourceSchemas {
		if _, ok := listResourcesWithoutUnknownTest[typeName]; !ok && tested["list "+typeName].name == "" {
			t.Errorf("list resource %s has no unknown-at-plan test and no entry in listResourcesWithoutUnknownTest", typeName)
		}
	}
	for typeName := range listResourcesWithoutUnknownTest {
		if _, ok := schema.ListResourceSchemas[typeName]; !ok {
			t.Errorf("listResourcesWithoutUnknownTest names %s, which the provider does not serve as a list resource", typeName)
		}
	}
}

func kindExpr(k acctest.Kind) string {
	if k == acctest.DataSource {
		return "acctest.DataSource"
	}
	return "acctest.Resource"
}

// unknownTest is what one unknown-at-plan test covers.
type unknownTest struct {
	name, file     string
	checksWarnings bool
}

// unknownTests returns, by kind and type name ("resource accel_tpu_vm"),
// the unknown-at-plan test of each type among the module's test files.
func unknownTests(t *testing.T) map[string]unknownTest {
	t.Helper()
	_, self, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the source")
	}
	root := filepath.Dir(filepath.Dir(self)) // internal/
	out := map[string]unknownTest{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil || !unknownTestName.MatchString(fn.Name.Name) {
				continue
			}
			schemaFrom := map[string]bool{}
			warnings := map[string]bool{}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				switch callee(call) {
				case "acctest.SettableAttributes":
					if key, ok := typeArgs(call, 1); ok {
						schemaFrom[key] = true
					}
				case "acctest.CheckNoUnknownOnlyWarnings":
					if key, ok := typeArgs(call, 2); ok {
						warnings[key] = true
					}
				}
				return true
			})
			rel, _ := filepath.Rel(root, p)
			for key := range schemaFrom {
				out[key] = unknownTest{name: fn.Name.Name, file: rel, checksWarnings: warnings[key]}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("no unknown-at-plan test found under %s", root)
	}
	return out
}

// callee is a call's function as written, such as "acctest.New".
func callee(call *ast.CallExpr) string {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok {
		return ""
	}
	return pkg.Name + "." + sel.Sel.Name
}

// typeArgs reads the kind (acctest.Resource or acctest.DataSource) and the
// type name (a string literal) at positions i and i+1 of a call, as
// "resource accel_tpu_vm".
func typeArgs(call *ast.CallExpr, i int) (string, bool) {
	if len(call.Args) < i+2 {
		return "", false
	}
	sel, ok := call.Args[i].(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	kinds := map[string]acctest.Kind{"Resource": acctest.Resource, "DataSource": acctest.DataSource}
	kind, ok := kinds[sel.Sel.Name]
	lit, isLit := call.Args[i+1].(*ast.BasicLit)
	if !ok || !isLit || lit.Kind != token.STRING {
		return "", false
	}
	name, err := strconv.Unquote(lit.Value)
	if err != nil {
		return "", false
	}
	return string(kind) + " " + name, true
}
