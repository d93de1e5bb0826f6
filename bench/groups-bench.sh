#!/usr/bin/env bash
# Group counts on the ~26 MB benchmark library (issue 31):
#  1. `bibread groups BIG` (every group's count) next to `bibread list BIG` in the same run, best
#     of RUNS each, and the ratio;
#  2. the full-screen reader in tmux (BIBREAD_TIMINGS): when the "With PDF" count (the first
#     counts, the built-in groups) and the last group counts arrive, after the first screen;
#     the median of RUNS launches.
# BIBREAD_BEFORE (optional): another bibread binary (the one before a change) measured the same
# way in the same run, so that before and after are compared in the same conditions.
# Goals: groups <= 1.5x list; all counts <= 0.5 s after the first screen; With PDF <= 0.3 s.
set -euo pipefail
export LC_ALL=C
repo=$(cd "$(dirname "$0")/.." && pwd)
say() { printf '%s\n' "$*"; }
die() { say "groups-bench: $*" >&2; exit 2; }
source "$repo/bench/common.sh"
bibread=${BIBREAD:-$repo/.build/release/bibread}
before=${BIBREAD_BEFORE:-}
bench_dir=${BENCH_DIR:-$repo/.build/bench}
corpora=${BIBREAD_CORPORA:-$repo/../shared/corpora}
runs=${RUNS:-5}
require_bibread groups-bench
command -v tmux >/dev/null || die "tmux is missing (scripts/install-deps.sh bench)"
mkdir -p "$bench_dir"
bench_corpus "$bench_dir" "$corpora/make-bench-corpus.sh" "$bench_dir/groups-bench.log"

work=$(mktemp -d)
socket="bibread-groups-bench-$$"
cleanup() { tmux -L "$socket" kill-server 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
export XDG_STATE_HOME="$work/state" XDG_CONFIG_HOME="$work/config" TERM=xterm-256color

# best_time COMMAND...: the best wall time of RUNS runs, in seconds.
best_time() {
  local best="" start end took
  for _ in $(seq "$runs"); do
    start=$EPOCHREALTIME
    "$@" >/dev/null 2>&1 || true
    end=$EPOCHREALTIME
    took=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
    if [[ -z $best ]] || awk -v t="$took" -v b="$best" 'BEGIN { exit !(t < b) }'; then best=$took; fi
  done
  printf '%s' "$best"
}

# reader_times BINARY: "WITH_PDF LAST" in ms after the first screen, medians of RUNS launches.
reader_times() {
  local binary=$1 log="$XDG_STATE_HOME/bibread/stderr.log" pdf=() last=() first
  for _ in $(seq "$runs"); do
    rm -rf "$XDG_STATE_HOME" "$XDG_CONFIG_HOME"
    tmux -L "$socket" new-session -d -x 120 -y 40 "BIBREAD_TIMINGS=1 $binary $big"
    for _ in $(seq 600); do grep -q "field groups ready" "$log" 2>/dev/null && break; sleep 0.05; done
    sleep 2 # the counts of the field groups' rows come after them
    tmux -L "$socket" send-keys q; sleep 0.5
    tmux -L "$socket" kill-server 2>/dev/null || true
    first=$(grep -m1 "timing: first screen drawn at" "$log" | sed 's/.* at \([0-9.]*\) ms/\1/')
    pdf+=("$(grep -m1 "timing: group counts at" "$log" | sed 's/.* at \([0-9.]*\) ms/\1/' | awk -v f="$first" '{ printf "%.0f", $1 - f }')")
    last+=("$(grep "timing: group counts at" "$log" | tail -1 | sed 's/.* at \([0-9.]*\) ms/\1/' | awk -v f="$first" '{ printf "%.0f", $1 - f }')")
  done
  local middle=$(( (runs + 1) / 2 ))
  printf '%s %s\n' "$(printf '%s\n' "${pdf[@]}" | sort -n | sed -n "${middle}p")" \
    "$(printf '%s\n' "${last[@]}" | sort -n | sed -n "${middle}p")"
}

say "== groups: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(du -m "$big" | cut -f1) MB library"
list=$(best_time "$bibread" list "$big")
groups=$(best_time "$bibread" groups "$big")
ratio=$(awk -v g="$groups" -v l="$list" 'BEGIN { printf "%.2f", g / l }')
say "bibread list:            best $list s of $runs"
say "bibread groups:          best $groups s of $runs  (${ratio}x list)"
if [[ -n $before ]]; then
  groups_before=$(best_time "$before" groups "$big")
  say "bibread groups (before): best $groups_before s of $runs  ($(awk -v g="$groups_before" -v l="$list" 'BEGIN { printf "%.2f", g / l }')x list)"
fi
read -r pdf last < <(reader_times "$bibread")
say "reader (ms after the first screen, median of $runs): With PDF count $pdf, all group counts $last"
if [[ -n $before ]]; then
  read -r pdf_before last_before < <(reader_times "$before")
  say "reader before (the same):                         With PDF count $pdf_before, all group counts $last_before"
fi
say "goals:"
goal "groups <= 1.5x list" "$(awk -v r="$ratio" 'BEGIN { print (r <= 1.5) }')" "${ratio}x"
goal "all group counts <= 0.5 s after the first screen" "$(awk -v t="$last" 'BEGIN { print (t <= 500) }')" "$last ms"
goal "With PDF count <= 0.3 s after the first screen" "$(awk -v t="$pdf" 'BEGIN { print (t <= 300) }')" "$pdf ms"
