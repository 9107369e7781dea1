// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"
)

// Config holds everything needed to build the Google Cloud clients.
//
// Authentication, in order of precedence:
//  1. AccessToken: sent as is ("Authorization: Bearer ...").
//  2. Credentials: a service account key (or any other Google credentials
//     file); the value is treated as JSON when it starts with '{' (after
//     leading white space), and as a file path otherwise.
//  3. Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, the
//     gcloud application-default file, or the metadata server), looked up
//     only when the first API call needs them.
//
// ImpersonateServiceAccount, when set, wraps whichever base credential was
// chosen: API calls then use short-lived tokens of that service account.
//
// An endpoint that uses plain http:// (a local emulator) is called without
// authentication unless AccessToken or Credentials is set explicitly, so that
// discovered credentials are never sent over plain HTTP.
type Config struct {
	Project string
	Zone    string

	// Credentials is the path to a JSON key file, or the JSON itself.
	Credentials string
	// AccessToken is an OAuth 2.0 access token.
	AccessToken string
	// ImpersonateServiceAccount is the email of a service account to impersonate.
	ImpersonateServiceAccount string

	// TPUEndpoint is the root URL of the Cloud TPU API, for example
	// "http://127.0.0.1:1234/"; empty means Google's default.
	TPUEndpoint string
	// ContainerEndpoint is the root URL of the GKE API; empty means Google's default.
	ContainerEndpoint string
	// ComputeEndpoint is the base URL of the Compute Engine API, with its
	// path, for example "http://127.0.0.1:1234/compute/v1/"; empty means
	// Google's default.
	ComputeEndpoint string

	// UserAgent is sent as the User-Agent header of every API request, for example
	// "terraform-provider-accel/1.2.3 (+https://registry.terraform.io/providers/accel-dev/accel) Terraform/1.11.4".
	UserAgent string

	// Polling controls how long-running operations and changing resources
	// are polled, and paces retries; unset fields are filled in once, by
	// NewClients (see Polling.normalized). The zero value means
	// DefaultPolling.
	Polling Polling

	// OperationsPerCluster is how many node-pool operations the clients
	// start at once on one cluster; 0 means [OperationsPerCluster], GKE's
	// quota. The provider always uses the default.
	OperationsPerCluster int

	// MaxAnswerBytes bounds the body of an API's answer the clients read;
	// 0 means [MaxAnswerBytes]. The provider always uses the default.
	MaxAnswerBytes int64

	// HTTPClient is optional (tests). When set, its Transport is used as the base
	// transport, under authentication and the user agent.
	HTTPClient *http.Client

	// Logger receives debug records about polling and retries (never secrets).
	// Nil discards them.
	Logger *slog.Logger
}

// Polling is an adaptive polling schedule: the first poll comes after Initial,
// and each next wait is the previous one times Multiplier, capped at Max.
// Each wait is jittered down to between half and all of its scheduled length
// (see pollJitter).
type Polling struct {
	Initial    time.Duration
	Max        time.Duration
	Multiplier float64
}

// DefaultPolling returns Initial 500ms, Max 10s, Multiplier 1.5.
//
// Why: a short first wait lets quick operations (label updates, deletes, the
// local emulator) finish in well under a second, while a growth of 1.5 reaches
// the 10 s cap after about 25 s of waiting. For operations that take minutes
// (TPU VM creation, GKE node pools), 10 s matches the google provider's
// default poll_interval, which keeps operation reads well inside the read
// quota (https://registry.terraform.io/providers/hashicorp/google/latest/docs/guides/provider_reference).
func DefaultPolling() Polling {
	return Polling{Initial: 500 * time.Millisecond, Max: 10 * time.Second, Multiplier: 1.5}
}

// normalized returns p with defaults filled in and bounds made consistent.
// It is the one place polling settings are completed: NewClients applies it
// to Config.Polling, and every wait of the clients follows the result.
//
// A zero Max is DefaultPolling's; a zero Initial is a twentieth of Max, at
// most DefaultPolling's and at least a millisecond, so that a short cap (a
// local emulator) also starts polling quickly; a Multiplier below 1 is
// DefaultPolling's. For the zero value that is DefaultPolling itself.
func (p Polling) normalized() Polling {
	d := DefaultPolling()
	if p.Max <= 0 {
		p.Max = d.Max
	}
	if p.Initial <= 0 {
		p.Initial = max(min(d.Initial, p.Max/20), time.Millisecond)
	}
	if p.Max < p.Initial {
		p.Max = p.Initial
	}
	if p.Multiplier < 1 {
		p.Multiplier = d.Multiplier
	}
	return p
}

// backoff is the one retry backoff of the clients, scaled to the polling
// cap: with the default 10 s cap it is DefaultBackoff (1 s growing to 30 s);
// a short cap (the local emulator) retries as quickly as it polls.
func (p Polling) backoff() Backoff {
	return Backoff{Initial: max(p.Max/10, time.Millisecond), Max: 3 * p.Max, Multiplier: 2}
}

// next returns the wait after cur.
func (p Polling) next(cur time.Duration) time.Duration {
	n := time.Duration(float64(cur) * p.Multiplier)
	if n > p.Max || n < cur { // n < cur: overflow
		return p.Max
	}
	return n
}

// pollJitter returns a random wait between d/2 and d. Without it, waiters
// polling operations of equal length, as node pools created together are,
// read them in lockstep, and each operation's end is seen almost a whole
// wait late; with it, an end is seen on average about 0.4 waits late and
// concurrent waiters spread their reads.
func pollJitter(d time.Duration) time.Duration {
	if d <= 1 {
		return d
	}
	return d/2 + rand.N(d-d/2+1)
}
