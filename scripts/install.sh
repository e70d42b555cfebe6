#!/bin/sh
# Builds a release `baton` and installs it: PREFIX/bin/baton (default PREFIX /usr/local) with
# PREFIX/bin/baton-fetch-schema beside it (`baton fetch-schema` runs it: the HTTP stack, kept out of
# every other command's process), the Kotlin runtime's files `baton gen --lang kotlin` writes as
# PREFIX/share/baton/kotlin-runtime/*.kt (found beside the binary), and the JSON schema of baton.json
# as PREFIX/share/baton/baton.schema.json.
#
#   scripts/install.sh                      # /usr/local/bin/baton
#   scripts/install.sh --prefix "$HOME/.local"
#   PREFIX=/opt/baton scripts/install.sh    # or make install PREFIX=/opt/baton
#   scripts/install.sh --baton PATH         # install an existing executable (and the baton-fetch-schema beside it)
#
# Needs a Swift 6 toolchain; nothing else is fetched. Exit status: 0 installed, 1 the build failed,
# 2 a usage error or a folder that cannot be written.
set -eu
prefix="${PREFIX:-/usr/local}"
binary=""
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ $# -ge 2 ] || { echo "install.sh: --prefix needs a folder" >&2; exit 2; }; prefix="$2"; shift 2 ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    --baton) [ $# -ge 2 ] || { echo "install.sh: --baton needs an executable" >&2; exit 2; }; binary="$2"; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if [ -n "$binary" ]; then
  [ -x "$binary" ] || { echo "install.sh: $binary is not an executable" >&2; exit 2; }
  binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"
fi
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# On Linux the Swift runtime is linked in, so the binary keeps working when the toolchain moves.
if [ -z "$binary" ]; then
  static=""
  [ "$(uname -s)" = Linux ] && static="--static-swift-stdlib"
  swift build -c release --product baton $static || exit 1
  swift build -c release --product baton-fetch-schema $static || exit 1
  binary="$(swift build -c release $static --show-bin-path)/baton"
fi
[ -x "$binary" ] || { echo "install.sh: $binary is not an executable" >&2; exit 2; }
runtime="$prefix/share/baton/kotlin-runtime"
mkdir -p "$prefix/bin" "$runtime" || { echo "install.sh: cannot create folders in $prefix" >&2; exit 2; }
install -m 0755 "$binary" "$prefix/bin/baton" || exit 2
helper="$(dirname "$binary")/baton-fetch-schema"
if [ -x "$helper" ]; then
  install -m 0755 "$helper" "$prefix/bin/baton-fetch-schema" || exit 2
else
  echo "note: no baton-fetch-schema beside $binary: baton fetch-schema will say it is missing" >&2
fi
install -m 0644 Docs/baton.schema.json "$prefix/share/baton/baton.schema.json" || exit 2
# The runtime of this version only: files an older one had are removed.
rm -f "$runtime"/*.kt && install -m 0644 Kotlin/runtime/baton/runtime/*.kt "$runtime/" || exit 2
echo "installed $("$prefix/bin/baton" --version | head -n 1) to $prefix/bin/baton"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "note: $prefix/bin is not on PATH; add it to use baton from anywhere" >&2 ;;
esac
