#!/usr/bin/env bash
# The incremental-delivery test server's packages (Tests/Server/incremental/requirements.txt, pinned: graphql-core
# 3.3, which serves @defer and @stream) in a virtualenv of their own, so the system's graphql-core 3.2.8 stays for
# ariadne. Idempotent: the virtualenv is made once and installs only when a pinned version is missing. Its place is
# $BATON_INCREMENTAL_VENV, else ~/.cache/baton/incremental-venv (where Tests/BatonNetworkTests looks).
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=${BATON_INCREMENTAL_VENV:-$HOME/.cache/baton/incremental-venv}
requirements=Tests/Server/incremental/requirements.txt
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
if "$venv/bin/python" - "$requirements" <<'PY'
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
  echo "incremental-server: pinned packages already installed in $venv"
else
  "$venv/bin/python" -m pip install --quiet -r "$requirements"
fi
"$venv/bin/python" Tests/Server/incremental/server.py --print-schema > /dev/null
echo "incremental-server: graphql-core $("$venv/bin/python" -c 'import graphql; print(graphql.__version__)') ready in $venv"
