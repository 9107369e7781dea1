// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestFindDefaultCredentialsMetadataHost: with no credentials file, a
// GCE_METADATA_HOST that answers as no metadata server does ends the lookup
// as off Google Cloud (no credentials), and one that answers as a metadata
// server gives its credentials.
func TestFindDefaultCredentialsMetadataHost(t *testing.T) {
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", "")
	t.Setenv("CLOUDSDK_CONFIG", t.TempDir())
	var probes int
	none := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		probes++
		http.NotFound(w, nil)
	}))
	defer none.Close()
	metadata := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Metadata-Flavor", "Google")
		_, _ = w.Write([]byte("computeMetadata/\n"))
	}))
	defer metadata.Close()
	ctx := context.Background()

	t.Setenv(MetadataHostEnv, strings.TrimPrefix(none.URL, "http://"))
	if _, err := findDefaultCredentials(ctx, cloudPlatformScope); !errors.Is(err, errNoMetadataServer) {
		t.Errorf("lookup against a server that is no metadata server: %v, want errNoMetadataServer", err)
	}
	if probes != 1 {
		t.Errorf("%d probes of the server, want 1", probes)
	}
	t.Setenv(MetadataHostEnv, strings.TrimPrefix(metadata.URL, "http://"))
	if creds, err := findDefaultCredentials(ctx, cloudPlatformScope); err != nil || creds == nil {
		t.Errorf("lookup against a metadata server: %v, want its credentials", err)
	}
	// The provider's error says how to authenticate.
	t.Setenv(MetadataHostEnv, strings.TrimPrefix(none.URL, "http://"))
	if _, err := NewClients(Config{}).tokenSource(ctx); err == nil || !strings.Contains(err.Error(), "gcloud auth application-default login") {
		t.Errorf("token source without credentials: %v, want the how-to", err)
	}
}
