#!/usr/bin/env bash
# Benchmark the full-text index of PDFs (module FullText) through the command
# `bibread-dev fulltext-bench`:
#
# 1. Indexing rate: every page of the PDFs in ../shared/corpora/pdfs indexed into a fresh index
#    with both cores (`fulltext-bench index --workers 2`), side by side with pdftotext over
#    the same pages: once sequentially (one process, one core) and as 2 processes in parallel,
#    one per half of each PDF's pages (both cores; the fair comparison). Best of RUNS wall
#    times, the runs of the three interleaved so that a slow spell of the machine hits all
#    three. Goal: bibread's page rate ≥ 80% of the 2-process pdftotext rate.
# 2. Query latency: a fresh index filled with 100,000 pages made from the corpus PDFs' text
#    (1,000 documents of 100 pages), then each query answered as the reader answers a `text:`
#    term: the matching references, then the best 3 pages with snippets of the first 30
#    (the screen). Goal: p95 ≤ 50 ms for each query of the goal set; the worst cases (stop
#    words, one letter) are shown for reference.
#
#   bench/fulltext-bench.sh
#
# Environment:
#   BIBREAD_DEV        bibread-dev binary    (default <repo>/.build/release/bibread-dev)
#   RUNS               runs per tool, best wall time kept (default 3)
#   WORKERS            bibread's extraction threads (default 2: both cores)
#   QUERY_PAGES        pages in the query index (default 100000)
#   BENCH_DIR          indexes, outputs, log (default <repo>/.build/bench)
#   BIBREAD_CORPORA    the corpora folder    (default <repo>/../shared/corpora)
#
# Exit status: 0 when the report was made, whatever the goals say; 1 when a measured
# command failed (its row says FAILED); 2 when the harness cannot run (no bibread-dev binary or
# no fulltext-bench command, no pdftotext, no PDFs, bad RUNS).
set -euo pipefail
export LC_ALL=C # '.' as decimal point in EPOCHREALTIME, printf and awk

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
corpora=${BIBREAD_CORPORA:-$repo/../shared/corpora}
bench_dir=${BENCH_DIR:-$repo/.build/bench}
bibread_dev=${BIBREAD_DEV:-$repo/.build/release/bibread-dev}
runs=${RUNS:-3}
workers=${WORKERS:-2}
query_pages=${QUERY_PAGES:-100000}
query_runs=20 # FullTextBench.queryLatency's default
goal_rate=0.80
goal_p95_ms=50

# Queries of the goal set: content words, rare to common in the corpus, two words, phrases,
# prefixes as typed. The reference set,
# shown without a goal: a word on nearly every page, one letter, phrases of stop words (a
# phrase is checked word by word on every page holding all its words).
goal_queries=(regression function bibliography tcolorbox environment "linear model" '"linear model"'
  '"regression coefficients"' prog enviro inte)
reference_queries=(the d '"the default"' '"in the"')

say() { printf '%s\n' "$*" >&2; }
die() { say "fulltext-bench: $*"; exit 2; }

# ---- preconditions ----------------------------------------------------------
for value in "$runs" "$workers" "$query_pages"; do
  [[ $value =~ ^[1-9][0-9]*$ ]] || die "RUNS, WORKERS and QUERY_PAGES must be positive integers, not '$value'"
done
# shellcheck source=bench/common.sh
source "$here/common.sh"
require_bibread_dev fulltext-bench
require_poppler
collect_pdfs
"$bibread_dev" fulltext-bench --help >/dev/null 2>&1 ||
  die "$bibread_dev has no fulltext-bench command (FullTextBenchCommand in DevTools)"

mkdir -p "$bench_dir"
bench_dir=$(cd "$bench_dir" && pwd)
log=$bench_dir/fulltext-bench.log
index=$bench_dir/fulltext-bench.sqlite
query_index=$bench_dir/fulltext-query.sqlite
: >"$log"
load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)

pages_of() { pdfinfo "$1" 2>/dev/null | awk '/^Pages:/ { print $2 }'; }
total_pages=0
declare -A pages
for pdf in "${pdfs[@]}"; do
  pages[$pdf]=$(pages_of "$pdf")
  [[ ${pages[$pdf]} =~ ^[0-9]+$ ]] || die "pdfinfo cannot read $pdf"
  total_pages=$((total_pages + pages[$pdf]))
  cat "$pdf" >/dev/null # warm the page cache
done

# ---- measuring --------------------------------------------------------------
# The three ways to read every page; each writes its text (or report) to standard output.
# (shellcheck: they are called through run_once.)
# shellcheck disable=SC2317
pdftotext_sequential() {
  local pdf
  for pdf in "${pdfs[@]}"; do pdftotext "$pdf" - || return; done
}
# Half of every PDF's pages: first halves (1) or second halves (2). Halving each PDF rather
# than the list of PDFs keeps both processes busy to the end (tcolorbox.pdf alone is 44% of
# the pages).
# shellcheck disable=SC2317
pdftotext_half() {
  local pdf n h
  for pdf in "${pdfs[@]}"; do
    n=${pages[$pdf]}
    h=$((n / 2))
    if (($1 == 1)); then
      ((h >= 1)) || continue
      pdftotext -f 1 -l "$h" "$pdf" - || return
    else
      pdftotext -f $((h + 1)) -l "$n" "$pdf" - || return
    fi
  done
}
# shellcheck disable=SC2317
pdftotext_parallel() {
  local rc1=0 rc2=0 first second
  pdftotext_half 1 >/dev/null &
  first=$!
  pdftotext_half 2 >/dev/null &
  second=$!
  wait "$first" || rc1=$?
  wait "$second" || rc2=$?
  ((rc1 == 0 && rc2 == 0))
}
# shellcheck disable=SC2317
bibread_index() {
  "$bibread_dev" fulltext-bench index --workers "$workers" --index-path "$index" "${pdfs[@]}"
}

declare -A wall status
for id in pdftotext-1 pdftotext-2 bibread; do status[$id]=ok; done
# run_once ID OUTPUT CMD...: one timed run; the best wall time is kept ($EPOCHREALTIME, µs).
run_once() {
  local id=$1 out=$2 i=$3
  shift 3
  [[ ${status[$id]} == ok ]] || return 0
  say "  $id: run $i/$runs"
  local rc=0 t0 t1 w
  t0=$EPOCHREALTIME
  "$@" >"$out" 2>>"$log" || rc=$?
  t1=$EPOCHREALTIME
  if ((rc != 0)); then
    status[$id]="FAILED (exit $rc)"
    printf '%s run %d: exit %d\n' "$id" "$i" "$rc" >>"$log"
    tail -n 5 "$out" >>"$log" 2>/dev/null || true
    return 0
  fi
  w=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
  printf '%s run %d: wall %s s\n' "$id" "$i" "$w" >>"$log"
  if [[ -z ${wall[$id]:-} ]] || awk -v a="$w" -v b="${wall[$id]}" 'BEGIN { exit !(a < b) }'; then
    wall[$id]=$w
  fi
}

say "bibread-dev: $bibread_dev"
say "indexing $total_pages pages of ${#pdfs[@]} PDFs, $runs runs each ..."
for ((i = 1; i <= runs; i++)); do
  run_once pdftotext-1 /dev/null "$i" pdftotext_sequential
  run_once pdftotext-2 /dev/null "$i" pdftotext_parallel
  run_once bibread "$bench_dir/fulltext.index.txt" "$i" bibread_index
done
# What bibread says it stored (its own timing leaves out the process start).
index_report=$(grep '^fulltext-index ' "$bench_dir/fulltext.index.txt" 2>/dev/null || true)
field() { sed -n "s/.*[[:space:]]$1=\\([^[:space:]]*\\).*/\\1/p" <<<"$2" | head -n 1; }
indexed_pages=$(field pages "$index_report")
indexed_failed=$(field failed "$index_report")
if [[ ${status[bibread]} == ok && $indexed_pages != "$total_pages" ]]; then
  status[bibread]="FAILED (indexed ${indexed_pages:-no} pages of $total_pages)"
fi
rm -f "$index" "$index-wal" "$index-shm"

say "query latency: filling an index with $query_pages pages (about a minute) ..."
query_args=()
for query in "${goal_queries[@]}" "${reference_queries[@]}"; do query_args+=(--query "$query"); done
query_status=ok
query_out=$bench_dir/fulltext.query.txt
"$bibread_dev" fulltext-bench query --pages "$query_pages" --index-path "$query_index" \
  "${query_args[@]}" "${pdfs[@]}" >"$query_out" 2>>"$log" || query_status="FAILED (exit $?)"
cat "$query_out" >>"$log"
rm -f "$query_index" "$query_index-wal" "$query_index-shm"
query_summary=$(grep '^fulltext-query ' "$query_out" || true)
[[ $query_status == ok && -z $query_summary ]] && query_status="FAILED (no report)"

# ---- report -----------------------------------------------------------------
rate() { awk -v n="$total_pages" -v w="$1" 'BEGIN { printf "%.1f", n / w }'; }
echo
echo "== bibread full-text index benchmark: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, best of $runs runs"
echo "bibread-dev: $bibread_dev"
echo "poppler: $(pdftotext -v 2>&1 | head -n 1)"
echo "load:    $load_before (1, 5, 15 min load average before the runs; other work skews the figures)"
echo
printf '%-44s %7s %9s %9s\n' "indexing every page of ${#pdfs[@]} PDFs" pages "wall s" "pages/s"
printf '%s\n' "-----------------------------------------------------------------------"
for id in pdftotext-1 pdftotext-2 bibread; do
  case $id in
    pdftotext-1) label="pdftotext, 1 process (sequential)" ;;
    pdftotext-2) label="pdftotext, 2 processes (half the pages each)" ;;
    bibread) label="bibread-dev fulltext-bench index, $workers threads" ;;
  esac
  if [[ ${status[$id]} == ok ]]; then
    printf '%-44s %7d %9.3f %9s\n' "$label" "$total_pages" "${wall[$id]}" "$(rate "${wall[$id]}")"
  else
    printf '%-44s %7d  %s\n' "$label" "$total_pages" "${status[$id]}"
  fi
done
echo
echo "Wall times of whole commands, process start included. bibread extracts each page with"
echo "poppler (as pdf-extract does), joins hyphenated words, and stores the text and its FTS5"
echo "index in SQLite, one transaction per PDF."
[[ ${indexed_failed:-0} == 0 ]] || echo "PDFs it could not read: $indexed_failed (see $log)."
echo "bibread's own timing of the update (last run): $(field seconds "$index_report") s, $(field pages_per_second "$index_report") pages/s."

echo
if [[ $query_status == ok ]]; then
  echo "queries over $(field pages "$query_summary") pages ($(field documents "$query_summary") documents, filled in $(field fill_seconds "$query_summary") s), $query_runs runs each:"
  printf '  %-24s %10s %10s %10s\n' query references "median ms" "p95 ms"
  while read -r line; do
    q=$(field query "$line")
    printf '  %-24s %10s %10s %10s\n' "${q//_/ }" "$(field documents_matched "$line")" "$(field median_ms "$line")" "$(field p95_ms "$line")"
  done < <(grep '^fulltext-query-one ' "$query_out")
  echo "A query's answer: the references whose PDFs match (FullTextIndex.paths(matching:)), then the"
  echo "best 3 pages with snippets of the first 30 of them (hits(words:phrase:in:))."
else
  echo "queries: $query_status (see $log)"
fi

echo
echo "goals:"
failed=0
if [[ ${status[bibread]} == ok && ${status[pdftotext-2]} == ok ]]; then
  ratio=$(awk -v p="${wall[pdftotext-2]}" -v b="${wall[bibread]}" 'BEGIN { printf "%.2f", p / b }')
  ok=$(awk -v r="$ratio" -v g="$goal_rate" 'BEGIN { print (r >= g) ? 1 : 0 }')
  goal "indexing ≥ 80% of the page rate of 2 pdftotext processes (both cores)" "$ok" \
    "$(awk -v r="$ratio" 'BEGIN { printf "%d%%", r * 100 + 0.5 }') ($(rate "${wall[bibread]}") vs $(rate "${wall[pdftotext-2]}") pages/s)"
else
  goal "indexing ≥ 80% of pdftotext's page rate" 0 "bibread ${status[bibread]}, pdftotext ${status[pdftotext-2]}"
  failed=1
fi
if [[ ${status[bibread]} == ok && ${status[pdftotext-1]} == ok ]]; then
  # Issue 31: bibread index on both cores against one pdftotext process.
  ratio=$(awk -v p="${wall[pdftotext-1]}" -v b="${wall[bibread]}" 'BEGIN { printf "%.2f", p / b }')
  ok=$(awk -v r="$ratio" 'BEGIN { print (r >= 1.6) ? 1 : 0 }')
  goal "indexing ≥ 1.6× the page rate of 1 pdftotext process (issue 31)" "$ok" \
    "${ratio}× ($(rate "${wall[bibread]}") vs $(rate "${wall[pdftotext-1]}") pages/s)"
fi
if [[ $query_status == ok ]]; then
  worst=0
  worst_query=
  for query in "${goal_queries[@]}"; do
    line=$(grep -F "query=${query// /_} " "$query_out" | head -n 1)
    p95=$(field p95_ms "$line")
    [[ -n $p95 ]] || { worst=999999; worst_query="$query (missing)"; continue; }
    if awk -v a="$p95" -v b="$worst" 'BEGIN { exit !(a > b) }'; then worst=$p95; worst_query=$query; fi
  done
  ok=$(awk -v w="$worst" -v g="$goal_p95_ms" 'BEGIN { print (w <= g) ? 1 : 0 }')
  goal "query over $(field pages "$query_summary") pages ≤ ${goal_p95_ms} ms (p95, each goal query)" "$ok" \
    "worst p95 $worst ms ($worst_query); all runs of all queries: median $(field median_ms "$query_summary") ms, p95 $(field p95_ms "$query_summary") ms"
  for query in "${reference_queries[@]}"; do
    line=$(grep -F "query=${query// /_} " "$query_out" | head -n 1)
    printf '  ----  %s (for reference, no goal): p95 %s ms\n' "$query" "$(field p95_ms "$line")"
  done
else
  goal "query ≤ ${goal_p95_ms} ms" 0 "$query_status"
  failed=1
fi
[[ ${status[bibread]} == ok && ${status[pdftotext-1]} == ok && ${status[pdftotext-2]} == ok ]] || failed=1
echo "(per-run figures and command output: $log)"
exit $failed
