#!/usr/bin/env bash
# Python oracles (DSCodeBench, BigCodeBench): bubblewrap for the sandbox, and Debian's python3 with
# numpy, pandas, scipy and scikit-learn (the fixtures and the comparator tests need nothing else).
# Idempotent: installs only what is missing.
#
# `--python full` (npm run setup -- --python full) also builds the full profile: a virtualenv with
# BigCodeBench's pinned evaluation requirements and DSCodeBench's ten libraries
# (oracles/python/env/requirements-full.txt, several GB), in .witness/python-full (git-ignored) or in
# WITNESS_PYTHON_FULL_DIR. The sandbox uses its interpreter whenever it exists.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
profile=default
while [ $# -gt 0 ]; do
  case "$1" in
    --python) profile="${2:-}"; shift 2 || shift ;;
    --python=*) profile="${1#*=}"; shift ;;
    *) shift ;;
  esac
done
case "$profile" in
  default|full) ;;
  *) echo "20-python.sh: unknown Python profile '$profile' (choose default or full)" >&2; exit 2 ;;
esac

needed=()
command -v bwrap >/dev/null 2>&1 || needed+=(bubblewrap)
command -v prlimit >/dev/null 2>&1 || needed+=(util-linux)
for module in numpy:python3-numpy pandas:python3-pandas scipy:python3-scipy sklearn:python3-sklearn; do
  /usr/bin/python3 -c "import ${module%%:*}" >/dev/null 2>&1 || needed+=("${module#*:}")
done
if [ "$profile" = full ]; then
  /usr/bin/python3 -c 'import ensurepip' >/dev/null 2>&1 || needed+=(python3-venv)
  command -v gcc >/dev/null 2>&1 || needed+=(gcc)
  [ -e /usr/include/python3.11/Python.h ] || needed+=(python3-dev)
fi
source "$here/../apt.sh"
apt_install "${needed[@]}"
echo "python sandbox: $(bwrap --version), $(/usr/bin/python3 -c 'import sys, numpy, pandas, scipy, sklearn; print("python", sys.version.split()[0], "numpy", numpy.__version__, "pandas", pandas.__version__, "scipy", scipy.__version__, "scikit-learn", sklearn.__version__)')"

if [ "$profile" = full ]; then
  venv="${WITNESS_PYTHON_FULL_DIR:-.witness/python-full}"
  requirements=oracles/python/env/requirements-full.txt
  stamp="$venv/.witness-requirements"
  if [ -x "$venv/bin/python3" ] && cmp -s "$requirements" "$stamp"; then
    echo "python full profile: $venv is up to date"
  else
    echo "python full profile: building $venv (several GB; this takes a while)"
    [ -x "$venv/bin/python3" ] || /usr/bin/python3 -m venv "$venv"
    "$venv/bin/python3" -m pip install --quiet --upgrade pip
    # Everything at once, so that pip resolves one consistent set; failures name the package.
    "$venv/bin/python3" -m pip install --quiet --prefer-binary -r "$requirements"
    cp "$requirements" "$stamp"
  fi
  # The sandbox user must be able to read the virtualenv (and reach it).
  chmod -R a+rX "$venv"
  echo "python full profile: $("$venv/bin/python3" -c 'import sys, numpy, pandas, scipy, sklearn, torch, tensorflow, keras, lightgbm, matplotlib, seaborn; print("python", sys.version.split()[0], *(m.__name__ + " " + m.__version__ for m in (numpy, pandas, scipy, sklearn, torch, tensorflow, keras, lightgbm, matplotlib, seaborn)))')"
fi
