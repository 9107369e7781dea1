#!/usr/bin/env bash
# The demo behind `make demo`: builds the provider and the local TPU/GKE API
# emulator, then plans, applies and destroys the accelerator half of the
# serving example (examples/serving/accel) against the emulator.
#
# It needs Go, curl and the Terraform CLI (or OpenTofu) on PATH, and nothing
# else: no `terraform init`, no registry, no credentials. Everything it creates
# lives in a temporary directory that is removed at exit, and the emulator it
# starts is stopped at exit, so it can be run again at once.
#
#   ./examples/demo/run.sh           # or: make demo
#   TERRAFORM=tofu ./examples/demo/run.sh
set -euo pipefail

cd "$(dirname "$0")/../.."
root=$PWD
demo_start=$SECONDS

# --- output helpers ---------------------------------------------------------

if [[ -t 1 ]]; then
	bold=$'\e[1m' dim=$'\e[2m' green=$'\e[32m' yellow=$'\e[33m' red=$'\e[31m' reset=$'\e[0m'
else
	bold='' dim='' green='' yellow='' red='' reset=''
fi
step=0
steps=8
headline() {
	step=$((step + 1))
	printf '\n%s[%d/%d] %s%s\n' "$bold" "$step" "$steps" "$1" "$reset"
}
note() { printf '%s%s%s\n' "$dim" "$*" "$reset"; }
ok() { printf '%s✓ %s%s\n' "$green" "$*" "$reset"; }
expected() { printf '%s✓ expected: %s%s\n' "$yellow" "$*" "$reset"; }
fail() {
	printf '%s✗ %s%s\n' "$red" "$*" "$reset" >&2
	exit 1
}
indent() { sed 's/^/    /'; }

# Terraform warns on every command that provider development overrides are in
# effect: that is how this demo uses the provider it has just built. The
# warning is dropped from the output shown (at most 12 lines, so a changed
# wording cannot swallow anything else).
quiet_overrides() {
	awk '
		/^Warning: Provider development overrides are in effect/ { skip = 12; next }
		skip > 0 && /^releases\.$/ { skip = 0; blank = 1; next }
		skip > 0 { skip--; next }
		blank && /^$/ { blank = 0; next }
		{ blank = 0; print }
	'
}

# --- environment --------------------------------------------------------------

tf=${TERRAFORM:-$(command -v terraform || command -v tofu || true)}
[[ -n $tf ]] || fail "terraform (>= 1.8) or tofu must be on PATH"
command -v go >/dev/null || fail "go must be on PATH"
command -v curl >/dev/null || fail "curl must be on PATH (it drives the emulator's admin API)"

# Nothing from the caller's cloud or Terraform set-up may leak in: no
# credentials, no default project, no endpoints, no CLI configuration.
while read -r var; do
	case $var in
	GOOGLE_* | GCLOUD_* | CLOUDSDK_* | ACCEL_* | TF_*) unset "$var" ;;
	esac
done < <(compgen -e)
export GOTOOLCHAIN=local CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1

tmp=$(mktemp -d "${TMPDIR:-/tmp}/accel-demo.XXXXXX")
emulator_pid=
cleanup() {
	local status=$?
	if [[ -n $emulator_pid ]]; then
		kill "$emulator_pid" 2>/dev/null || true
		wait "$emulator_pid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
	exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

printf '%saccel provider demo%s: %s, %s\n' "$bold" "$reset" "$("$tf" version | head -n 1)" "$(go version | cut -d' ' -f3)"
note "working directory: $tmp (removed at exit)"

# --- 1. build -----------------------------------------------------------------

headline "Building the provider and the emulator"
t0=$SECONDS
# The first run on a machine downloads the Go modules and compiles about 400
# packages (a few minutes on 2 cores); later runs reuse the Go build cache,
# which `make build` and `make install` share (the same -trimpath flag).
note "the first run on a machine downloads the Go modules and compiles about 400 packages (a few minutes on 2 cores)"
go mod download
# -v names each package compiled: counted here as progress; any other line
# (a compiler error) is shown as it is.
go build -trimpath -v -o "$tmp/bin/" . ./internal/emulator/cmd/accel-emulator 2>&1 |
	awk '/ / { print; next } { n++ } n % 50 == 0 { printf "  ... %d packages compiled\n", n; fflush() } END { if (n > 0) printf "  ... %d packages compiled\n", n }'
ok "built terraform-provider-accel and accel-emulator in $((SECONDS - t0))s"

# A CLI configuration that serves accel-dev/accel from the binary just built:
# no `terraform init`, no registry.
cat >"$tmp/terraform.rc" <<EOF
provider_installation {
  dev_overrides {
    "accel-dev/accel" = "$tmp/bin"
  }
  direct {}
}
EOF
export TF_CLI_CONFIG_FILE=$tmp/terraform.rc
export TF_DATA_DIR=$tmp/.terraform

# The configurations are copied so that state and plans stay in $tmp; the
# demo module keeps its relative path to the serving module.
mkdir -p "$tmp/work/demo" "$tmp/work/serving"
cp "$root"/examples/demo/*.tf "$tmp/work/demo/"
cp -R "$root/examples/demo/tests" "$tmp/work/demo/tests"
cp -R "$root/examples/demo/misconfig" "$tmp/work/misconfig"
cp -R "$root/examples/serving/accel" "$tmp/work/serving/accel"

# --- 2. emulator --------------------------------------------------------------

headline "Starting the local Cloud TPU and GKE API emulator"
"$tmp/bin/accel-emulator" -scenario "$root/examples/demo/scenario.json" -quiet \
	>"$tmp/emulator.env" 2>"$tmp/emulator.log" &
emulator_pid=$!
for _ in $(seq 100); do
	[[ $(grep -c '^export ' "$tmp/emulator.env" 2>/dev/null) == 3 ]] && break
	kill -0 "$emulator_pid" 2>/dev/null || break
	sleep 0.1
done
[[ $(grep -c '^export ' "$tmp/emulator.env" 2>/dev/null) == 3 ]] || {
	cat "$tmp/emulator.log" >&2
	fail "the emulator did not start"
}
# shellcheck disable=SC1091
source "$tmp/emulator.env"
admin=${ACCEL_TPU_ENDPOINT%/}/admin
# Google's credential lookup asks the emulator, which answers as no metadata
# server does (off Google Cloud), instead of probing 169.254.169.254: no
# packet of the demo leaves loopback.
emulator_host=${ACCEL_TPU_ENDPOINT#http://}
export GCE_METADATA_HOST=${emulator_host%%/*}
# The emulator's Compute Engine API answers the plan's capacity checks
# (quotas, reservations, zone offers); the scenario sets a zero TPU v5e
# (TPU_LITE_PODSLICE_V5) quota in us-central1.
export ACCEL_COMPUTE_ENDPOINT=${ACCEL_TPU_ENDPOINT%/}/compute/v1/
ok "emulator listening on ${ACCEL_TPU_ENDPOINT%/} (operations take 1-2 s, as set in examples/demo/scenario.json)"
note "the provider reaches it through ACCEL_TPU_ENDPOINT, ACCEL_CONTAINER_ENDPOINT and ACCEL_COMPUTE_ENDPOINT, with no credentials"

# --- 3. a misconfiguration, caught at plan time -------------------------------

headline "A misconfiguration, caught by terraform plan before any API call"
note "examples/demo/misconfig/main.tf asks for a v6e slice with the runtime of older TPUs:"
grep -E 'accelerator_type|runtime_version' "$tmp/work/misconfig/main.tf" | indent
set +e
(cd "$tmp/work/misconfig" && "$tf" plan -input=false -no-color) >"$tmp/misconfig.out" 2>&1
status=$?
set -e
[[ $status -ne 0 ]] || fail "terraform plan accepted the misconfiguration"
grep -q '^Error: ' "$tmp/misconfig.out" || {
	cat "$tmp/misconfig.out" >&2
	fail "terraform plan failed without a diagnostic"
}
sed -n '/^Error: /,$p' "$tmp/misconfig.out" | indent
expected "terraform plan failed (exit $status) with the fix in the message; nothing was created"

# --- 4. plan --------------------------------------------------------------------

headline "terraform plan: the serving scenario's TPU VM and node pools"
work=$tmp/work/demo
(cd "$work" && "$tf" get -no-color >/dev/null)
(cd "$work" && "$tf" plan -input=false -no-color -out="$tmp/tfplan") >"$tmp/plan.out" 2>&1 || {
	quiet_overrides <"$tmp/plan.out" >&2
	fail "terraform plan failed"
}
grep -E '^  # |^Plan: ' "$tmp/plan.out" | indent
grep -q '^Warning: Tier Has No Quota' "$tmp/plan.out" || {
	quiet_overrides <"$tmp/plan.out" >&2
	fail "the plan did not warn that the TPU tier has no quota"
}
grep -A8 '^Warning: Tier Has No Quota' "$tmp/plan.out" | grep -q 'TPU_LITE_PODSLICE_V5' || {
	quiet_overrides <"$tmp/plan.out" >&2
	fail "the quota warning is not the TPU tier's (TPU_LITE_PODSLICE_V5)"
}
note "capacity, checked at plan time before anything is created (the scenario sets no TPU v5e quota in us-central1):"
awk '/^Warning: Tier Has No Quota/ { show = 1 } show && /^$/ && ++blank == 3 { exit } show { print }' "$tmp/plan.out" | indent
expected "a warning, not an error: pods of the TPU tier land on the next tier, the A100 GPUs"
note "the runtime version is chosen at plan time, from the catalog:"
grep -E '^  \+ runtime_(version|reason) ' "$tmp/plan.out" | indent
(cd "$work" && "$tf" test -no-color) >"$tmp/test.out" 2>&1 || {
	quiet_overrides <"$tmp/test.out" >&2
	fail "terraform test failed"
}
ok "terraform test: examples/demo/tests/plan.tftest.hcl asserts the same plan ($(grep -Eo '[0-9]+ passed' "$tmp/test.out"))"

# --- 5. stockout ------------------------------------------------------------------

headline "Injecting a stockout: no v5litepod-4 capacity left in us-central1-a"
note "curl -XPOST $admin/capacity -d '{\"zone\":\"us-central1-a\",\"type\":\"v5litepod-4\",\"count\":0}'"
printf '    %s\n' "$(curl -fsS -XPOST "$admin/capacity" -d '{"zone":"us-central1-a","type":"v5litepod-4","count":0}')"
ok "the TPU VM's first zone is now out of capacity (GKE's ct5lp machines are not affected)"

# --- 6. apply -------------------------------------------------------------------

headline "terraform apply"
t0=$SECONDS
(cd "$work" && "$tf" apply -input=false -no-color "$tmp/tfplan") >"$tmp/apply.out" 2>&1 || {
	quiet_overrides <"$tmp/apply.out" >&2
	fail "terraform apply failed"
}
quiet_overrides <"$tmp/apply.out" | sed '/^Outputs:/,$d' | awk 'NF { for (; n; n--) print ""; print; started = 1; next } started { n++ }' | indent
ok "applied in $((SECONDS - t0))s"

out() { (cd "$work" && "$tf" output -no-color "$@"); }

printf '\n%sThe runtime version chosen, and why%s\n' "$bold" "$reset"
printf '    %s\n' "$(out -raw runtime_version)"
printf '    %s\n' "$(out -raw runtime_reason)"
out tpu | indent

zone=$(cd "$work" && "$tf" output -no-color -json experiment_vm | sed -n 's/.*"zone":"\([^"]*\)".*/\1/p')
printf '\n%sThe experiment TPU VM%s\n' "$bold" "$reset"
out experiment_vm | indent
[[ $zone == us-south1-a ]] || fail "the TPU VM landed in ${zone:-no zone}, not in its second zone us-south1-a"
ok "created in $zone, its second zone, after the stockout in us-central1-a"

printf '\n%sThe serving node pools, in priority order, with their taints%s\n' "$bold" "$reset"
out pools | indent

printf '\n%sWhat a Deployment needs to run on any tier%s\n' "$bold" "$reset"
out scheduling | indent

printf '\n%sThe rendered GKE ComputeClass%s (examples/serving applies it with kubernetes_manifest)\n' "$bold" "$reset"
out -raw compute_class_manifest | indent

# --- 7. no drift ------------------------------------------------------------------

headline "terraform plan again: nothing to change"
set +e
(cd "$work" && "$tf" plan -input=false -no-color -detailed-exitcode) >"$tmp/replan.out" 2>&1
status=$?
set -e
case $status in
0) grep -E '^No changes' "$tmp/replan.out" | indent ;;
*)
	quiet_overrides <"$tmp/replan.out" >&2
	fail "the second plan is not empty (exit $status)"
	;;
esac

# --- 8. destroy -------------------------------------------------------------------

headline "terraform destroy"
t0=$SECONDS
(cd "$work" && "$tf" destroy -input=false -no-color -auto-approve) >"$tmp/destroy.out" 2>&1 || {
	quiet_overrides <"$tmp/destroy.out" >&2
	fail "terraform destroy failed"
}
grep -E 'Destroy(ing\.\.\.|ction complete)|^Destroy complete' "$tmp/destroy.out" | indent
left=$(curl -fsS "$admin/nodes")
pools=$(curl -fsS "$admin/node-pools")
[[ $left == '[]' || $left == 'null' ]] || fail "TPU VMs left in the emulator: $left"
[[ $pools != *'"vllm-'* ]] || fail "node pools left in the emulator"
ok "destroyed in $((SECONDS - t0))s; the emulator holds no TPU VM and no vllm-* pool"

printf '\n%sDemo finished in %ss.%s The emulator is stopped and %s removed.\n' "$bold" "$((SECONDS - demo_start))" "$reset" "$tmp"
