#!/usr/bin/env bash
# Headless Chromium (Debian's package) for the browser test of the HTML report
# (reports/pipeline.e2e.test.ts drives it with playwright-core at /usr/bin/chromium).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends chromium fonts-dejavu-core >/dev/null
/usr/bin/chromium --version
