#!/usr/bin/env bash
# Baton's libFuzzer targets, built outside `swift build` with `swiftc -sanitize=fuzzer,address`.
# Docs/Reliability.md describes the targets, their invariants and the findings so far.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out="$root/.build/fuzz"
targets_all=(documents sdl introspection configuration swift-literals lsp responses image http websocket)

usage() {
  cat <<'EOF'
usage: Fuzz/fuzz.sh build [TARGET...]           build the targets (all by default) into .build/fuzz
       Fuzz/fuzz.sh seeds                        make the seed corpora from Tests/ and Examples/
       Fuzz/fuzz.sh run [--time S] [TARGET...]   build, seed and fuzz each target for S seconds (default 60)
       Fuzz/fuzz.sh ci                           what CI runs: every target for $BATON_FUZZ_SECONDS s (12),
                                                 libFuzzer seed $BATON_FUZZ_SEED (1)
       Fuzz/fuzz.sh replay TARGET FILE...        run inputs once (a finding, to debug it)

targets: documents sdl introspection configuration swift-literals lsp responses image http websocket
Corpora grow in .build/fuzz/corpus/TARGET; a crash or a broken invariant leaves its input in
.build/fuzz/findings/TARGET and makes `run` and `ci` exit 1. Exit 2: usage error or a build failure.
EOF
}

compiler_modules=(BatonDiagnostics BatonFiles BatonSyntax BatonSchema BatonSemantics BatonValidation BatonConfig BatonIR BatonPlate
  BatonKotlinRuntime BatonCodegen BatonDeclarations BatonCodegenSwift BatonCodegenKotlin BatonCompiler BatonLanguageServer)
flags=(-swift-version 6 -package-name baton -O -g -sanitize=fuzzer,address -parse-as-library)

# Compiles one module (whole module, instrumented) unless its object is newer than its sources.
build_module() {
  local module=$1; shift
  local object="$out/modules/$module.o"
  local folder="Sources/$module" sources
  # BatonKotlinRuntime: its Swift beside the .kt files (which it finds at run time, from its #filePath).
  [ "$module" != BatonKotlinRuntime ] || folder=Kotlin/runtime
  sources=$(find "$folder" -name '*.swift' | sort)
  # Up to date: its object is newer than its sources, and no module before it (in dependency order) was rebuilt.
  if [ "$rebuilt" = 0 ] && [ -f "$object" ] && [ -z "$(find "$folder" -name '*.swift' -newer "$object")" ]; then
    return
  fi
  rebuilt=1
  echo "fuzz: compiling $module"
  # shellcheck disable=SC2086
  swiftc "${flags[@]}" "$@" -wmo -module-name "$module" -emit-module \
    -emit-module-path "$out/modules/$module.swiftmodule" -I "$out/modules" -c $sources -o "$object" 2>&1 \
    | grep -v "warning: Cannot export local symbol" || true
  [ -f "$object" ] || { echo "fuzz: $module did not build" >&2; exit 2; }
}

# Links one target from its files and the modules' objects.
link_target() {
  local target=$1; shift
  local objects=$1; shift
  echo "fuzz: linking $target"
  # shellcheck disable=SC2086
  if ! swiftc "${flags[@]}" -I "$out/modules" -module-name "Fuzz_${target//-/_}" "$@" $objects \
    -o "$out/bin/$target" 2>&1 | grep -v "warning: Cannot export local symbol"; then :; fi
  [ -x "$out/bin/$target" ] || { echo "fuzz: $target did not link" >&2; exit 2; }
}

build() {
  local wanted=("$@")
  [ ${#wanted[@]} -gt 0 ] || wanted=("${targets_all[@]}")
  mkdir -p "$out/modules" "$out/bin" "$out/generated"
  local compiler=0 runtime=0
  for target in "${wanted[@]}"; do
    case $target in
      responses|image|http|websocket) runtime=1 ;;
      documents|sdl|introspection|configuration|swift-literals|lsp) compiler=1 ;;
      *) echo "fuzz: unknown target $target (see --help)" >&2; exit 2 ;;
    esac
  done
  local compiler_objects=""
  rebuilt=0
  if [ $compiler = 1 ]; then
    for module in "${compiler_modules[@]}"; do build_module "$module"; done
    for module in "${compiler_modules[@]}"; do compiler_objects+=" $out/modules/$module.o"; done
  fi
  if [ $runtime = 1 ]; then
    rebuilt=0
    build_module Baton -enable-testing
    python3 Fuzz/make-touch.py Examples/*/Generated/Swift/*.swift > "$out/generated/Touch.generated.swift"
  fi
  local generated; generated=$(ls Examples/*/Generated/Swift/*.swift)
  for target in "${wanted[@]}"; do
    rm -f "$out/bin/$target"
    case $target in
      documents) link_target "$target" "$compiler_objects" Fuzz/Targets/Documents.swift Fuzz/Support/CompilerChecks.swift Fuzz/Support/Violated.swift ;;
      sdl) link_target "$target" "$compiler_objects" Fuzz/Targets/SDL.swift Fuzz/Support/CompilerChecks.swift Fuzz/Support/Violated.swift ;;
      introspection) link_target "$target" "$compiler_objects" Fuzz/Targets/Introspection.swift Fuzz/Support/CompilerChecks.swift Fuzz/Support/Violated.swift ;;
      configuration) link_target "$target" "$compiler_objects" Fuzz/Targets/Configuration.swift Fuzz/Support/CompilerChecks.swift Fuzz/Support/Violated.swift ;;
      swift-literals) link_target "$target" "$compiler_objects" Fuzz/Targets/SwiftLiterals.swift Fuzz/Support/CompilerChecks.swift Fuzz/Support/Violated.swift ;;
      lsp) link_target "$target" "$compiler_objects" Fuzz/Targets/LanguageServer.swift Fuzz/Support/Violated.swift ;;
      # shellcheck disable=SC2086
      responses) link_target "$target" "$out/modules/Baton.o" Fuzz/Targets/Responses.swift Fuzz/Support/Touch.swift \
        Fuzz/Support/Violated.swift "$out/generated/Touch.generated.swift" Tests/BatonRuntimeTests/Support/ReferenceNormalizer.swift $generated ;;
      # shellcheck disable=SC2086
      image) link_target "$target" "$out/modules/Baton.o" Fuzz/Targets/Image.swift Fuzz/Support/Violated.swift \
        Examples/RickAndMorty/Generated/Swift/*.swift ;;
      # shellcheck disable=SC2086
      http) link_target "$target" "$out/modules/Baton.o" Fuzz/Targets/HTTP.swift Fuzz/Support/Violated.swift \
        Examples/RickAndMorty/Generated/Swift/*.swift ;;
      # shellcheck disable=SC2086
      websocket) link_target "$target" "$out/modules/Baton.o" Fuzz/Targets/WebSocket.swift Fuzz/Support/Violated.swift \
        Examples/RickAndMorty/Generated/Swift/*.swift ;;
    esac
  done
}

# Copies the project's own inputs into the seed corpora (nothing is committed: they are made at run time).
seeds() {
  local seeds="$out/seeds"
  rm -rf "$seeds"
  mkdir -p "$seeds"/{documents,sdl,introspection,configuration,swift-literals,lsp,responses,image,http,websocket}
  local n=0
  # Documents: every .graphql fixture and example (a leading byte picks the schema), sections of fixtures too.
  while IFS= read -r file; do
    n=$((n + 1))
    { printf '\x00'; cat "$file"; } > "$seeds/documents/$n"
    { printf '\x01'; cat "$file"; } > "$seeds/documents/$n.github"
  done < <(find Tests Examples -name '*.graphql' -not -path '*/Generated/*' | sort)
  # SDL: the Examples' schemas and the schema fixtures.
  find Examples Tests/BatonSchemaTests -name '*.graphql*' -not -path '*/Generated/*' -exec cp -t "$seeds/sdl" {} + 2>/dev/null || true
  ls Examples/*/schema.graphql* | while read -r file; do cp "$file" "$seeds/sdl/example-$(basename "$(dirname "$file")")"; done
  # Introspection: the Examples' schemas as graphql-js introspects them (when node and graphql-js are here), and a
  # small one written out.
  printf '%s' '{"data":{"__schema":{"queryType":{"name":"Query"},"mutationType":null,"subscriptionType":null,"types":[{"kind":"OBJECT","name":"Query","description":null,"fields":[{"name":"hello","description":null,"args":[{"name":"name","description":null,"type":{"kind":"SCALAR","name":"String","ofType":null},"defaultValue":"\"x\""}],"type":{"kind":"NON_NULL","name":null,"ofType":{"kind":"SCALAR","name":"String","ofType":null}},"isDeprecated":false,"deprecationReason":null}],"inputFields":null,"interfaces":[],"enumValues":null,"possibleTypes":null},{"kind":"SCALAR","name":"String","description":null,"fields":null,"inputFields":null,"interfaces":null,"enumValues":null,"possibleTypes":null}],"directives":[]}}}' > "$seeds/introspection/small.json"
  if command -v node >/dev/null && [ -d /usr/share/nodejs/graphql ]; then
    for file in Examples/*/schema.graphql*; do
      node -e 'const g=require("/usr/share/nodejs/graphql"),fs=require("fs");process.stdout.write(JSON.stringify({data:g.introspectionFromSchema(g.buildSchema(fs.readFileSync(process.argv[1],"utf8")))}))' \
        "$file" > "$seeds/introspection/$(basename "$(dirname "$file")").json" 2>/dev/null || true
    done
  fi
  # Configuration: every baton.json of the project.
  find . -name 'baton.json' -not -path './.build/*' | while read -r file; do
    file=${file#./}
    cp "$file" "$seeds/configuration/$(echo "$file" | tr '/' '_')"
  done
  # Swift literals: the Examples' Swift (not generated) and the tests' Swift.
  find Examples Tests -name '*.swift' -not -path '*/Generated/*' | while read -r file; do
    cp "$file" "$seeds/swift-literals/$(echo "$file" | tr '/' '_')"
  done
  # Language server: sessions an editor sends (Fuzz/make-lsp-seeds.py).
  python3 Fuzz/make-lsp-seeds.py "$seeds/lsp"
  # Responses: the runtime tests' fixtures for every operation (the leading byte picks it).
  for file in Tests/BatonRuntimeTests/Fixtures/*.json; do
    for operation in 0 1 2 3 4; do
      { printf "\\x0$operation"; cat "$file"; } > "$seeds/responses/$(basename "$file").$operation"
    done
  done
  printf '\x04%s' '{"data":{"repository":{"nameWithOwner":"o/n","description":null,"issues":{"nodes":[{"id":"I1","number":1,"title":"t","author":{"login":"a"},"__typename":"Issue"},null],"__typename":"IssueConnection"},"__typename":"Repository"}}}' > "$seeds/responses/repository"
  # HTTP answers: the runtime fixtures as bodies under a few statuses and flags (Fuzz/Targets/HTTP.swift reads
  # byte 0 as the status, byte 1 as flags), a persisted-query miss, a Retry-After.
  for file in Tests/BatonRuntimeTests/Fixtures/*.json; do
    { printf '\x00\x00'; cat "$file"; } > "$seeds/http/$(basename "$file").200"
    { printf '\x06\x08'; cat "$file"; } > "$seeds/http/$(basename "$file").401"
  done
  printf '\x0f\x01120\nnot json' > "$seeds/http/503-retry-after"
  printf '\x0e\x01Wed, 21 Oct 2015 07:28:00 GMT\n' > "$seeds/http/502-date"
  printf '\x00\x04{"errors":[{"message":"PersistedQueryNotFound"}]}' > "$seeds/http/persisted-miss"
  printf '\x00\x02{"data":{"character":null},"errors":[{"message":"over sixty-four bytes, so over the limit"}]}' > "$seeds/http/too-large"
  # WebSocket streams: frames a graphql-transport-ws server sends (Fuzz/make-frames.py).
  python3 Fuzz/make-frames.py "$seeds/websocket" Tests/BatonRuntimeTests/Fixtures/*.json
  # Images: written by the image target from the runtime fixtures.
  build image >/dev/null
  BATON_ROOT="$root" BATON_FUZZ_WRITE_SEEDS="$seeds/image" "$out/bin/image" >/dev/null 2>&1 || true
  for target in "${targets_all[@]}"; do
    echo "fuzz: $(ls "$seeds/$target" | wc -l) seeds for $target"
  done
}

# Fuzzes each target for a time; exit 1 when any found a crash or a broken invariant.
run() {
  local seconds=60 wanted=()
  while [ $# -gt 0 ]; do
    case $1 in
      --time) seconds=$2; shift 2 ;;
      *) wanted+=("$1"); shift ;;
    esac
  done
  [ ${#wanted[@]} -gt 0 ] || wanted=("${targets_all[@]}")
  build "${wanted[@]}"
  [ -d "$out/seeds" ] || seeds
  local failed=0
  for target in "${wanted[@]}"; do
    local corpus="$out/corpus/$target" findings="$out/findings/$target"
    mkdir -p "$corpus" "$findings"
    cp -n "$out/seeds/$target"/* "$corpus"/ 2>/dev/null || true
    local log="$out/$target.log"
    # Inputs that once failed (Fuzz/Regressions/TARGET) run first, as a read-only second corpus.
    local regressions=()
    [ -d "Fuzz/Regressions/$target" ] && regressions=("Fuzz/Regressions/$target")
    # Swift's backtracer is off: libFuzzer reports the crash and keeps the input (the backtracer can hang on an
    # abort under AddressSanitizer, so a finding would stall CI instead of failing it).
    # Inputs up to 64 KiB; a run that takes over 10 s on one input is a hang and counts as a finding. Leak
    # checking is off: Swift keeps enum tags in pointers' spare bits, which LeakSanitizer takes for lost memory.
    if SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 BATON_ROOT="$root" "$out/bin/$target" "$corpus" "${regressions[@]}" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
      -rss_limit_mb=2048 -detect_leaks=0 -print_final_stats=1 ${BATON_FUZZ_SEED:+-seed=$BATON_FUZZ_SEED} \
      -artifact_prefix="$findings/" >"$log" 2>&1; then
      local runs; runs=$(grep -E "stat::number_of_executed_units" "$log" | awk '{print $2}')
      echo "fuzz: $target: ${runs:-?} executions in ${seconds} s, $(ls "$corpus" | wc -l) inputs in the corpus, no finding"
    else
      failed=1
      echo "fuzz: $target: FOUND a crash or a broken invariant (input in $findings):"
      grep -E "invariant violated|ERROR: |SUMMARY|Fatal error|==ERROR" "$log" | head -5
      echo "fuzz: full log: $log"
    fi
  done
  return $failed
}

replay() {
  local target=$1; shift
  build "$target"
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 BATON_ROOT="$root" "$out/bin/$target" "$@"
}

case ${1:-} in
  build) shift; build "$@" ;;
  seeds) seeds ;;
  run) shift; run "$@" ;;
  ci) BATON_FUZZ_SEED=${BATON_FUZZ_SEED:-1} run --time "${BATON_FUZZ_SECONDS:-12}" ;;
  replay) shift; [ $# -ge 2 ] || { usage >&2; exit 2; }; replay "$@" ;;
  -h|--help|help) usage ;;
  *) usage >&2; exit 2 ;;
esac
