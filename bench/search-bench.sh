#!/usr/bin/env bash
# Search as you type over the ~26 MB benchmark library: every query is typed one character at a
# time and each keystroke (parse + search) is timed. Goal: p99 <= 10 ms (aim 3 ms).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
bibread_dev=${BIBREAD_DEV:-$repo/.build/release/bibread-dev}
bench_dir=${BENCH_DIR:-$repo/.build/bench}
corpora=${BIBREAD_CORPORA:-$repo/../shared/corpora}
[[ -x "$bibread_dev" ]] || { echo "search-bench: $bibread_dev is missing; run: make release-dev" >&2; exit 2; }
mkdir -p "$bench_dir"
big="$bench_dir/bench-corpus.bib"
[[ -s "$big" ]] || bash "$corpora/make-bench-corpus.sh" "$big" >/dev/null
echo "== search as you type: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores"
"$bibread_dev" search-latency "$big" --rounds "${RUNS:-5}" \
  --query 'author:knuth tex -errata year:1984..1990' \
  --query 'quantum "dynamic programming" | godel' \
  --query '(a:lamport OR a:knuth) t:"document preparation" NOT kw:draft year:>1980' 2>/dev/null
