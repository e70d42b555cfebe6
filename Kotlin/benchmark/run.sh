#!/usr/bin/env bash
# Compiles the Kotlin runtime with its benchmark and runs it on the JVM (Docs/Performance.md, "The Kotlin runtime").
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
kotlinc Kotlin/runtime/baton/runtime/*.kt Kotlin/benchmark/baton/benchmark/*.kt -d "$out" 2>&1 | grep -v -e '^OpenJDK' -e '^warning: Options' || true
stdlib="$(dirname "$(readlink -f "$(command -v kotlinc)")")/../lib/kotlin-stdlib.jar"
java -cp "$out:$stdlib" baton.benchmark.RuntimeBenchmarkKt
