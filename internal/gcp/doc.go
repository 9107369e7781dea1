// Package gcp is the one place the provider gets its Google Cloud clients
// from: the Cloud TPU v2 REST client (google.golang.org/api/tpu/v2) and the
// GKE v1 REST client (google.golang.org/api/container/v1).
//
// It owns endpoints, authentication, the user agent, long-running operation
// polling, error classification, retry with jitter and a per-cluster operation
// limiter. It has no Terraform dependencies: callers pass a context and,
// optionally, a *slog.Logger in [Config].
package gcp
