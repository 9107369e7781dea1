// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package autoclass_test

import (
	"os"
	"testing"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// TestMain builds the provider once for the tests that run it as a
// separate process (acctest.Main).
func TestMain(m *testing.M) { os.Exit(acctest.Main(m)) }
