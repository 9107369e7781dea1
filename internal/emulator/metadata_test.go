// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"net/http"
	"testing"
)

// TestRootIsNoMetadataServer: the emulator's address can be GCE_METADATA_HOST
// for a process that must behave as off Google Cloud: its root answers
// without the Metadata-Flavor header, which is what tells Google's metadata
// probe (and the provider's credential lookup) that no metadata server is
// there.
func TestRootIsNoMetadataServer(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, e.srv.URL()+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Metadata-Flavor", "Google")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = res.Body.Close() }()
	if got := res.Header.Get("Metadata-Flavor"); got != "" || res.StatusCode == http.StatusOK {
		t.Errorf("GET / answered %d with Metadata-Flavor %q, want an error without the header", res.StatusCode, got)
	}
}
