// Package deps pins module dependencies until real packages import them.
package deps

import (
	_ "github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	_ "github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	_ "github.com/hashicorp/terraform-plugin-framework/providerserver"
	_ "github.com/hashicorp/terraform-plugin-go/tfprotov6"
	_ "github.com/hashicorp/terraform-plugin-log/tflog"
	_ "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	_ "google.golang.org/api/container/v1"
	_ "google.golang.org/api/impersonate"
	_ "google.golang.org/api/option"
	_ "google.golang.org/api/tpu/v2"
	_ "golang.org/x/oauth2/google"
)
