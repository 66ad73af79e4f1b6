#!/usr/bin/env bash
# Headless Chromium (Debian's package) for the browser test of the HTML report
# (reports/pipeline.e2e.test.ts drives it with playwright-core at /usr/bin/chromium).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
source "$(dirname "$0")/../apt.sh"
apt_install chromium fonts-dejavu-core
/usr/bin/chromium --version
