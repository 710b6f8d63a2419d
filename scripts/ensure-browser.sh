#!/usr/bin/env bash
# Makes sure the browser tests have a Chromium (and CJK fonts for readable screenshots). Installs the
# Debian packages when missing and allowed (root with apt-get); otherwise says what to install.
set -euo pipefail
browser="${CHROMIUM_PATH:-/usr/bin/chromium}"
need=()
[ -x "$browser" ] || need+=(chromium)
if command -v dpkg >/dev/null 2>&1 && ! dpkg -s fonts-noto-cjk >/dev/null 2>&1; then need+=(fonts-noto-cjk); fi
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing ${need[*]} for the browser tests…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >/dev/null
else
  echo "The browser tests need: ${need[*]} (Debian packages), or CHROMIUM_PATH pointing at a Chromium." >&2
  exit 1
fi
