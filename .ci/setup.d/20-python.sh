#!/usr/bin/env bash
# Python oracles (DSCodeBench, BigCodeBench): bubblewrap for the sandbox, and Debian's python3 with
# numpy and pandas (the fixtures need nothing else). Idempotent: installs only what is missing.
set -euo pipefail
needed=()
command -v bwrap >/dev/null 2>&1 || needed+=(bubblewrap)
command -v prlimit >/dev/null 2>&1 || needed+=(util-linux)
/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1 || needed+=(python3-numpy)
/usr/bin/python3 -c 'import pandas' >/dev/null 2>&1 || needed+=(python3-pandas)
source "$(dirname "$0")/../apt.sh"
apt_install "${needed[@]}"
echo "python sandbox: $(bwrap --version), $(/usr/bin/python3 -c 'import sys, numpy, pandas; print("python", sys.version.split()[0], "numpy", numpy.__version__, "pandas", pandas.__version__)')"
