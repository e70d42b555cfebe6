#!/usr/bin/env bash
# The test GraphQL server's Python packages (Tests/Server/requirements.txt, pinned). Idempotent: installs only
# when a pinned version is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
requirements=Tests/Server/requirements.txt
if python3 - "$requirements" <<'PY'
import sys
from importlib.metadata import version, PackageNotFoundError
for line in open(sys.argv[1]):
    line = line.split("#")[0].strip()
    if not line:
        continue
    name, _, pinned = line.partition("==")
    try:
        if version(name) != pinned:
            sys.exit(1)
    except PackageNotFoundError:
        sys.exit(1)
PY
then
  echo "python-server: pinned packages already installed"
else
  python3 -m pip install --quiet -r "$requirements" \
    || python3 -m pip install --quiet --break-system-packages -r "$requirements"
fi
python3 Tests/Server/server.py --print-schema > /dev/null
echo "python-server: ariadne $(python3 -c 'import importlib.metadata as m; print(m.version("ariadne"))') ready"
