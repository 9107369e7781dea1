// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm_test

import (
	"context"
	"sort"
	"strings"

	"google.golang.org/api/option"
	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// sandboxTPU is a Cloud TPU API client for the checks that read a sandbox
// project directly, with Application Default Credentials.
func sandboxTPU(ctx context.Context) (*tpu.Service, error) {
	return tpu.NewService(ctx, option.WithScopes("https://www.googleapis.com/auth/cloud-platform"))
}

// queuedStates returns the states of the queued resources named name: in
// any zone of the emulator, in the target's zone of a sandbox project.
func queuedStates(tg *acctest.Target, name string) ([]string, error) {
	var out []string
	if tg.Emulator != nil {
		for _, qr := range tg.Emulator.QueuedResources() {
			if strings.HasSuffix(qr.Name, "/queuedResources/"+name) {
				out = append(out, qr.State)
			}
		}
		return out, nil
	}
	ctx := context.Background()
	svc, err := sandboxTPU(ctx)
	if err != nil {
		return nil, err
	}
	qr, err := svc.Projects.Locations.QueuedResources.Get("projects/" + tg.Project + "/locations/" + tg.Zone + "/queuedResources/" + name).Context(ctx).Do()
	if gcp.Classify(err) == gcp.ClassNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if qr.State != nil {
		out = append(out, qr.State.State)
	}
	return out, nil
}

// slicesNamed returns the nodes named name followed by a dash (the slices
// of a multislice VM), sorted by name: in any zone of the emulator, in the
// target's zone of a sandbox project.
func slicesNamed(tg *acctest.Target, name string) ([]*tpu.Node, error) {
	var out []*tpu.Node
	keep := func(nodes []*tpu.Node) {
		for _, n := range nodes {
			if strings.Contains(n.Name, "/nodes/"+name+"-") {
				out = append(out, n)
			}
		}
	}
	if tg.Emulator != nil {
		keep(tg.Emulator.Nodes())
	} else {
		ctx := context.Background()
		svc, err := sandboxTPU(ctx)
		if err != nil {
			return nil, err
		}
		err = svc.Projects.Locations.Nodes.List("projects/"+tg.Project+"/locations/"+tg.Zone).Pages(ctx, func(r *tpu.ListNodesResponse) error {
			keep(r.Nodes)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
