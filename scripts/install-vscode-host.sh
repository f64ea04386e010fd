#!/usr/bin/env bash
# Installs code-server (a full VS Code: server + web workbench) from the npm registry into
# .vscode-host/tools, without any download outside the registry. Idempotent: a stamp file records a
# finished install. Follows ../shared/notes/vscode-host.md (verified on these machines).
set -euo pipefail
CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.100.3}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TOOLS="$ROOT/.vscode-host/tools"
STAMP="$TOOLS/.installed-code-server-$CODE_SERVER_VERSION"

if [ -f "$STAMP" ]; then exit 0; fi

missing=()
command -v rg >/dev/null || missing+=("ripgrep (apt-get install ripgrep)")
[ -f /usr/include/krb5.h ] || [ -f /usr/include/krb5/krb5.h ] || missing+=("libkrb5-dev (apt-get install libkrb5-dev)")
command -v python3 >/dev/null || missing+=("python3")
command -v g++ >/dev/null || missing+=("g++ (apt-get install g++)")
command -v make >/dev/null || missing+=("make")
if [ ${#missing[@]} -gt 0 ]; then
  echo "vscode-host: missing prerequisites: ${missing[*]}" >&2
  exit 3
fi

echo "vscode-host: installing code-server $CODE_SERVER_VERSION into $TOOLS (once; about two minutes)"
rm -rf "$TOOLS"
mkdir -p "$TOOLS"
cd "$TOOLS"
echo '{"name":"vscode-host-tools","private":true}' > package.json
# Its postinstall refuses root and downloads ripgrep, so scripts are off and its steps run by hand.
npm install --no-audit --no-fund --ignore-scripts "code-server@$CODE_SERVER_VERSION"
export npm_config_yes=true # node-pty's install runs `npx node-gyp`, which would otherwise ask
npm rebuild argon2
cd node_modules/code-server/lib/vscode
npm install --no-audit --no-fund --omit=dev --ignore-scripts
mkdir -p node_modules/@vscode/ripgrep/bin
cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
npm rebuild
ln -sfn node_modules node_modules.asar
cd extensions
npm install --no-audit --no-fund --omit=dev
touch "$STAMP"
echo "vscode-host: code-server $CODE_SERVER_VERSION installed"
