// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/googleapis/gax-go/v2/apierror"
	container "google.golang.org/api/container/v1"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"
	tpu "google.golang.org/api/tpu/v2"
)

const project = "accel-sandbox"

var t0 = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

// env is a started emulator on a manual clock with both real clients.
type env struct {
	srv   *Server
	clock *ManualClock
	tpu   *tpu.Service
	gke   *container.Service
}

func start(t *testing.T, sc *Scenario) *env {
	t.Helper()
	clock := NewManualClock(t0)
	srv, err := Start(Options{Scenario: sc, Clock: clock})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	ctx := context.Background()
	ts, err := tpu.NewService(ctx, option.WithEndpoint(srv.TPUEndpoint()), option.WithoutAuthentication())
	if err != nil {
		t.Fatalf("tpu.NewService: %v", err)
	}
	gs, err := container.NewService(ctx, option.WithEndpoint(srv.ContainerEndpoint()), option.WithoutAuthentication())
	if err != nil {
		t.Fatalf("container.NewService: %v", err)
	}
	return &env{srv: srv, clock: clock, tpu: ts, gke: gs}
}

// tick moves the clock past one default operation duration.
func (e *env) tick() { e.clock.Advance(DefaultDuration) }

func zoneParent(zone string) string { return "projects/" + project + "/locations/" + zone }

// wantErr describes an expected API error.
type wantErr struct {
	code   int    // HTTP status
	status string // canonical status in the body
	reason string // ErrorInfo reason, if any
	msg    string // substring of the message
}

// checkErr asserts err is a googleapi.Error with the expected shape, that
// its body is the Google error envelope, and that the clients' apierror
// parser accepts it.
func checkErr(t *testing.T, err error, want wantErr) errorPayload {
	t.Helper()
	var gerr *googleapi.Error
	if !errors.As(err, &gerr) {
		t.Fatalf("error %v (%T) is not a *googleapi.Error", err, err)
	}
	if gerr.Code != want.code {
		t.Errorf("HTTP code = %d, want %d (%s)", gerr.Code, want.code, gerr.Message)
	}
	var body errorBody
	if jerr := json.Unmarshal([]byte(gerr.Body), &body); jerr != nil {
		t.Fatalf("error body %q is not JSON: %v", gerr.Body, jerr)
	}
	if body.Error.Status != want.status || body.Error.Code != want.code {
		t.Errorf("body status/code = %s/%d, want %s/%d", body.Error.Status, body.Error.Code, want.status, want.code)
	}
	if !strings.Contains(body.Error.Message, want.msg) {
		t.Errorf("message %q does not contain %q", body.Error.Message, want.msg)
	}
	var aerr *apierror.APIError
	if !errors.As(err, &aerr) {
		t.Fatalf("error body was not parsed by apierror (details malformed?): %s", gerr.Body)
	}
	if aerr.Reason() != want.reason {
		t.Errorf("ErrorInfo reason = %q, want %q", aerr.Reason(), want.reason)
	}
	return body.Error
}

// rawBody returns the "error" object of an error body as generic JSON.
func rawBody(t *testing.T, err error) map[string]any {
	t.Helper()
	var gerr *googleapi.Error
	if !errors.As(err, &gerr) {
		t.Fatalf("error %v is not a *googleapi.Error", err)
	}
	var m map[string]map[string]any
	if jerr := json.Unmarshal([]byte(gerr.Body), &m); jerr != nil {
		t.Fatalf("body %q: %v", gerr.Body, jerr)
	}
	return m["error"]
}

// instant is the default scenario with every operation done at the next read.
func instant() *Scenario {
	sc := Default()
	sc.Durations = Durations{}
	return sc
}
