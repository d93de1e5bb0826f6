#!/usr/bin/env bash
# Runs every test: installs what the tests need if missing, then the whole Swift test suite.
# The shared corpora are expected beside the repository (../shared/corpora) or in
# $BIBREAD_CORPORA.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test
corpora=${BIBREAD_CORPORA:-../shared/corpora}
if [[ ! -d "$corpora/bib" ]]; then
  echo "bibread tests: the shared corpora are missing at $corpora (set BIBREAD_CORPORA)" >&2
  exit 66
fi
swift build --build-tests
swift test --skip-build --disable-xctest "$@"
