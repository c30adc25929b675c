#!/usr/bin/env bash
# Installs Debian's chromium with apt-get when no chromium is on PATH (make test-browser needs
# a headless browser). Says so before installing; runs `apt-get update` first when the package
# lists do not know chromium yet.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then exit 0; fi
if [ "$(uname -s)" != Linux ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "make test-browser needs chromium on PATH (set CHROMIUM=/path/to/chrome to use another)" >&2
    exit 1
fi
sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "installing chromium with apt-get (the dashboard's browser test drives it headlessly; about 1-2 minutes once)"
if ! apt-cache show chromium >/dev/null 2>&1; then $sudo apt-get update -qq; fi
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
