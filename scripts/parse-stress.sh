#!/usr/bin/env bash
# Stress test of the chunked parser: a race shows up in 1 run of 3 to 10 on a large file, rarely in
# a small one, so this runs it hundreds of times on a merged library (tugboat.bib and a BibDesk
# library, 3.9 MB) and on the ~26 MB library built from the corpora, with a BibDesk library after
# them, then the chunk tests (every kind of special block late) under ThreadSanitizer.
#
# usage: scripts/parse-stress.sh [ROUNDS] [TSAN_ROUNDS]     (defaults 200 and 10)
#   1. `bibread list --json` and `bibread check` of both libraries, ROUNDS times each (release
#      build, or BIBREAD_STRESS_BINARY): every run exits as the first did (0 or 1, never a crash
#      or a signal) and prints the same bytes;
#   2. LateChunkTests.largeLibraryReadInChunksAgainAndAgain (each round compares the loader's
#      chunks and sixteen chunks with one pass) and ChunkedParsingTests under ThreadSanitizer,
#      TSAN_ROUNDS rounds (.build-tsan; 0 skips it). The tests cannot be built in release: some read
#      debug-only probes (PDFDocument.mostCallsAtOnce).
# CI runs the short version: that test with one round, in the normal suite.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-200}
tsan_rounds=${2:-10}
corpora=${BIBREAD_CORPORA:-../shared/corpora}
say() { printf 'parse-stress: %s\n' "$*" >&2; }
scripts/install-deps.sh test

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A BibDesk library (groups, linked files) and a @bibdesk_info block with field names new to
# the chunk, after a few MB of other entries (a merged library: the build before the fix crashed on it every time
# with SIGILL) and after the whole 26 MB corpus.
tail_of_library() {
  printf '\n'; cat Samples/library.bib; printf '\n@bibdesk_info{document_info, '
  for n in $(seq 1 40); do printf 'x-late-field-%d = {v}, ' "$n"; done
  printf 'Zz-Only-Here = {last}}\n'
}
{ cat "$corpora/bib/beebe/tugboat.bib"; tail_of_library; } >"$work/merged.bib"
"$corpora/make-bench-corpus.sh" "$work/large.bib" >/dev/null
tail_of_library >>"$work/large.bib"

bin=${BIBREAD_STRESS_BINARY:-}
if [[ -z $bin ]]; then
  say "building the release binary…"
  swift build -c release --product bibread 2>&1 | tail -1 >&2
  bin=.build/release/bibread
fi
failures=0
for library in "$work/merged.bib" "$work/large.bib"; do
  say "$(wc -c <"$library") bytes in $library"
  for command in "list --json" "check"; do
    # shellcheck disable=SC2086
    "$bin" $command "$library" >"$work/first.out" 2>"$work/first.err" && first=0 || first=$?
    want=$(md5sum <"$work/first.out")
    if ((first > 2)); then
      failures=$((failures + 1))
      say "bibread $command: the first run ended with status $first (a crash or a signal); $(tail -c 300 "$work/first.err")"
    fi
    for round in $(seq 1 "$rounds"); do
      # shellcheck disable=SC2086
      "$bin" $command "$library" >"$work/out" 2>"$work/err" && status=0 || status=$?
      if [[ $status != "$first" || $(md5sum <"$work/out") != "$want" ]]; then
        failures=$((failures + 1))
        say "bibread $command, round $round: exit $status (first run: $first), output $(md5sum <"$work/out" | cut -c1-8) (first run: ${want:0:8}); $(tail -c 300 "$work/err")"
      fi
    done
    say "bibread $command: $rounds runs, exit $first, output ${want:0:8}"
  done
done

if ((tsan_rounds > 0)); then
  say "LateChunkTests under ThreadSanitizer, $tsan_rounds rounds…"
  export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:suppressions=$PWD/scripts/tsan.supp}
  swift build --build-tests --sanitize=thread --scratch-path .build-tsan 2>&1 | grep -v "Cannot export local symbol" | tail -1 >&2
  BIBREAD_STRESS_ROUNDS=$tsan_rounds swift test --skip-build --sanitize=thread --scratch-path .build-tsan --disable-xctest \
    --filter "LateChunkTests|ChunkedParsingTests" 2>&1 | grep -E '✔ Suite|✘|ThreadSanitizer|error' >&2 || failures=$((failures + 1))
fi

if ((failures)); then say "$failures failures"; exit 1; fi
say "no failures"
