#!/usr/bin/env bash
# python3's jsonschema: the tests validate what `baton init` writes, and the Examples' baton.json,
# against Docs/baton.schema.json as an editor would. Idempotent: installs only when it is missing.
set -euo pipefail
if python3 -c 'import jsonschema' 2>/dev/null; then
  echo "jsonschema: already installed"
  exit 0
fi
if command -v apt-get >/dev/null 2>&1 && apt-get install -y python3-jsonschema >/dev/null 2>&1; then
  :
else
  python3 -m pip install --quiet 'jsonschema>=4,<5' \
    || python3 -m pip install --quiet --break-system-packages 'jsonschema>=4,<5'
fi
python3 -c 'import jsonschema; print("jsonschema: ready")'
