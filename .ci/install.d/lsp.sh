#!/usr/bin/env bash
# `baton lsp`'s end-to-end tests (Tests/BatonLanguageServerTests/EndToEnd): pytest-lsp (pinned; it brings pygls,
# lsprotocol and pytest-asyncio) and Debian's neovim, run headless. Idempotent: installs only what is missing.
set -euo pipefail
SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
pinned=1.0.1
if python3 -c "import importlib.metadata as m, sys; sys.exit(m.version('pytest-lsp') != '$pinned')" 2>/dev/null; then
  echo "lsp: pytest-lsp $pinned already installed"
else
  python3 -m pip install --quiet "pytest-lsp==$pinned" \
    || python3 -m pip install --quiet --break-system-packages "pytest-lsp==$pinned"
fi
if ! command -v nvim >/dev/null; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends neovim
fi
echo "lsp: pytest-lsp $(python3 -c 'import importlib.metadata as m; print(m.version("pytest-lsp"))'), $(nvim --version | head -n 1) ready"
