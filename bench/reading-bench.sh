#!/usr/bin/env bash
# The reading view in a real terminal (tmux), from the reader's own BIBREAD_TIMINGS log:
#  1. page turns: each corpus PDF is opened and `]` pressed 40 times, 120 ms apart (a reader
#     turning pages quickly); the time from the key to the page's text on screen, p50/p95/max;
#  2. opening a 2,730-page PDF (tcolorbox.pdf five times, made with qpdf) at a remembered page:
#     the first run goes to page 2000 and quits, the second opens it again and resumes there;
#  3. the same with a 2,420-page PDF that has page labels and an outline (R-exts.pdf, then
#     tcolorbox.pdf four times, joined by qpdf into R-exts.pdf's catalog), as long PDFs have.
# Goals (issue 5): page turn <= 50 ms at p95; open at the remembered page <= 150 ms.
# Goals (issue 31), on the labelled PDF: first open <= 150 ms; reopen at its page <= 100 ms.
# BIBREAD_BEFORE (another bibread binary) opens and reopens the labelled PDF the same way in the
# same run, alternating with BIBREAD, RUNS times each (default 3); the median of each is shown.
# Each run has folders of its own (XDG_STATE_HOME, XDG_CONFIG_HOME, XDG_CACHE_HOME), so a page
# kept on disk by one binary is never read by the other.
set -euo pipefail
export LC_ALL=C
repo=$(cd "$(dirname "$0")/.." && pwd)
bibread=${BIBREAD:-$repo/.build/release/bibread}
bibread_before=${BIBREAD_BEFORE:-}
runs=${RUNS:-3}
bench_dir=${BENCH_DIR:-$repo/.build/bench}
corpora=${BIBREAD_CORPORA:-$repo/../shared/corpora}
[[ -x "$bibread" ]] || { echo "reading-bench: $bibread is missing; run: make release" >&2; exit 2; }
for tool in tmux qpdf; do
  command -v "$tool" >/dev/null || { echo "reading-bench: $tool is missing (scripts/install-deps.sh bench)" >&2; exit 2; }
done
mkdir -p "$bench_dir"
big="$bench_dir/big.pdf"
if [[ ! -s "$big" ]]; then
  t="$corpora/pdfs/tcolorbox.pdf"
  qpdf --empty --pages "$t" "$t" "$t" "$t" "$t" -- "$big"
fi
labelled="$bench_dir/labelled.pdf"
if [[ ! -s "$labelled" ]]; then
  t="$corpora/pdfs/tcolorbox.pdf" r="$corpora/pdfs/R-exts.pdf"
  qpdf "$r" --pages "$r" "$t" "$t" "$t" "$t" -- "$labelled"
fi

work=$(mktemp -d)
socket="bibread-reading-$$"
cleanup() { tmux -L "$socket" kill-server 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
# fresh_folders: new XDG folders (state, config, cache) for the runs that follow (new ones: a
# reader that is still exiting may write to the old ones), and the log in them.
folders_made=0
fresh_folders() {
  folders_made=$((folders_made + 1))
  local run="$work/run-$folders_made"
  export XDG_STATE_HOME="$run/state" XDG_CONFIG_HOME="$run/config" XDG_CACHE_HOME="$run/cache"
  log="$XDG_STATE_HOME/bibread/stderr.log"
}
fresh_folders
export TERM=xterm-256color
library="$work/reading.bib"
{
  for pdf in "$corpora"/pdfs/*.pdf; do
    name=$(basename "$pdf" .pdf | tr -cd 'A-Za-z0-9')
    printf '@misc{%s, title = {%s}, file = {:%s:PDF}}\n' "$name" "$name" "$pdf"
  done
  printf '@misc{bigpdf, title = {Big}, file = {:%s:PDF}}\n' "$big"
  printf '@misc{labelledpdf, title = {Labelled}, file = {:%s:PDF}}\n' "$labelled"
} >"$library"

keys() { tmux -L "$socket" send-keys "$@"; }
start() {
  tmux -L "$socket" kill-server 2>/dev/null || true
  rm -f "$log"
  # The server of the run before may still be exiting ("server exited unexpectedly"): again.
  for _ in 1 2 3 4 5; do
    tmux -L "$socket" new-session -d -x 120 -y 40 "BIBREAD_TIMINGS=1 ${binary:-$bibread} $library" 2>/dev/null && break
    sleep 0.3
  done
  for _ in $(seq 200); do grep -q "first screen drawn" "$log" 2>/dev/null && return 0; sleep 0.05; done
  echo "reading-bench: the reader did not start" >&2; exit 1
}
open_key() { # cite key
  keys /; tmux -L "$socket" send-keys -l "key:$1"; keys Enter Enter
  for _ in $(seq 400); do grep -q "document key Enter text shown" "$log" 2>/dev/null && return 0; sleep 0.05; done
  echo "reading-bench: $1 did not open" >&2; exit 1
}
stats() { # label, values on stdin
  sort -n | awk -v label="$1" '{ v[NR] = $1 } END { if (NR == 0) { print "  " label ": none"; exit }
    p95 = v[int(NR * 0.95) > 0 ? int(NR * 0.95) : 1]
    printf "  %-34s n=%-4d p50 %6.2f ms  p95 %6.2f ms  max %6.2f ms\n", label, NR, v[int((NR + 1) / 2)], p95, v[NR] }'
}

echo "== reading: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores"
echo "page turns (key to text on screen):"
all="$work/turns.txt"
: >"$all"
for pdf in "$corpora"/pdfs/*.pdf; do
  name=$(basename "$pdf" .pdf | tr -cd 'A-Za-z0-9')
  start
  open_key "$name"
  for _ in $(seq 40); do keys ']'; sleep 0.12; done
  sleep 0.5
  keys q q
  grep "timing: page key \] text shown after" "$log" | sed 's/.* after \([0-9.]*\) ms/\1/' | tee -a "$all" | stats "$(basename "$pdf")"
done
stats "all corpus PDFs (goal p95 <= 50 ms)" <"$all"

# open_twice KEY PDF: opens the PDF (page 1), goes to page 2000 and quits; opens it again, at
# page 2000; sets first, again and resumed.
open_twice() {
  start
  open_key "$1"
  first=$(grep "document key Enter text shown" "$log" | sed 's/.* after \([0-9.]*\) ms/\1/')
  keys :; tmux -L "$socket" send-keys -l 2000; keys Enter
  sleep 1
  keys q q
  sleep 0.5
  start
  open_key "$1"
  again=$(grep "document key Enter text shown" "$log" | sed 's/.* after \([0-9.]*\) ms/\1/')
  sleep 0.5
  resumed=$(tmux -L "$socket" capture-pane -p | grep -o 'p\. [0-9]* ([^)]*) / [0-9]*\|p\. [0-9]* ([^)]*)\|p\. [0-9]* / [0-9]*' | head -1)
  keys q q
}

echo "opening $(basename "$big") ($(qpdf --show-npages "$big") pages):"
open_twice bigpdf "$big"
printf '  first open, page 1:                %s ms\n' "$first"
printf '  reopen at the remembered page:     %s ms (goal <= 150 ms), showing %s\n' "$again" "${resumed:-?}"

echo "opening $(basename "$labelled") ($(qpdf --show-npages "$labelled") pages, page labels and an outline):"
t0=$EPOCHREALTIME
pdftotext -f 2000 -l 2000 "$labelled" - >/dev/null
t1=$EPOCHREALTIME
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }
# labelled_run NAME BINARY: a first open and a reopen with BINARY, in fresh folders; adds their
# times (ms) to firsts[NAME] and agains[NAME]; resumed is what the reopen showed.
declare -A firsts agains
labelled_run() { # NAME BINARY
  binary=$2
  fresh_folders
  open_twice labelledpdf "$labelled"
  firsts[$1]+="$first "
  agains[$1]+="$again "
  binary=
}
for ((i = 1; i <= runs; i++)); do
  [[ -n $bibread_before ]] && labelled_run before "$bibread_before"
  labelled_run after "$bibread"
done
first=$(tr ' ' '\n' <<<"${firsts[after]}" | grep . | median)
again=$(tr ' ' '\n' <<<"${agains[after]}" | grep . | median)
printf '  first open, page 1:                %s ms (median of %d: %s)\n' "$first" "$runs" "${firsts[after]% }"
printf '  reopen at the remembered page:     %s ms (median of %d: %s), showing %s\n' "$again" "$runs" "${agains[after]% }" "${resumed:-?}"
if [[ -n $bibread_before ]]; then
  first_before=$(tr ' ' '\n' <<<"${firsts[before]}" | grep . | median)
  again_before=$(tr ' ' '\n' <<<"${agains[before]}" | grep . | median)
  printf '  BIBREAD_BEFORE (%s), in the same runs:\n' "$bibread_before"
  printf '    first open, page 1:              %s ms (median of %d: %s)\n' "$first_before" "$runs" "${firsts[before]% }"
  printf '    reopen at the remembered page:   %s ms (median of %d: %s)\n' "$again_before" "$runs" "${agains[before]% }"
fi
printf '  (pdftotext -f 2000 -l 2000, for comparison: %s ms)\n' "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) * 1000 }')"
# shellcheck source=bench/common.sh
say() { printf '%s\n' "$*" >&2; }
die() { say "reading-bench: $*"; exit 2; }
source "$(dirname "$0")/common.sh"
goal "first open of the labelled PDF <= 150 ms" "$(awk -v v="$first" 'BEGIN { print (v != "" && v <= 150) ? 1 : 0 }')" "$first ms"
goal "reopen of the labelled PDF at page 2000 <= 100 ms" "$(awk -v v="$again" 'BEGIN { print (v != "" && v <= 100) ? 1 : 0 }')" "$again ms"
