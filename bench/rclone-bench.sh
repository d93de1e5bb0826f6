#!/usr/bin/env bash
# bibread sync through an rclone remote (issue 30), with the real rclone and a configuration of
# the bench's own (RCLONE_CONFIG): a library of 1,000 references, each linking one PDF (copies of
# the sample PDFs), in a folder that rclone's `local` backend serves, and the same bytes in a
# `crypt` remote over it.
#  1. a cold sync of all 1,000 PDFs (`--all-pdfs`), shown;
#  2. the no-op re-sync of the 1,000 PDFs once they are in the cache, over the local remote and
#     over the crypt one, next to, in the same run, `rclone lsjson` of the papers folder alone
#     (what any rclone client pays to learn what is there) and the same no-op sync of the same
#     folder as a plain folder remote (bibread without rclone).
# Goal (issue): a no-op re-sync of 1,000 PDFs through an rclone remote <= 2 s, downloading nothing.
#
#   bench/rclone-bench.sh
#
# Environment:
#   BIBREAD     bibread binary                               (default <repo>/.build/release/bibread)
#   RUNS        runs per measurement, best wall time kept    (default 3)
#   BENCH_DIR   the remote folder, XDG folders, logs         (default <repo>/.build/bench/rclone)
#
# Exit status: 0 when the report was made, whatever the goal says; 1 when a measured command
# failed or downloaded in a no-op sync (its row says FAILED); 2 when the harness cannot run.
set -euo pipefail
export LC_ALL=C # '.' as decimal point in EPOCHREALTIME, printf and awk

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
bench_dir=${BENCH_DIR:-$repo/.build/bench/rclone}
bibread=${BIBREAD:-$repo/.build/release/bibread}
runs=${RUNS:-3}
references=1000
goal_noop=2.0 # seconds

say() { printf '%s\n' "$*" >&2; }
die() { say "rclone-bench: $*"; exit 2; }
# shellcheck source=bench/common.sh
source "$here/common.sh"

[[ $runs =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer, not '$runs'"
require_bibread rclone-bench
command -v rclone >/dev/null || die "needs rclone: apt-get install rclone (scripts/install-deps.sh bench)"
samples=()
for pdf in "$repo"/Samples/papers/*.pdf; do [[ -f $pdf ]] && samples+=("$pdf"); done
((${#samples[@]})) || die "no PDFs in $repo/Samples/papers (make samples)"

mkdir -p "$bench_dir"
bench_dir=$(cd "$bench_dir" && pwd)
remote=$bench_dir/remote
encrypted=$bench_dir/encrypted
log=$bench_dir/rclone-bench.log
: >"$log"
export RCLONE_CONFIG=$bench_dir/rclone.conf
rm -f "$RCLONE_CONFIG"
rclone config create bench local >>"$log" 2>&1 || die "rclone config create failed, see $log"
rclone config create vault crypt remote="bench:$encrypted" password=bench-password >>"$log" 2>&1 || die "rclone config create (crypt) failed, see $log"

# ---- the remote folder: library.bib and papers/p0001.pdf … p1000.pdf ----------------
if [[ -f $remote/library.bib && $(find "$remote/papers" -maxdepth 1 -name 'p*.pdf' -type f | wc -l) == "$references" ]]; then
  say "remote: reusing $remote"
else
  say "remote: building $remote ($references references, $references PDFs) ..."
  rm -rf "$remote" "$remote.tmp"
  mkdir -p "$remote.tmp/papers"
  {
    echo "% bibread rclone benchmark: $references references, each linking one PDF."
    for ((i = 1; i <= references; i++)); do
      printf -v id 'p%04d' "$i"
      cp "${samples[(i - 1) % ${#samples[@]}]}" "$remote.tmp/papers/$id.pdf"
      printf '\n@misc{%s,\n  author = {Bench, Author %d},\n  title = {Benchmark paper number %d},\n  year = {2020},\n  file = {:papers/%s.pdf:PDF},\n}\n' \
        "$id" "$i" "$i" "$id"
    done
  } >"$remote.tmp/library.bib"
  mv "$remote.tmp" "$remote"
fi
say "crypt: encrypting a copy into $encrypted ..."
rm -rf "$encrypted"
rclone copy "$remote" vault: >>"$log" 2>&1 || die "rclone copy into the crypt remote failed, see $log"
cat "$remote/library.bib" "$remote"/papers/*.pdf >/dev/null # the page cache, as for a warm disk

# ---- measuring ---------------------------------------------------------------------
status=0
now() { printf '%s' "$EPOCHREALTIME"; }
# best NAME COMMAND...: runs COMMAND $runs times, prints the best wall time in seconds; its
# output goes to the log; any failure prints FAILED (the caller's check below sets the status).
best() {
  local name=$1 shortest= start end elapsed
  shift
  for ((run = 1; run <= runs; run++)); do
    start=$(now)
    if ! "$@" >>"$log" 2>&1; then
      say "rclone-bench: $name failed (see $log)"
      printf 'FAILED'
      return
    fi
    end=$(now)
    elapsed=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
    if [[ -z $shortest ]] || awk -v e="$elapsed" -v s="$shortest" 'BEGIN { exit !(e < s) }'; then shortest=$elapsed; fi
  done
  printf '%s' "$shortest"
}
home_for() { # NAME: fresh XDG folders for one remote
  local home=$bench_dir/home-$1
  rm -rf "$home"
  mkdir -p "$home"
  printf '%s' "$home"
}
bibread_in() { # HOME ARGS...
  local home=$1
  shift
  HOME=$home XDG_CONFIG_HOME=$home/config XDG_DATA_HOME=$home/data XDG_CACHE_HOME=$home/cache XDG_STATE_HOME=$home/state \
    "$bibread" "$@"
}
# noop_sync HOME URL: a sync that must download nothing.
noop_sync() {
  local said
  said=$(bibread_in "$1" sync "$2" --name lab --all-pdfs 2>&1) || { printf '%s\n' "$said"; return 1; }
  printf '%s\n' "$said"
  grep -q "Done: 0 downloaded (0 B), $references already current" <<<"$said"
}

say "cold syncs (1,000 PDFs each) ..."
declare -A homes cold
for kind in rclone crypt folder; do
  homes[$kind]=$(home_for "$kind")
done
url_of() {
  case $1 in
    rclone) printf 'rclone:bench:%s' "$remote" ;;
    crypt) printf 'rclone:vault:' ;;
    folder) printf '%s' "$remote" ;;
  esac
}
for kind in rclone crypt folder; do
  start=$(now)
  if bibread_in "${homes[$kind]}" sync "$(url_of "$kind")" --name lab --all-pdfs >>"$log" 2>&1; then
    cold[$kind]=$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
  else
    cold[$kind]=FAILED
    status=1
  fi
done

say "no-op re-syncs, best of $runs ..."
lsjson=$(best "rclone lsjson" rclone lsjson --no-mimetype "bench:$remote/papers")
lsjson_crypt=$(best "rclone lsjson (crypt)" rclone lsjson --no-mimetype "vault:papers")
noop_rclone=$(best "no-op sync (rclone local)" noop_sync "${homes[rclone]}" "$(url_of rclone)")
noop_crypt=$(best "no-op sync (rclone crypt)" noop_sync "${homes[crypt]}" "$(url_of crypt)")
noop_folder=$(best "no-op sync (folder)" noop_sync "${homes[folder]}" "$(url_of folder)")

for value in "$lsjson" "$lsjson_crypt" "$noop_rclone" "$noop_crypt" "$noop_folder"; do
  [[ $value == FAILED ]] && status=1
done
within() { [[ $1 != FAILED ]] && awk -v t="$1" -v g="$2" 'BEGIN { exit !(t <= g) }'; }
printf '\nrclone remotes: %d references, %d PDFs; rclone %s; load before: %s\n' "$references" "$references" \
  "$(rclone version 2>/dev/null | head -1 | awk '{ print $2 }')" "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
printf '  %-52s %s s\n' "cold sync, rclone local backend" "${cold[rclone]}"
printf '  %-52s %s s\n' "cold sync, rclone crypt over local" "${cold[crypt]}"
printf '  %-52s %s s\n' "cold sync, folder remote (no rclone)" "${cold[folder]}"
printf '  %-52s %s s\n' "rclone lsjson papers/ alone (local)" "$lsjson"
printf '  %-52s %s s\n' "rclone lsjson papers/ alone (crypt)" "$lsjson_crypt"
printf '  %-52s %s s\n' "no-op re-sync, rclone local backend" "$noop_rclone"
printf '  %-52s %s s\n' "no-op re-sync, rclone crypt over local" "$noop_crypt"
printf '  %-52s %s s\n' "no-op re-sync, folder remote (no rclone)" "$noop_folder"
ok=0
within "$noop_rclone" "$goal_noop" && within "$noop_crypt" "$goal_noop" && ok=1
goal "no-op re-sync of $references PDFs through rclone <= ${goal_noop} s, nothing downloaded" "$ok" "local $noop_rclone s, crypt $noop_crypt s"
exit "$status"
