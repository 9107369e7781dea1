// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"errors"
	"fmt"
	"net/http"
	"syscall"
	"testing"

	"google.golang.org/api/googleapi"

	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// TestSameCause: a tier's error is left out after a failed read-back only
// when the read-back's error already reported its cause.
func TestSameCause(t *testing.T) {
	t.Parallel()
	unreachable := func(method string) error {
		return fmt.Errorf("node pool: %w", &gcp.EndpointError{API: "GKE API", Setting: "container_endpoint",
			Env: "ACCEL_CONTAINER_ENDPOINT", Method: method, Err: syscall.ECONNREFUSED})
	}
	notFound := &googleapi.Error{Code: http.StatusNotFound, Message: "Not found"}
	tests := []struct {
		name         string
		readErr, err error
		want         bool
	}{
		{"endpoint unreachable for both", unreachable("GET"), unreachable("POST"), true},
		{"cluster gone, create not found", fmt.Errorf("%w: %w", gcp.ErrClusterNotFound, notFound), notFound, true},
		{"cluster gone, create refused otherwise", fmt.Errorf("%w: %w", gcp.ErrClusterNotFound, notFound),
			&googleapi.Error{Code: http.StatusBadRequest}, false},
		{"permission denied for both", &googleapi.Error{Code: http.StatusForbidden}, &googleapi.Error{Code: http.StatusForbidden}, true},
		{"list unavailable, create out of capacity", &googleapi.Error{Code: http.StatusServiceUnavailable},
			&googleapi.Error{Code: http.StatusBadRequest, Message: "stockout"}, false},
		{"endpoint unreachable, create refused by the API", unreachable("GET"), notFound, false},
		{"no read-back error", nil, notFound, false},
		{"not found only on the create", &googleapi.Error{Code: http.StatusServiceUnavailable}, notFound, false},
		{"wrapped identical", errors.Join(unreachable("GET")), unreachable("POST"), true},
	}
	for _, tt := range tests {
		if got := sameCause(tt.readErr, tt.err); got != tt.want {
			t.Errorf("%s: sameCause = %v, want %v", tt.name, got, tt.want)
		}
	}
}
