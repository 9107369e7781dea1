// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"log/slog"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// tflogHandler forwards the cloud clients' slog records to tflog, which reads
// its sinks from the request context, so polling and retry records appear in
// TF_LOG output next to the resource that caused them.
type tflogHandler struct {
	attrs []slog.Attr
}

func (h tflogHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h tflogHandler) Handle(ctx context.Context, r slog.Record) error {
	fields := make(map[string]any, len(h.attrs)+r.NumAttrs())
	for _, a := range h.attrs {
		fields[a.Key] = a.Value.Any()
	}
	r.Attrs(func(a slog.Attr) bool {
		fields[a.Key] = a.Value.Any()
		return true
	})
	switch {
	case r.Level >= slog.LevelError:
		tflog.Error(ctx, r.Message, fields)
	case r.Level >= slog.LevelWarn:
		tflog.Warn(ctx, r.Message, fields)
	case r.Level >= slog.LevelInfo:
		tflog.Info(ctx, r.Message, fields)
	default:
		tflog.Debug(ctx, r.Message, fields)
	}
	return nil
}

func (h tflogHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return tflogHandler{attrs: append(append([]slog.Attr(nil), h.attrs...), attrs...)}
}

// WithGroup is not used by the clients; groups are flattened.
func (h tflogHandler) WithGroup(string) slog.Handler { return h }
