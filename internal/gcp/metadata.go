// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"errors"
	"net/http"
	"os"
	"strings"
	"time"

	"golang.org/x/oauth2/google"
)

// MetadataHostEnv names the metadata server the credential lookup asks
// instead of 169.254.169.254, as Google's metadata library reads it.
const MetadataHostEnv = "GCE_METADATA_HOST"

// metadataProbeTimeout bounds the check that the server MetadataHostEnv
// names is a metadata server.
const metadataProbeTimeout = 2 * time.Second

// errNoMetadataServer is the lookup's answer when nothing configures
// credentials and the server MetadataHostEnv names does not answer as a
// metadata server: what Google's lookup answers off Google Cloud.
var errNoMetadataServer = errors.New("google: could not find default credentials: no credentials file, and " +
	MetadataHostEnv + " names no metadata server (its answer lacks the Metadata-Flavor: Google header)")

// findDefaultCredentials is Google's application-default credentials
// lookup (google.FindDefaultCredentials), except for one step: when no
// credentials file is found and MetadataHostEnv names a metadata server,
// that server must answer as one (the response header "Metadata-Flavor:
// Google", the check Google's metadata library makes of 169.254.169.254)
// before its credentials are used. The library trusts the variable alone.
// Checking it lets a test point the lookup at a loopback server of its own
// that answers as no metadata server does, so that the lookup ends as it
// does off Google Cloud without a packet to 169.254.169.254 or a DNS query
// for metadata.google.internal.
func findDefaultCredentials(ctx context.Context, scopes ...string) (*google.Credentials, error) {
	if host := os.Getenv(MetadataHostEnv); host != "" && !adcFileFound() && !metadataServerAt(ctx, host) {
		return nil, errNoMetadataServer
	}
	return google.FindDefaultCredentials(ctx, scopes...)
}

// adcFileFound reports whether the lookup's first steps find a credentials
// file: GOOGLE_APPLICATION_CREDENTIALS, or gcloud's application-default
// file.
func adcFileFound() bool {
	if p := os.Getenv("GOOGLE_APPLICATION_CREDENTIALS"); p != "" && isFile(p) {
		return true
	}
	p := gcloudADCFile()
	return p != "" && isFile(p)
}

// metadataServerAt reports whether host answers "/" as a metadata server
// does: with the header Metadata-Flavor: Google.
func metadataServerAt(ctx context.Context, host string) bool {
	ctx, cancel := context.WithTimeout(ctx, metadataProbeTimeout)
	defer cancel()
	url := "http://" + strings.TrimSuffix(strings.TrimPrefix(host, "http://"), "/") + "/"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return false
	}
	req.Header.Set("Metadata-Flavor", "Google")
	client := &http.Client{Transport: &http.Transport{Proxy: nil}}
	res, err := client.Do(req)
	if err != nil {
		return false
	}
	defer func() { _ = res.Body.Close() }()
	return res.Header.Get("Metadata-Flavor") == "Google"
}
