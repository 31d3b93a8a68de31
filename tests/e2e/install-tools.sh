#!/usr/bin/env bash
# Installs what the code-server e2e needs on a fresh Debian 12 machine whose only
# network is the package registries. Safe to re-run: every step is skipped when its
# result is already there, so a warm run takes a second or two.
#
# Why the odd steps: see /work/shared/research/tooling.md §2(b),(c). code-server
# 4.100.3 is the last release that runs on node 20; its postinstall needs
# unsafe-perm (we are root), libkrb5-dev (kerberos builds from source because
# prebuilds live on GitHub), a pre-seeded ripgrep tarball (@vscode/ripgrep would
# fetch it from api.github.com) and npm_config_yes (node-pty runs npx node-gyp).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# SERVELINT_E2E_TOOLS lets CI keep code-server (300 MB, ~1.5 min to build) outside
# a fresh clone, so it is installed once per machine rather than once per run.
TOOLS="${SERVELINT_E2E_TOOLS:-$HERE/.tools}"
CODE_SERVER_VERSION=4.100.3
RG_CACHE=/tmp/vscode-ripgrep-cache-1.15.11
RG_TARBALL="$RG_CACHE/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"

log() { printf '[install-tools %5ss] %s\n' "$SECONDS" "$*"; }

apt_install_missing() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' || missing+=("$pkg")
  done
  if ((${#missing[@]} == 0)); then
    log "apt: $* already installed"
    return
  fi
  local sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  log "apt: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

seed_ripgrep_cache() {
  [[ -s "$RG_TARBALL" ]] && return
  log "seeding $RG_TARBALL from Debian's rg"
  local tmp
  tmp="$(mktemp -d)"
  cp "$(command -v rg)" "$tmp/rg"
  mkdir -p "$RG_CACHE"
  tar czf "$RG_TARBALL" -C "$tmp" rg
  rm -rf "$tmp"
}

install_code_server() {
  # Read the version from package.json: `code-server --version` would write a
  # ~/.config/code-server/config.yaml with a random password as a side effect.
  local pkg="$TOOLS/node_modules/code-server/package.json"
  if [[ -f "$pkg" ]] && grep -q "\"version\": \"$CODE_SERVER_VERSION\"" "$pkg"; then
    log "code-server $CODE_SERVER_VERSION already installed"
    return
  fi
  seed_ripgrep_cache
  log "npm: installing code-server@$CODE_SERVER_VERSION into $TOOLS (native builds, ~1.5 min)"
  mkdir -p "$TOOLS"
  [[ -f "$TOOLS/package.json" ]] || echo '{"private": true}' >"$TOOLS/package.json"
  (cd "$TOOLS" &&
    npm_config_unsafe_perm=true npm_config_yes=true \
      npm install --no-audit --no-fund --no-save --loglevel=error \
      "code-server@$CODE_SERVER_VERSION")
}

install_playwright() {
  # npm ci wipes and reinstalls node_modules, so only run it when the lock changed.
  local stamp="$HERE/node_modules/.package-lock.json"
  if [[ -f "$stamp" && ! "$HERE/package-lock.json" -nt "$stamp" ]]; then
    log "playwright-core already installed"
    return
  fi
  log "npm ci (playwright-core) in tests/e2e"
  (cd "$HERE" && npm ci --no-audit --no-fund --loglevel=error)
}

# g++/make: code-server's native modules (argon2, kerberos, node-pty, spdlog) build from source.
apt_install_missing chromium libkrb5-dev ripgrep g++ make
install_code_server
install_playwright
log "done"
