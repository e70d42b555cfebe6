#!/bin/sh
# Makes release X.Y.Z from the current commit (Docs/Releasing.md):
#
#   scripts/release.sh 0.1.0             # check, tag v0.1.0, pin the pre-commit snippets, build the bundle
#   scripts/release.sh 0.1.0 --dry-run   # check and say what it would do; change nothing
#   scripts/release.sh 0.1.0 --no-bundle # everything but the artifact bundle (a machine without a release build)
#   scripts/release.sh --pin REV VERSION # only point the snippets' rev at commit REV (`# Baton VERSION`)
#
# Checks first: a clean worktree, BatonCLI.version is X.Y.Z, CHANGELOG.md has a "## X.Y.Z" section and
# the tag vX.Y.Z does not exist. Then it tags HEAD vX.Y.Z (annotated); sets the `rev:` of README.md's and
# .pre-commit-hooks.yaml's pre-commit snippets to HEAD's full SHA (`rev: <sha>  # Baton X.Y.Z`, as
# pre-commit's `autoupdate --freeze` pins one), so the snippet works even where the tag is not
# fetched or did not survive, and commits that; and builds dist/baton.artifactbundle (scripts/make-artifactbundle.sh).
# It pushes nothing: it prints the commands that publish. Exit status: 0 done, 1 a check failed or a
# step failed, 2 a usage error.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
usage() { echo "usage: scripts/release.sh X.Y.Z [--dry-run] [--no-bundle] | --pin REV VERSION (see --help)" >&2; exit 2; }
say() { echo "release: $*" >&2; }

# Points the snippets' `rev:` lines (README.md's yaml block, the comment in .pre-commit-hooks.yaml) at REV.
pin() {
  sha=$(git rev-parse --verify "$1^{commit}" 2>/dev/null) || { say "$1 is not a commit here"; exit 1; }
  for file in README.md .pre-commit-hooks.yaml; do
    sed -i.bak -E "s/^([# ]*rev: ).*/\1$sha  # Baton $2/" "$file" && rm -f "$file.bak"
  done
  say "the pre-commit snippets' rev is $sha (v$2)"
}

case "${1:-}" in
  -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  --pin) [ $# -eq 3 ] || usage; pin "$2" "$3"; exit 0 ;;
  ""|-*) usage ;;
esac
version=$1; shift
dry_run=""
bundle=1
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry_run=1 ;;
    --no-bundle) bundle="" ;;
    *) usage ;;
  esac
  shift
done
echo "$version" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+$' || { say "$version is not X.Y.Z"; exit 2; }

failed=0
[ -z "$(git status --porcelain)" ] || { say "the worktree has changes: commit or stash them first"; failed=1; }
grep -q "static let version = \"$version\"" Sources/BatonCLI/BatonCLI.swift \
  || { say "BatonCLI.version is not \"$version\" (Sources/BatonCLI/BatonCLI.swift; Docs/Releasing.md step 1)"; failed=1; }
grep -q "^## $version" CHANGELOG.md 2>/dev/null || { say "CHANGELOG.md has no \"## $version\" section"; failed=1; }
if git rev-parse --verify -q "refs/tags/v$version" >/dev/null; then say "the tag v$version exists already: never move a tag"; failed=1; fi
[ "$failed" = 0 ] || exit 1
head=$(git rev-parse HEAD)
if [ -n "$dry_run" ]; then
  say "ready: would tag $head v$version, pin the pre-commit snippets to it and commit that${bundle:+, and build dist/baton.artifactbundle}"
  exit 0
fi

git tag -a "v$version" -m "Baton $version" "$head"
say "tagged $head v$version"
pin "$head" "$version"
if [ -n "$(git status --porcelain README.md .pre-commit-hooks.yaml)" ]; then
  git commit -q -m "Pin the pre-commit snippets to Baton $version's commit" README.md .pre-commit-hooks.yaml
  say "committed the pinned snippets"
fi
if [ -n "$bundle" ]; then
  scripts/make-artifactbundle.sh --output dist || { say "the artifact bundle failed to build (the tag stays)"; exit 1; }
fi
say "publish: git push origin HEAD v$version; attach dist/baton.artifactbundle.zip and its SHA-256 to the release"
