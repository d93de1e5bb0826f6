#!/usr/bin/env bash
# One command on a fresh Debian/Ubuntu machine: install what is missing, build in release,
# and open the bundled sample library.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh run
# The Swift runtime and Foundation are linked into the binary: it starts ~10 ms sooner.
swift build -c release --static-swift-stdlib --product bibread
exec .build/release/bibread Samples/library.bib "$@"
