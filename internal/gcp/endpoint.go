// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The provider settings and environment variables that choose each API's
// endpoint, named by errors that suggest checking them.
const (
	TPUEndpointSetting       = "tpu_endpoint"
	TPUEndpointEnv           = "ACCEL_TPU_ENDPOINT"
	ContainerEndpointSetting = "container_endpoint"
	ContainerEndpointEnv     = "ACCEL_CONTAINER_ENDPOINT"
	ComputeEndpointSetting   = "compute_endpoint"
	ComputeEndpointEnv       = "ACCEL_COMPUTE_ENDPOINT"
)

// The default endpoints of google.golang.org/api, named in errors when no
// endpoint is configured.
const (
	defaultTPUEndpoint       = "https://tpu.googleapis.com/"
	defaultContainerEndpoint = "https://container.googleapis.com/"
	defaultComputeEndpoint   = "https://compute.googleapis.com/compute/v1/"
)

// maxErrorBody is how much of an error answer is read to check that it is a
// Google error: the APIs' error bodies are a few kilobytes at most.
const maxErrorBody = 1 << 20

// snippetLen is how many bytes of an answer an EndpointError quotes.
const snippetLen = 100

// endpointRef names one API's endpoint and the settings that choose it.
type endpointRef struct {
	api     string // "Cloud TPU API" or "GKE API"
	url     string // the configured endpoint, or Google's default
	setting string
	env     string
}

// EndpointError means the endpoint did not answer like the API: with HTML, a
// content type other than JSON, an error status without Google's JSON error
// body, or a JSON body that does not parse. This is what a proxy's login
// page, a wrong host or port, or a load balancer in front of nothing looks
// like. Such answers are retried a few times only (see [Retry]). When Err is
// set, no answer came at all (for example, the connection was refused); Err
// is the cause and the error is classified by it.
type EndpointError struct {
	// API is "Cloud TPU API" or "GKE API".
	API string
	// Endpoint is the base URL that was called.
	Endpoint string
	// Setting and Env are the provider argument and the environment variable
	// that choose Endpoint.
	Setting string
	Env     string
	// Method and Path are the request, without its query.
	Method string
	Path   string
	// Status, ContentType and Body describe the answer; Body is its first
	// bytes, with control characters and runs of white space replaced.
	Status      int
	ContentType string
	Body        string
	// Problem says what is wrong with the answer, for example "not JSON".
	Problem string
	// Err is the network error when there was no answer.
	Err error
	// NoAnswer is set when the request was sent and no answer came before
	// the call's deadline; Err is then the deadline, with its cause.
	NoAnswer bool
}

// Error returns what came back, from where, and which setting to check.
func (e *EndpointError) Error() string {
	check := fmt.Sprintf("check the provider's %s (or %s) and any proxy between Terraform and the API", e.Setting, e.Env)
	if e.NoAnswer {
		return fmt.Sprintf("the %s at %s gave no answer to %s %s before the call's time limit ended (%v); %s",
			e.API, e.Endpoint, e.Method, e.Path, e.Err, check)
	}
	if e.Err != nil {
		return fmt.Sprintf("the %s at %s could not be reached (%s %s): %v; %s",
			e.API, e.Endpoint, e.Method, e.Path, e.Err, check)
	}
	ct := e.ContentType
	if ct == "" {
		ct = "none"
	}
	body := "empty"
	if e.Body != "" {
		body = fmt.Sprintf("%q", e.Body)
	}
	return fmt.Sprintf("the %s endpoint %s did not answer like the API (%s): %s %s returned HTTP %d, Content-Type %s, body %s; %s",
		e.API, e.Endpoint, e.Problem, e.Method, e.Path, e.Status, ct, body, check)
}

// Unwrap returns the network error, if any.
func (e *EndpointError) Unwrap() error { return e.Err }

// notAPI reports whether e means the endpoint answered, but not like the API.
func (e *EndpointError) notAPI() bool { return e.Err == nil }

// answerCheck is the transport under authentication that turns answers the
// API would never give into an *EndpointError, and network failures into
// one that names the endpoint setting.
type answerCheck struct {
	base http.RoundTripper
	ref  endpointRef
	// limit bounds the body of a successful answer (MaxAnswerBytes).
	limit int64
}

// MaxAnswerBytes bounds the body of an API answer the provider reads. The
// largest answers it asks for are lists (a zone's TPU VMs, a cluster's node
// pools, a region's quotas), a few megabytes at most: an endpoint that
// sends more is not answering like the API, and reading it whole would
// only use up memory.
const MaxAnswerBytes = 64 << 20

// AnswerTooLargeError is an answer whose body exceeds the bound.
type AnswerTooLargeError struct {
	Endpoint, Method, Path, Setting, Env string
	Limit                                int64
}

func (e *AnswerTooLargeError) Error() string {
	return fmt.Sprintf("the answer of the endpoint %s to %s %s is larger than %d bytes, more than the API ever sends: stopped "+
		"reading it; check the provider's %s (or %s) and any proxy between Terraform and the API",
		e.Endpoint, e.Method, e.Path, e.Limit, e.Setting, e.Env)
}

// boundedBody reads a body up to limit bytes, then fails with
// *AnswerTooLargeError if more follows.
type boundedBody struct {
	io.ReadCloser
	left int64
	err  *AnswerTooLargeError
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		var one [1]byte
		if n, err := b.ReadCloser.Read(one[:]); n == 0 {
			return 0, err
		}
		return 0, b.err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	return n, err
}

func (a *answerCheck) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := a.base.RoundTrip(req)
	if err != nil {
		ctx := req.Context()
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			// The time limit is ours, but it ended while the endpoint kept
			// silent: say which endpoint, which call, and what limit (the
			// deadline's cause, such as the retry bound of a refresh).
			e := a.endpointError(req)
			e.Err, e.NoAnswer = deadlineWithCause(ctx), true
			// The API client answers ctx.Err() in place of a transport
			// error once ctx is done: Retry takes this one from ctx.
			if h, ok := ctx.Value(silentKey{}).(*silentHolder); ok {
				h.set(e)
			}
			return nil, e
		}
		if ctx.Err() != nil {
			return nil, err // cancelled: the cause is ours, not the endpoint's
		}
		e := a.endpointError(req)
		e.Err = err
		return nil, e
	}
	return a.check(req, resp)
}

// check passes resp on when it is a JSON answer, and a JSON Google error
// envelope when its status is an error; otherwise it closes resp and returns
// an *EndpointError.
func (a *answerCheck) check(req *http.Request, resp *http.Response) (*http.Response, error) {
	ct := resp.Header.Get("Content-Type")
	media, _, _ := mime.ParseMediaType(ct)
	isJSON := media == "application/json" || strings.HasSuffix(media, "+json")
	if ct != "" && !isJSON {
		return nil, a.reject(req, resp, "not JSON", ct)
	}
	if resp.StatusCode < 400 && isJSON {
		if a.limit > 0 {
			resp.Body = &boundedBody{ReadCloser: resp.Body, left: a.limit, err: &AnswerTooLargeError{
				Endpoint: a.ref.url, Method: req.Method, Path: req.URL.Path, Setting: a.ref.setting, Env: a.ref.env, Limit: a.limit}}
		}
		return a.checkJSONStart(req, resp, ct)
	}
	// An error status, or no content type: read the body to judge it. Both
	// are small (an error envelope), or the answer is not the API's anyway.
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	_ = resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("reading the answer of %s %s: %w", req.Method, req.URL.Path, err)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	switch {
	case resp.StatusCode >= 400 && !isGoogleError(body):
		return nil, a.answerError(req, resp, "an error status without a Google JSON error", ct, body)
	case resp.StatusCode < 400 && !json.Valid(body):
		return nil, a.answerError(req, resp, "not JSON", ct, body)
	}
	return resp, nil
}

// checkJSONStart passes resp on when its body starts like JSON (after white
// space), so that a page labelled as JSON is reported as what it is rather
// than as a JSON syntax error.
func (a *answerCheck) checkJSONStart(req *http.Request, resp *http.Response, ct string) (*http.Response, error) {
	br := bufio.NewReader(resp.Body)
	resp.Body = readCloser{br, resp.Body}
	if c, ok := firstNonSpace(br); ok && c != '{' && c != '[' {
		return nil, a.reject(req, resp, "not JSON", ct)
	}
	return resp, nil // JSON, or empty or all white space (the client reports that)
}

// firstNonSpace peeks at the first byte of br after JSON white space, within
// the first few hundred bytes.
func firstNonSpace(br *bufio.Reader) (byte, bool) {
	for i := 0; i < 4*snippetLen; i++ {
		head, err := br.Peek(i + 1)
		if err != nil {
			return 0, false
		}
		if c := head[i]; c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return c, true
		}
	}
	return 0, false
}

// readCloser reads from a buffer over a body and closes the body.
type readCloser struct {
	io.Reader
	io.Closer
}

// reject reads the start of resp's body for the error and closes it.
func (a *answerCheck) reject(req *http.Request, resp *http.Response, problem, ct string) error {
	head, _ := io.ReadAll(io.LimitReader(resp.Body, 4*snippetLen))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBody)) // so the connection can be reused
	_ = resp.Body.Close()
	return a.answerError(req, resp, problem, ct, head)
}

func (a *answerCheck) answerError(req *http.Request, resp *http.Response, problem, ct string, body []byte) error {
	e := a.endpointError(req)
	e.Status, e.ContentType, e.Body, e.Problem = resp.StatusCode, ct, snippet(body), problem
	return e
}

func (a *answerCheck) endpointError(req *http.Request) *EndpointError {
	return &EndpointError{
		API: a.ref.api, Endpoint: a.ref.url, Setting: a.ref.setting, Env: a.ref.env,
		Method: req.Method, Path: req.URL.Path,
	}
}

// isGoogleError reports whether body is the JSON error envelope of Google
// APIs: {"error": {"code": ..., "message": ...}}.
func isGoogleError(body []byte) bool {
	var env struct {
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	return json.Unmarshal(body, &env) == nil && env.Error != nil && (env.Error.Code != 0 || env.Error.Message != "")
}

// snippet returns the first snippetLen bytes of b as printable text: control
// characters become spaces, runs of white space one space, invalid UTF-8 is
// dropped, and "..." marks a cut.
func snippet(b []byte) string {
	var out strings.Builder
	space := false
	for len(b) > 0 && out.Len() < snippetLen {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		switch {
		case r == utf8.RuneError && size <= 1:
			continue
		case unicode.IsSpace(r) || !unicode.IsPrint(r):
			space = out.Len() > 0
			continue
		}
		if space {
			out.WriteByte(' ')
			space = false
		}
		out.WriteRune(r)
	}
	s := out.String()
	if len(b) > 0 && strings.TrimSpace(string(b)) != "" {
		s += "..."
	}
	return s
}

// Summary returns a short diagnostic summary for err when the endpoint is at
// fault (it could not be reached, or did not answer like the API), and
// fallback otherwise.
func Summary(err error, fallback string) string {
	var ee *EndpointError
	if !errors.As(err, &ee) {
		return fallback
	}
	if ee.notAPI() {
		return "Unexpected Answer from the " + ee.API + " Endpoint"
	}
	return ee.API + " Endpoint Not Reachable"
}

// deadlineWithCause is context.DeadlineExceeded, with the cause ctx's
// deadline was given when it has one.
func deadlineWithCause(ctx context.Context) error {
	// A cause that says more than the bare deadline (such as Retry's
	// "gave up retrying after 2m0s") already wraps it.
	if cause := context.Cause(ctx); errors.Is(cause, context.DeadlineExceeded) {
		return cause
	}
	return context.DeadlineExceeded
}

// silentKey is the context key of a *silentHolder.
type silentKey struct{}

// silentHolder keeps the *EndpointError of a call the endpoint never
// answered, for Retry to return in place of the bare deadline the API
// client reports.
type silentHolder struct {
	mu  sync.Mutex
	err *EndpointError
}

func (h *silentHolder) set(e *EndpointError) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.err = e
}

func (h *silentHolder) get() *EndpointError {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.err
}

// withSilentHolder returns ctx with a new holder.
func withSilentHolder(ctx context.Context) (context.Context, *silentHolder) {
	h := &silentHolder{}
	return context.WithValue(ctx, silentKey{}, h), h
}
