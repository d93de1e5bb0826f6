#!/usr/bin/env bash
# The shared reading state (issue 29): 100,000 operations from three machines (positions, read
# times, bookmarks added, renamed, moved and removed, page notes; one machine's clock 2 hours
# behind), by `bibread-dev state-merge-bench`:
#  1. reading the three logs and merging them into one state (the conflict-free merge);
#  2. the whole merge a sync makes into state.sqlite: the logs read and checked, the operations
#     kept, the merged state written into the tables the reader reads, in one transaction;
# next to, in the same run, Python's json module only parsing the same lines (no checks, no
# merge, nothing kept): the floor of reading 13 MB of JSON.
# Goal (issue 29): merging 100,000 operations from three machines in <= 1 s.
#
#   bench/state-bench.sh
#
# Environment:
#   BIBREAD_DEV  bibread-dev binary   (default <repo>/.build/release/bibread-dev)
#   RUNS         runs, all shown      (default 3)
#   OPERATIONS   operations in all    (default 100000)
#   BENCH_DIR    where the logs go    (default <repo>/.build/bench)
#
# Exit status: 0 when the report was made; 1 when a measured command failed; 2 when the harness
# cannot run.
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
bibread_dev=${BIBREAD_DEV:-$repo/.build/release/bibread-dev}
runs=${RUNS:-3}
operations=${OPERATIONS:-100000}
bench_dir=${BENCH_DIR:-$repo/.build/bench}

die() { echo "state-bench: $*" >&2; exit 2; }
[[ -x $bibread_dev ]] || die "no bibread-dev at $bibread_dev (make release-dev)"
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive number"
command -v python3 >/dev/null || die "needs python3 for the comparison run"

logs="$bench_dir/state-logs"
rm -rf "$logs"
mkdir -p "$logs"

echo "== reading state: $operations operations from three machines (release) =="
for run in $(seq 1 "$runs"); do
  out=$("$bibread_dev" state-merge-bench "$operations" --logs "$logs") || { echo "state-merge-bench failed" >&2; exit 1; }
  merge=$(sed -n 's/^total: *\([0-9.]*\) s.*/\1/p' <<<"$out")
  store=$(sed -n 's/^into state.sqlite.*: \([0-9.]*\) s,.*/\1/p' <<<"$out")
  start=$(date +%s%N)
  python3 -c 'import json, sys
for name in sys.argv[1:]:
    with open(name, "rb") as log:
        for line in log: json.loads(line)' "$logs"/machine-*.jsonl || { echo "python comparison failed" >&2; exit 1; }
  python=$(( $(date +%s%N) - start ))
  awk -v run="$run" -v merge="$merge" -v store="$store" -v python="$python" 'BEGIN {
    python /= 1e9
    printf "run %d: read and merged %.3f s, into state.sqlite %.3f s; python json.loads alone %.3f s (%.2fx and %.2fx of it); goal <= 1 s\n",
      run, merge, store, python, merge / python, store / python }'

done
echo "logs: $(du -sh "$logs" | cut -f1) in $(ls "$logs" | wc -l) files"
