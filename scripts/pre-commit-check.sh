#!/bin/sh
# The `baton-check` pre-commit hook (.pre-commit-hooks.yaml): `baton check` on the whole project. It runs
# the `baton` on PATH when there is one (scripts/install.sh, a release binary), and only otherwise builds
# one from this checkout, which pre-commit keeps in its cache, so the build happens once per rev.
set -eu
if command -v baton >/dev/null 2>&1; then
  exec baton check "$@"
fi
root=$(cd "$(dirname "$0")/.." && pwd)
echo "baton-check: no baton on PATH; building one (once for this rev; scripts/install.sh installs one)" >&2
swift build -c release --product baton --package-path "$root" >&2 || exit 2
exec "$(swift build -c release --product baton --package-path "$root" --show-bin-path)/baton" check "$@"
