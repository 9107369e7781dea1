// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Command mirror builds the provider into a provider directory in the
// unpacked mirror layout, for Terraform and OpenTofu: by default the implied
// local mirror ~/.terraform.d/plugins, where both CLIs find it with no
// registry and no CLI configuration. `make install` runs it.
//
//	go run ./internal/devbuild/cmd/mirror [-dir DIR] [-version 0.1.0]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/accel-dev/terraform-provider-accel/internal/devbuild"
)

func main() {
	home, _ := os.UserHomeDir()
	dir := flag.String("dir", filepath.Join(home, ".terraform.d", "plugins"), "provider directory (an implied local mirror, or a filesystem_mirror path)")
	version := flag.String("version", "0.1.0", "provider version to install (a release version: Terraform selects a pre-release only when a configuration asks for it exactly)")
	flag.Parse()
	wd, err := os.Getwd()
	if err == nil {
		err = devbuild.BuildMirror(context.Background(), wd, *dir, *version)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "install:", err)
		os.Exit(1)
	}
	for _, host := range devbuild.Hosts {
		fmt.Println(devbuild.MirrorPath(*dir, host, devbuild.Accel.Source, *version, runtime.GOOS, runtime.GOARCH))
	}
}
