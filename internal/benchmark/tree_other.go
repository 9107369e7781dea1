// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

//go:build !linux

package benchmark

import (
	"context"
	"os"
)

// maxRSS is not measured outside Linux, where ru_maxrss units differ.
func maxRSS(*os.ProcessState) int64 { return 0 }

type treeSampler struct{}

func startTreeSampler(context.Context, int) *treeSampler { return &treeSampler{} }

func (*treeSampler) stop() int64 { return 0 }
