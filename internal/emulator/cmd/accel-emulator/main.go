// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Command accel-emulator runs the local Cloud TPU v2 and GKE v1 API emulator
// until SIGINT or SIGTERM. It listens on a free loopback port unless -addr
// names one, and prints the environment to export so the provider and the Go
// clients talk to it: two users on one machine each get their own emulator.
//
// Usage:
//
//	accel-emulator [-addr 127.0.0.1:8089] [-scenario file.json] [-serialize-pool-creates] [-snapshot file] [-snapshot-dir dir] [-quiet]
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

func main() {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	if err := run(os.Args[1:], os.Stdout, os.Stderr, stop); err != nil {
		fmt.Fprintln(os.Stderr, "accel-emulator:", err)
		os.Exit(1)
	}
}

// run serves until stop delivers a signal.
func run(args []string, stdout, stderr io.Writer, stop <-chan os.Signal) error {
	fl := flag.NewFlagSet("accel-emulator", flag.ContinueOnError)
	fl.SetOutput(stderr)
	addr := fl.String("addr", "127.0.0.1:0", "address to listen on; port 0 picks a free port, printed at start")
	scenarioPath := fl.String("scenario", "", "scenario JSON file (default: the built-in scenario)")
	serialize := fl.Bool("serialize-pool-creates", false, "refuse a node-pool create while another node-pool operation runs on the cluster")
	snapshotPath := fl.String("snapshot", "", "state file: loaded at start when it exists, written at exit")
	snapshotDir := fl.String("snapshot-dir", "", "the one directory the admin API's snapshot and load-snapshot may write and read (off when empty)")
	quiet := fl.Bool("quiet", false, "do not log requests")
	latency := fl.Duration("latency", 0, "delay every API answer this long, as Google's APIs answer in tens to hundreds of milliseconds (e.g. 100ms)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %v", fl.Args())
	}
	sc := emulator.Default()
	if *scenarioPath != "" {
		var err error
		if sc, err = emulator.LoadScenario(*scenarioPath); err != nil {
			return err
		}
	}
	if *serialize {
		sc.SerializePoolCreates = true
	}
	// notef writes a progress note to stderr. stderr only carries
	// diagnostics and a failed write there has nowhere to be reported, so
	// its error is dropped on purpose.
	notef := func(format string, args ...any) {
		_, _ = fmt.Fprintf(stderr, "accel-emulator: "+format+"\n", args...)
	}
	var logger *log.Logger
	if !*quiet {
		logger = log.New(stderr, "accel-emulator: ", log.LstdFlags|log.Lmicroseconds)
	}
	srv, err := emulator.Start(emulator.Options{Addr: *addr, Scenario: sc, Logger: logger, SnapshotDir: *snapshotDir})
	if err != nil {
		return err
	}
	if err := srv.SetLatency("", *latency); err != nil {
		_ = srv.Close()
		return err
	}
	if *snapshotPath != "" {
		switch err := srv.LoadSnapshot(*snapshotPath); {
		case err == nil:
			notef("loaded state from %s", *snapshotPath)
			if *serialize {
				srv.SetSerializePoolCreates(true)
			}
		case errors.Is(err, fs.ErrNotExist):
		default:
			_ = srv.Close()
			return err
		}
	}
	// The exports on stdout are how callers find the emulator: when they
	// cannot be written, nobody can use it, so stop and report why.
	if _, err := fmt.Fprintf(stdout, "export ACCEL_TPU_ENDPOINT=%s\nexport ACCEL_CONTAINER_ENDPOINT=%s\nexport ACCEL_COMPUTE_ENDPOINT=%s\n",
		srv.TPUEndpoint(), srv.ContainerEndpoint(), srv.ComputeEndpoint()); err != nil {
		_ = srv.Close()
		return fmt.Errorf("writing the endpoints to stdout: %w", err)
	}
	notef("serving on %s; admin API: curl %s/admin/help", srv.URL(), srv.URL())

	<-stop
	if *snapshotPath != "" {
		if err := srv.Snapshot(*snapshotPath); err != nil {
			_ = srv.Close()
			return err
		}
		notef("saved state to %s", *snapshotPath)
	}
	return srv.Close()
}
