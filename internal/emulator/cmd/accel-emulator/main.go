// Command accel-emulator runs the local Cloud TPU v2 and GKE v1 API emulator
// until SIGINT or SIGTERM. It prints the environment to export so the
// provider and the Go clients talk to it.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "accel-emulator:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fl := flag.NewFlagSet("accel-emulator", flag.ContinueOnError)
	addr := fl.String("addr", "127.0.0.1:8089", "address to listen on")
	scenarioPath := fl.String("scenario", "", "scenario JSON file (default: the built-in scenario)")
	serialize := fl.Bool("serialize-pool-creates", false, "refuse a node-pool create while another node-pool operation runs on the cluster")
	snapshotPath := fl.String("snapshot", "", "state file: loaded at start when it exists, written at exit")
	quiet := fl.Bool("quiet", false, "do not log requests")
	if err := fl.Parse(args); err != nil {
		return err
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
	var logger *log.Logger
	if !*quiet {
		logger = log.New(os.Stderr, "accel-emulator: ", log.LstdFlags|log.Lmicroseconds)
	}
	srv, err := emulator.Start(emulator.Options{Addr: *addr, Scenario: sc, Logger: logger})
	if err != nil {
		return err
	}
	if *snapshotPath != "" {
		switch err := srv.LoadSnapshot(*snapshotPath); {
		case err == nil:
			fmt.Fprintf(os.Stderr, "accel-emulator: loaded state from %s\n", *snapshotPath)
		case errors.Is(err, fs.ErrNotExist):
		default:
			_ = srv.Close()
			return err
		}
		if *serialize {
			srv.SetSerializePoolCreates(true)
		}
	}
	fmt.Printf("export ACCEL_TPU_ENDPOINT=%s\n", srv.TPUEndpoint())
	fmt.Printf("export ACCEL_CONTAINER_ENDPOINT=%s\n", srv.ContainerEndpoint())
	fmt.Fprintf(os.Stderr, "accel-emulator: serving on %s; admin API: curl %s/admin/help\n", srv.URL(), srv.URL())

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	if *snapshotPath != "" {
		if err := srv.Snapshot(*snapshotPath); err != nil {
			_ = srv.Close()
			return err
		}
		fmt.Fprintf(os.Stderr, "accel-emulator: saved state to %s\n", *snapshotPath)
	}
	return srv.Close()
}
