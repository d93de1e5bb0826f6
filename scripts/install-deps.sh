#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages bibread needs, and only those that are missing.
#   scripts/install-deps.sh run     libraries to build and run bibread
#   scripts/install-deps.sh test    the above, plus what the test suite uses
#   scripts/install-deps.sh bench   the above, plus what the benchmarks compare against
set -euo pipefail

purpose=${1:-run}
run_packages=(pkg-config libncursesw5-dev libcurl4-openssl-dev libssl-dev libpoppler-glib-dev libsqlite3-dev zlib1g-dev libxml2-dev)
test_packages=(poppler-utils qpdf tmux lighttpd lighttpd-mod-webdav openssh-server openssh-client python3 python3-cairo fonts-dejavu-core curl rclone dbus gnome-keyring libsecret-tools)
bench_packages=(time libtext-bibtex-perl python3-venv)

packages=("${run_packages[@]}")
case "$purpose" in
  run) ;;
  test) packages+=("${test_packages[@]}") ;;
  bench) packages+=("${test_packages[@]}" "${bench_packages[@]}") ;;
  *) echo "usage: $0 run|test|bench" >&2; exit 64 ;;
esac

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if ((${#missing[@]})); then
  echo "bibread: installing ${missing[*]}" >&2
  if ((EUID == 0)); then sudo=(); else sudo=(sudo); fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "bibread: no Swift toolchain on PATH; install Swift 6 from swift.org (e.g. under /opt/swift) and add its usr/bin to PATH" >&2
  exit 69
fi
