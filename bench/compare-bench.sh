#!/usr/bin/env bash
# The whole bench twice, before and after a change: every script of `make bench`, first with the
# binaries from before (BEFORE_BIBREAD, BEFORE_BIBREAD_DEV), then with today's (BIBREAD,
# BIBREAD_DEV), one script after the other, so that both runs of a script see the same machine.
# Each run's whole output is kept; the report shows each script's goal lines (PASS/MISS) of both
# runs one under the other, and how long each run took.
#
# Usage:
#   BEFORE_BIBREAD=/path/bibread BEFORE_BIBREAD_DEV=/path/bibread-dev bench/compare-bench.sh [SCRIPT...]
#   (make bench-compare BEFORE=/folder/with/bibread-and-bibread-dev)
#
# With no SCRIPT, the scripts are those the Makefile's bench target runs, in its order.
# A row that needs a command the old binary does not have says FAILED in the before run: the
# script's own output says which command.
#
# Environment:
#   BEFORE_BIBREAD, BEFORE_BIBREAD_DEV  the binaries from before (required)
#   BIBREAD, BIBREAD_DEV                 today's (default .build/release/bibread, bibread-dev)
#   COMPARE_DIR                          where the outputs go (default .build/bench/compare)
#   RUNS                                 passed on to every script
#
# Exit status: 0 when both runs of every script made their report; 1 when a run exited non-zero
# (its output is kept and named); 2 when the harness cannot run.
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
say() { printf '%s\n' "$*"; }
die() { say "compare-bench: $*"; exit 2; }

before=${BEFORE_BIBREAD:-}
before_dev=${BEFORE_BIBREAD_DEV:-}
after=${BIBREAD:-$repo/.build/release/bibread}
after_dev=${BIBREAD_DEV:-$repo/.build/release/bibread-dev}
out=${COMPARE_DIR:-$repo/.build/bench/compare}

[[ -n $before && -n $before_dev ]] || die "set BEFORE_BIBREAD and BEFORE_BIBREAD_DEV to the binaries from before"
for binary in "$before" "$before_dev" "$after" "$after_dev"; do
  [[ -x $binary ]] || die "not an executable: $binary (make release release-dev builds today's)"
done

scripts=("$@")
if ((${#scripts[@]} == 0)); then
  mapfile -t scripts < <(sed -n '/^bench:/,/^$/s/^\t\(bench\/[a-z-]*\.sh\).*/\1/p' "$repo/Makefile")
  ((${#scripts[@]})) || die "found no bench script in the Makefile's bench target"
fi
mkdir -p "$out" || die "cannot create $out"

failed=0
summary=$out/summary.txt
: >"$summary"
report() { say "$*" | tee -a "$summary"; }

run_one() { # run_one SCRIPT LABEL BIBREAD BIBREAD_DEV
  local name output started status seconds
  name=$(basename "$1" .sh)
  output=$out/$name.$2.txt
  started=$(date +%s.%N)
  (cd "$repo" && BIBREAD=$3 BIBREAD_DEV=$4 BIBREAD_BEFORE= bash "$1") >"$output" 2>&1
  status=$?
  seconds=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  report "  $2 ($(printf '%.0f' "$seconds") s, exit $status, $output):"
  grep -E 'PASS|MISS|FAILED|not available' "$output" | sed 's/^/    /' | tee -a "$summary"
  if ((status != 0)); then failed=1; fi
}

report "compare-bench $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
report "  before: $before"
report "  after:  $after"
for script in "${scripts[@]}"; do
  [[ -f $repo/$script ]] || die "no such script: $script"
  report ""
  report "== $script"
  run_one "$script" before "$before" "$before_dev"
  run_one "$script" after "$after" "$after_dev"
done
report ""
report "whole outputs in $out; this summary in $summary"
exit "$failed"
