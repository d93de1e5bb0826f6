#!/usr/bin/env bash
# Runs the whole test suite under a sanitizer: AddressSanitizer, then ThreadSanitizer.
#
# usage: scripts/sanitize.sh [address|thread]…   (default: both; `make sanitize` runs this)
# Each sanitizer builds in its own scratch folder (.build-asan, .build-tsan), so the normal
# build is left alone. Extra arguments to `swift test` go in SANITIZE_TEST_ARGS (e.g.
# SANITIZE_TEST_ARGS="--filter SyncEngineTests"). Exit 1 if any sanitizer reports a problem or a
# test fails under it.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { printf '%s\n' "$*" >&2; }

sanitizers=("$@")
((${#sanitizers[@]})) || sanitizers=(address thread)
scripts/install-deps.sh test
# Leak reports from the Swift runtime's and Foundation's one-time allocations are not bugs of
# ours; every other ASan report stops the run. TSan reports stop the run too.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:halt_on_error=1:abort_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:second_deadlock_stack=1:suppressions=$PWD/scripts/tsan.supp}
export SWIFT_BACKTRACE=enable=no
# Sanitized code runs several times slower: stretch the tests' "does not hang" limits.
export BIBREAD_TEST_TIME_SCALE=${BIBREAD_TEST_TIME_SCALE:-4}
status=0
for sanitizer in "${sanitizers[@]}"; do
  case $sanitizer in
    address) scratch=.build-asan ;;
    thread) scratch=.build-tsan ;;
    *) say "sanitize: unknown sanitizer $sanitizer (address or thread)"; exit 2 ;;
  esac
  say "sanitize: building the tests with -sanitize=$sanitizer in $scratch…"
  swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch" 2>&1 | grep -v "Cannot export local symbol" >&2
  say "sanitize: running the tests under $sanitizer…"
  # shellcheck disable=SC2086
  if ! swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" --disable-xctest ${SANITIZE_TEST_ARGS:-}; then
    say "sanitize: the tests failed under $sanitizer"
    status=1
  fi
done
exit $status
