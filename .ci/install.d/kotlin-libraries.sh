#!/usr/bin/env bash
# The JVM libraries the Kotlin runtime's adapters and their tests use (Debian 12): kotlinx-coroutines 1.0.1 with
# atomicfu (the coroutine adapters), OkHttp 3.13 with okio (the OkHttp transport), JUnit 4 with Hamcrest (the
# testing guide's Kotlin test, KotlinJUnitGuideTests). Jars land in /usr/share/java,
# where Tests/BatonCodegenTests/KotlinTestSupport.swift finds them. Idempotent: installs only what is missing.
set -euo pipefail
SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
pkgs=(libkotlinx-coroutines-java libkotlinx-atomicfu-java libokhttp-java libokio-java junit4)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
for jar in kotlinx-coroutines-core atomicfu okhttp okio junit4 hamcrest-core; do
  [ -f "/usr/share/java/$jar.jar" ] || { echo "kotlin-libraries: /usr/share/java/$jar.jar is missing" >&2; exit 1; }
done
echo "kotlin-libraries: kotlinx-coroutines, atomicfu, OkHttp, okio and JUnit 4 in /usr/share/java"
