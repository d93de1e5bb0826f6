#!/usr/bin/env bash
# Fuzzes bibread's parsers and decoders with libFuzzer, each for a bounded time, from a seed
# corpus drawn from ../shared/corpora (scripts/fuzz-corpus.py), then replays each target's
# corpus in a release build to find its slowest input.
#
# usage: scripts/fuzz.sh [TARGET…]          (default: every target; `make fuzz` runs this)
# environment:
#   FUZZ_SECONDS   time per target (default 60)
#   FUZZ_JOBS      parallel fuzzing processes per target (default 1)
#   BIBREAD_CORPORA  the corpora folder (default ../shared/corpora)
# Output: .build-fuzz/report.txt (one line per target: executions, crashes, slowest input);
# crashing inputs in .build-fuzz/artifacts/TARGET/. Exit 1 if any target crashed.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { printf '%s\n' "$*" >&2; }
die() { say "fuzz: $*"; exit 2; }

scratch=.build-fuzz
seconds=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-1}
corpora=${BIBREAD_CORPORA:-../shared/corpora}
[[ -d $corpora/bib ]] || die "no corpora at $corpora (set BIBREAD_CORPORA)"
clang=$(dirname "$(readlink -f "$(command -v swiftc)")")/clang
[[ -x $clang ]] || die "no clang beside swiftc ($clang): the Swift toolchain's clang links the fuzzer"

all_targets=(bibtex latex names bibdesk-groups jabref-groups bdsk-file query bookmark-plist bookmark-json bookmark-link reference-link citation)
targets=("$@")
((${#targets[@]})) || targets=("${all_targets[@]}")
for target in "${targets[@]}"; do
  [[ " ${all_targets[*]} " == *" $target "* ]] || die "unknown target $target (targets: ${all_targets[*]})"
done

say "fuzz: building the fuzzer (release, -sanitize=fuzzer,address)…"
swift build -c release --scratch-path "$scratch" --product BibreadFuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -g 2>&1 | grep -v "Cannot export local symbol\|prohibited flag" >&2
libdir=$scratch/release
"$clang" -fsanitize=fuzzer,address -L"$libdir" -lBibreadFuzz \
  -Wl,-rpath,"$(cd "$libdir" && pwd)" -Wl,-rpath,"$(dirname "$(readlink -f "$(command -v swiftc)")")/../lib/swift/linux" \
  -o "$scratch/bibread-fuzz" 2>&1 | grep -v "Cannot export local symbol" >&2 || true
[[ -x $scratch/bibread-fuzz ]] || die "linking the fuzzer failed"
say "fuzz: building the replayer (release)…"
swift build -c release --scratch-path .build-fuzz-replay --product bibread-fuzz-replay 2>&1 | grep -v "prohibited flag" >&2
replay=.build-fuzz-replay/release/bibread-fuzz-replay

say "fuzz: seed corpus from $corpora…"
/usr/bin/python3 scripts/fuzz-corpus.py "$scratch/seeds" "$corpora" >&2

parallel=()
((jobs > 1)) && parallel=(-jobs="$jobs" -workers="$jobs")
report=$scratch/report.txt
: > "$report"
crashed=0
export SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1
for target in "${targets[@]}"; do
  work=$scratch/corpus/$target
  artifacts=$scratch/artifacts/$target
  rm -rf "$artifacts"
  mkdir -p "$work" "$artifacts"
  max_len=$(case $target in bibtex|bibdesk-groups|jabref-groups) echo 16384;; bookmark-*) echo 8192;; *) echo 4096;; esac)
  log=$scratch/$target.log
  say "fuzz: $target for ${seconds}s…"
  set +e
  BIBREAD_FUZZ_TARGET=$target "$scratch/bibread-fuzz" "$work" "$scratch/seeds/$target" \
    -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=4096 \
    -dict="Fuzz/dictionaries/$target.dict" -artifact_prefix="$artifacts/" \
    -print_final_stats=1 ${parallel[@]+"${parallel[@]}"} > "$log" 2>&1
  status=$?
  set -e
  execs=$(awk '/stat::number_of_executed_units/ {s += $2} END {print s + 0}' "$log" $(ls fuzz-*.log 2>/dev/null))
  found=$(find "$artifacts" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | wc -l)
  if ((status != 0 || found > 0)); then
    crashed=1
    say "fuzz: $target FAILED (exit $status); last lines of $log:"
    tail -n 25 "$log" >&2
  fi
  slowest=$("$replay" "$target" "$work" "$scratch/seeds/$target" | tail -n 1 || true)
  line="$target: $execs executions in ${seconds}s, $found crashes; ${slowest#*: }"
  say "$line"
  printf '%s\n' "$line" >> "$report"
done
rm -f fuzz-*.log
say ""
say "fuzz report ($report):"
cat "$report" >&2
((crashed == 0)) || { say "fuzz: crashes found: see $scratch/artifacts/ and the logs in $scratch/"; exit 1; }
