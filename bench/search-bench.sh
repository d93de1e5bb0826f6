#!/usr/bin/env bash
# Search over the ~26 MB benchmark library:
#  1. a one-shot search, `bibread list BIG --search QUERY`, next to `bibread list BIG` in the same
#     run (interleaved, best of RUNS): goal <= 1.3x list (issue 31);
#  2. search as you type: every query is typed one character at a time and each keystroke
#     (parse + search) is timed. Goal: p99 <= 10 ms (aim 3 ms).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
bibread=${BIBREAD:-$repo/.build/release/bibread}
bibread_dev=${BIBREAD_DEV:-$repo/.build/release/bibread-dev}
bench_dir=${BENCH_DIR:-$repo/.build/bench}
corpora=${BIBREAD_CORPORA:-$repo/../shared/corpora}
runs=${RUNS:-5}
say() { echo "$@"; }
die() { echo "search-bench: $*" >&2; exit 2; }
source "$repo/bench/common.sh"
require_bibread search-bench
require_bibread_dev search-bench
mkdir -p "$bench_dir"
bench_corpus "$bench_dir" "$corpora/make-bench-corpus.sh" "$bench_dir/search-bench.log" >/dev/null
echo "== search: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

# 1. One query, from the command line.
one_shot='author:knuth title:tex -year:<1980'
wall() { # command...: prints the wall time in seconds
  local start=$EPOCHREALTIME
  "$@" >/dev/null 2>&1 || true
  awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }'
}
list_best=999 search_best=999
for _ in $(seq "$runs"); do
  t=$(wall "$bibread" list "$big"); list_best=$(awk -v a="$t" -v b="$list_best" 'BEGIN { print (a < b) ? a : b }')
  t=$(wall "$bibread" list "$big" --search "$one_shot"); search_best=$(awk -v a="$t" -v b="$search_best" 'BEGIN { print (a < b) ? a : b }')
done
matched=$("$bibread" list "$big" --search "$one_shot" 2>/dev/null | wc -l)
ratio=$(awk -v s="$search_best" -v l="$list_best" 'BEGIN { printf "%.2f", s / l }')
printf "bibread list BIG                        best %s s over %s runs\n" "$list_best" "$runs"
printf "bibread list BIG --search '%s'   best %s s (%s references): %sx list\n" "$one_shot" "$search_best" "$matched" "$ratio"
goal "one-shot search <= 1.3x list" "$(awk -v r="$ratio" 'BEGIN { print (r <= 1.3) ? 1 : 0 }')" "${ratio}x"

# 2. Search as you type.
latency=$("$bibread_dev" search-latency "$big" --rounds "$runs" \
  --query 'author:knuth tex -errata year:1984..1990' \
  --query 'quantum "dynamic programming" | godel' \
  --query '(a:lamport OR a:knuth) t:"document preparation" NOT kw:draft year:>1980' 2>/dev/null)
echo "$latency"
built=$(sed -n 's/.*index built in \([0-9.]*\) ms.*/\1/p' <<<"$latency")
p99=$(sed -n 's/.* p99 \([0-9.]*\) ms.*/\1/p' <<<"$latency")
goal "index built <= 400 ms (the reader's goal is <= 0.4 s after the first screen: reader-bench.sh)" \
  "$(awk -v v="${built:-1e9}" 'BEGIN { print (v <= 400) ? 1 : 0 }')" "${built:-?} ms"
goal "keystroke (parse + search) p99 <= 3 ms" "$(awk -v v="${p99:-1e9}" 'BEGIN { print (v <= 3) ? 1 : 0 }')" "${p99:-?} ms"
