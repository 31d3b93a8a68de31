#!/usr/bin/env bash
# End-to-end test of the VS Code extension in a real VS Code (code-server 4.100.3)
# driven by headless Chromium: squiggle, Problems row, hover and quick fix on a
# launch.sh that misuses --use-replayssm.
#
#   SERVELINT_PYTHON=/path/to/python  interpreter that can `import servelint` (default: python3)
#   SERVELINT_E2E_SKIP_INSTALL=1      do not run install-tools.sh first
#   SERVELINT_E2E_TOOLS=DIR           where install-tools.sh put code-server (default tests/e2e/.tools)
#   SERVELINT_E2E_TIMEOUT_MS=60000    how long to wait for each step
#
# Screenshots and logs land in tests/e2e/artifacts/. Exit status 0 only if every
# assertion held.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
ARTIFACTS="$HERE/artifacts"
CODE_SERVER="${SERVELINT_E2E_TOOLS:-$HERE/.tools}/node_modules/.bin/code-server"

say() { printf '[e2e %5ss] %s\n' "$SECONDS" "$*"; }
die() { printf '[e2e] FAILED: %s\n' "$*" >&2; exit 1; }

if [[ "${SERVELINT_E2E_SKIP_INSTALL:-}" != 1 ]]; then
  bash "$HERE/install-tools.sh"
fi
[[ -x "$CODE_SERVER" ]] || die "code-server is not installed; run tests/e2e/install-tools.sh"
[[ -d "$HERE/node_modules/playwright-core" ]] || die "playwright-core is not installed; run tests/e2e/install-tools.sh"
command -v chromium >/dev/null || die "chromium is not installed; run tests/e2e/install-tools.sh"

PYTHON="${SERVELINT_PYTHON:-python3}"
PYTHON="$(command -v "$PYTHON" || true)"
[[ -n "$PYTHON" ]] || die "SERVELINT_PYTHON (${SERVELINT_PYTHON:-python3}) is not an executable"
# Without servelint the extension would offer to install it, which is a
# different test; say so plainly instead of timing out on a missing squiggle.
"$PYTHON" -c "import servelint.lsp.server" 2>/dev/null ||
  die "$PYTHON cannot import servelint.lsp.server; install the server there (pip install -e $REPO) or set SERVELINT_PYTHON"

say "building the .vsix"
(
  cd "$REPO/client"
  # npm ci wipes node_modules; only needed when the lock file changed.
  if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
    npm ci --no-audit --no-fund --loglevel=error
  fi
  npm run --silent package >/dev/null
)
VERSION="$(node -p "require('$REPO/client/package.json').version")"
VSIX="$REPO/client/servelint-$VERSION.vsix"
[[ -f "$VSIX" ]] || die "packaging did not produce $VSIX"

rm -rf "$ARTIFACTS"
mkdir -p "$ARTIFACTS"
WORK="$(mktemp -d /tmp/servelint-e2e.XXXXXX)"
CS_PID=""
cleanup() {
  local rc=$?
  if [[ -n "$CS_PID" ]]; then
    # code-server runs in its own process group (setsid), so this ends its
    # children (extension host, language server) too, and nothing else.
    kill -- "-$CS_PID" 2>/dev/null || true
    wait "$CS_PID" 2>/dev/null || true
  fi
  # The extension host's logs, including the servelint output channel.
  [[ -d "$WORK/user/logs" ]] && cp -r "$WORK/user/logs" "$ARTIFACTS/vscode-logs" 2>/dev/null
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT

mkdir -p "$WORK/user/User" "$WORK/ext" "$WORK/ws"
# code-server writes a config with a random password unless given one.
printf 'auth: none\n' >"$WORK/config.yaml"
cat >"$WORK/user/User/settings.json" <<EOF
{
  "servelint.interpreter": "$PYTHON",
  "security.workspace.trust.enabled": false,
  "files.hotExit": "off",
  "files.autoSave": "off",
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "editor.hover.delay": 100,
  "editor.lightbulb.enabled": "on"
}
EOF
cat >"$WORK/ws/launch.sh" <<'EOF'
#!/bin/sh
# servelint: vllm=0.28.0
vllm serve mistralai/Mamba-Codestral-7B-v0.1 \
  --use-replayssm \
  --port 8000
EOF

CS=("$CODE_SERVER" --config "$WORK/config.yaml" --user-data-dir "$WORK/user" --extensions-dir "$WORK/ext")
say "installing $(basename "$VSIX") into a fresh profile"
"${CS[@]}" --install-extension "$VSIX" >"$ARTIFACTS/install-extension.log" 2>&1 ||
  die "code-server --install-extension failed: $(tail -5 "$ARTIFACTS/install-extension.log")"

PORT="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
say "starting code-server on 127.0.0.1:$PORT"
setsid "${CS[@]}" --auth none --bind-addr "127.0.0.1:$PORT" --disable-telemetry --disable-update-check \
  --disable-workspace-trust --disable-getting-started-override "$WORK/ws" >"$ARTIFACTS/code-server.log" 2>&1 &
CS_PID=$!
for _ in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
  kill -0 "$CS_PID" 2>/dev/null || die "code-server exited: $(tail -5 "$ARTIFACTS/code-server.log")"
  sleep 0.2
done
curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null || die "code-server did not answer /healthz"

say "driving the editor"
E2E_URL="http://127.0.0.1:$PORT/?folder=$WORK/ws" E2E_FILE="$WORK/ws/launch.sh" E2E_ARTIFACTS="$ARTIFACTS" \
  node "$HERE/e2e.mjs"
say "passed"
