// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package devbuild

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// MetadataHostEnv is the variable through which Google's credential lookup
// finds the metadata server instead of 169.254.169.254.
const MetadataHostEnv = "GCE_METADATA_HOST"

var noMetadata = sync.OnceValue(func() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		// Nothing listens on port 1 of loopback as a rule: the probe is
		// refused there, which also reads as no metadata server.
		return "127.0.0.1:1"
	}
	srv := &http.Server{Handler: http.NotFoundHandler(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(l) }()
	return l.Addr().String()
})

// NoMetadataHost is the host:port of a loopback HTTP server, started once
// per process and kept for its lifetime, that answers every request 404
// without the Metadata-Flavor header. Naming it in MetadataHostEnv makes
// the provider's credential lookup end as it does off Google Cloud (no
// credentials) without a packet to 169.254.169.254 or a DNS query for
// metadata.google.internal (see gcp's findDefaultCredentials).
func NoMetadataHost() string { return noMetadata() }
