#!/usr/bin/env bash
# The reader's background work after the first screen, on the ~26 MB bench library
# (make-bench-corpus.sh), in tmux at 120x40 as a user runs it (`bibread LIB`, BIBREAD_TIMINGS=1
# for its own log), next to `bibread list LIB` in the same run:
#  1. when the search index, the field groups, the marks, the sort by author and the last group
#     counts arrive, in ms after the first screen (medians of RUNS launches);
#  2. memory once that work has settled (the log quiet for 2 s): VmRSS and the peak, VmHWM;
#  3. once settled, search as you type: QUERIES typed one character at a time, ROUNDS times
#     (several hundred keystrokes a binary over the runs), each key's time from being read to
#     being on screen (the reader's `input key ... shown after`), p50/p99/max over all runs;
#  4. the `s` key (sort by the next column) pressed SORT_KEYS times a run, 0.4 s apart, and how
#     long after each press its sort arrives (`sort by ... ready`, from launch, minus the press).
# BIBREAD_BEFORE (optional): another bibread binary (the one before a change), measured the same
# way in the same runs, alternating with BIBREAD, so that both see the same machine.
# Goals (issue 31): search index ready <= 400 ms after the first screen; a keystroke of search to
# screen p99 <= 3 ms; and against BIBREAD_BEFORE: peak memory, field groups and marks not later,
# the `s` key not slower.
#
#   bench/startup-bench.sh
#
# Environment:
#   BIBREAD         bibread binary                           (default <repo>/.build/release/bibread)
#   BIBREAD_BEFORE  another bibread binary, measured alongside (optional)
#   RUNS            launches of each binary                  (default 5)
#   ROUNDS          times the queries are typed per launch   (default 2)
#   SORT_KEYS       presses of `s` per launch                (default 10)
#   BENCH_DIR       where the corpus goes                    (default <repo>/.build/bench)
#
# Exit status: 0 when the report was made, whatever the goals say; 1 when a measured command
# failed; 2 when the harness cannot run.
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
corpora=${BIBREAD_CORPORA:-$repo/../shared/corpora}
bench_dir=${BENCH_DIR:-$repo/.build/bench}
bibread=${BIBREAD:-$repo/.build/release/bibread}
before=${BIBREAD_BEFORE:-}
runs=${RUNS:-5}
rounds=${ROUNDS:-2}
sort_keys=${SORT_KEYS:-10}
goal_index=400   # ms after the first screen
goal_key=3       # ms, p99
queries=("knuth" "author:knuth tex -errata year:1984..1990" "dynamic programming" "quantum \"dynamic programming\" | godel"
         "t:\"document preparation\" -kw:draft" "lamport latex")

say() { printf '%s\n' "$*" >&2; }
die() { say "startup-bench: $*"; exit 2; }
# shellcheck source=bench/common.sh
source "$here/common.sh"

for value in "$runs" "$rounds" "$sort_keys"; do
  [[ $value =~ ^[1-9][0-9]*$ ]] || die "RUNS, ROUNDS and SORT_KEYS must be positive integers, not '$value'"
done
require_bibread startup-bench
require_before
reader_bench_library startup-bench

work=$(mktemp -d)
socket="bibread-startup-$$"
cleanup() { tmux -L "$socket" kill-server 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
export TERM=xterm-256color

# list_run BINARY: the wall time of one `list` run, in seconds.
list_run() {
  local start=$EPOCHREALTIME
  "$1" list "$big" >/dev/null 2>"$work/list.err" || { say "startup-bench: $1 list failed"; tail -5 "$work/list.err" >&2; exit 1; }
  awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f\n", b - a }'
}

# reader_run BINARY TAG: one launch; appends to $work/TAG.arrivals
# "index fieldgroups marks sort lastcounts rss hwm" (ms after the first screen, MB), to
# $work/TAG.search the search keystrokes' times, to $work/TAG.s the `s` keys' times and to
# $work/TAG.sorted how long after each press of `s` its sort arrived (ms).
reader_run() {
  local state=$work/state-$RANDOM log pid mem launched last_size=-1 size quiet=0 query i press
  mkdir -p "$state" "$work/config"
  log=$state/bibread/stderr.log
  launched=$EPOCHREALTIME
  tmux -L "$socket" new-session -d -x 120 -y 40 \
    "exec env XDG_STATE_HOME=$state XDG_CONFIG_HOME=$work/config BIBREAD_TIMINGS=1 $1 $big"
  pid=$(tmux -L "$socket" display -p '#{pane_pid}')
  for _ in $(seq 600); do
    sleep 0.05
    [[ -f $log ]] || continue
    if grep -q "sort by author ready" "$log" && grep -q "search index ready" "$log" &&
       grep -q "field groups ready" "$log" && grep -q "marks ready" "$log" && grep -q "keywords ready" "$log"; then
      size=$(stat -c %s "$log")
      if [[ $size == "$last_size" ]]; then quiet=$((quiet + 1)); else quiet=0; last_size=$size; fi
      ((quiet >= 40)) && break
    fi
  done
  ((quiet >= 40)) || { say "startup-bench: the reader did not settle within 30 s"; cat "$log" >&2; exit 1; }
  mem=$(awk '/^VmRSS/ { rss = $2 } /^VmHWM/ { hwm = $2 } END { printf "%.1f %.1f", rss / 1024, hwm / 1024 }' "/proc/$pid/status")
  awk -v mem="$mem" '
    /timing: first screen drawn at/ { first = $(NF - 1) }
    /timing: search index ready at/ { index_ready = $(NF - 1) }
    /timing: field groups ready at/ { groups = $(NF - 1) }
    /timing: marks ready at/ { marks = $(NF - 1) }
    /timing: sort by author ready at/ { sorted = $(NF - 1) }
    /timing: group counts at/ { counts = $(NF - 1) }
    END { printf "%.1f %.1f %.1f %.1f %.1f %s\n", index_ready - first, groups - first, marks - first, sorted - first,
          counts - first, mem }' "$log" >>"$work/$2.arrivals"
  local typed_from=$(wc -l <"$log")
  tmux -L "$socket" send-keys /
  for _ in $(seq "$rounds"); do
    for query in "${queries[@]}"; do
      for (( i = 0; i < ${#query}; i++ )); do tmux -L "$socket" send-keys -l "${query:i:1}"; sleep 0.03; done
      tmux -L "$socket" send-keys C-u; sleep 0.1
    done
  done
  tmux -L "$socket" send-keys Escape; sleep 0.3
  tail -n +"$((typed_from + 1))" "$log" | grep -E "timing: input key [^ ]+ shown after" | grep -vE "key (/|Escape|Esc|C-u|\^U|ctrl)" |
    sed 's/.* after \([0-9.]*\) ms/\1/' >>"$work/$2.search"
  local sorts_from=$(wc -l <"$log")
  : >"$work/presses"
  for _ in $(seq "$sort_keys"); do
    press=$EPOCHREALTIME
    tmux -L "$socket" send-keys s
    awk -v a="$launched" -v b="$press" 'BEGIN { printf "%.1f\n", (b - a) * 1000 }' >>"$work/presses"
    sleep 0.4
  done
  tail -n +"$((sorts_from + 1))" "$log" | grep -E "timing: input key s shown after" | sed 's/.* after \([0-9.]*\) ms/\1/' >>"$work/$2.s"
  # Each press's sort against when the reader read the key (`input key s read at`, from a build
  # that logs it), else against when it was pressed (the launch is a few ms before the reader's
  # clock starts: that figure is a little short and only a rough one).
  if tail -n +"$((sorts_from + 1))" "$log" | grep -q "timing: input key s read at"; then
    tail -n +"$((sorts_from + 1))" "$log" | awk '
      /timing: input key s read at/ { read_at = $(NF - 1) }
      /timing: sort by .* ready at/ && read_at != "" { printf "%.1f\n", $(NF - 1) - read_at; read_at = "" }' >>"$work/$2.sorted"
  else
    tail -n +"$((sorts_from + 1))" "$log" | sed -n 's/.*timing: sort by .* ready at \([0-9.]*\) ms/\1/p' |
      paste -d' ' "$work/presses" - | awk 'NF == 2 { printf "%.1f\n", $2 - $1 }' >>"$work/$2.sorted"
  fi
  tmux -L "$socket" send-keys q
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  tmux -L "$socket" kill-server 2>/dev/null || true
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : "nan") }'; }
# spread: "n=N p50 P p99 Q max M" of the numbers on stdin.
spread() {
  sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) { print "none"; exit }
    p99 = v[int(NR * 0.99) > 0 ? int(NR * 0.99) : 1]
    printf "n=%d p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", NR, v[int((NR + 1) / 2)], p99, v[NR] }'
}
p99() { sort -n | awk '{ v[NR] = $1 } END { print (NR ? v[int(NR * 0.99) > 0 ? int(NR * 0.99) : 1] : 1e9) }'; }

binaries=("$bibread")
tags=(after)
if [[ -n $before ]]; then binaries=("$before" "$bibread"); tags=(before after); fi
echo "== startup-bench: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(du -m "$big" | cut -f1) MB library, $runs runs"
for _ in $(seq "$runs"); do
  for n in "${!binaries[@]}"; do
    list_run "${binaries[n]}" >>"$work/${tags[n]}.list"
    reader_run "${binaries[n]}" "${tags[n]}"
  done
done

column() { cut -d' ' -f"$2" "$work/$1.arrivals" | median; }
for n in "${!binaries[@]}"; do
  tag=${tags[n]}
  list=$(median <"$work/$tag.list")
  echo "${tag}: ${binaries[n]}"
  echo "  bibread list: median $list s"
  echo "  after the first screen (median ms): search index $(column "$tag" 1), field groups $(column "$tag" 2)," \
    "marks $(column "$tag" 3), sort by author $(column "$tag" 4), last group counts $(column "$tag" 5)"
  echo "  search index ready: $(awk -v s="$(column "$tag" 1)" -v l="$list" 'BEGIN { printf "%.2fx the time of list", s / 1000 / l }')"
  echo "  memory settled: VmRSS median $(column "$tag" 6) MB, VmHWM median $(column "$tag" 7) MB (max $(cut -d' ' -f7 "$work/$tag.arrivals" | sort -n | tail -1))"
  echo "  runs (index groups marks sort counts ms; RSS HWM MB): $(tr '\n' ';' <"$work/$tag.arrivals")"
  echo "  search keystroke to screen: $(spread <"$work/$tag.search")"
  echo "  s key to screen: $(spread <"$work/$tag.s")"
  echo "  s key to its sort: $(spread <"$work/$tag.sorted")"
  goal "search index ready <= $goal_index ms after the first screen" \
    "$(awk -v v="$(column "$tag" 1)" -v g="$goal_index" 'BEGIN { print (v <= g) ? 1 : 0 }')" "median $(column "$tag" 1) ms"
  goal "search keystroke to screen p99 <= $goal_key ms" \
    "$(awk -v v="$(p99 <"$work/$tag.search")" -v g="$goal_key" 'BEGIN { print (v <= g) ? 1 : 0 }')" "$(p99 <"$work/$tag.search") ms"
done
if [[ -n $before ]]; then
  not_worse() { # NAME BEFORE AFTER UNIT: PASS when AFTER <= BEFORE
    goal "$1 not worse than before" "$(awk -v b="$2" -v a="$3" 'BEGIN { print (a <= b) ? 1 : 0 }')" "$2 -> $3 $4"
  }
  not_worse "peak memory (VmHWM median)" "$(column before 7)" "$(column after 7)" MB
  not_worse "field groups ready" "$(column before 2)" "$(column after 2)" "ms after the first screen"
  not_worse "marks ready" "$(column before 3)" "$(column after 3)" "ms after the first screen"
  not_worse "s key to screen (p50)" "$(median <"$work/before.s")" "$(median <"$work/after.s")" ms
fi
