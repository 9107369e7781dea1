// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tfmodel

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// importedKey is the private-state key ImportState sets, so that the Read
// that follows an import (and only that one) knows it reads an object the
// resource did not create: it takes what the API reports, labels and
// settings the configuration may not name included.
const importedKey = "imported"

// PrivateSetter is the framework's private state as a response holds it.
type PrivateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// PrivateGetter is the framework's private state as a request holds it.
type PrivateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// MarkImported records in private state that the object was just imported.
func MarkImported(ctx context.Context, p PrivateSetter) diag.Diagnostics {
	return p.SetKey(ctx, importedKey, []byte("true"))
}

// ClearImported removes the mark of MarkImported.
func ClearImported(ctx context.Context, p PrivateSetter) diag.Diagnostics {
	return p.SetKey(ctx, importedKey, nil)
}

// Imported reports whether MarkImported marked the object.
func Imported(ctx context.Context, p PrivateGetter) (bool, diag.Diagnostics) {
	v, diags := p.GetKey(ctx, importedKey)
	return len(v) > 0, diags
}
