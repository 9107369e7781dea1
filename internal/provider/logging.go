// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"log/slog"
	"strings"

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

// libraryLogLevels are the variables that set the levels of the loggers the
// plugin libraries give the provider: terraform-plugin-go (TF_LOG_SDK and its
// protocol subsystem), terraform-plugin-framework, and the provider's own
// tflog logger, named after the provider's type.
var libraryLogLevels = []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER_ACCEL"}

// QuietUnrequestedLogs turns the plugin libraries' loggers off when no
// logging variable is set, and returns whether it did. Unless told
// otherwise, those libraries write every log line at TRACE to the plugin's
// standard error, where Terraform parses each one and, with logging off (no
// TF_LOG, TF_LOG_PROVIDER or other TF_LOG* variable: "Logging is off for all
// subsystems by default", https://developer.hashicorp.com/terraform/plugin/log/managing),
// throws it away. The framework writes two such lines for every validator
// and plan modifier of every attribute, so at plan time encoding and parsing
// logs nobody reads cost more CPU than the plan itself. Any TF_LOG* variable
// that is set, whatever its value, leaves every level as the libraries
// choose; so does the -debug mode, whose caller reads the provider's own
// output. environ is os.Environ(); setenv is os.Setenv.
func QuietUnrequestedLogs(environ []string, setenv func(key, value string) error) bool {
	for _, kv := range environ {
		if k, v, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "TF_LOG") && v != "" {
			return false
		}
	}
	for _, k := range libraryLogLevels {
		if err := setenv(k, "OFF"); err != nil {
			return false
		}
	}
	return true
}
