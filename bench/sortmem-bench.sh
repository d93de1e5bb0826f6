#!/usr/bin/env bash
# The reader on the ~26 MB bench library (make-bench-corpus.sh), in tmux at 120x40, as a user
# runs it (`bibread LIB`, BIBREAD_TIMINGS=1 for its own log of when background work arrives):
#  1. the list sorted by author: when `sort by author ready` arrives, in ms after the first
#     screen (the reader shows the list and sorts it in the background);
#     and `bibread-dev sort-latency` (each order alone, one core, no other work), when there;
#  2. resident memory once the background work has settled (the search index, field groups,
#     marks and group counts in, the log quiet for 2 s): VmRSS and VmHWM of the reader's process,
#     from /proc/PID/status, as `ps -o rss` shows it;
# next to `bibread list LIB --json` of the same library in the same run (its wall time and peak
# RSS), printing the ratios. Each run alternates the binaries when BIBREAD_BEFORE is set (a build
# from before a change), so that both are measured in the same conditions.
# Goals (issue 31): sorted by author <= 150 ms after the first screen; resident memory <= 150 MB.
#
#   bench/sortmem-bench.sh
#
# Environment:
#   BIBREAD         bibread binary                          (default <repo>/.build/release/bibread)
#   BIBREAD_BEFORE  another bibread binary, measured in the same runs (optional)
#   BIBREAD_DEV     bibread-dev binary, for the sort alone  (default <repo>/.build/release/bibread-dev)
#   RUNS            runs of each, median and best shown     (default 5)
#   BENCH_DIR       where the corpus goes                   (default <repo>/.build/bench)
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
bibread_dev=${BIBREAD_DEV:-$repo/.build/release/bibread-dev}
before=${BIBREAD_BEFORE:-}
runs=${RUNS:-5}
goal_sort=150   # ms after the first screen
goal_rss=150    # MB

say() { printf '%s\n' "$*" >&2; }
die() { say "sortmem-bench: $*"; exit 2; }
# shellcheck source=bench/common.sh
source "$here/common.sh"

[[ $runs =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer, not '$runs'"
require_bibread sortmem-bench
if [[ -n $before ]]; then
  [[ -x $before ]] || die "BIBREAD_BEFORE=$before is not executable"
  before=$(cd "$(dirname "$before")" && pwd)/$(basename "$before")
fi
command -v tmux >/dev/null || die "needs tmux (scripts/install-deps.sh bench)"
[[ -x /usr/bin/time ]] || die "needs GNU time at /usr/bin/time (apt-get install time)"
make_corpus=$corpora/make-bench-corpus.sh
[[ -f $make_corpus ]] || die "no $make_corpus (set BIBREAD_CORPORA to the corpora folder)"
mkdir -p "$bench_dir"
bench_dir=$(cd "$bench_dir" && pwd)
bench_corpus "$bench_dir" "$make_corpus" "$bench_dir/sortmem-bench.log"

work=$(mktemp -d)
socket="bibread-sortmem-$$"
cleanup() { tmux -L "$socket" kill-server 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
export TERM=xterm-256color

# list_run BINARY: one `list --json` run; prints "wall_s rss_mb".
list_run() {
  local start end
  start=$EPOCHREALTIME
  /usr/bin/time -f '%M' -o "$work/time" "$1" list "$big" --json >/dev/null 2>"$work/list.err" ||
    { say "sortmem-bench: $1 list failed"; tail -5 "$work/list.err" >&2; exit 1; }
  end=$EPOCHREALTIME
  awk -v a="$start" -v b="$end" -v kb="$(tail -1 "$work/time")" 'BEGIN { printf "%.3f %.1f\n", b - a, kb / 1024 }'
}

# reader_run BINARY: the reader in tmux until its background work has settled; prints
# "first_screen_ms sort_ms rss_mb hwm_mb".
reader_run() {
  local state=$work/state-$RANDOM log pid line last_size=-1 size quiet=0
  mkdir -p "$state" "$work/config"
  log=$state/bibread/stderr.log
  XDG_STATE_HOME=$state XDG_CONFIG_HOME=$work/config \
    tmux -L "$socket" new-session -d -x 120 -y 40 \
    "exec env XDG_STATE_HOME=$state XDG_CONFIG_HOME=$work/config BIBREAD_TIMINGS=1 $1 $big"
  pid=$(tmux -L "$socket" display -p '#{pane_pid}')
  # Settled: every piece of startup work in, and the log quiet for 2 s (30 s at most).
  for _ in $(seq 600); do
    sleep 0.05
    [[ -f $log ]] || continue
    if grep -q "sort by author ready" "$log" && grep -q "search index ready" "$log" &&
       grep -q "field groups ready" "$log" && grep -q "marks ready" "$log"; then
      size=$(stat -c %s "$log")
      if [[ $size == "$last_size" ]]; then quiet=$((quiet + 1)); else quiet=0; last_size=$size; fi
      ((quiet >= 40)) && break
    fi
  done
  ((quiet >= 40)) || { say "sortmem-bench: the reader did not settle within 30 s"; cat "$log" >&2; exit 1; }
  line=$(awk '/^VmRSS/ { rss = $2 } /^VmHWM/ { hwm = $2 } END { printf "%.1f %.1f", rss / 1024, hwm / 1024 }' "/proc/$pid/status")
  tmux -L "$socket" send-keys q
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  tmux -L "$socket" kill-server 2>/dev/null || true
  awk -v mem="$line" '
    /timing: first screen drawn at/ { first = $(NF - 1) }
    /timing: sort by author ready at/ { sort = $(NF - 1) }
    END { printf "%.1f %.1f %s\n", first, sort - first, mem }' "$log"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
best() { sort -n | head -1; }

binaries=("$bibread")
tags=(after)
# Tagged by their place, not their file names: two builds are both called bibread.
[[ -n $before ]] && binaries=("$before" "$bibread") && tags=(before after)
echo "== sortmem-bench: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(du -m "$big" | cut -f1) MB library, $runs runs"
for tag in "${tags[@]}"; do : >"$work/list-$tag"; : >"$work/reader-$tag"; done
for _ in $(seq "$runs"); do
  for index in "${!binaries[@]}"; do
    binary=${binaries[index]}
    tag=${tags[index]}
    list_run "$binary" >>"$work/list-$tag"
    reader_run "$binary" >>"$work/reader-$tag"
  done
done

for index in "${!binaries[@]}"; do
  binary=${binaries[index]}
  tag=${tags[index]}
  list_median=$(cut -d' ' -f1 "$work/list-$tag" | median)
  list_rss=$(cut -d' ' -f2 "$work/list-$tag" | median)
  sort_median=$(cut -d' ' -f2 "$work/reader-$tag" | median)
  sort_best=$(cut -d' ' -f2 "$work/reader-$tag" | best)
  first_median=$(cut -d' ' -f1 "$work/reader-$tag" | median)
  rss_median=$(cut -d' ' -f3 "$work/reader-$tag" | median)
  rss_max=$(cut -d' ' -f3 "$work/reader-$tag" | sort -n | tail -1)
  hwm_median=$(cut -d' ' -f4 "$work/reader-$tag" | median)
  echo "$binary:"
  echo "  list --json: median $list_median s, peak RSS $list_rss MB"
  echo "  reader: first screen at median $first_median ms"
  echo "  reader: sorted by author $(awk -v s="$sort_median" -v b="$sort_best" -v l="$list_median" \
    'BEGIN { printf "median %.0f ms, best %.0f ms after the first screen (%.2fx the time of list --json)", s, b, s / 1000 / l }')"
  echo "  reader: resident memory settled $(awk -v r="$rss_median" -v m="$rss_max" -v h="$hwm_median" -v l="$list_rss" \
    'BEGIN { printf "median %.0f MB (max %.0f), peak (VmHWM) %.0f MB; list --json peak %.0f MB (%.2fx)", r, m, h, l, r / l }')"
  echo "  runs (first screen ms, sort ms after it, RSS MB, HWM MB): $(tr '\n' ';' <"$work/reader-$tag")"
  goal "sorted by author <= $goal_sort ms after the first screen" \
    "$(awk -v s="$sort_median" -v g="$goal_sort" 'BEGIN { print (s <= g) ? 1 : 0 }')" "median $sort_median ms"
  goal "resident memory <= $goal_rss MB once settled" \
    "$(awk -v r="$rss_median" -v g="$goal_rss" 'BEGIN { print (r <= g) ? 1 : 0 }')" "median $rss_median MB"
done
if [[ -x $bibread_dev ]] && "$bibread_dev" sort-latency --help >/dev/null 2>&1; then
  echo "$bibread_dev sort-latency (each order alone, one core; list --json median above):"
  "$bibread_dev" sort-latency "$big" --rounds "$runs" 2>/dev/null | sed 's/^/  /'
fi
