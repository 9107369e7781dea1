// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	compute "google.golang.org/api/compute/v1"
	container "google.golang.org/api/container/v1"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"
	tpu "google.golang.org/api/tpu/v2"
)

// These tests drive the emulator the way the google and google-beta
// Terraform providers drive the real APIs, with the same Google API clients
// and endpoint settings, so that configurations written for those providers
// can be tested offline.

// igmURLRE is how the google provider takes a node pool's instanceGroupUrls
// apart before it reads each group's size from Compute Engine.
var igmURLRE = regexp.MustCompile(`projects/([a-z0-9-]+)/zones/([a-z0-9-]*)/instanceGroupManagers/([^/]*)`)

// isNotFound is the google provider's IsGoogleApiErrorWithCode(err, 404).
func isNotFound(err error) bool {
	var gerr *googleapi.Error
	return errors.As(err, &gerr) && gerr.Code == http.StatusNotFound
}

func computeClient(t *testing.T, srv *Server) *compute.Service {
	t.Helper()
	svc, err := compute.NewService(context.Background(), option.WithEndpoint(srv.ComputeEndpoint()), option.WithoutAuthentication())
	if err != nil {
		t.Fatalf("compute.NewService: %v", err)
	}
	return svc
}

// poolSize reads a node pool's size as google_container_node_pool does: the
// average targetSize of its instance group managers, skipping groups that
// answer 404.
func poolSize(t *testing.T, gce *compute.Service, np *container.NodePool) (size int64, groups int) {
	t.Helper()
	var total int64
	for _, u := range np.InstanceGroupUrls {
		m := igmURLRE.FindStringSubmatch(u)
		if m == nil {
			t.Fatalf("instance group URL %q is not an instanceGroupManagers URL", u)
		}
		igm, err := gce.InstanceGroupManagers.Get(m[1], m[2], m[3]).Do()
		if isNotFound(err) {
			continue
		}
		if err != nil {
			t.Fatalf("instanceGroupManagers.get %s: %v", u, err)
		}
		if igm.SelfLink != u || !strings.HasSuffix(igm.InstanceGroup, "/instanceGroups/"+m[3]) || igm.Name != m[3] {
			t.Errorf("group %s: selfLink %s instanceGroup %s name %s", u, igm.SelfLink, igm.InstanceGroup, igm.Name)
		}
		total += igm.TargetSize
		groups++
	}
	if groups == 0 {
		return 0, 0
	}
	return total / int64(groups), groups
}

func TestGoogleProviderNodePoolSizeFromInstanceGroups(t *testing.T) {
	t.Parallel()
	e := start(t, nil)
	gce := computeClient(t, e.srv)
	np := gpuPool("l4")
	np.InitialNodeCount = 2
	if _, err := e.createPool(serving, np); err != nil {
		t.Fatalf("create: %v", err)
	}
	e.tick()
	got := e.pool(t, serving, "l4")
	for _, u := range got.InstanceGroupUrls {
		if !strings.HasPrefix(u, e.srv.URL()+"/compute/v1/projects/"+project+"/zones/") {
			t.Errorf("instance group URL %s does not point at the emulator", u)
		}
	}
	if size, groups := poolSize(t, gce, got); size != 2 || groups != 2 {
		t.Errorf("size from instance groups = %d in %d groups, want 2 in 2", size, groups)
	}

	// The size follows the pool.
	if _, err := e.gke.Projects.Locations.Clusters.NodePools.SetSize(serving+"/nodePools/l4", &container.SetNodePoolSizeRequest{NodeCount: 3}).Do(); err != nil {
		t.Fatalf("setSize: %v", err)
	}
	e.tick()
	if size, _ := poolSize(t, gce, e.pool(t, serving, "l4")); size != 3 {
		t.Errorf("size after setSize 3 = %d", size)
	}

	// List shows the pool's group in each of its zones, and only there.
	for zone, want := range map[string]int{"us-central1-a": 1, "us-central1-b": 1, "us-central1-c": 0} {
		var names []string
		err := gce.InstanceGroupManagers.List(project, zone).Pages(context.Background(), func(l *compute.InstanceGroupManagerList) error {
			for _, igm := range l.Items {
				if strings.Contains(igm.Name, "-l4-") {
					names = append(names, igm.Name)
					if igm.TargetSize != 3 {
						t.Errorf("listed %s in %s: targetSize %d, want 3", igm.Name, zone, igm.TargetSize)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatalf("instanceGroupManagers.list %s: %v", zone, err)
		}
		if len(names) != want {
			t.Errorf("groups of l4 listed in %s = %v, want %d", zone, names, want)
		}
	}

	// Once the pool is gone its groups answer Compute Engine's 404, which the
	// google provider reads as a stale group.
	if _, err := e.gke.Projects.Locations.Clusters.NodePools.Delete(serving + "/nodePools/l4").Do(); err != nil {
		t.Fatalf("delete: %v", err)
	}
	e.tick()
	m := igmURLRE.FindStringSubmatch(got.InstanceGroupUrls[0])
	_, err := gce.InstanceGroupManagers.Get(m[1], m[2], m[3]).Do()
	var gerr *googleapi.Error
	if !errors.As(err, &gerr) || gerr.Code != http.StatusNotFound {
		t.Fatalf("get of a deleted pool's group: %v, want a 404", err)
	}
	if len(gerr.Errors) != 1 || gerr.Errors[0].Reason != "notFound" || !strings.Contains(gerr.Message, "instanceGroupManagers/"+m[3]+"' was not found") {
		t.Errorf("404 = message %q errors %+v, want Compute Engine's notFound", gerr.Message, gerr.Errors)
	}
	_, err = gce.InstanceGroupManagers.Get(project, "us-central9-z", m[3]).Do()
	if !isNotFound(err) {
		t.Errorf("get in an unknown zone: %v, want a 404", err)
	}
}

// A method the emulator does not serve is not answered with a 404: clients
// would read it as "the resource is gone".
func TestUnservedMethodIsNotNotFound(t *testing.T) {
	t.Parallel()
	e := start(t, nil)
	gce := computeClient(t, e.srv)
	_, err := gce.Disks.Get(project, "us-central1-a", "gke-serving-default-pool-0000").Do()
	var gerr *googleapi.Error
	if !errors.As(err, &gerr) || gerr.Code != http.StatusNotImplemented {
		t.Fatalf("disks.get = %v, want 501", err)
	}
	_, err = e.gke.Projects.Locations.Clusters.NodePools.Rollback(serving+"/nodePools/default-pool", &container.RollbackNodePoolUpgradeRequest{}).Do()
	checkErr(t, err, wantErr{501, statusUnimplemented, "", "Method not implemented by the emulator: POST /v1/" + serving + "/nodePools/default-pool:rollback"})
}

// google-beta's google_tpu_v2_vm changes data disks in place, with
// updateMask=dataDisks on the v2alpha1 API, as gcloud's tpu-vm attach-disk
// does on v2.
func TestTPUPatchDataDisks(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	parent := zoneParent("us-central1-a")
	name := parent + "/nodes/disks"
	if _, err := e.tpu.Projects.Locations.Nodes.Create(parent, &tpu.Node{AcceleratorType: "v5litepod-4", RuntimeVersion: "v2-alpha-tpuv5-lite"}).NodeId("disks").Do(); err != nil {
		t.Fatal(err)
	}
	e.tick()
	disk := "projects/" + project + "/zones/us-central1-a/disks/"
	op, err := e.tpu.Projects.Locations.Nodes.Patch(name, &tpu.Node{DataDisks: []*tpu.AttachedDisk{{SourceDisk: disk + "a", Mode: "READ_WRITE"}}}).UpdateMask("dataDisks").Do()
	if err != nil {
		t.Fatalf("patch dataDisks on v2: %v", err)
	}
	e.tick()
	if op, err = e.tpu.Projects.Locations.Operations.Get(op.Name).Do(); err != nil || !op.Done || op.Error != nil {
		t.Fatalf("patch operation = %+v, %v", op, err)
	}
	n, err := e.tpu.Projects.Locations.Nodes.Get(name).Do()
	if err != nil {
		t.Fatal(err)
	}
	if len(n.DataDisks) != 1 || n.DataDisks[0].SourceDisk != disk+"a" {
		t.Errorf("data disks after attach = %+v", n.DataDisks)
	}

	// The raw request google-beta sends: v2alpha1, the full node in the body,
	// only dataDisks in the mask. Other fields in the body stay as they are.
	body := `{"dataDisks":[{"sourceDisk":"` + disk + `b","mode":"READ_ONLY"}],"description":"not in the mask"}`
	req, _ := http.NewRequest(http.MethodPatch, e.srv.URL()+"/v2alpha1/"+name+"?alt=json&updateMask=dataDisks", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("v2alpha1 patch dataDisks: %d %s", resp.StatusCode, b)
	}
	var raw struct{ Name string }
	if err := json.Unmarshal(b, &raw); err != nil || raw.Name == "" {
		t.Fatalf("v2alpha1 patch answer %s is not an operation", b)
	}
	e.tick()
	n, err = e.tpu.Projects.Locations.Nodes.Get(name).Do()
	if err != nil {
		t.Fatal(err)
	}
	if len(n.DataDisks) != 1 || n.DataDisks[0].SourceDisk != disk+"b" || n.DataDisks[0].Mode != "READ_ONLY" || n.Description != "" {
		t.Errorf("after v2alpha1 patch: disks %+v description %q", n.DataDisks, n.Description)
	}
}

// TestGoogleProviderNodePoolProductionSettings: a node pool with the
// node_config settings a platform team sets (node version, gVNIC, Fast
// Socket, Confidential Nodes, private nodes, Resource Manager tags, boot
// disk key, GKE Sandbox, secondary boot disks, kubelet and Linux
// settings, private registries, a pod range, additional networks,
// blue-green upgrades) is created and read back as sent, and the updates
// google_container_node_pool sends one field at a time apply.
func TestGoogleProviderNodePoolProductionSettings(t *testing.T) {
	t.Parallel()
	e := start(t, nil)
	np := gpuPool("hardened")
	np.Version = "1.32.9-gke.1000000"
	cfg := np.Config
	cfg.Gvnic = &container.VirtualNIC{Enabled: true}
	cfg.FastSocket = &container.FastSocket{Enabled: true}
	cfg.ConfidentialNodes = &container.ConfidentialNodes{Enabled: false, ForceSendFields: []string{"Enabled"}}
	cfg.ResourceManagerTags = &container.ResourceManagerTags{Tags: map[string]string{"tagKeys/1": "tagValues/2"}}
	cfg.BootDiskKmsKey = "projects/kms/locations/us-central1/keyRings/r/cryptoKeys/k"
	cfg.SandboxConfig = &container.SandboxConfig{Type: "GVISOR"}
	cfg.SecondaryBootDisks = []*container.SecondaryBootDisk{{DiskImage: "global/images/cache", Mode: "CONTAINER_IMAGE_CACHE"}}
	cfg.KubeletConfig = &container.NodeKubeletConfig{CpuManagerPolicy: "static", PodPidsLimit: 4096}
	cfg.LinuxNodeConfig = &container.LinuxNodeConfig{Sysctls: map[string]string{"net.core.somaxconn": "4096"}}
	cfg.ContainerdConfig = &container.ContainerdConfig{PrivateRegistryAccessConfig: &container.PrivateRegistryAccessConfig{Enabled: true,
		CertificateAuthorityDomainConfig: []*container.CertificateAuthorityDomainConfig{{Fqdns: []string{"r.internal"},
			GcpSecretManagerCertificateConfig: &container.GCPSecretManagerCertificateConfig{SecretUri: "projects/p/secrets/ca/versions/1"}}}}}
	np.NetworkConfig = &container.NodeNetworkConfig{CreatePodRange: true, PodRange: "hardened-pods", PodIpv4CidrBlock: "/20",
		EnablePrivateNodes:           true,
		AdditionalNodeNetworkConfigs: []*container.AdditionalNodeNetworkConfig{{Network: "gpu-net", Subnetwork: "gpu-sub"}}}
	np.UpgradeSettings = &container.UpgradeSettings{Strategy: "BLUE_GREEN", BlueGreenSettings: &container.BlueGreenSettings{
		NodePoolSoakDuration: "1800s", StandardRolloutPolicy: &container.StandardRolloutPolicy{BatchPercentage: 0.5}}}
	if _, err := e.createPool(serving, np); err != nil {
		t.Fatalf("create: %v", err)
	}
	e.tick()
	got := e.pool(t, serving, "hardened")
	gc := got.Config
	switch {
	case got.Version != "1.32.9-gke.1000000":
		t.Errorf("version %q", got.Version)
	case !gc.Gvnic.Enabled || !gc.FastSocket.Enabled || gc.ConfidentialNodes.Enabled:
		t.Errorf("gvnic %+v fast socket %+v confidential %+v", gc.Gvnic, gc.FastSocket, gc.ConfidentialNodes)
	case gc.BootDiskKmsKey != cfg.BootDiskKmsKey || gc.SandboxConfig.Type != "GVISOR" || len(gc.SecondaryBootDisks) != 1:
		t.Errorf("boot key %q sandbox %+v secondary %+v", gc.BootDiskKmsKey, gc.SandboxConfig, gc.SecondaryBootDisks)
	case gc.Labels["sandbox.gke.io/runtime"] != "gvisor":
		t.Errorf("labels %v: GKE labels sandboxed nodes", gc.Labels)
	case gc.KubeletConfig.CpuManagerPolicy != "static" || gc.LinuxNodeConfig.Sysctls["net.core.somaxconn"] != "4096":
		t.Errorf("kubelet %+v linux %+v", gc.KubeletConfig, gc.LinuxNodeConfig)
	case !gc.ContainerdConfig.PrivateRegistryAccessConfig.Enabled:
		t.Errorf("containerd %+v", gc.ContainerdConfig)
	case got.NetworkConfig.CreatePodRange || got.NetworkConfig.PodRange != "hardened-pods" ||
		!strings.HasSuffix(got.NetworkConfig.PodIpv4CidrBlock, "/20") || !got.NetworkConfig.EnablePrivateNodes ||
		len(got.NetworkConfig.AdditionalNodeNetworkConfigs) != 1:
		t.Errorf("network config %+v: createPodRange is input only, the range is reported", got.NetworkConfig)
	case got.UpgradeSettings.Strategy != "BLUE_GREEN" || got.UpgradeSettings.BlueGreenSettings.NodePoolSoakDuration != "1800s":
		t.Errorf("upgrade settings %+v", got.UpgradeSettings)
	}

	// One field per update, as google_container_node_pool sends them.
	name := serving + "/nodePools/hardened"
	for what, req := range map[string]*container.UpdateNodePoolRequest{
		"version":    {NodeVersion: "1.33"},
		"kubelet":    {KubeletConfig: &container.NodeKubeletConfig{CpuManagerPolicy: "none"}},
		"linux":      {LinuxNodeConfig: &container.LinuxNodeConfig{Sysctls: map[string]string{"net.core.somaxconn": "2048"}}},
		"gvnic":      {Gvnic: &container.VirtualNIC{Enabled: false, ForceSendFields: []string{"Enabled"}}},
		"fastSocket": {FastSocket: &container.FastSocket{Enabled: false, ForceSendFields: []string{"Enabled"}}},
		"tags":       {ResourceManagerTags: &container.ResourceManagerTags{Tags: map[string]string{"tagKeys/1": "tagValues/3"}}},
		"private":    {NodeNetworkConfig: &container.NodeNetworkConfig{EnablePrivateNodes: false, ForceSendFields: []string{"EnablePrivateNodes"}}},
		"upgrade": {UpgradeSettings: &container.UpgradeSettings{Strategy: "BLUE_GREEN", BlueGreenSettings: &container.BlueGreenSettings{
			NodePoolSoakDuration: "600s", StandardRolloutPolicy: &container.StandardRolloutPolicy{BatchNodeCount: 1}}}},
		"containerd": {ContainerdConfig: &container.ContainerdConfig{PrivateRegistryAccessConfig: &container.PrivateRegistryAccessConfig{
			Enabled: false, ForceSendFields: []string{"Enabled"}}}},
	} {
		if _, err := e.gke.Projects.Locations.Clusters.NodePools.Update(name, req).Do(); err != nil {
			t.Fatalf("update %s: %v", what, err)
		}
		e.tick()
	}
	got = e.pool(t, serving, "hardened")
	gc = got.Config
	switch {
	case got.Version != "1.33.5-gke.1000000":
		t.Errorf("version after the alias 1.33: %q, want the control plane's", got.Version)
	case gc.KubeletConfig.CpuManagerPolicy != "none" || gc.LinuxNodeConfig.Sysctls["net.core.somaxconn"] != "2048":
		t.Errorf("kubelet %+v linux %+v", gc.KubeletConfig, gc.LinuxNodeConfig)
	case gc.Gvnic.Enabled || gc.FastSocket.Enabled || gc.ResourceManagerTags.Tags["tagKeys/1"] != "tagValues/3":
		t.Errorf("gvnic %+v fast socket %+v tags %+v", gc.Gvnic, gc.FastSocket, gc.ResourceManagerTags)
	case got.NetworkConfig.EnablePrivateNodes || got.NetworkConfig.PodRange != "hardened-pods":
		t.Errorf("network config %+v: private nodes off, the pod range kept", got.NetworkConfig)
	case got.UpgradeSettings.BlueGreenSettings.StandardRolloutPolicy.BatchNodeCount != 1:
		t.Errorf("upgrade settings %+v", got.UpgradeSettings)
	case gc.ContainerdConfig.PrivateRegistryAccessConfig.Enabled:
		t.Errorf("containerd %+v", gc.ContainerdConfig)
	}

	// What GKE refuses, with GKE's wording.
	bad := gpuPool("refused")
	bad.Config.BootDiskKmsKey = "k"
	if _, err := e.createPool(serving, bad); err == nil || !strings.Contains(err.Error(), "boot_disk_kms_key") {
		t.Errorf("create with a bare key name: %v, want INVALID_ARGUMENT naming boot_disk_kms_key", err)
	}
	if _, err := e.gke.Projects.Locations.Clusters.NodePools.Update(name, &container.UpdateNodePoolRequest{NodeVersion: "1.29"}).Do(); err == nil ||
		!strings.Contains(err.Error(), `No valid versions with the prefix "1.29"`) {
		t.Errorf("update to an alias no version has: %v", err)
	}
}
