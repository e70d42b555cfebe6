#!/bin/sh
# The `baton-check` pre-commit hook (.pre-commit-hooks.yaml): `baton check` on the whole project. It runs
# the `baton` on PATH when there is one (scripts/install.sh, a release binary), and only otherwise builds
# one from this checkout, which pre-commit keeps in its cache, so the build happens once per rev. A build
# says so before it starts, with how long it takes, and says how long it took.
set -eu
if command -v baton >/dev/null 2>&1; then
  exec baton check "$@"
fi
root=$(cd "$(dirname "$0")/.." && pwd)
echo "baton-check: no baton on PATH, so building one from the hook's checkout: a release build, once for this rev," >&2
echo "baton-check: a few minutes (3.3 min measured on 2 busy cores), less on more; scripts/install.sh in a Baton checkout installs one instead." >&2
started=$(date +%s)
swift build -c release --product baton --package-path "$root" >&2 || exit 2
echo "baton-check: built baton in $(($(date +%s) - started)) s; later commits use it at once." >&2
exec "$(swift build -c release --product baton --package-path "$root" --show-bin-path)/baton" check "$@"
