// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

// ZoneNames checks the form of each zone name ("us-central1-a"), whatever
// it offers. Findings carry attr and the list index.
func (c *Catalog) ZoneNames(zones []string, attr string) Findings {
	return c.checkZones(nil, "", zones, attr)
}
