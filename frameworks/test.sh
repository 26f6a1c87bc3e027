#!/usr/bin/env bash
# The framework adapters' tests, on the Node that runs this (`npm run test:frameworks` runs it on Node 22,
# through .ci/with-node.sh, after building dist/): installs this folder's frameworks when they are missing
# or older than its lockfile (`npm ci` on that Node, which they accept), type-checks the adapters and these
# tests against them (tsconfig.json here), then runs the tests (vitest.config.ts here). Arguments go to
# vitest (a file, `-t <name>`). Run from anywhere; exit status: the first failing step's.
set -euo pipefail
cd "$(dirname "$0")/.."
installed=frameworks/node_modules/.package-lock.json
if [[ ! -f "$installed" || frameworks/package-lock.json -nt "$installed" ]]; then
  npm ci --prefix frameworks --no-audit --no-fund
fi
tsc --noEmit -p frameworks
vitest run --config frameworks/vitest.config.ts "$@"
