// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"google.golang.org/api/googleapi"
)

const loginPage = "<!DOCTYPE html>\n<html><head><title>Sign in - Corp Proxy</title></head>\n<body>\x00\x1b[31mPlease sign in to continue to the internet.</body></html>"

// TestClassifyEndpointAnswers checks which answers are the API's and which
// are not, through the real clients, and what an EndpointError says.
func TestClassifyEndpointAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		api         string
		status      int
		contentType string // "-" sends no Content-Type
		body        string
		want        Class
		wantInMsg   []string // when the error is an *EndpointError
	}{
		{name: "html login page with 200", api: "tpu", status: 200, contentType: "text/html; charset=utf-8", body: loginPage, want: ClassNotAPI,
			wantInMsg: []string{"HTTP 200", "text/html", `"<!DOCTYPE html> <html><head><title>Sign in - Corp Proxy</title></head> <body> [31mPlease sign in to c..."`, "tpu_endpoint", "ACCEL_TPU_ENDPOINT"}},
		{name: "html 502 from a proxy", api: "container", status: 502, contentType: "text/html", body: body502HTML, want: ClassNotAPI,
			wantInMsg: []string{"HTTP 502", "text/html", "Error 502 (Server Error)", "container_endpoint", "ACCEL_CONTAINER_ENDPOINT"}},
		{name: "html labelled as json", api: "tpu", status: 200, contentType: "application/json", body: "  " + loginPage, want: ClassNotAPI,
			wantInMsg: []string{"not JSON", "application/json"}},
		{name: "plain text 404 of another server", api: "container", status: 404, contentType: "text/plain; charset=utf-8", body: "404 page not found\n", want: ClassNotAPI,
			wantInMsg: []string{"HTTP 404", "text/plain", `"404 page not found"`}},
		{name: "json 503 that is not a google error", api: "tpu", status: 503, contentType: "application/json", body: `{"message":"no healthy upstream"}`, want: ClassNotAPI,
			wantInMsg: []string{"without a Google JSON error", "HTTP 503"}},
		{name: "empty 504", api: "tpu", status: 504, contentType: "-", body: "", want: ClassNotAPI,
			wantInMsg: []string{"HTTP 504", "Content-Type none", "body empty"}},
		{name: "no content type, html", api: "tpu", status: 200, contentType: "-", body: loginPage, want: ClassNotAPI},
		{name: "google 503", api: "tpu", status: 503, contentType: "application/json; charset=UTF-8", body: body503, want: ClassTransient},
		{name: "google 429", api: "tpu", status: 429, contentType: "application/json", body: body429Rate, want: ClassRateLimited},
		{name: "google 404 without content type", api: "tpu", status: 404, contentType: "-", body: body404, want: ClassNotFound},
		{name: "node without content type", api: "tpu", status: 200, contentType: "-", body: `{"name":"n"}`, want: ClassUnknown},
		{name: "node", api: "tpu", status: 200, contentType: "application/json", body: "\n {\"name\":\"n\"}", want: ClassUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				if tt.contentType == "-" {
					w.Header()["Content-Type"] = nil
				} else {
					w.Header().Set("Content-Type", tt.contentType)
				}
				w.WriteHeader(tt.status)
				_, _ = fmt.Fprint(w, tt.body)
			}))
			t.Cleanup(srv.Close)
			err := callOnce(t, srv.URL+"/", tt.api)
			if tt.want == ClassUnknown {
				if err != nil {
					t.Fatalf("want success, got %v", err)
				}
				return
			}
			if got := Classify(fmt.Errorf("reading: %w", err)); got != tt.want {
				t.Fatalf("Classify(%v) = %v, want %v", err, got, tt.want)
			}
			var ee *EndpointError
			if tt.want != ClassNotAPI {
				var ge *googleapi.Error
				if errors.As(err, &ee) || !errors.As(err, &ge) {
					t.Fatalf("want a *googleapi.Error, got %T %v", err, err)
				}
				return
			}
			if !errors.As(err, &ee) {
				t.Fatalf("want an *EndpointError, got %T %v", err, err)
			}
			msg := Compact(err).Error()
			if strings.HasPrefix(msg, "Get ") || strings.Contains(msg, "\n") {
				t.Errorf("message is not one compact line: %q", msg)
			}
			for _, want := range append(tt.wantInMsg, srv.URL+"/") {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q does not contain %q", msg, want)
				}
			}
		})
	}
}

// callOnce makes one read of the given API at endpoint.
func callOnce(t *testing.T, endpoint, api string) error {
	t.Helper()
	c := NewClients(Config{TPUEndpoint: endpoint, ContainerEndpoint: endpoint})
	if api == "tpu" {
		svc, err := c.TPU(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		_, err = svc.Projects.Locations.Nodes.Get("projects/p/locations/us-east5-a/nodes/n").Context(t.Context()).Do()
		return err
	}
	svc, err := c.Container(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	_, err = svc.Projects.Locations.Clusters.NodePools.List("projects/p/locations/us-east5/clusters/c").Context(t.Context()).Do()
	return err
}

func TestEndpointUnreachableNamesSetting(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := "http://" + l.Addr().String() + "/"
	_ = l.Close() // nothing listens there any more: connection refused
	err = callOnce(t, endpoint, "container")
	var ee *EndpointError
	if !errors.As(err, &ee) || ee.Err == nil {
		t.Fatalf("want an *EndpointError with a network cause, got %T %v", err, err)
	}
	if got := Classify(err); got == ClassNotAPI || got.Retryable() {
		t.Errorf("Classify = %v, want a class that is not retried", got)
	}
	msg := Compact(err).Error()
	for _, want := range []string{"could not be reached", endpoint, "container_endpoint", "ACCEL_CONTAINER_ENDPOINT"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not contain %q", msg, want)
		}
	}
}

func TestSnippet(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", ""},
		{"  \n\t ", ""},
		{"a\n\n  b", "a b"},
		{"\x00\x01ok\x7f", "ok"},
		{"bad \xff\xfe utf8", "bad utf8"},
		{strings.Repeat("x", 150), strings.Repeat("x", 100) + "..."},
		{strings.Repeat("x", 100) + "   ", strings.Repeat("x", 100)},
	}
	for _, tt := range tests {
		if got := snippet([]byte(tt.in)); got != tt.want {
			t.Errorf("snippet(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCompact(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		body string
		code int
		want string
	}{
		{"429 with details", body429Rate, 429, "HTTP 429 RESOURCE_EXHAUSTED [RATE_LIMIT_EXCEEDED, rateLimitExceeded]: Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute' of service 'tpu.googleapis.com'."},
		{"503", body503, 503, "HTTP 503 UNAVAILABLE: The service is currently unavailable."},
		{"403 with reason", body403, 403, "HTTP 403 PERMISSION_DENIED [IAM_PERMISSION_DENIED]: Permission 'tpu.nodes.get' denied on 'projects/p/locations/us-east5-a/nodes/n'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := apiCallError(t, "tpu", tt.code, tt.body)
			got := Compact(err)
			if got.Error() != tt.want {
				t.Errorf("Compact(...).Error() =\n%s\nwant\n%s", got.Error(), tt.want)
			}
			var ge *googleapi.Error
			if !errors.As(got, &ge) || Classify(got) != Classify(err) {
				t.Errorf("Compact changed what errors.As or Classify see")
			}
			if again := Compact(got); again.Error() != got.Error() {
				t.Errorf("Compact is not idempotent")
			}
		})
	}
}

// TestEndpointSilentNamesEndpointAndLimit: an endpoint that accepts the
// connection and never answers ends at the call's deadline with an error
// that names the endpoint, the call, the setting that chooses the endpoint
// and the limit that ended it, and is still a deadline (ClassDeadline).
func TestEndpointSilentNamesEndpointAndLimit(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select { // hold the request: no answer until the client gives up
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	c := NewClients(Config{TPUEndpoint: srv.URL + "/"})
	svc, err := c.TPU(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeoutCause(t.Context(), 50*time.Millisecond,
		fmt.Errorf("gave up retrying after 50ms: %w", context.DeadlineExceeded))
	defer cancel()
	err = Retry(ctx, Backoff{Initial: time.Millisecond, Max: time.Millisecond, Multiplier: 1}, nil, func(ctx context.Context) error {
		_, err := svc.Projects.Locations.Nodes.Get("projects/p/locations/us-east5-a/nodes/n").Context(ctx).Do()
		return err
	})
	if Classify(err) != ClassDeadline {
		t.Errorf("Classify = %v, want deadline", Classify(err))
	}
	msg := Compact(err).Error()
	for _, want := range []string{"gave no answer", srv.URL + "/", "GET /v2/projects/p/locations/us-east5-a/nodes/n",
		"tpu_endpoint", "ACCEL_TPU_ENDPOINT", "gave up retrying after 50ms"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not contain %q", msg, want)
		}
	}
}
