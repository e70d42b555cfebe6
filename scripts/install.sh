#!/bin/sh
# Builds a release `baton` and installs it: PREFIX/bin/baton (default PREFIX /usr/local) with
# PREFIX/bin/baton-fetch-schema beside it (`baton fetch-schema` runs it: the HTTP stack, kept out of
# every other command's process), the Kotlin runtime's files `baton gen --lang kotlin` writes as
# PREFIX/share/baton/kotlin-runtime/*.kt and the Kotlin test kit's as PREFIX/share/baton/kotlin-testing/*.kt
# (found beside the binary), and the JSON schema of baton.json as PREFIX/share/baton/baton.schema.json.
#
#   scripts/install.sh                      # /usr/local/bin/baton
#   scripts/install.sh --prefix "$HOME/.local"
#   PREFIX=/opt/baton scripts/install.sh    # or make install PREFIX=/opt/baton
#   scripts/install.sh --check              # check the prerequisites and say what would be built; build nothing
#   scripts/install.sh --baton PATH         # install an existing executable (and the baton-fetch-schema beside it)
#
# Needs a Swift 6 toolchain and nothing else: the prerequisites are checked before anything is built
# (in seconds), and `baton` is installed even when the optional baton-fetch-schema cannot be built.
# On Linux `baton` links the Swift runtime in (--static-swift-stdlib), so it keeps working when the
# toolchain moves; baton-fetch-schema links the toolchain's FoundationNetworking dynamically, since
# the static one links libcurl's development library (-lcurl), which a toolchain alone does not have.
# SWIFT names the swift executable (default: the one on PATH). Exit status: 0 installed (or, with
# --check, ready to), 1 the build of baton failed, 2 a usage error or a folder that cannot be
# written, 3 a prerequisite is missing.
set -eu
prefix="${PREFIX:-/usr/local}"
binary=""
check_only=""
swift="${SWIFT:-swift}"
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ $# -ge 2 ] || { echo "install.sh: --prefix needs a folder" >&2; exit 2; }; prefix="$2"; shift 2 ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    --baton) [ $# -ge 2 ] || { echo "install.sh: --baton needs an executable" >&2; exit 2; }; binary="$2"; shift 2 ;;
    --check) check_only=1; shift ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if [ -n "$binary" ]; then
  [ -x "$binary" ] || { echo "install.sh: $binary is not an executable" >&2; exit 2; }
  binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"
fi
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# Prerequisites, before anything is built: each missing one is named with what to do.
missing=0
say() { echo "install.sh: $*" >&2; }
static=""
helper_link="none"
# Whether the runtime libcurl FoundationNetworking loads is installed (ldconfig may not be on PATH).
has_libcurl() {
  { ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null; } | grep -q 'libcurl\.so\.4 ' && return 0
  for candidate in /usr/lib/libcurl.so.4 /usr/lib64/libcurl.so.4 /usr/lib/*-linux-gnu/libcurl.so.4 /lib/*-linux-gnu/libcurl.so.4; do
    [ -e "$candidate" ] && return 0
  done
  return 1
}
if [ -z "$binary" ]; then
  if ! swift_path=$(command -v "$swift" 2>/dev/null) || [ -z "$swift_path" ]; then
    say "missing: swift ($swift is not on PATH). Install a Swift 6 toolchain (https://swift.org/install) and put its usr/bin on PATH."
    missing=1
  else
    version=$("$swift" --version 2>/dev/null | sed -n 's/.*Swift version \([0-9][0-9]*\)\.\([0-9][0-9]*\).*/\1.\2/p' | head -n 1)
    major=${version%%.*}
    if [ -z "$version" ]; then
      say "missing: a Swift toolchain that reports its version ($swift_path --version printed none)."
      missing=1
    elif [ "$major" -lt 6 ]; then
      say "missing: Swift 6 or later ($swift_path is Swift $version). Install a Swift 6 toolchain (https://swift.org/install)."
      missing=1
    else
      say "swift $version at $swift_path"
    fi
    # The toolchain's usr/lib/swift, as the compiler reports it (a swiftly shim or a symbolic link on
    # PATH says nothing about where the toolchain is).
    resources=$("$swift" -print-target-info 2>/dev/null | sed -n 's/.*"runtimeResourcePath": "\(.*\)".*/\1/p' | head -n 1)
    toolchain=${resources%/lib/swift}
    if [ "$(uname -s)" = Linux ] && [ "$missing" = 0 ]; then
      if [ -f "$toolchain/lib/swift_static/linux/libswiftCore.a" ]; then
        static="--static-swift-stdlib"
        say "baton: the Swift runtime linked in ($toolchain/lib/swift_static)"
      else
        say "baton: linked against this toolchain's runtime (no static runtime in $toolchain/lib/swift_static): it needs this toolchain to stay at $toolchain"
      fi
      # The optional helper: the toolchain's shared FoundationNetworking and the libcurl it loads.
      if [ ! -f "$toolchain/lib/swift/linux/libFoundationNetworking.so" ]; then
        say "optional: baton-fetch-schema will not be built: no libFoundationNetworking.so in $toolchain/lib/swift/linux"
      elif ! has_libcurl; then
        say "optional: baton-fetch-schema will not be built: FoundationNetworking needs libcurl.so.4 (Debian: apt-get install libcurl4)"
      else
        helper_link="dynamic"
        say "baton-fetch-schema: linked against this toolchain's FoundationNetworking (needs it to stay at $toolchain)"
      fi
    elif [ "$missing" = 0 ]; then
      helper_link="system"
    fi
  fi
fi
# The prefix: its nearest existing folder must be writable (nothing is created before the build).
existing="$prefix/bin"
while [ ! -d "$existing" ] && [ "$existing" != "$(dirname "$existing")" ]; do existing=$(dirname "$existing"); done
if [ ! -w "$existing" ]; then
  say "cannot write to $prefix/bin ($existing is not writable): choose another --prefix (such as \$HOME/.local) or run as a user who may write there."
  exit 2
fi
command -v install >/dev/null 2>&1 || { say "missing: install (coreutils)"; missing=1; }
if [ "$missing" != 0 ]; then
  say "nothing was built or installed."
  exit 3
fi
if [ -n "$check_only" ]; then
  if [ -n "$binary" ]; then
    say "ready: would install $binary to $prefix/bin/baton"
  else
    say "ready: would build baton (release${static:+, $static}) and baton-fetch-schema ($helper_link) and install them to $prefix/bin"
  fi
  exit 0
fi

build_helper=""
if [ -z "$binary" ]; then
  say "building baton (release; a first build takes several minutes: 3.3 min measured on 2 busy cores)"
  "$swift" build -c release --product baton $static || { say "the build of baton failed; nothing was installed."; exit 1; }
  binary="$("$swift" build -c release $static --show-bin-path)/baton"
  # A helper left by an earlier build is not installed in place of one that failed to build now.
  rm -f "$(dirname "$binary")/baton-fetch-schema"
  [ "$helper_link" = none ] || build_helper=1
fi
[ -x "$binary" ] || { say "$binary is not an executable"; exit 2; }
runtime="$prefix/share/baton/kotlin-runtime"
mkdir -p "$prefix/bin" "$runtime" || { say "cannot create folders in $prefix"; exit 2; }
# baton and its files first: usable even if the optional helper's build below fails or is stopped.
install -m 0755 "$binary" "$prefix/bin/baton" || exit 2
install -m 0644 Docs/baton.schema.json "$prefix/share/baton/baton.schema.json" || exit 2
# The runtime of this version only: files an older one had are removed.
rm -f "$runtime"/*.kt && install -m 0644 Kotlin/runtime/baton/runtime/*.kt "$runtime/" || exit 2
# The Kotlin test kit, written beside Kotlin test builders (KotlinTestKitFiles).
testing="$prefix/share/baton/kotlin-testing"
mkdir -p "$testing" && rm -f "$testing"/*.kt && install -m 0644 Kotlin/testing/baton/testing/*.kt "$testing/" || exit 2
echo "installed $("$prefix/bin/baton" --version | head -n 1) to $prefix/bin/baton"
if [ -n "$build_helper" ]; then
  # On Linux without --static-swift-stdlib, so release compiles the modules again (about as long as
  # baton's build: 3.8 min measured); macOS links the system's networking either way.
  say "building baton-fetch-schema (optional; about as long again; Ctrl-C keeps baton installed without it)"
  "$swift" build -c release --product baton-fetch-schema \
    || say "optional: baton-fetch-schema did not build; baton is installed, and baton fetch-schema will say the helper is missing."
fi
helper="$(dirname "$binary")/baton-fetch-schema"
if [ -x "$helper" ]; then
  install -m 0755 "$helper" "$prefix/bin/baton-fetch-schema" || exit 2
  echo "installed baton-fetch-schema to $prefix/bin/baton-fetch-schema"
else
  echo "note: no baton-fetch-schema beside $binary: baton fetch-schema will say it is missing" >&2
fi
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "note: $prefix/bin is not on PATH; add it to use baton from anywhere" >&2 ;;
esac
