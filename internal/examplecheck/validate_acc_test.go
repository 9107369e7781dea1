// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package examplecheck_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/examplecheck"
)

const root = "../.."

// validation is the JSON `terraform validate -json` prints.
type validation struct {
	Valid       bool `json:"valid"`
	Diagnostics []struct {
		Severity string `json:"severity"`
		Summary  string `json:"summary"`
		Detail   string `json:"detail"`
		Range    *struct {
			Filename string `json:"filename"`
			Start    struct {
				Line int `json:"line"`
			} `json:"start"`
		} `json:"range"`
	} `json:"diagnostics"`
}

// module is one configuration to validate: its files, relative paths.
type module struct {
	name  string
	files map[string]string
	// allowMissing accepts "Missing required argument": a snippet that
	// marks arguments as left out ("# ...").
	allowMissing bool
	// wantErrors is a configuration that must not validate (the demo's
	// deliberate misconfiguration); its errors must come from this
	// provider's checks.
	wantErrors bool
	// wantError, when set, is the summary of the one error the page shows
	// after the snippet.
	wantError string
	// noPlan validates without planning against the emulator: an import
	// block, whose plan needs the object it imports (the identity tests
	// import against the emulator).
	noPlan bool
}

// accelFiles reads the .tf and .tftest.hcl files under dir (relative to
// the repository) into a module rooted at dir, each .tf file with the
// blocks of other providers dropped and this provider's terraform block
// added to every module directory (examplecheck.AccelOnly).
func accelFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	base := filepath.Join(root, dir)
	// The references to other providers' resources, per module directory.
	foreign := map[string][]string{}
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".tf") {
			return err
		}
		b, err := os.ReadFile(p)
		foreign[filepath.Dir(p)] = append(foreign[filepath.Dir(p)], examplecheck.Foreign(string(b))...)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(base, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		switch {
		case strings.HasSuffix(p, ".tftest.hcl"):
			files[filepath.ToSlash(rel)] = string(b)
		case strings.HasSuffix(p, ".tf"):
			kept, dropped := examplecheck.AccelOnly(string(b), foreign[filepath.Dir(p)]...)
			if len(dropped) > 0 {
				t.Logf("%s/%s: not validated offline (other providers or the terraform block): %q", dir, rel, dropped)
			}
			files[filepath.ToSlash(rel)] = kept
			files[filepath.ToSlash(filepath.Join(filepath.Dir(rel), "accel_required_providers.tf"))] = examplecheck.RequiredProviders
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// exampleModules are the configurations under examples/: the per-resource
// examples one file at a time (the registry docs show each alone), the
// others as the module directories they are.
func exampleModules(t *testing.T) []module {
	t.Helper()
	var out []module
	for _, group := range []string{"resources", "data-sources", "functions", "provider"} {
		matches, err := filepath.Glob(filepath.Join(root, "examples", group, "*", "*.tf"))
		if err != nil {
			t.Fatal(err)
		}
		flat, _ := filepath.Glob(filepath.Join(root, "examples", group, "*.tf"))
		for _, p := range append(matches, flat...) {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(root, p)
			kept, _ := examplecheck.AccelOnly(string(b))
			out = append(out, module{name: filepath.ToSlash(rel), files: map[string]string{
				"main.tf": kept, "accel_required_providers.tf": examplecheck.RequiredProviders}})
		}
	}
	for _, dir := range []string{"examples/serving", "examples/serving-autopilot", "examples/demo"} {
		files := accelFiles(t, dir)
		if dir == "examples/demo" {
			// The demo's module source is ../serving/accel: copy it beside.
			for k, v := range accelFiles(t, "examples/serving/accel") {
				files["../serving/accel/"+k] = v
			}
			for k := range files {
				if strings.HasPrefix(k, "misconfig/") {
					delete(files, k)
				}
			}
		}
		out = append(out, module{name: dir, files: relocate(files)})
	}
	out = append(out, module{name: "examples/demo/misconfig", files: accelFiles(t, "examples/demo/misconfig"), wantErrors: true})
	return out
}

// relocate moves a module whose files reach outside its directory
// ("../serving/accel/") one level down, so that every path stays inside
// the workspace.
func relocate(files map[string]string) map[string]string {
	up := false
	for k := range files {
		up = up || strings.HasPrefix(k, "../")
	}
	if !up {
		return files
	}
	out := map[string]string{}
	for k, v := range files {
		if rest, ok := strings.CutPrefix(k, "../"); ok {
			out[rest] = v
		} else {
			out["root/"+k] = v
		}
	}
	out[".root"] = "root" // tells validate to run in root/
	return out
}

// wrappers make a resource's documentation fragment (a tiers block) a
// resource: the page's resource type with its required arguments.
var wrappers = map[string]string{
	// The emulator's cluster: with GKE reachable, a cluster that does not
	// exist is a plan error.
	"docs/resources/fallback_nodepools.md": "resource \"accel_fallback_nodepools\" \"snippet\" {\n  cluster       = \"projects/" + acctest.EmulatorProject + "/locations/us-central1/clusters/serving\"\n  compute_class = \"snippet\"\n%s}\n",
	"docs/resources/tpu_vm.md":             "resource \"accel_tpu_vm\" \"snippet\" {\n  name             = \"snippet\"\n  accelerator_type = \"v6e-8\"\n%s}\n",
}

// importTargets are the resources the import snippets name.
var importTargets = map[string]string{
	"accel_tpu_vm":             "  name             = \"serve\"\n  accelerator_type = \"v6e-8\"\n  zones            = [\"us-central1-a\"]\n",
	"accel_fallback_nodepools": "  cluster       = \"projects/p/locations/us-central1/clusters/serving\"\n  compute_class = \"serving\"\n  tiers {\n    name             = \"serve-v6e\"\n    accelerator_type = \"v6e-4\"\n    node_locations   = [\"us-central1-b\"]\n  }\n",
}

var importToRE = regexp.MustCompile(`to\s*=\s*(accel_[a-z_]+)\.([a-z0-9_]+)`)

// exampleFiles maps the trimmed text of every .tf file under examples/ to
// its path: a doc snippet that is one of them is validated with its
// example's module.
func exampleFiles(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(filepath.Join(root, "examples"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".tf") {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		out[strings.TrimSpace(string(b))] = filepath.ToSlash(rel)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// docModules are the Terraform blocks of the generated docs, each a module:
// its undeclared variables declared, a fragment wrapped in its page's
// resource, an import snippet given its target, a `run` snippet validated
// as a test of the demo, and a CLI configuration block (not the Terraform
// language) left out.
func docModules(t *testing.T, cli string) (out []module) {
	t.Helper()
	examples := exampleFiles(t)
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".md" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		var earlier []examplecheck.Block
		for i, snip := range examplecheck.Snippets(string(b), "terraform", "hcl") {
			text := snip.Text
			name := fmt.Sprintf("%s#%d", rel, i)
			blocks := examplecheck.TopLevelBlocks(text)
			kinds := map[string]bool{}
			for _, blk := range blocks {
				kinds[blk.Kind] = true
			}
			m := module{name: name, allowMissing: examplecheck.Elided(text), files: map[string]string{}, wantError: snip.ExpectError}
			if file, ok := examples[strings.TrimSpace(text)]; ok && kinds["module"] {
				t.Logf("%s: %s, validated with its example's module", name, file)
				continue
			}
			switch {
			case kinds["provider_installation"] || kinds["credentials"]:
				t.Logf("%s: a CLI configuration, not a Terraform module: not validated", name)
				continue
			case len(blocks) == 0:
				w, ok := wrappers[rel]
				if !ok {
					t.Errorf("%s: a fragment on a page without a wrapper resource", name)
					continue
				}
				text = fmt.Sprintf(w, text)
			case kinds["run"]:
				m.files = accelFiles(t, "examples/demo")
				for k, v := range accelFiles(t, "examples/serving/accel") {
					m.files["../serving/accel/"+k] = v
				}
				for k := range m.files {
					if strings.HasPrefix(k, "misconfig/") || strings.HasPrefix(k, "tests/") {
						delete(m.files, k)
					}
				}
				m.files["tests/snippet.tftest.hcl"] = text
				m.files = relocate(m.files)
				out = append(out, m)
				continue
			case kinds["list"]:
				if terraformMinor(cli) < 14 {
					t.Logf("%s: a query file, validated only by Terraform 1.14 or later (%s)", name, firstLine(cli))
					continue
				}
				m.files["snippet.tfquery.hcl"] = text
				text = ""
			case kinds["import"]:
				if terraformMinor(cli) < 12 {
					t.Logf("%s: an import by identity, validated only by Terraform 1.12 or later (%s)", name, firstLine(cli))
					continue
				}
				for _, to := range importToRE.FindAllStringSubmatch(text, -1) {
					text += fmt.Sprintf("\nresource %q %q {\n%s}\n", to[1], to[2], importTargets[to[1]])
				}
				m.noPlan = true
			}
			kept, _ := examplecheck.AccelOnly(text)
			kept += examplecheck.Borrow(kept, earlier)
			earlier = append(earlier, examplecheck.TopLevelBlocks(kept)...)
			for _, v := range examplecheck.UndeclaredVariables(kept) {
				kept += fmt.Sprintf("\nvariable %q {}\n", v)
			}
			m.files["main.tf"] = kept
			m.files["accel_required_providers.tf"] = examplecheck.RequiredProviders
			out = append(out, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func firstLine(s string) string { return strings.SplitN(s, "\n", 2)[0] }

var terraformVersionRE = regexp.MustCompile(`^Terraform v1\.(\d+)\.`)

// terraformMinor is the minor version of a Terraform 1.x CLI from its
// `version` output, 0 for another CLI (OpenTofu reads neither import
// identities nor query files).
func terraformMinor(version string) int {
	m := terraformVersionRE.FindStringSubmatch(version)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestAccExamplesValidate validates every configuration under examples/
// and every Terraform block of docs/ with the real CLI against the
// provider's real schema (and its plan-free checks), offline: the blocks of
// other providers are dropped (examplecheck.AccelOnly), as the CI guide
// says.
func TestAccExamplesValidate(t *testing.T) {
	env, tf := acctest.MirrorInstall(t), acctest.TerraformPath(t)
	version, _, err := acctest.NewModuleWorkspace(t, env, tf, nil).Run("version")
	if err != nil {
		t.Fatal(err)
	}
	mods := append(exampleModules(t), docModules(t, version)...)
	if len(mods) < 40 {
		t.Fatalf("only %d configurations found", len(mods))
	}
	for _, m := range mods {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			ws := acctest.NewModuleWorkspace(t, env, tf, m.files)
			args := []string{}
			if dir := m.files[".root"]; dir != "" {
				args = append(args, "-chdir="+dir)
			}
			if _, _, err := ws.Run(append(args, "init", "-backend=false", "-input=false", "-no-color")...); err != nil {
				t.Fatalf("init: %v\nfiles: %v", err, keys(m.files))
			}
			stdout, _, _ := ws.Run(append(args, "validate", "-json", "-no-color")...)
			var v validation
			if err := json.Unmarshal([]byte(stdout), &v); err != nil {
				t.Fatalf("validate -json: %v\n%s", err, stdout)
			}
			var errs []string
			for _, d := range v.Diagnostics {
				if d.Severity != "error" || (m.allowMissing && d.Summary == "Missing required argument") {
					continue
				}
				where := ""
				if d.Range != nil {
					where = fmt.Sprintf("%s:%d: ", d.Range.Filename, d.Range.Start.Line)
				}
				errs = append(errs, where+d.Summary+": "+d.Detail)
			}
			switch {
			case m.noPlan:
				t.Logf("%s: an import block, validated; its plan needs the object it imports", m.name)
			case !m.wantErrors && m.wantError == "" && len(errs) == 0 && !m.allowMissing:
				planAgainstEmulator(t, ws, env, args)
			}
			switch {
			case m.wantError != "":
				if len(errs) != 1 || !strings.Contains(errs[0], m.wantError+": ") {
					t.Errorf("want the one error the page shows, %q; got %q", m.wantError, errs)
				}
			case m.wantErrors && len(errs) == 0:
				t.Errorf("want the deliberate misconfiguration to fail validation, it passed")
			case !m.wantErrors && len(errs) > 0:
				t.Errorf("%d errors:\n%s\n\nmain.tf:\n%s", len(errs), strings.Join(errs, "\n"), m.files["main.tf"])
			}
		})
	}
}

// planAgainstEmulator plans the module of ws, initialised and validated,
// against a fresh emulator (its endpoints and project added to env, as after
// the demo's exports), with no refresh: a documented example must plan
// cleanly where the emulator follows Google's zone tables. A module that
// needs input variables without defaults is not planned (it says so).
func planAgainstEmulator(t *testing.T, ws *acctest.Workspace, env, args []string) {
	t.Helper()
	tg := acctest.New(t)
	if tg.Emulator == nil {
		return
	}
	planEnv := append(append([]string(nil), env...),
		"ACCEL_TPU_ENDPOINT="+tg.Emulator.TPUEndpoint(),
		"ACCEL_CONTAINER_ENDPOINT="+tg.Emulator.ContainerEndpoint(),
		"ACCEL_COMPUTE_ENDPOINT="+tg.Emulator.ComputeEndpoint(),
		"GOOGLE_PROJECT="+tg.Project)
	stdout, stderr, err := ws.WithEnv(planEnv).Run(append(args, "plan", "-input=false", "-refresh=false", "-no-color")...)
	switch {
	case err != nil && strings.Contains(stderr, "No value for required variable"):
		t.Logf("not planned against the emulator: needs input variables")
	case err != nil:
		t.Errorf("plan against the emulator: %v\n%s", err, stdout)
	}
}

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
