#!/usr/bin/env bash
# Runs a command with another Node first on PATH: `bash .ci/with-node.sh 22 vitest run [args]`.
#
# The binary is the npm registry's `node` package pinned in .ci/node<major>/package.json (installed there
# with `npm ci` when it is missing or not the pinned version), so nothing is downloaded outside npm. The
# command runs from the repository root; `vitest` and the other tools resolve from its node_modules/.bin,
# and their `#!/usr/bin/env node` picks the Node put first on PATH. Child processes the tests start with
# `process.execPath` or `node` run on it too.
#
# Exit status: the command's; 2 when that Node cannot be installed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
major="${1:?usage: with-node.sh <major> <command> [args...]}"
shift
project="$root/.ci/node$major"
if [[ ! -f "$project/package.json" ]]; then
  echo "with-node: no .ci/node$major/package.json (Node $major is not set up)" >&2
  exit 2
fi
bin="$project/node_modules/.bin"
pinned="v$(node -p "require(process.argv[1]).devDependencies.node" "$project/package.json")"
if [[ ! -x "$bin/node" || "$("$bin/node" --version)" != "$pinned" ]]; then
  npm ci --prefix "$project" --no-audit --no-fund >&2 || { echo "with-node: npm ci failed" >&2; exit 2; }
fi
if [[ "$("$bin/node" --version)" != "$pinned" ]]; then
  echo "with-node: $bin/node is $("$bin/node" --version), not $pinned" >&2
  exit 2
fi
cd "$root"
export PATH="$bin:$root/node_modules/.bin:$PATH"
echo "with-node: $(node --version) ($bin/node)" >&2
exec "$@"
