#!/usr/bin/env bash
# The incremental-delivery test server's packages (Tests/Server/incremental/requirements.txt, pinned: graphql-core
# 3.3, which serves @defer and @stream) in a virtualenv of their own, so the system's graphql-core 3.2.8 stays for
# ariadne. Idempotent: the virtualenv is made once, and pip installs only a pinned version that is missing (an exact
# pin already satisfied asks no index). Its place is $BATON_INCREMENTAL_VENV, else ~/.cache/baton/incremental-venv
# (where Tests/BatonNetworkTests and Tests/BatonCodegenTests look).
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=${BATON_INCREMENTAL_VENV:-$HOME/.cache/baton/incremental-venv}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r Tests/Server/incremental/requirements.txt
"$venv/bin/python" Tests/Server/incremental/server.py --print-schema > /dev/null
echo "incremental-server: graphql-core $("$venv/bin/python" -c 'import graphql; print(graphql.__version__)') ready in $venv"
