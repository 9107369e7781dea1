// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Command terraform-provider-accel serves the accel Terraform provider over
// plugin protocol 6.
package main

import (
	"flag"
	"log"
	"os"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/accel-dev/terraform-provider-accel/internal/provider"
)

// version is set at build time: go build -ldflags "-X main.version=1.2.3".
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	if !debug {
		go exitWithParent(os.Getppid(), parentCheckInterval)
		provider.QuietUnrequestedLogs(os.Environ(), os.Setenv)
	}
	provider.TuneGarbageCollector(os.Getenv)
	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	server, err := provider.NewServer(version)
	if err == nil {
		err = tf6server.Serve(provider.Address, func() tfprotov6.ProviderServer { return server }, opts...)
	}
	if err != nil {
		log.Fatal(err.Error())
	}
}

// parentCheckInterval is how often the provider checks that Terraform, which
// started it, still runs.
const parentCheckInterval = time.Second

// exitWithParent ends the provider once the process that started it
// (Terraform) is gone, so that a killed Terraform never leaves a provider
// polling Google's APIs behind, whatever the plugin connection does. An
// orphan is adopted by another process, so its parent pid changes (Linux,
// macOS); where it does not (Windows), this never fires.
func exitWithParent(parent int, every time.Duration) {
	for range time.Tick(every) {
		if os.Getppid() != parent {
			log.Printf("[ERROR] the process that started the provider (pid %d) is gone; the provider exits", parent)
			os.Exit(1)
		}
	}
}
