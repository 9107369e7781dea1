// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	container "google.golang.org/api/container/v1"
	"google.golang.org/api/googleapi"
)

// apiCallError answers one call of the real client with status and body, and
// returns the client's error. api is "tpu" or "container".
func apiCallError(t *testing.T, api string, status int, body string) error {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if body != "" && body[0] == '{' {
			w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		} else {
			w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		}
		w.WriteHeader(status)
		if _, err := fmt.Fprint(w, body); err != nil {
			t.Errorf("writing the fake answer: %v", err)
		}
	}))
	t.Cleanup(srv.Close)
	c := NewClients(Config{TPUEndpoint: srv.URL, ContainerEndpoint: srv.URL + "/"})
	ctx := t.Context()
	switch api {
	case "tpu":
		svc, err := c.TPU(ctx)
		if err != nil {
			t.Fatal(err)
		}
		_, err = svc.Projects.Locations.Nodes.Get("projects/p/locations/us-east5-a/nodes/n").Context(ctx).Do()
		return err
	case "container":
		svc, err := c.Container(ctx)
		if err != nil {
			t.Fatal(err)
		}
		_, err = svc.Projects.Locations.Clusters.NodePools.Create("projects/p/locations/us-east5/clusters/c",
			&container.CreateNodePoolRequest{NodePool: &container.NodePool{Name: "np"}}).Context(ctx).Do()
		return err
	}
	t.Fatalf("unknown api %q", api)
	return nil
}

// Error bodies in the shapes the TPU v2 and GKE v1 REST APIs return.
const (
	body401                       = `{"error":{"code":401,"message":"Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.","status":"UNAUTHENTICATED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"ACCESS_TOKEN_TYPE_UNSUPPORTED","metadata":{"service":"tpu.googleapis.com","method":"google.cloud.tpu.v2.Tpu.GetNode"}}]}}`
	body403                       = `{"error":{"code":403,"message":"Permission 'tpu.nodes.get' denied on 'projects/p/locations/us-east5-a/nodes/n'","status":"PERMISSION_DENIED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"IAM_PERMISSION_DENIED","domain":"tpu.googleapis.com","metadata":{"permission":"tpu.nodes.get","resource":"projects/p/locations/us-east5-a/nodes/n"}}]}}`
	body404                       = `{"error":{"code":404,"message":"Resource 'projects/p/locations/us-east5-a/nodes/n' was not found","status":"NOT_FOUND","details":[{"@type":"type.googleapis.com/google.rpc.ResourceInfo","resourceName":"projects/p/locations/us-east5-a/nodes/n"}]}}`
	body409Exists                 = `{"error":{"code":409,"message":"Already exists: projects/p/locations/us-east5/clusters/c/nodePools/np.","errors":[{"message":"Already exists: projects/p/locations/us-east5/clusters/c/nodePools/np.","domain":"global","reason":"alreadyExists"}],"status":"ALREADY_EXISTS"}}`
	body409Aborted                = `{"error":{"code":409,"message":"The operation was aborted due to a concurrent modification.","status":"ABORTED"}}`
	body400Invalid                = `{"error":{"code":400,"message":"Cluster is running incompatible operation operation-123.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"node.accelerator_type","description":"unknown accelerator type"}]}]}}`
	body400Precondition           = `{"error":{"code":400,"message":"Cluster is running incompatible operation operation-123.","errors":[{"message":"Cluster is running incompatible operation operation-123.","domain":"global","reason":"failedPrecondition"}],"status":"FAILED_PRECONDITION"}}`
	body400PreconditionReasonOnly = `{"error":{"code":400,"message":"Operation operation-456 is currently upgrading cluster c. Please wait and try again.","errors":[{"message":"Operation operation-456 is currently upgrading cluster c. Please wait and try again.","domain":"global","reason":"failedPrecondition"}]}}`
	body429Rate                   = `{"error":{"code":429,"message":"Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute' of service 'tpu.googleapis.com'.","status":"RESOURCE_EXHAUSTED","errors":[{"message":"Quota exceeded.","domain":"global","reason":"rateLimitExceeded"}],"details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"RATE_LIMIT_EXCEEDED","domain":"googleapis.com","metadata":{"service":"tpu.googleapis.com","quota_metric":"tpu.googleapis.com/read_requests"}}]}}`
	body429Stockout               = `{"error":{"code":429,"message":"The zone 'projects/p/zones/us-east5-a' does not have enough resources available to fulfill the request.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"ZONE_RESOURCE_POOL_EXHAUSTED","domain":"compute.googleapis.com","metadata":{"zone":"us-east5-a","vmType":"ct6e-standard-4t","zonesAvailable":"us-east5-b, us-east5-c"}}]}}`
	body500                       = `{"error":{"code":500,"message":"Internal error encountered.","status":"INTERNAL"}}`
	body503                       = `{"error":{"code":503,"message":"The service is currently unavailable.","status":"UNAVAILABLE"}}`
	body502HTML                   = `<!DOCTYPE html><html lang=en><title>Error 502 (Server Error)!!1</title><p><b>502.</b> That's an error.</html>`
)

func TestClassifyAPIErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		api    string
		status int
		body   string
		want   Class
		zones  []string
	}{
		{"401 unauthenticated", "tpu", 401, body401, ClassUnauthenticated, nil},
		{"403 permission", "tpu", 403, body403, ClassPermission, nil},
		{"404 not found", "tpu", 404, body404, ClassNotFound, nil},
		{"409 already exists", "container", 409, body409Exists, ClassAlreadyExists, nil},
		{"409 aborted", "container", 409, body409Aborted, ClassConflict, nil},
		{"400 invalid argument, message text ignored", "tpu", 400, body400Invalid, ClassInvalidArgument, nil},
		{"400 failed precondition", "container", 400, body400Precondition, ClassConflict, nil},
		{"400 failedPrecondition reason only", "container", 400, body400PreconditionReasonOnly, ClassConflict, nil},
		{"429 rate limit", "tpu", 429, body429Rate, ClassRateLimited, nil},
		{"429 zone resource pool exhausted", "tpu", 429, body429Stockout, ClassCapacity, []string{"us-east5-b", "us-east5-c"}},
		{"500 internal", "tpu", 500, body500, ClassTransient, nil},
		{"503 unavailable", "tpu", 503, body503, ClassTransient, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := apiCallError(t, tt.api, tt.status, tt.body)
			var ge *googleapi.Error
			if !errors.As(err, &ge) || ge.Code != tt.status {
				t.Fatalf("want a *googleapi.Error with code %d, got %T %v", tt.status, err, err)
			}
			wrapped := fmt.Errorf("creating node: %w", err)
			if got := Classify(wrapped); got != tt.want {
				t.Errorf("Classify = %v, want %v", got, tt.want)
			}
			if diff := cmp.Diff(tt.zones, ZonesAvailable(wrapped)); diff != "" {
				t.Errorf("ZonesAvailable (-want +got):\n%s", diff)
			}
		})
	}
}

func TestClassifyOtherErrors(t *testing.T) {
	t.Parallel()
	expired, cancel := context.WithDeadline(t.Context(), timeZero)
	defer cancel()
	tests := []struct {
		name string
		err  error
		want Class
	}{
		{"nil", nil, ClassUnknown},
		{"plain", errors.New("boom"), ClassUnknown},
		{"deadline", fmt.Errorf("waiting: %w", context.DeadlineExceeded), ClassDeadline},
		{"expired context", expired.Err(), ClassDeadline},
		{"canceled", context.Canceled, ClassUnknown},
		{"operation code 8", &OperationError{Code: 8, Message: "There is no more capacity in the zone \"us-east5-a\"; you can try in another zone where Cloud TPU Nodes are offered"}, ClassCapacity},
		{"operation stockout reason", &OperationError{Code: 2, Reasons: []string{"GCE_STOCKOUT"}}, ClassCapacity},
		{"operation not found", &OperationError{Code: 5}, ClassNotFound},
		{"operation failed precondition", &OperationError{Code: 9}, ClassConflict},
		{"operation aborted", &OperationError{Code: 10}, ClassConflict},
		{"operation unavailable", &OperationError{Code: 14}, ClassTransient},
		{"operation invalid argument", &OperationError{Code: 3}, ClassInvalidArgument},
		{"operation unknown", &OperationError{Code: 2, Message: "RESOURCE_EXHAUSTED"}, ClassUnknown},
		{"googleapi details without body", &googleapi.Error{Code: 403, Details: []any{
			map[string]any{"@type": errorInfoType, "reason": "STOCKOUT"},
		}}, ClassCapacity},
		{"403 rate limit reason", &googleapi.Error{Code: 403, Errors: []googleapi.ErrorItem{{Reason: "userRateLimitExceeded"}}}, ClassRateLimited},
		{"412 precondition", &googleapi.Error{Code: 412}, ClassConflict},
		{"odd code with status", &googleapi.Error{Code: 499, Body: `{"error":{"code":499,"status":"UNAVAILABLE"}}`}, ClassTransient},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Classify(tt.err); got != tt.want {
				t.Errorf("Classify(%v) = %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}

func TestClassifyDeadlineFromClient(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	c := NewClients(Config{TPUEndpoint: srv.URL})
	svc, err := c.TPU(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithDeadline(t.Context(), timeZero)
	defer cancel()
	_, err = svc.Projects.Locations.Nodes.Get("projects/p/locations/z/nodes/n").Context(ctx).Do()
	if got := Classify(err); got != ClassDeadline {
		t.Errorf("Classify(%v) = %v, want deadline", err, got)
	}
}

func TestClassStringAndRetryable(t *testing.T) {
	t.Parallel()
	retryable := map[Class]bool{ClassConflict: true, ClassRateLimited: true, ClassTransient: true}
	seen := map[string]bool{}
	for c := ClassUnknown; c <= ClassDeadline; c++ {
		if got := c.Retryable(); got != retryable[c] {
			t.Errorf("%v.Retryable() = %v", c, got)
		}
		s := c.String()
		if s == "" || seen[s] {
			t.Errorf("class %d has empty or duplicate name %q", int(c), s)
		}
		seen[s] = true
	}
	if got := Class(99).String(); got != "Class(99)" {
		t.Errorf("Class(99).String() = %q", got)
	}
}

func TestZonesAvailable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		want []string
	}{
		{"operation snake key", &OperationError{Code: 8, Metadata: map[string]string{"zones_available": "us-central2-b,,us-east1-d "}}, []string{"us-central2-b", "us-east1-d"}},
		{"operation camel key", fmt.Errorf("x: %w", &OperationError{Code: 8, Metadata: map[string]string{"zonesAvailable": "europe-west4-a"}}), []string{"europe-west4-a"}},
		{"no metadata", &OperationError{Code: 8}, nil},
		{"empty value", &OperationError{Code: 8, Metadata: map[string]string{"zonesAvailable": " "}}, nil},
		{"plain error", errors.New("x"), nil},
		{"nil", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, ZonesAvailable(tt.err)); diff != "" {
				t.Errorf("ZonesAvailable (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOperationErrorMessage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  *OperationError
		want string
	}{
		{&OperationError{Operation: "projects/p/locations/z/operations/op1", Code: 8, Status: "RESOURCE_EXHAUSTED", Message: "no more capacity", Reasons: []string{"STOCKOUT"}},
			"operation projects/p/locations/z/operations/op1 failed: RESOURCE_EXHAUSTED (code 8): no more capacity [reasons: STOCKOUT]"},
		{&OperationError{Code: 2, Message: "boom"}, "operation failed: UNKNOWN (code 2): boom"},
		{&OperationError{Code: 99}, "operation failed: code 99"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

// TestInUse: Compute Engine's refusal to delete a resource that another
// uses is told by its reason, not its message.
func TestInUse(t *testing.T) {
	inUse := &googleapi.Error{Code: 400, Message: "anything", Errors: []googleapi.ErrorItem{{Reason: "resourceInUseByAnotherResource"}}}
	other := &googleapi.Error{Code: 400, Message: "resourceInUseByAnotherResource", Errors: []googleapi.ErrorItem{{Reason: "invalid"}}}
	if !InUse(fmt.Errorf("wrapped: %w", inUse)) || InUse(other) || InUse(errors.New("resourceInUseByAnotherResource")) {
		t.Fatal("InUse must match the reason resourceInUseByAnotherResource and nothing else")
	}
}

// TestAnswerTextIsPrintable: the text of an API's error answer (its message,
// an operation's message) reaches Terraform's output without a control
// character: ESC, BEL, CR and LF could colour or forge lines of a CI log.
func TestAnswerTextIsPrintable(t *testing.T) {
	t.Parallel()
	body := `{"error":{"code":400,"message":"bad\u001b[31m red\u0007\r\nError: forged line","status":"INVALID_ARGUMENT"}}`
	errs := []error{
		Compact(apiCallError(t, "tpu", 400, body)),
		&OperationError{Operation: "op", Code: 3, Message: "stockout\u001b[2J\nError: forged"},
	}
	for _, err := range errs {
		msg := err.Error()
		if strings.ContainsFunc(msg, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			t.Errorf("error text %q holds control characters", msg)
		}
		if !strings.Contains(msg, "forged") {
			t.Errorf("error text %q lost the message", msg)
		}
	}
}
