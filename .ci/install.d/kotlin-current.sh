#!/usr/bin/env bash
# A current Kotlin compiler and the real kotlinx-coroutines (with Flow and StateFlow) beside Debian's kotlinc 1.3.31,
# for the tests that compile the Kotlin runtime, its adapters and the generated Kotlin with both compilers
# (Tests/BatonCodegenTests/KotlinCurrentCompilerTests.swift, Docs/Kotlin.md). Neither is a Debian package and there is
# no Maven here, so both come from one pinned PyPI wheel, kotlin-jupyter-kernel 0.19.0.944, whose jars carry
# kotlinc-jvm 2.4.0-dev-6891, kotlin-stdlib 2.3.10-RC and kotlinx-coroutines 1.10.2 (inside the kernel's fat jar).
#
# Installs under /opt/baton-peers/kotlin-current:
#   lib/            the compiler's jars and a Kotlin home layout (kotlin-stdlib.jar, kotlin-reflect.jar, ...)
#   lib/kotlinx-coroutines-core.jar   only kotlinx/coroutines/** from the fat jar (what an app would depend on)
#   bin/kotlinc-current               the wrapper (also linked into /usr/local/bin)
# Idempotent: a matching VERSION file means done. BATON_KOTLIN_CURRENT_WHEEL may name an already downloaded wheel.
set -euo pipefail
SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
version=0.19.0.944
wheel_name="kotlin_jupyter_kernel-${version}-py3-none-any.whl"
sha256=dc654a426a28e6621aeb0bd7772d268a9a877aabae4a17b73383752a416281a3
prefix=/opt/baton-peers/kotlin-current
stamp="kotlin-jupyter-kernel ${version} ${sha256}"

if [ -f "$prefix/VERSION" ] && [ "$(cat "$prefix/VERSION")" = "$stamp" ] && [ -x "$prefix/bin/kotlinc-current" ]; then
  echo "kotlin-current: already installed ($("$prefix/bin/kotlinc-current" -version 2>&1 | grep -o 'kotlinc-jvm [^ ]*'))"
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
wheel=${BATON_KOTLIN_CURRENT_WHEEL:-}
if [ -z "$wheel" ] || [ ! -f "$wheel" ]; then
  python3 -m pip download --quiet --no-deps --only-binary=:all: "kotlin-jupyter-kernel==${version}" -d "$work"
  wheel="$work/$wheel_name"
fi
actual=$(sha256sum "$wheel" | cut -d' ' -f1)
if [ "$actual" != "$sha256" ]; then
  echo "kotlin-current: $wheel has sha256 $actual, expected $sha256" >&2
  exit 1
fi

python3 - "$wheel" "$work/lib" <<'PY'
import sys, zipfile, os
wheel, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
names = {
    "kotlin-jupyter-kernel-0.19.0-944-all.jar": "kotlin-compiler.jar",
    "kotlin-stdlib-2.3.10-RC.jar": "kotlin-stdlib.jar",
    "kotlin-reflect-2.3.10-RC.jar": "kotlin-reflect.jar",
    "kotlin-script-runtime-2.4.0-dev-6891.jar": "kotlin-script-runtime.jar",
    "annotations-13.0.jar": "annotations-13.0.jar",
}
with zipfile.ZipFile(wheel) as w:
    for entry, target in names.items():
        with w.open("run_kotlin_kernel/jars/" + entry) as source, open(os.path.join(out, target), "wb") as sink:
            sink.write(source.read())
# The coroutines library alone, as an app's dependency would be: kotlinx/coroutines/** and its module metadata.
keep = ("kotlinx/coroutines/", "META-INF/kotlinx-coroutines-core.kotlin_module", "META-INF/kotlinx_coroutines_core.version")
with zipfile.ZipFile(os.path.join(out, "kotlin-compiler.jar")) as fat, \
        zipfile.ZipFile(os.path.join(out, "kotlinx-coroutines-core.jar"), "w", zipfile.ZIP_DEFLATED) as jar:
    count = 0
    for info in fat.infolist():
        if info.filename.startswith(keep) and not info.is_dir():
            jar.writestr(info.filename, fat.read(info.filename))
            count += 1
    if count < 500 or fat.read("META-INF/kotlinx_coroutines_core.version").strip() != b"1.10.2":
        sys.exit("kotlin-current: the kernel jar does not hold kotlinx-coroutines 1.10.2")
PY

mkdir -p "$work/bin"
cat > "$work/bin/kotlinc-current" <<'SH'
#!/usr/bin/env bash
# kotlinc from the kotlin-jupyter-kernel wheel (.ci/install.d/kotlin-current.sh); arguments as kotlinc's.
home=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
lib="$home/lib"
exec java -Xss4m -cp "$lib/kotlin-compiler.jar:$lib/kotlin-stdlib.jar:$lib/kotlin-reflect.jar:$lib/kotlin-script-runtime.jar:$lib/annotations-13.0.jar" \
  org.jetbrains.kotlin.cli.jvm.K2JVMCompiler -kotlin-home "$home" "$@"
SH
chmod +x "$work/bin/kotlinc-current"
echo "$stamp" > "$work/VERSION"

$SUDO rm -rf "$prefix.new"
$SUDO mkdir -p "$(dirname "$prefix")"
$SUDO cp -r "$work" "$prefix.new"
$SUDO chmod -R a+rX "$prefix.new"
$SUDO rm -rf "$prefix"
$SUDO mv "$prefix.new" "$prefix"
$SUDO ln -sf "$prefix/bin/kotlinc-current" /usr/local/bin/kotlinc-current
echo "kotlin-current: installed $("$prefix/bin/kotlinc-current" -version 2>&1 | grep -o 'kotlinc-jvm [^ ]*') and kotlinx-coroutines 1.10.2 in $prefix"
