#!/usr/bin/env bash
# Debian packages the real-VS-Code harness and `npm start` need: Chromium (the window), ripgrep
# (replaces the binary @vscode/ripgrep would download) and the Kerberos headers (VS Code's native
# `kerberos` module), plus a compiler for native modules. Installs only what is missing; needs root.
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v rg >/dev/null || need+=(ripgrep)
[ -f /usr/include/krb5.h ] || need+=(libkrb5-dev)
command -v g++ >/dev/null || need+=(g++)
command -v make >/dev/null || need+=(make)
command -v python3 >/dev/null || need+=(python3)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "missing Debian packages: ${need[*]} — run: sudo apt-get install -y ${need[*]}" >&2
  exit 3
fi
echo "installing Debian packages: ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
