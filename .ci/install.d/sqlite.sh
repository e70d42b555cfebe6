#!/usr/bin/env bash
# BatonSQLite links the system's SQLite: sqlite3.h and libsqlite3.so come with libsqlite3-dev (and SwiftPM finds
# them through pkg-config when it is there). Idempotent: installs only what is missing.
set -euo pipefail
SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
missing=()
dpkg-query -W -f='${Status}' libsqlite3-dev 2>/dev/null | grep -q "install ok installed" || missing+=(libsqlite3-dev)
command -v pkg-config >/dev/null || missing+=(pkg-config)
if [ ${#missing[@]} -gt 0 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
echo "sqlite: $(pkg-config --modversion sqlite3 2>/dev/null || echo 'headers') ready"
