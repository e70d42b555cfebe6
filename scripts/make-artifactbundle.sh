#!/bin/sh
# Builds `baton.artifactbundle` (SwiftPM's format for prebuilt executables: info.json and one binary
# per platform, with the Kotlin runtime's files beside it) and a package around it whose BatonPlugin
# and BatonCommand run that binary, so a team's package builds its GraphQL without building Baton
# (Docs/BuildIntegration.md).
#
#   scripts/make-artifactbundle.sh                 # release build into dist/
#   scripts/make-artifactbundle.sh --output DIR --baton PATH   # bundle an existing executable
#
# Writes DIR/baton.artifactbundle, DIR/baton.artifactbundle.zip (with its SHA-256, the checksum a
# `.binaryTarget(url:checksum:)` names) and DIR/BatonBinary (a package: the plugins and the bundle).
# The version is `baton --version`'s (BatonCLI.version, the one place it is written). To bundle
# several platforms, run it on each and merge the `variants` of info.json.
set -eu
output="dist"
baton=""
while [ $# -gt 0 ]; do
  case "$1" in
    --output) output="$2"; shift 2 ;;
    --baton) baton="$2"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "make-artifactbundle.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "$baton" ]; then
  # On Linux the Swift runtime is linked in: the bundle runs on machines without the toolchain.
  static=""
  [ "$(uname -s)" = Linux ] && static="--static-swift-stdlib"
  (cd "$root" && swift build -c release --product baton $static) || exit 1
  baton="$(cd "$root" && swift build -c release $static --show-bin-path)/baton"
  # The helper is optional: a bundle travels, so it is linked like baton (static on Linux), which
  # needs libcurl's development library (libcurl4-openssl-dev); without it the bundle has no helper.
  rm -f "$(dirname "$baton")/baton-fetch-schema"
  (cd "$root" && swift build -c release --product baton-fetch-schema $static) \
    || echo "note: baton-fetch-schema did not build (on Linux: apt-get install libcurl4-openssl-dev); the bundle has no fetch-schema helper" >&2
fi
[ -x "$baton" ] || { echo "make-artifactbundle.sh: $baton is not an executable" >&2; exit 2; }
version=$("$baton" --version | head -n 1)
case "$(uname -s)-$(uname -m)" in
  Darwin-*) triples='"x86_64-apple-macosx", "arm64-apple-macosx"' ; platform=macos ;;
  Linux-x86_64) triples='"x86_64-unknown-linux-gnu"' ; platform=linux-x86_64 ;;
  Linux-aarch64) triples='"aarch64-unknown-linux-gnu"' ; platform=linux-aarch64 ;;
  *) echo "make-artifactbundle.sh: unsupported platform $(uname -s) $(uname -m)" >&2; exit 2 ;;
esac
mkdir -p "$output"
output=$(cd "$output" && pwd)
bundle="$output/baton.artifactbundle"
rm -rf "$bundle" "$bundle.zip" "$output/BatonBinary"
variant="baton-$version-$platform"
mkdir -p "$bundle/$variant/bin" "$bundle/$variant/share/baton/kotlin-runtime" "$bundle/$variant/share/baton/kotlin-testing"
install -m 0755 "$baton" "$bundle/$variant/bin/baton"
# `baton fetch-schema` runs the executable beside baton (the only one with an HTTP stack).
helper="$(dirname "$baton")/baton-fetch-schema"
if [ -x "$helper" ]; then install -m 0755 "$helper" "$bundle/$variant/bin/baton-fetch-schema"; fi
# The Kotlin runtime's files, where the binary looks for them (KotlinRuntimeFiles: PREFIX/share/baton).
install -m 0644 "$root"/Kotlin/runtime/baton/runtime/*.kt "$bundle/$variant/share/baton/kotlin-runtime/"
# The Kotlin test kit's, written beside Kotlin test builders (KotlinTestKitFiles).
install -m 0644 "$root"/Kotlin/testing/baton/testing/*.kt "$bundle/$variant/share/baton/kotlin-testing/"
cat > "$bundle/info.json" <<JSON
{
  "schemaVersion": "1.0",
  "artifacts": {
    "baton": {
      "type": "executable",
      "version": "$version",
      "variants": [
        { "path": "$variant/bin/baton", "supportedTriples": [$triples] }
      ]
    }
  }
}
JSON
(cd "$output" && python3 -c 'import shutil, sys; shutil.make_archive("baton.artifactbundle", "zip", ".", "baton.artifactbundle")')
checksum=$(python3 -c 'import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest())' "$bundle.zip")

# The package a team depends on instead of this repository: the same plugin sources, the bundle's baton.
package="$output/BatonBinary"
mkdir -p "$package/Plugins/BatonPlugin" "$package/Plugins/BatonCommand"
cp "$root/Plugins/BatonPlugin/BatonPlugin.swift" "$package/Plugins/BatonPlugin/"
cp "$root/Plugins/BatonCommand/BatonCommand.swift" "$package/Plugins/BatonCommand/"
cp -R "$bundle" "$package/baton.artifactbundle"
cat > "$package/Package.swift" <<SWIFT
// swift-tools-version:6.0
// Baton $version's plugins running a prebuilt baton (made by scripts/make-artifactbundle.sh). To publish
// it, host baton.artifactbundle.zip and replace the path with
//   .binaryTarget(name: "baton", url: "https://…/baton.artifactbundle.zip", checksum: "$checksum")
import PackageDescription

let package = Package(
    name: "BatonBinary",
    products: [
        .plugin(name: "BatonPlugin", targets: ["BatonPlugin"]),
        .plugin(name: "BatonCommand", targets: ["BatonCommand"]),
    ],
    targets: [
        .binaryTarget(name: "baton", path: "baton.artifactbundle"),
        .plugin(name: "BatonPlugin", capability: .buildTool(), dependencies: ["baton"]),
        .plugin(
            name: "BatonCommand",
            capability: .command(
                intent: .custom(verb: "baton", description: "Run baton check, gen or init on this package's baton.json."),
                permissions: [
                    .writeToPackageDirectory(
                        reason: "baton gen writes the output folders baton.json names; baton init writes baton.json.")
                ]),
            dependencies: ["baton"]),
    ]
)
SWIFT
echo "baton $version: $bundle"
echo "archive: $bundle.zip"
echo "checksum: $checksum"
echo "package: $package"
