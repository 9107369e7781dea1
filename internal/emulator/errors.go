// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"encoding/json"
	"fmt"
	"net/http"

	"google.golang.org/api/googleapi"
)

// Canonical google.rpc.Code names used in error bodies and operation errors.
// Source: https://cloud.google.com/apis/design/errors#handling_errors and
// https://github.com/googleapis/googleapis/blob/master/google/rpc/code.proto.
const (
	statusCancelled          = "CANCELLED"
	statusUnknown            = "UNKNOWN"
	statusInvalidArgument    = "INVALID_ARGUMENT"
	statusDeadlineExceeded   = "DEADLINE_EXCEEDED"
	statusNotFound           = "NOT_FOUND"
	statusAlreadyExists      = "ALREADY_EXISTS"
	statusPermissionDenied   = "PERMISSION_DENIED"
	statusResourceExhausted  = "RESOURCE_EXHAUSTED"
	statusFailedPrecondition = "FAILED_PRECONDITION"
	statusAborted            = "ABORTED"
	statusUnimplemented      = "UNIMPLEMENTED"
	statusInternal           = "INTERNAL"
	statusUnavailable        = "UNAVAILABLE"
	statusUnauthenticated    = "UNAUTHENTICATED"
)

// rpcCodes maps a canonical status name to its google.rpc.Code number and the
// HTTP status the REST mapping uses for it.
var rpcCodes = map[string]struct{ rpc, http int }{
	statusCancelled:          {1, 499},
	statusUnknown:            {2, http.StatusInternalServerError},
	statusInvalidArgument:    {3, http.StatusBadRequest},
	statusDeadlineExceeded:   {4, http.StatusGatewayTimeout},
	statusNotFound:           {5, http.StatusNotFound},
	statusAlreadyExists:      {6, http.StatusConflict},
	statusPermissionDenied:   {7, http.StatusForbidden},
	statusResourceExhausted:  {8, http.StatusTooManyRequests},
	statusFailedPrecondition: {9, http.StatusBadRequest},
	statusAborted:            {10, http.StatusConflict},
	statusUnimplemented:      {12, http.StatusNotImplemented},
	statusInternal:           {13, http.StatusInternalServerError},
	statusUnavailable:        {14, http.StatusServiceUnavailable},
	statusUnauthenticated:    {16, http.StatusUnauthorized},
}

// statusForRPC returns the canonical name of a google.rpc.Code number.
func statusForRPC(code int) string {
	for name, c := range rpcCodes {
		if c.rpc == code {
			return name
		}
	}
	return statusUnknown
}

// statusForHTTP picks the canonical status an injected HTTP failure carries,
// with the stock message Google front ends use for it.
func statusForHTTP(code int) (status, message string) {
	switch code {
	case http.StatusBadRequest:
		return statusInvalidArgument, "Request contains an invalid argument."
	case http.StatusUnauthorized:
		return statusUnauthenticated, "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential."
	case http.StatusForbidden:
		return statusPermissionDenied, "The caller does not have permission"
	case http.StatusNotFound:
		return statusNotFound, "Requested entity was not found."
	case http.StatusConflict:
		return statusAborted, "The operation was aborted."
	case http.StatusPreconditionFailed:
		return statusFailedPrecondition, "Precondition check failed."
	case http.StatusTooManyRequests:
		return statusResourceExhausted, "Resource has been exhausted (e.g. check quota)."
	case 499:
		return statusCancelled, "The operation was cancelled."
	case http.StatusNotImplemented:
		return statusUnimplemented, "Operation is not implemented, or supported, or enabled."
	case http.StatusBadGateway, http.StatusServiceUnavailable:
		return statusUnavailable, "The service is currently unavailable."
	case http.StatusGatewayTimeout:
		return statusDeadlineExceeded, "The request timed out."
	case http.StatusInternalServerError:
		return statusInternal, "Internal error encountered."
	default:
		return statusUnknown, "Unknown error."
	}
}

// Type URLs of the google.rpc error details the emulator emits. Every detail
// must be a registered errdetails message with exactly these JSON fields,
// because the Go clients parse error bodies with protojson, which rejects
// unknown fields and unknown types.
const (
	typeErrorInfo    = "type.googleapis.com/google.rpc.ErrorInfo"
	typeRequestInfo  = "type.googleapis.com/google.rpc.RequestInfo"
	typeResourceInfo = "type.googleapis.com/google.rpc.ResourceInfo"
	typeBadRequest   = "type.googleapis.com/google.rpc.BadRequest"
)

// apiError is a google.rpc.Status answered synchronously over HTTP.
type apiError struct {
	status    string
	message   string
	details   []any
	forceHTTP int  // answer with this HTTP status instead of the canonical one
	html      bool // answer htmlPage instead of the error (AnswerHTML)
	// legacy is the "errors" list that Compute Engine answers instead of
	// status and details.
	legacy []legacyError
}

// legacyError is one entry of the "errors" list of the Google JSON APIs'
// error envelope.
type legacyError struct {
	Message string `json:"message"`
	Domain  string `json:"domain"`
	Reason  string `json:"reason"`
}

// htmlPage is what AnswerHTML answers: a sign-in page of a web proxy.
const htmlPage = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Sign in to continue</title></head>
<body>
<h1>Authentication required</h1>
<p>Your request was intercepted by the network proxy. Sign in to continue.</p>
<form method="post" action="/login"><input name="user"><input name="password" type="password"><button>Sign in</button></form>
</body>
</html>
`

func (e *apiError) Error() string { return e.status + ": " + e.message }

// httpCode is the HTTP status the error is answered with.
func (e *apiError) httpCode() int {
	if e.forceHTTP != 0 {
		return e.forceHTTP
	}
	if c, ok := rpcCodes[e.status]; ok {
		return c.http
	}
	return http.StatusInternalServerError
}

func newError(status, format string, args ...any) *apiError {
	return &apiError{status: status, message: fmt.Sprintf(format, args...)}
}

// with appends error details.
func (e *apiError) with(details ...any) *apiError {
	e.details = append(e.details, details...)
	return e
}

// errorInfo is a google.rpc.ErrorInfo detail.
func errorInfo(reason, domain string, metadata map[string]string) map[string]any {
	d := map[string]any{"@type": typeErrorInfo, "reason": reason, "domain": domain}
	if len(metadata) > 0 {
		d["metadata"] = metadata
	}
	return d
}

// requestInfo is a google.rpc.RequestInfo detail; GKE attaches one to most errors.
func requestInfo(id string) map[string]any {
	return map[string]any{"@type": typeRequestInfo, "requestId": id}
}

// resourceInfo is a google.rpc.ResourceInfo detail.
func resourceInfo(resourceType, name string) map[string]any {
	return map[string]any{"@type": typeResourceInfo, "resourceType": resourceType, "resourceName": name}
}

// badRequest is a google.rpc.BadRequest detail with one field violation.
func badRequest(field, description string) map[string]any {
	return map[string]any{
		"@type":           typeBadRequest,
		"fieldViolations": []any{map[string]any{"field": field, "description": description}},
	}
}

// errorBody is the JSON error envelope of Google REST APIs:
// {"error":{"code":404,"message":"...","status":"NOT_FOUND","details":[...]}}.
type errorBody struct {
	Error errorPayload `json:"error"`
}

type errorPayload struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Status  string `json:"status"`
	Details []any  `json:"details"`
}

// legacyBody is the error envelope of Compute Engine:
// {"error":{"code":404,"message":"...","errors":[{"message":...,"domain":...,"reason":...}]}}.
type legacyBody struct {
	Error struct {
		Code    int           `json:"code"`
		Message string        `json:"message"`
		Errors  []legacyError `json:"errors"`
	} `json:"error"`
}

func (e *apiError) body() any {
	if e.legacy != nil {
		var b legacyBody
		b.Error.Code, b.Error.Message, b.Error.Errors = e.httpCode(), e.message, e.legacy
		return b
	}
	details := e.details
	if details == nil {
		details = []any{}
	}
	return errorBody{Error: errorPayload{Code: e.httpCode(), Message: e.message, Status: e.status, Details: details}}
}

// rpcStatus is the google.rpc.Status carried in a finished operation's error.
type rpcStatus struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Details []any  `json:"details,omitempty"`
}

// rawDetails marshals details for the generated Status structs.
func rawDetails(details []any) []googleapi.RawMessage {
	out := make([]googleapi.RawMessage, 0, len(details))
	for _, d := range details {
		b, err := json.Marshal(d)
		if err != nil {
			continue
		}
		out = append(out, b)
	}
	return out
}

// writeJSON answers v as JSON with the given HTTP status.
func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		code = http.StatusInternalServerError
		b, _ = json.Marshal(newError(statusInternal, "Internal error encountered.").body())
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(code)
	_, _ = w.Write(b)
	_, _ = w.Write([]byte("\n"))
}

// writeError answers e in the Google error envelope.
func writeError(w http.ResponseWriter, e *apiError) {
	writeJSON(w, e.httpCode(), e.body())
}
