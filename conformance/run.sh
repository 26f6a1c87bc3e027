#!/usr/bin/env bash
# Runs the official MCP conformance suite's client scenarios against agentwire, in two suite versions that
# conformance/package.json pins side by side (one npm project, one lock file):
#
# 1. `@modelcontextprotocol/conformance` 0.1.16, scenario by scenario. Required: every client scenario
#    `conformance list` prints except those marked [draft] (core, auth, back-compat and extension scenarios
#    alike). conformance/expected-failures.json maps a scenario to the written reason it may fail.
# 2. 0.2.0-alpha.12 (a prerelease, installed under the npm alias `conformance-next`), as the suite itself
#    runs a requirement set: `client --requirements 2026-07-28`, then `--requirements 2025-11-25`, each in
#    parallel. conformance/verdict.mjs judges every client scenario the set runs, scored or not, against
#    conformance/expected-failures.<revision>.json; each entry there is what agentwire still lacks.
# 3. 0.2.0-alpha.12 again, scenario by scenario: every client scenario `list` marks [extension] (the
#    requirement sets leave them out: OAuth client credentials, enterprise-managed authorization, DPoP,
#    workload identity, Skills SEP-2640 …). conformance/expected-failures.extensions.json maps a scenario to
#    the written reason it may fail.
#
# In all three, an expected failure that passes is reported as a failure, so the lists cannot go stale.
#
# The suite needs Node >= 22, taken from the `node` package
# pinned in conformance/package.json (an npm-registry binary, so nothing is downloaded outside npm); the
# client (conformance/client.mjs) runs on the host's Node, importing agentwire from ../dist (run
# `npm run build` first; CI runs this after `npm test`).
#
# Prints one line per scenario and a `conformance …: N passed, M failed` line per run (M counts unexpected
# results only). Exit status: 0 when every M is 0, 1 otherwise, 2 when a suite cannot run at all.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"

host_node="$(command -v node)"
if [[ -z "$host_node" || "$host_node" == "$here/node_modules/"* ]]; then
  echo "conformance: the host's node (>= 20) must be on PATH, ahead of conformance/node_modules/.bin" >&2
  exit 2
fi
if [[ ! -f "$root/dist/index.js" ]]; then
  echo "conformance: $root/dist/index.js is missing; run \`npm run build\` first" >&2
  exit 2
fi
if [[ ! -x "$here/node_modules/.bin/node" || ! -d "$here/node_modules/@modelcontextprotocol/conformance" ||
  ! -d "$here/node_modules/conformance-next" ]]; then
  npm ci --prefix "$here" --no-audit --no-fund >&2 || { echo "conformance: npm ci failed" >&2; exit 2; }
fi

suite_node="$here/node_modules/.bin/node"
suite="$here/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if ! "$suite_node" --version | grep -q '^v22\.'; then
  echo "conformance: $suite_node is not Node 22" >&2
  exit 2
fi

# "  - auth/metadata-default [2025-11-25]" lines after "Client scenarios"; drafts are informational only.
mapfile -t scenarios < <(
  "$suite_node" "$suite" list |
    sed -n '/^Client scenarios/,$p' |
    sed -n 's/^  - \([^ ]*\) \[\(.*\)\]$/\1 \2/p' |
    grep -v ' draft$' |
    cut -d' ' -f1
)
if [[ ${#scenarios[@]} -eq 0 ]]; then
  echo "conformance: the suite listed no client scenarios" >&2
  exit 2
fi

# The written reason `file` gives for scenario $2 to fail, or nothing.
expected_reason() {
  "$host_node" -e '
    const file = process.argv[1];
    const reasons = require("node:fs").existsSync(file) ? JSON.parse(require("node:fs").readFileSync(file, "utf8")) : {};
    const reason = reasons[process.argv[2]];
    if (typeof reason === "string" && reason.trim() !== "") process.stdout.write(reason);
  ' "$1" "$2"
}

tally_reset() {
  passed=0
  failed=0
  expected=0
}

# Runs scenario $2 of the suite at $1, judged against the expected failures in $3; logs go under $4.
run_scenario() {
  local runner="$1" scenario="$2" reasons="$3" dir="$4"
  local log="$dir/${scenario//\//_}.log" reason status summary
  mkdir -p "$dir"
  reason="$(expected_reason "$reasons" "$scenario")"
  # The suite's own per-scenario timeout is 30 s; `timeout` only guards against a runner that hangs.
  timeout 120 "$suite_node" "$runner" client \
    --command "$host_node $here/client.mjs" \
    --scenario "$scenario" \
    -o "$dir/raw" >"$log" 2>&1
  status=$?
  summary="$(grep -o 'Passed: [0-9]*/[0-9]*, [0-9]* failed, [0-9]* warnings' "$log" | tail -1)"
  if [[ $status -eq 0 && -z "$reason" ]]; then
    passed=$((passed + 1))
    echo "PASS  $scenario  (${summary:-no checks})"
  elif [[ $status -ne 0 && -n "$reason" ]]; then
    expected=$((expected + 1))
    echo "XFAIL $scenario  (${summary:-no checks}): $reason"
  elif [[ $status -eq 0 ]]; then
    failed=$((failed + 1))
    echo "FAIL  $scenario  passed but is listed in ${reasons#"$here/"}: remove it"
  else
    failed=$((failed + 1))
    echo "FAIL  $scenario  (${summary:-exit $status}); log: ${log#"$root/"}"
    grep -E 'FAILURE|WARNING|Error|error:' "$log" | grep -v 'INFO' | tail -8 | sed 's/^/      /'
  fi
}

# Prints the `<label>: N passed, M failed` line; any unexpected result fails the run.
tally_report() {
  local suffix=""
  [[ $expected -gt 0 ]] && suffix=" ($expected expected failures)"
  echo "$1: $passed passed, $failed failed$suffix"
  [[ $failed -eq 0 ]] || status=1
}

results="$here/results"
rm -rf "$results"
mkdir -p "$results"
status=0
tally_reset
for scenario in "${scenarios[@]}"; do
  run_scenario "$suite" "$scenario" "$here/expected-failures.json" "$results"
done
tally_report "conformance 0.1.16"

next="$here/node_modules/conformance-next/dist/index.js"
for revision in 2026-07-28 2025-11-25; do
  out="$results/next-$revision"
  if ! "$suite_node" "$next" list --requirements "$revision" >"$out.list" 2>&1; then
    echo "conformance: the 0.2 suite cannot list requirement set $revision (see ${out#"$root/"}.list)" >&2
    exit 2
  fi
  echo "-- conformance 0.2.0-alpha.12, client --requirements $revision"
  # Each scenario has the suite's 30 s timeout; `timeout` only guards against a runner that hangs.
  timeout 300 "$suite_node" "$next" client \
    --command "$host_node $here/client.mjs" \
    --requirements "$revision" \
    -o "$out" >"$out.log" 2>&1
  suite_status=$?
  "$host_node" "$here/verdict.mjs" "$revision" "$out.list" "$out" \
    "$here/expected-failures.$revision.json" "$suite_status" || status=1
done

# 3. Every client scenario the 0.2 suite marks [extension] (no requirement set runs them), one by one,
#    judged by its exit status as in 1. conformance/expected-failures.extensions.json names the ones that may fail.
mapfile -t extensions < <(
  "$suite_node" "$next" list |
    awk '/^Client scenarios/ { on = 1; next } /^[^ ]/ { on = 0 } on' |
    sed -n 's/^  - \([^ ]*\) \[extension\]$/\1/p'
)
if [[ ${#extensions[@]} -eq 0 ]]; then
  echo "conformance: the 0.2 suite listed no [extension] client scenarios" >&2
  exit 2
fi
echo "-- conformance 0.2.0-alpha.12, client --scenario, each [extension] scenario"
tally_reset
for scenario in "${extensions[@]}"; do
  run_scenario "$next" "$scenario" "$here/expected-failures.extensions.json" "$results/next-extensions"
done
tally_report "conformance 0.2.0-alpha.12 extensions"
exit $status
