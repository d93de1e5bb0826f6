#!/usr/bin/env bash
# Editing a library, on the ~26 MB bench library (51k references; make-bench-corpus.sh):
#  1. on disk: `bibread mark LIB KEY read|unread` (read the file, apply the edit in the file's
#     conventions, write a temporary file, read it back and check it, fsync, rename, fsync the
#     folder, keep the previous version for undo), next to `bibread list LIB --json` (reading
#     and printing the same library) in the same run;
#  2. on screen: `bibread-dev edit-latency LIB` (the reader's loop: key to the screen showing
#     the change, key to the write being durable), when bibread-dev has it;
#  3. a push: one edit of a synced copy of that library pushed to a writable lighttpd WebDAV on
#     127.0.0.1 by `bibread sync`, with the requests lighttpd logged for the .bib, next to a
#     no-op `bibread sync` of the same remote in the same run.
# Goals (issue 28): an edit on disk <= 1 s; on screen <= 50 ms; a push of one edit is at most
# one GET and exactly one conditional PUT of the .bib.
#
# The bench library is make-bench-corpus.sh's concatenation of real libraries without the lines
# of Better BibTeX's quality report that one of them carries (with them the file is a Zotero
# export, which bibread refuses to edit, rightly).
#
#   bench/edit-bench.sh
#
# Environment:
#   BIBREAD      bibread binary                   (default <repo>/.build/release/bibread)
#   BIBREAD_DEV  bibread-dev binary               (default <repo>/.build/release/bibread-dev)
#   RUNS         runs per measurement, median and best shown   (default 5)
#   BENCH_DIR    where the corpus and the work go (default <repo>/.build/bench)
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
runs=${RUNS:-5}
goal_disk=1.0    # seconds
goal_screen=50   # milliseconds

say() { printf '%s\n' "$*" >&2; }
die() { say "edit-bench: $*"; exit 2; }
# shellcheck source=bench/common.sh
source "$here/common.sh"

[[ $runs =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer, not '$runs'"
require_bibread edit-bench
lighttpd=$(command -v lighttpd || true)
[[ -z $lighttpd && -x /usr/sbin/lighttpd ]] && lighttpd=/usr/sbin/lighttpd
[[ -n $lighttpd ]] || die "needs lighttpd with mod_webdav: apt-get install lighttpd lighttpd-mod-webdav"
command -v curl >/dev/null || die "needs curl: apt-get install curl"
make_corpus=$corpora/make-bench-corpus.sh
[[ -f $make_corpus ]] || die "no $make_corpus (set BIBREAD_CORPORA to the corpora folder)"

mkdir -p "$bench_dir"
bench_dir=$(cd "$bench_dir" && pwd)
work=$bench_dir/edit
rm -rf "$work"
mkdir -p "$work"
log=$work/edit-bench.log
: >"$log"

# ---- the library --------------------------------------------------------------
bench_corpus "$bench_dir" "$make_corpus" "$log"
library=$work/library.bib
grep -v -e '^% ? ' -e '^% == Citekey duplicates' "$big" >"$library" || true
[[ -s $library ]] || die "the bench library came out empty"

home=$work/home
mkdir -p "$home"/{data,cache,config,state}
run_bibread() { # OUTPUT ARGS... : bibread in the bench's own XDG folders, stderr to OUTPUT.err (or
  # the log, for /dev/null); sets rc
  local out=$1 err=$1.err
  shift
  [[ $out == /dev/null ]] && err=$log
  rc=0
  HOME=$home XDG_DATA_HOME=$home/data XDG_CACHE_HOME=$home/cache XDG_CONFIG_HOME=$home/config \
    XDG_STATE_HOME=$home/state "$bibread" "$@" >"$out" 2>>"$err" || rc=$?
}
# A reference from the middle of the library, whose key is plain.
run_bibread "$work/list.json" list "$library" --json
key=$(python3 -c '
import json, re, sys
rows = json.load(open(sys.argv[1]))
plain = [r["key"] for r in rows if re.fullmatch(r"[A-Za-z0-9:_.-]+", r.get("key", ""))]
print(plain[len(plain) // 2] if plain else "")' "$work/list.json")
[[ -n $key ]] || die "found no reference to edit in $library"
entries=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))))' "$work/list.json")
cat "$library" >/dev/null

seconds_between() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f\n", b - a }'; }
# median and best of the numbers on stdin
stats() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) { print "- -"; exit } m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f %.3f\n", m, v[1] }'; }
failed=0

# ---- 1. on disk ------------------------------------------------------------------
say "on disk: $runs runs of list and mark on $key ..."
: >"$work/list.times"
: >"$work/mark.times"
state=read
for ((i = 1; i <= runs; i++)); do
  t0=$EPOCHREALTIME
  run_bibread /dev/null list "$library" --json
  t1=$EPOCHREALTIME
  ((rc == 0)) || { say "list failed (exit $rc)"; failed=1; }
  seconds_between "$t0" "$t1" >>"$work/list.times"
  t0=$EPOCHREALTIME
  run_bibread "$work/mark.out" mark "$library" "$key" "$state"
  t1=$EPOCHREALTIME
  if ((rc != 0)) || ! grep -qF "$key: " "$work/mark.out"; then
    say "mark $state failed (exit $rc): $(tail -n 2 "$work/mark.out.err")"
    failed=1
  fi
  seconds_between "$t0" "$t1" >>"$work/mark.times"
  printf 'run %d: list %s s, mark %s %s s\n' "$i" "$(tail -n 1 "$work/list.times")" "$state" "$(tail -n 1 "$work/mark.times")" >>"$log"
  [[ $state == read ]] && state=unread || state=read
done
read -r list_median list_best < <(stats <"$work/list.times")
read -r mark_median mark_best < <(stats <"$work/mark.times")

# ---- 2. on screen ------------------------------------------------------------------
screen_line="not measured: no bibread-dev at $bibread_dev with an edit-latency command (make release-dev)"
screen_p99=
if [[ -x $bibread_dev ]] && "$bibread_dev" edit-latency --help >/dev/null 2>&1; then
  say "on screen: bibread-dev edit-latency ..."
  if HOME=$home XDG_DATA_HOME=$home/data XDG_CACHE_HOME=$home/cache XDG_CONFIG_HOME=$home/config \
    XDG_STATE_HOME=$home/state "$bibread_dev" edit-latency "$library" --rounds $((runs * 4)) >"$work/screen.out" 2>>"$log"; then
    screen_line=$(sed 's/^/           /' "$work/screen.out")
    screen_p99=$(grep -F 'key → screen' "$work/screen.out" | sed -nE 's/.*p99 ([0-9.]+) ms.*/\1/p' | head -n 1 || true)
  else
    screen_line="FAILED: see $log"
    failed=1
  fi
fi

# ---- 3. a push -------------------------------------------------------------------------
remote=$work/remote
server=$work/server
mkdir -p "$remote" "$server"
cp "$library" "$remote/library.bib"
access_log=$server/access.log
server_log=$server/server.log
lighttpd_pid=
cleanup() {
  if [[ -n $lighttpd_pid ]]; then
    kill "$lighttpd_pid" 2>/dev/null || true
    wait "$lighttpd_pid" 2>/dev/null || true
  fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
port_is_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
port=
for _ in 1 2 3 4 5; do
  candidate=$((20000 + RANDOM % 40000))
  port_is_taken "$candidate" && continue
  cat >"$server/lighttpd.conf" <<EOF
server.document-root = "$remote"
server.bind = "127.0.0.1"
server.port = $candidate
server.errorlog = "$server_log"
server.upload-dirs = ( "$server" )
server.modules = ( "mod_accesslog", "mod_webdav" )
index-file.names = ( )
# A pipe, not a file: lighttpd buffers a log file, a pipe it writes at once.
accesslog.filename = "|exec /bin/cat >> '$access_log'"
accesslog.format = "%m %U %>s"
mimetype.assign = ( ".bib" => "text/x-bibtex; charset=utf-8", "" => "application/octet-stream" )
webdav.activate = "enable"
webdav.is-readonly = "disable"
EOF
  : >"$server_log"
  "$lighttpd" -D -f "$server/lighttpd.conf" >>"$server_log" 2>&1 &
  lighttpd_pid=$!
  for _ in $(seq 100); do
    if grep -q "server started" "$server_log" 2>/dev/null && port_is_taken "$candidate"; then port=$candidate; break; fi
    kill -0 "$lighttpd_pid" 2>/dev/null || break
    sleep 0.05
  done
  [[ -n $port ]] && break
  kill "$lighttpd_pid" 2>/dev/null || true
  wait "$lighttpd_pid" 2>/dev/null || true
  lighttpd_pid=
done
[[ -n $port ]] || die "lighttpd did not start (see $server_log)"
url="http://127.0.0.1:$port/"
mkdir -p "$home/config/bibread"
printf '[[remote]]\nname = "editbench"\nurl = "%s"\n' "$url" >"$home/config/bibread/config.toml"

# The requests logged so far, once the log has settled (a request is logged when it ends).
requests_logged() {
  local before now
  before=$(wc -l 2>/dev/null <"$access_log" || echo 0)
  for _ in $(seq 40); do
    sleep 0.05
    now=$(wc -l 2>/dev/null <"$access_log" || echo 0)
    [[ $now == "$before" ]] && break
    before=$now
  done
  echo "$before"
}
# The requests for the .bib after line N: "GET 1 PUT 1 ..." (every method, GET and PUT always).
bib_requests_since() { # N
  tail -n "+$(($1 + 1))" "$access_log" | awk '$2 == "/library.bib" { n[$1]++ }
    END { printf "GET %d PUT %d", n["GET"] + 0, n["PUT"] + 0; for (m in n) if (m != "GET" && m != "PUT") printf " %s %d", m, n[m]; print "" }'
}

say "push: $runs runs of an edit pushed by bibread sync, and a no-op sync ..."
run_bibread "$work/first-sync.out" sync editbench
((rc == 0)) || die "the first sync failed (exit $rc): $(tail -n 3 "$work/first-sync.out.err")"
: >"$work/push.times"
: >"$work/noop.times"
push_requests=
# $state is the opposite of the last edit above, which the synced copy holds: every mark changes it.
for ((i = 1; i <= runs; i++)); do
  run_bibread "$work/push-mark.out" mark editbench "$key" "$state"
  ((rc == 0)) || { say "mark on the synced copy failed (exit $rc): $(tail -n 2 "$work/push-mark.out.err")"; failed=1; }
  l0=$(requests_logged)
  t0=$EPOCHREALTIME
  run_bibread "$work/push.out" sync editbench
  t1=$EPOCHREALTIME
  requests_logged >/dev/null
  r=$(bib_requests_since "$l0")
  if ((rc != 0)) || ! grep -q 'pushed 1 edit' "$work/push.out" "$work/push.out.err"; then
    say "the push failed (exit $rc): $(tail -n 3 "$work/push.out.err")"
    failed=1
  fi
  seconds_between "$t0" "$t1" >>"$work/push.times"
  push_requests=$r
  l0=$(requests_logged)
  t0=$EPOCHREALTIME
  run_bibread "$work/noop.out" sync editbench
  t1=$EPOCHREALTIME
  ((rc == 0)) || { say "the no-op sync failed (exit $rc)"; failed=1; }
  seconds_between "$t0" "$t1" >>"$work/noop.times"
  requests_logged >/dev/null
  noop_requests=$(bib_requests_since "$l0")
  printf 'run %d: push %s s (%s), no-op sync %s s (%s)\n' "$i" "$(tail -n 1 "$work/push.times")" "$push_requests" \
    "$(tail -n 1 "$work/noop.times")" "$noop_requests" >>"$log"
  [[ $state == read ]] && state=unread || state=read
done
# After the pushes, the remote holds what the copy here holds.
if ! cmp -s "$remote/library.bib" "$home/data/bibread/remotes/editbench/library.bib"; then
  say "after the pushes the remote's library.bib is not the copy here"
  failed=1
fi
read -r push_median push_best < <(stats <"$work/push.times")
read -r noop_median noop_best < <(stats <"$work/noop.times")
push_gets=$(awk '{ print $2 }' <<<"$push_requests")
push_puts=$(awk '{ print $4 }' <<<"$push_requests")

# ---- report ----------------------------------------------------------------------------
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f×", a / b; else print "-" }'; }
holds() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }' && echo 1 || echo 0; }
echo "library: $library"
echo "         $(wc -c <"$library") bytes, $entries references; edited: $key"
echo "runs:    $runs (median, best)"
echo
printf '%-44s %9s %9s %8s\n' "" median best "÷ list"
printf '%-44s %8ss %8ss %8s\n' "bibread list --json (comparison)" "$list_median" "$list_best" "1.00×"
printf '%-44s %8ss %8ss %8s\n' "bibread mark (edit, check, write, rename)" "$mark_median" "$mark_best" "$(ratio "$mark_median" "$list_median")"
echo
printf '%-44s %9s %9s %8s\n' "" median best "÷ no-op"
printf '%-44s %8ss %8ss %8s\n' "bibread sync, no-op (comparison)" "$noop_median" "$noop_best" "1.00×"
printf '%-44s %8ss %8ss %8s\n' "bibread sync pushing one edit" "$push_median" "$push_best" "$(ratio "$push_median" "$noop_median")"
echo "requests for library.bib during the last push:    $push_requests"
echo "requests for library.bib during the last no-op:   $noop_requests"
echo
echo "in the reader (bibread-dev edit-latency: x on a reference, $((runs * 4)) times):"
echo "$screen_line"
echo
echo "goals:"
goal "an edit on disk ≤ ${goal_disk} s (median)" "$(holds "$mark_median" "$goal_disk")" "$mark_median s"
if [[ -n $screen_p99 ]]; then
  goal "an edit on screen ≤ ${goal_screen} ms (p99)" "$(holds "$screen_p99" "$goal_screen")" "$screen_p99 ms"
else
  echo "  ----  an edit on screen ≤ ${goal_screen} ms: not measured"
fi
push_ok=0
[[ ${push_gets:-9} -le 1 && ${push_puts:-0} -eq 1 ]] && push_ok=1
goal "a push of one edit: ≤ 1 GET and 1 PUT of the .bib" "$push_ok" "$push_requests"
echo "(per-run figures: $log)"
exit "$failed"
