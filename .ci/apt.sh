# Sourced by the setup scripts: apt_install PACKAGE... installs Debian packages quietly, through sudo
# when not root. Nothing to install, nothing done.
apt_install() {
  [ $# -gt 0 ] || return 0
  local run=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "need root (or sudo) to install: $*" >&2; return 1; }
    run=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${run[@]}" apt-get update -q >/dev/null
  "${run[@]}" apt-get install -y -q --no-install-recommends "$@" >/dev/null
}
