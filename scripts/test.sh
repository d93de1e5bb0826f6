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
if [[ $# -gt 0 ]]; then
  exec swift test --skip-build --disable-xctest "$@"
fi
# The reader must answer a key or a signal within a second whatever it shows. Those bounds are
# measured in a run of their own, after the rest: on the 2-core CI machine the rest of the suite
# (tmux sessions, servers, kill -9 loops, 27 MB libraries) can starve any process for more than a
# second, which says nothing of bibread. The bound itself is the same 1 s.
latency='LongValueEndToEndTests|signalsEndAStuckLoop'
swift test --skip-build --disable-xctest --skip "$latency"
swift test --skip-build --disable-xctest --filter "$latency"
