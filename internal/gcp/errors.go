// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"syscall"
	"unicode"

	"google.golang.org/api/googleapi"
)

// Class is the kind of an API or operation error, derived from the HTTP code,
// the google.rpc status and the error reasons, never from message text.
type Class int

// The error classes.
const (
	// ClassUnknown is any error not matched by another class.
	ClassUnknown Class = iota
	// ClassNotFound is HTTP 404 or NOT_FOUND.
	ClassNotFound
	// ClassAlreadyExists is HTTP 409 ALREADY_EXISTS.
	ClassAlreadyExists
	// ClassConflict is FAILED_PRECONDITION or ABORTED (HTTP 400, 409 or 412),
	// for example GKE's "Cluster is running incompatible operation".
	ClassConflict
	// ClassRateLimited is HTTP 429 (quota or rate) without a stockout reason.
	ClassRateLimited
	// ClassCapacity is a stockout: the zone has no capacity for the request.
	ClassCapacity
	// ClassTransient is HTTP 500, 502, 503 or 504, or a network timeout.
	ClassTransient
	// ClassPermission is HTTP 403.
	ClassPermission
	// ClassUnauthenticated is HTTP 401.
	ClassUnauthenticated
	// ClassInvalidArgument is HTTP 400 INVALID_ARGUMENT.
	ClassInvalidArgument
	// ClassDeadline is an expired context deadline.
	ClassDeadline
	// ClassNotAPI is an answer the API never gives: HTML, another content
	// type, or an error status without Google's JSON error (an *EndpointError
	// without a network cause). It is retried NotAPIAttempts times in all.
	ClassNotAPI
)

var classNames = [...]string{
	ClassUnknown:         "unknown",
	ClassNotFound:        "not_found",
	ClassAlreadyExists:   "already_exists",
	ClassConflict:        "conflict",
	ClassRateLimited:     "rate_limited",
	ClassCapacity:        "capacity",
	ClassTransient:       "transient",
	ClassPermission:      "permission",
	ClassUnauthenticated: "unauthenticated",
	ClassInvalidArgument: "invalid_argument",
	ClassDeadline:        "deadline",
	ClassNotAPI:          "not_api",
}

// String returns the class name in snake case, for example "rate_limited".
func (c Class) String() string {
	if c < 0 || int(c) >= len(classNames) {
		return fmt.Sprintf("Class(%d)", int(c))
	}
	return classNames[c]
}

// Retryable reports whether an error of this class may succeed if the same
// call is made again later: Conflict, RateLimited and Transient. NotAPI is
// not Retryable: it gets NotAPIAttempts attempts only.
func (c Class) Retryable() bool {
	return c == ClassConflict || c == ClassRateLimited || c == ClassTransient
}

// stockoutReasons are the google.rpc.ErrorInfo reasons that mean the zone has
// no capacity. GCE_STOCKOUT and ZONE_RESOURCE_POOL_EXHAUSTED[_WITH_DETAILS]
// are the Compute Engine reasons GKE and TPU pass through
// (https://cloud.google.com/compute/docs/troubleshooting/troubleshooting-resource-availability).
var stockoutReasons = []string{
	"GCE_STOCKOUT",
	"ZONE_RESOURCE_POOL_EXHAUSTED",
	"ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS",
	"RESOURCE_POOL_EXHAUSTED",
	"STOCKOUT",
}

// rpcCodeNames are the google.rpc.Code names, indexed by code
// (https://github.com/googleapis/googleapis/blob/master/google/rpc/code.proto).
var rpcCodeNames = [...]string{
	"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED",
	"NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED",
	"FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED",
	"INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
}

// The google.rpc.Code values used in classification.
const (
	codeUnknown           = 2
	codeResourceExhausted = 8
)

func rpcCodeName(code int) string {
	if code < 0 || code >= len(rpcCodeNames) {
		return ""
	}
	return rpcCodeNames[code]
}

// OperationError is a long-running operation that finished with an error.
type OperationError struct {
	// Operation is the operation name.
	Operation string
	// Code is the google.rpc.Code, for example 8 (RESOURCE_EXHAUSTED).
	Code int
	// Status is the name of Code, for example "RESOURCE_EXHAUSTED".
	Status string
	// Message is the server's message.
	Message string
	// Reasons are the google.rpc.ErrorInfo reasons, for example "GCE_STOCKOUT".
	Reasons []string
	// Metadata is the union of the google.rpc.ErrorInfo metadata.
	Metadata map[string]string
}

// Error returns "operation NAME failed: STATUS (code N): MESSAGE [reasons: ...]".
func (e *OperationError) Error() string {
	var b strings.Builder
	b.WriteString("operation ")
	if e.Operation != "" {
		b.WriteString(e.Operation + " ")
	}
	b.WriteString("failed: ")
	status := e.Status
	if status == "" {
		status = rpcCodeName(e.Code)
	}
	if status != "" {
		fmt.Fprintf(&b, "%s (code %d)", status, e.Code)
	} else {
		fmt.Fprintf(&b, "code %d", e.Code)
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	if len(e.Reasons) > 0 {
		fmt.Fprintf(&b, " [reasons: %s]", strings.Join(e.Reasons, ", "))
	}
	return Printable(b.String())
}

// Printable returns s, text that came from an API answer, with every
// control character (ESC, BEL, CR, LF and the like) replaced by a space, so
// that it cannot forge lines or colours in Terraform's output and CI logs.
func Printable(s string) string {
	if !strings.ContainsFunc(s, unicode.IsControl) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}

// errorDetail is one entry of google.rpc.Status.details; only ErrorInfo
// fields are read.
type errorDetail struct {
	Type     string            `json:"@type"`
	Reason   string            `json:"reason"`
	Domain   string            `json:"domain"`
	Metadata map[string]string `json:"metadata"`
}

const errorInfoType = "type.googleapis.com/google.rpc.ErrorInfo"

// errorBody is the JSON error body of Google REST APIs.
type errorBody struct {
	Error struct {
		Code    int               `json:"code"`
		Message string            `json:"message"`
		Status  string            `json:"status"`
		Details []json.RawMessage `json:"details"`
		Errors  []struct {
			Reason string `json:"reason"`
		} `json:"errors"`
	} `json:"error"`
}

// apiErrorInfo is what classification needs from an error.
type apiErrorInfo struct {
	httpCode int
	status   string
	reasons  []string
	metadata map[string]string
}

// parseDetails adds the ErrorInfo reasons and metadata of raw details to info.
func (info *apiErrorInfo) parseDetails(raw []json.RawMessage) {
	for _, r := range raw {
		var d errorDetail
		if json.Unmarshal(r, &d) != nil || d.Type != errorInfoType {
			continue
		}
		info.addReason(d.Reason)
		for k, v := range d.Metadata {
			if info.metadata == nil {
				info.metadata = map[string]string{}
			}
			info.metadata[k] = v
		}
	}
}

func (info *apiErrorInfo) addReason(r string) {
	if r != "" && !slices.Contains(info.reasons, r) {
		info.reasons = append(info.reasons, r)
	}
}

// googleapiInfo extracts status, reasons and metadata from a googleapi.Error.
func googleapiInfo(ge *googleapi.Error) apiErrorInfo {
	info := apiErrorInfo{httpCode: ge.Code}
	var body errorBody
	if ge.Body != "" && json.Unmarshal([]byte(ge.Body), &body) == nil {
		info.status = body.Error.Status
		info.parseDetails(body.Error.Details)
		for _, e := range body.Error.Errors {
			info.addReason(e.Reason)
		}
	}
	if len(body.Error.Details) == 0 && len(ge.Details) > 0 {
		var raw []json.RawMessage
		if b, err := json.Marshal(ge.Details); err == nil && json.Unmarshal(b, &raw) == nil {
			info.parseDetails(raw)
		}
	}
	for _, e := range ge.Errors {
		info.addReason(e.Reason)
	}
	return info
}

// operationInfo extracts the same from an OperationError.
func operationInfo(oe *OperationError) apiErrorInfo {
	status := oe.Status
	if status == "" {
		status = rpcCodeName(oe.Code)
	}
	return apiErrorInfo{status: status, reasons: oe.Reasons, metadata: oe.Metadata}
}

func (info apiErrorInfo) hasReason(reasons ...string) bool {
	for _, r := range info.reasons {
		if slices.Contains(reasons, r) {
			return true
		}
	}
	return false
}

// Classify returns the class of err. It looks for, in order: an expired
// context deadline, an answer that is not the API's (*EndpointError), an
// *OperationError (stockout reasons, then the rpc code),
// a *googleapi.Error (stockout reasons, then the HTTP code refined by the rpc
// status and reasons) and network timeouts.
func Classify(err error) Class {
	if err == nil {
		return ClassUnknown
	}
	// First, so that "gave up at the deadline after a 503" is a deadline.
	if errors.Is(err, context.DeadlineExceeded) {
		return ClassDeadline
	}
	var ee *EndpointError
	if errors.As(err, &ee) && ee.notAPI() {
		return ClassNotAPI
	}
	var oe *OperationError
	if errors.As(err, &oe) {
		info := operationInfo(oe)
		if info.hasReason(stockoutReasons...) || oe.Code == codeResourceExhausted {
			return ClassCapacity
		}
		if c := classifyStatus(info); c != ClassUnknown {
			return c
		}
	}
	var ge *googleapi.Error
	if errors.As(err, &ge) {
		if c := classifyHTTP(googleapiInfo(ge)); c != ClassUnknown {
			return c
		}
	}
	var ne net.Error
	if (errors.As(err, &ne) && ne.Timeout()) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.ErrUnexpectedEOF) {
		return ClassTransient
	}
	return ClassUnknown
}

// classifyHTTP classifies a REST error by HTTP code, refined by status and reasons.
func classifyHTTP(info apiErrorInfo) Class {
	if info.hasReason(stockoutReasons...) {
		return ClassCapacity
	}
	switch info.httpCode {
	case http.StatusUnauthorized:
		return ClassUnauthenticated
	case http.StatusForbidden:
		// Some Google APIs still answer rate limits with 403 and these reasons.
		if info.hasReason("rateLimitExceeded", "userRateLimitExceeded", "RATE_LIMIT_EXCEEDED") {
			return ClassRateLimited
		}
		return ClassPermission
	case http.StatusNotFound:
		return ClassNotFound
	case http.StatusConflict:
		if info.status == "ABORTED" || info.hasReason("aborted", "ABORTED") {
			return ClassConflict
		}
		return ClassAlreadyExists
	case http.StatusBadRequest:
		if isConflictStatus(info) {
			return ClassConflict
		}
		return ClassInvalidArgument
	case http.StatusPreconditionFailed:
		return ClassConflict
	case http.StatusTooManyRequests:
		return ClassRateLimited
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return ClassTransient
	}
	return classifyStatus(info)
}

func isConflictStatus(info apiErrorInfo) bool {
	return info.status == "FAILED_PRECONDITION" || info.status == "ABORTED" ||
		info.hasReason("failedPrecondition", "FAILED_PRECONDITION", "aborted", "ABORTED")
}

// classifyStatus classifies by google.rpc status name alone.
func classifyStatus(info apiErrorInfo) Class {
	switch info.status {
	case "NOT_FOUND":
		return ClassNotFound
	case "ALREADY_EXISTS":
		return ClassAlreadyExists
	case "FAILED_PRECONDITION", "ABORTED":
		return ClassConflict
	case "RESOURCE_EXHAUSTED":
		return ClassRateLimited
	case "INTERNAL", "UNAVAILABLE":
		return ClassTransient
	case "PERMISSION_DENIED":
		return ClassPermission
	case "UNAUTHENTICATED":
		return ClassUnauthenticated
	case "INVALID_ARGUMENT", "OUT_OF_RANGE":
		return ClassInvalidArgument
	case "DEADLINE_EXCEEDED":
		return ClassDeadline
	}
	return ClassUnknown
}

// OperationUnavailable reports whether err is an operation that ended
// UNAVAILABLE (google.rpc.Code 14): the one status Google's AIP-194 says
// to retry (https://google.aip.dev/194). INTERNAL, also ClassTransient, is
// not: it reports a fault of the service that a retry may repeat.
func OperationUnavailable(err error) bool {
	var oe *OperationError
	return errors.As(err, &oe) && operationInfo(oe).status == "UNAVAILABLE" && Classify(err) == ClassTransient
}

// ZonesAvailable returns the zones a stockout error suggests instead, from the
// google.rpc.ErrorInfo metadata key "zones_available" or "zonesAvailable"
// (comma-separated), or nil when err carries none.
func ZonesAvailable(err error) []string {
	var meta map[string]string
	var oe *OperationError
	var ge *googleapi.Error
	switch {
	case errors.As(err, &oe):
		meta = oe.Metadata
	case errors.As(err, &ge):
		meta = googleapiInfo(ge).metadata
	}
	v, ok := meta["zones_available"]
	if !ok {
		v = meta["zonesAvailable"]
	}
	var zones []string
	for z := range strings.SplitSeq(v, ",") {
		if z = strings.TrimSpace(z); z != "" {
			zones = append(zones, z)
		}
	}
	return zones
}

// newOperationError builds an *OperationError from a google.rpc.Status.
func newOperationError(name string, code int, message string, details []json.RawMessage) *OperationError {
	var info apiErrorInfo
	info.parseDetails(details)
	return &OperationError{
		Operation: name,
		Code:      code,
		Status:    rpcCodeName(code),
		Message:   message,
		Reasons:   info.reasons,
		Metadata:  info.metadata,
	}
}

// APIError is a *googleapi.Error with a one-line message: HTTP code, status,
// reasons and the server's message, without the error details Google
// attaches (quota metadata, help links, request ids), which take a dozen
// lines. errors.As still finds the *googleapi.Error.
type APIError struct {
	Err *googleapi.Error
}

// Error returns "HTTP 429 RESOURCE_EXHAUSTED [RATE_LIMIT_EXCEEDED]: message".
func (e *APIError) Error() string {
	info := googleapiInfo(e.Err)
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP %d", e.Err.Code)
	if info.status != "" {
		b.WriteString(" " + info.status)
	}
	if len(info.reasons) > 0 {
		fmt.Fprintf(&b, " [%s]", strings.Join(info.reasons, ", "))
	}
	msg := e.Err.Message
	if msg == "" && len(e.Err.Errors) > 0 {
		msg = e.Err.Errors[0].Message
	}
	if msg != "" {
		b.WriteString(": " + msg)
	}
	return Printable(b.String())
}

// Unwrap returns the *googleapi.Error.
func (e *APIError) Unwrap() error { return e.Err }

// Compact returns err with a short message: a *googleapi.Error becomes an
// *APIError, and an *EndpointError is returned without the *url.Error
// around it (which repeats the request URL). Any other error is returned
// as is, so that wrapping it again is harmless. Classification is unchanged.
func Compact(err error) error {
	// Only the outermost error is replaced: an error wrapped with more
	// context keeps it.
	var ee *EndpointError
	if errors.As(err, &ee) {
		if _, ok := err.(*url.Error); ok { //nolint:errorlint // the outermost error only, see above
			return ee
		}
		return err
	}
	if ge, ok := err.(*googleapi.Error); ok { //nolint:errorlint // the outermost error only, see above
		return &APIError{Err: ge}
	}
	return err
}

// reasonInUse is Compute Engine's reason for a resource another one still
// uses, such as a resource policy that places a node pool's VMs (HTTP 400,
// "resourceInUseByAnotherResource").
const reasonInUse = "resourceInUseByAnotherResource"

// InUse reports whether err is Compute Engine's refusal to delete a
// resource another resource still uses.
func InUse(err error) bool {
	var gerr *googleapi.Error
	if !errors.As(err, &gerr) {
		return false
	}
	for _, e := range gerr.Errors {
		if e.Reason == reasonInUse {
			return true
		}
	}
	return false
}
