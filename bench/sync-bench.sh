#!/usr/bin/env bash
# bibread sync against a real WebDAV server (lighttpd with mod_webdav on 127.0.0.1, started
# here on a free port) serving a library of 1,000 references, each linking one PDF (40–70 kB):
#  1. cold sync of 200 small PDFs (`--field sync`, the first 200 references have sync = {yes}),
#     fresh XDG folders every run, against curl fetching the same 200 URLs 4 at a time; and
#     each tool's fixed part: bibread with no PDF to fetch, curl fetching library.bib alone;
#  2. the same with 200 real PDFs (real/, 0.6 to 7.7 MB each, copies of ../shared/corpora/pdfs,
#     about 550 MB): where throughput, not the cost per run or per request, decides;
#  3. no-op re-sync of all 1,000 PDFs (`--all-pdfs`) once they are in the cache, with the
#     requests lighttpd logged during it.
# Goals (issue): cold sync >= 90% of curl's throughput, checked on the real PDFs; no-op re-sync
# of 1,000 PDFs <= 1 s, with no GET per file. The small PDFs are shown, not checked: 11 MB move
# in ~25 ms over loopback, less than bibread's start-up and .bib, which curl does not fetch.
#
#   bench/sync-bench.sh
#
# Environment:
#   BIBREAD     bibread binary                               (default <repo>/.build/release/bibread)
#   RUNS        runs per measurement, best wall time kept    (default 3)
#   REAL_RUNS   runs of the real-PDF measurement             (default 5: half a second each, and
#               the page cache makes single runs vary by 30%)
#   BENCH_DIR   the remote folder, XDG folders, logs         (default <repo>/.build/bench/sync)
#
# Exit status: 0 when the report was made, whatever the goals say; 1 when a measured command
# failed or fetched the wrong files (its row says FAILED); 2 when the harness cannot run (no
# bibread binary, no lighttpd or curl, lighttpd would not start, bad RUNS).
set -euo pipefail
export LC_ALL=C # '.' as decimal point in EPOCHREALTIME, printf and awk

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
bench_dir=${BENCH_DIR:-$repo/.build/bench/sync}
bibread=${BIBREAD:-$repo/.build/release/bibread}
runs=${RUNS:-3}
real_runs=${REAL_RUNS:-5}
references=1000
selected=200
parallel=4
goal_share=90   # bibread's throughput, in % of curl's
goal_noop=1.0   # seconds

say() { printf '%s\n' "$*" >&2; }
die() { say "sync-bench: $*"; exit 2; }

# ---- preconditions ----------------------------------------------------------
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer, not '$runs'"
[[ $real_runs =~ ^[1-9][0-9]*$ ]] || die "REAL_RUNS must be a positive integer, not '$real_runs'"
if ! [[ -x $bibread ]]; then
  say "sync-bench: no bibread binary at $bibread"
  say "  build it first:  make release   (or set BIBREAD=/path/to/bibread)"
  exit 2
fi
bibread=$(cd "$(dirname "$bibread")" && pwd)/$(basename "$bibread")
lighttpd=$(command -v lighttpd || true)
[[ -z $lighttpd && -x /usr/sbin/lighttpd ]] && lighttpd=/usr/sbin/lighttpd
[[ -n $lighttpd ]] || die "needs lighttpd with mod_webdav: apt-get install lighttpd lighttpd-mod-webdav"
command -v curl >/dev/null || die "needs curl: apt-get install curl"
curl --help all 2>/dev/null | grep -q -- '--parallel-max' || die "needs curl 7.66 or later (--parallel-max)"
"$bibread" sync --help >/dev/null 2>&1 || die "$bibread has no sync command"
samples=()
for pdf in "$repo"/Samples/papers/*.pdf; do [[ -f $pdf ]] && samples+=("$pdf"); done
((${#samples[@]})) || die "no PDFs in $repo/Samples/papers (make samples)"

mkdir -p "$bench_dir"
bench_dir=$(cd "$bench_dir" && pwd)
remote=$bench_dir/remote
corpus_pdfs=$(cd "$repo/.." && pwd)/shared/corpora/pdfs
log=$bench_dir/sync-bench.log
: >"$log"
load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)

# ---- the remote folder --------------------------------------------------------
# library.bib: references p0001..p1000, the first $selected with sync = {yes}; each links
# papers/pNNNN.pdf, a copy of one of the sample PDFs (round robin).
remote_is_complete() {
  [[ -f $remote/library.bib && -d $remote/papers ]] || return 1
  local pdfs entries marked
  pdfs=$(find "$remote/papers" -maxdepth 1 -name 'p*.pdf' -type f | wc -l)
  entries=$(grep -c '^@misc{' "$remote/library.bib" || true)
  marked=$(grep -c '^  sync = {yes},$' "$remote/library.bib" || true)
  ((pdfs == references && entries == references && marked == selected))
}
if remote_is_complete; then
  say "remote: reusing $remote"
else
  say "remote: building $remote ($references references, $references PDFs) ..."
  rm -rf "$remote" "$remote.tmp"
  mkdir -p "$remote.tmp/papers"
  {
    echo "% bibread sync benchmark: $references references, each linking one PDF; the first $selected have sync = {yes}."
    for ((i = 1; i <= references; i++)); do
      printf -v id 'p%04d' "$i"
      cp "${samples[(i - 1) % ${#samples[@]}]}" "$remote.tmp/papers/$id.pdf"
      printf '\n@misc{%s,\n  author = {Bench, Author %d and Other, Writer},\n  title = {Benchmark paper number %d},\n  year = {%d},\n' \
        "$id" "$i" "$i" $((1990 + i % 35))
      ((i <= selected)) && printf '  sync = {yes},\n'
      printf '  file = {:papers/%s.pdf:PDF},\n}\n' "$id"
    done
  } >"$remote.tmp/library.bib"
  mv "$remote.tmp" "$remote"
  remote_is_complete || die "could not build $remote"
fi
bytes_of() { # FILE... : total size in bytes
  stat -c %s "$@" | awk '{ s += $1 } END { print s + 0 }'
}
# real/library.bib: references r0001..r0200, all with sync = {yes}, each linking
# real/papers/rNNNN.pdf, a copy of one of the real PDFs of the corpora (round robin).
real=$remote/real
real_pdfs=()
for pdf in "$corpus_pdfs"/*.pdf; do [[ -f $pdf ]] && real_pdfs+=("$pdf"); done
real_is_complete() {
  [[ -f $real/library.bib && -d $real/papers ]] || return 1
  local pdfs
  pdfs=$(find "$real/papers" -maxdepth 1 -name 'r*.pdf' -type f | wc -l)
  ((pdfs == selected)) && [[ $(grep -c '^@misc{' "$real/library.bib") == "$selected" ]]
}
if ((${#real_pdfs[@]})) && ! real_is_complete; then
  say "remote: building $real ($selected references, $selected real PDFs) ..."
  rm -rf "$real" "$real.tmp"
  mkdir -p "$real.tmp/papers"
  {
    echo "% bibread sync benchmark: $selected references, each linking a copy of a real PDF."
    for ((i = 1; i <= selected; i++)); do
      printf -v id 'r%04d' "$i"
      cp "${real_pdfs[(i - 1) % ${#real_pdfs[@]}]}" "$real.tmp/papers/$id.pdf"
      printf '\n@misc{%s,\n  author = {Bench, Author %d},\n  title = {Real paper number %d},\n  year = {2020},\n  sync = {yes},\n  file = {:papers/%s.pdf:PDF},\n}\n' \
        "$id" "$i" "$i" "$id"
    done
  } >"$real.tmp/library.bib"
  mv "$real.tmp" "$real"
  real_is_complete || die "could not build $real"
fi
real_bytes=0
if real_is_complete; then
  real_bytes=$(bytes_of "$real"/papers/r*.pdf)
  cat "$real"/papers/*.pdf >/dev/null
fi
bib_bytes=$(stat -c %s "$remote/library.bib")
selected_files=()
for ((i = 1; i <= selected; i++)); do printf -v id 'p%04d' "$i"; selected_files+=("$remote/papers/$id.pdf"); done
selected_bytes=$(bytes_of "${selected_files[@]}")
all_bytes=$(bytes_of "$remote"/papers/p*.pdf)
cat "$remote/library.bib" "$remote"/papers/*.pdf >/dev/null # warm the page cache: lighttpd serves from memory

# ---- lighttpd -------------------------------------------------------------------
server=$bench_dir/server
work=$bench_dir/work
rm -rf "$server" "$work"
mkdir -p "$server" "$work"
access_log=$server/access.log
server_log=$server/server.log
lighttpd_pid=
cleanup() {
  if [[ -n $lighttpd_pid ]]; then
    kill "$lighttpd_pid" 2>/dev/null || true
    wait "$lighttpd_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

port_is_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
write_config() { # PORT
  cat >"$server/lighttpd.conf" <<EOF
server.document-root = "$remote"
server.bind = "127.0.0.1"
server.port = $1
server.errorlog = "$server_log"
server.upload-dirs = ( "$server" )
server.stat-cache-engine = "disable"
server.tag = "lighttpd"
server.modules = ( "mod_accesslog", "mod_webdav" )
index-file.names = ( )
# A pipe, not a file: lighttpd buffers a log file for up to a second, a pipe it writes at once.
accesslog.filename = "|exec /bin/cat >> '$access_log'"
accesslog.format = "%m %U %>s"
# With a MIME type, GET answers carry ETag and Last-Modified.
mimetype.assign = ( ".bib" => "text/x-bibtex; charset=utf-8", ".pdf" => "application/pdf", "" => "application/octet-stream" )
webdav.activate = "enable"
webdav.is-readonly = "enable"
EOF
}
port=
for _ in 1 2 3 4 5; do
  candidate=$((20000 + RANDOM % 40000))
  port_is_taken "$candidate" && continue
  write_config "$candidate"
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
  grep -q "Address already in use" "$server_log" || { tail -n 5 "$server_log" >&2; die "lighttpd did not start (config: $server/lighttpd.conf)"; }
done
[[ -n $port ]] || die "lighttpd found no free port"
url="http://127.0.0.1:$port/"
probe=$(curl -sS -o /dev/null -w '%{http_code}' -X PROPFIND -H 'Depth: 1' "$url" || true)
[[ $probe == 207 ]] || die "lighttpd at $url answers PROPFIND with '$probe', not 207: is mod_webdav installed (apt-get install lighttpd-mod-webdav)?"

# Requests logged so far, once the log has settled (a request is logged when it ends).
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
# The requests after line N, by method: "PROPFIND 2, GET 0".
requests_since() { # N
  tail -n "+$(($1 + 1))" "$access_log" | awk '{ n[$1]++; t++ }
    END { printf "%d requests:", t; for (m in n) printf " %s %d", m, n[m]; if (!("GET" in n)) printf " GET 0"; print "" }'
}

# ---- measuring --------------------------------------------------------------
declare -A wall status files requests detail gets
seconds_between() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", b - a }'; }
s3() { printf '%.3f' "$1"; } # seconds, as shown
keep_best() { # ID WALL REQUESTS: keeps WALL (and the requests of that run) when it is the best so far
  if [[ -z ${wall[$1]:-} ]] || awk -v a="$2" -v b="${wall[$1]}" 'BEGIN { exit !(a < b) }'; then
    wall[$1]=$2
    requests[$1]=$3
  fi
}
fail() { # ID RUN WHY OUTPUT_FILE
  status[$1]="FAILED ($3)"
  printf '%s run %d: %s\n' "$1" "$2" "$3" >>"$log"
  if [[ -f $4 ]]; then tail -n 5 "$4" >>"$log"; fi
}

# Every cold run writes into a folder of its own. The folders of the runs of small PDFs are
# removed only once all those runs are done: ext4 without a journal (as on these machines)
# passes over the inodes freed in the last seconds when it allocates new ones, so a run that
# started right after the previous run's 200 files were deleted would pay for that deletion,
# one scan per file it creates (up to 0.05 s for 200 files, more for whichever tool's folder
# sits among more freed inodes). Real PDFs are few and large: their folders go after each run.
remove_after_run=0

# fresh_home DIR: empty XDG folders (and HOME) for a cold bibread run.
fresh_home() {
  rm -rf "$1"
  mkdir -p "$1"/{data,cache,config,state}
}
run_bibread() { # HOME_DIR OUTPUT_FILE ARGS... : runs bibread in HOME_DIR's XDG folders, sets $rc
  local home=$1 out=$2
  shift 2
  rc=0
  HOME=$home XDG_DATA_HOME=$home/data XDG_CACHE_HOME=$home/cache XDG_CONFIG_HOME=$home/config \
    XDG_STATE_HOME=$home/state "$bibread" "$@" >"$out" 2>&1 || rc=$?
}
cached_pdfs() { find "$1/cache" -name '*.pdf' -type f 2>/dev/null; }

# One cold run of bibread sync with SELECTION...; ID collects the best wall time.
# EXPECT_FILES EXPECT_BYTES: what the cache must hold afterwards (0 0: nothing checked).
cold_bibread() { # ID RUN EXPECT_FILES EXPECT_BYTES ARGS...
  local id=$1 i=$2 want_files=$3 want_bytes=$4
  shift 4
  local home=$work/$id-$i out=$bench_dir/$id.out t0 t1 w n b l0 r
  fresh_home "$home"
  sync
  l0=$(requests_logged)
  t0=$EPOCHREALTIME
  run_bibread "$home" "$out" sync "${sync_url:-$url}" "$@"
  t1=$EPOCHREALTIME
  w=$(seconds_between "$t0" "$t1")
  r=$(requests_since "$l0")
  if ((rc != 0)); then fail "$id" "$i" "exit $rc" "$out"; return 0; fi
  n=$(cached_pdfs "$home" | wc -l)
  b=$(cached_pdfs "$home" | xargs -r stat -c %s | awk '{ s += $1 } END { print s + 0 }')
  if ((remove_after_run)); then rm -rf "$home"; fi
  printf '%s run %d: wall %s s, %d PDFs, %d bytes, %s\n' "$id" "$i" "$w" "$n" "$b" "$r" >>"$log"
  if ((want_files > 0)) && ((n != want_files || b != want_bytes)); then
    fail "$id" "$i" "cached $n PDFs, $b bytes; expected $want_files, $want_bytes" "$out"
    return 0
  fi
  files[$id]=$n
  keep_best "$id" "$w" "${r%% requests*}"
}

# One run of curl fetching library.bib alone into a fresh folder: its start-up and one request,
# the part of curl's time that does not grow with the files fetched (ID curlone).
curl_alone() { # RUN
  local i=$1 dir=$work/curlone-$1 out=$bench_dir/curlone.out t0 t1 w l0 r
  rm -rf "$dir"
  mkdir -p "$dir"
  sync
  l0=$(requests_logged)
  rc=0
  t0=$EPOCHREALTIME
  curl -sS --fail -o "$dir/library.bib" "${url}library.bib" >"$out" 2>&1 || rc=$?
  t1=$EPOCHREALTIME
  w=$(seconds_between "$t0" "$t1")
  r=$(requests_since "$l0")
  if ((rc != 0)); then fail curlone "$i" "exit $rc" "$out"; return 0; fi
  printf 'curlone run %d: wall %s s, %s\n' "$i" "$w" "$r" >>"$log"
  if [[ $(stat -c %s "$dir/library.bib") != "$bib_bytes" ]]; then
    fail curlone "$i" "fetched $(stat -c %s "$dir/library.bib") bytes of library.bib; expected $bib_bytes" "$out"
    return 0
  fi
  files[curlone]=0
  keep_best curlone "$w" "${r%% requests*}"
}

# One run of curl fetching the selected PDFs into a fresh folder, $parallel at a time.
cold_curl() { # ID RUN BASE_URL PREFIX EXPECT_BYTES : PREFIX p or r, files PREFIX0001.pdf ...
  local id=$1 i=$2 base=$3 prefix=$4 want_bytes=$5 dir=$work/$1-$2 out=$bench_dir/$1.out t0 t1 w n b l0 r
  rm -rf "$dir"
  mkdir -p "$dir/files"
  for ((k = 1; k <= selected; k++)); do
    printf -v name '%s%04d.pdf' "$prefix" "$k"
    printf 'url = "%spapers/%s"\noutput = "%s/files/%s"\n' "$base" "$name" "$dir" "$name"
  done >"$dir/urls.curl"
  sync
  l0=$(requests_logged)
  rc=0
  t0=$EPOCHREALTIME
  curl --parallel --parallel-max "$parallel" -sS --fail -K "$dir/urls.curl" >"$out" 2>&1 || rc=$?
  t1=$EPOCHREALTIME
  w=$(seconds_between "$t0" "$t1")
  r=$(requests_since "$l0")
  if ((rc != 0)); then fail "$id" "$i" "exit $rc" "$out"; return 0; fi
  n=$(find "$dir/files" -type f | wc -l)
  b=$(find "$dir/files" -type f -print0 | xargs -0 -r stat -c %s | awk '{ s += $1 } END { print s + 0 }')
  printf '%s run %d: wall %s s, %d files, %d bytes, %s\n' "$id" "$i" "$w" "$n" "$b" "$r" >>"$log"
  if ((remove_after_run)); then rm -rf "$dir"; fi
  if ((n != selected || b != want_bytes)); then
    fail "$id" "$i" "fetched $n files, $b bytes; expected $selected, $want_bytes" "$out"
    return 0
  fi
  files[$id]=$n
  keep_best "$id" "$w" "${r%% requests*}"
}

say "bibread: $bibread"
say "lighttpd: $url (serving $remote)"

# 1. Cold sync of $selected PDFs, curl and bibread taking turns; and bibread with no PDFs at all
#    (the .bib and the root listing only), to show what that part costs.
#    And curl fetching library.bib alone: its start-up and one request.
for id in curl curlone cold200 bibonly; do status[$id]=ok; done
for ((i = 1; i <= runs; i++)); do
  say "  cold sync of $selected PDFs: run $i/$runs"
  if [[ ${status[curl]} == ok ]]; then cold_curl curl "$i" "$url" p "$selected_bytes"; fi
  if [[ ${status[cold200]} == ok ]]; then cold_bibread cold200 "$i" "$selected" "$selected_bytes" --field sync --parallel "$parallel"; fi
  if [[ ${status[bibonly]} == ok ]]; then cold_bibread bibonly "$i" 0 0; fi
  if [[ ${status[curlone]} == ok ]]; then curl_alone "$i"; fi
done
rm -rf "$work"/curl-* "$work"/curlone-* "$work"/cold200-* "$work"/bibonly-*
remove_after_run=1

# 2. The same with real PDFs (real/): curl and bibread taking turns.
if ((real_bytes > 0)); then
  for id in curlreal coldreal; do status[$id]=ok; done
  for ((i = 1; i <= real_runs; i++)); do
    say "  cold sync of $selected real PDFs: run $i/$real_runs"
    if [[ ${status[curlreal]} == ok ]]; then cold_curl curlreal "$i" "${url}real/" r "$real_bytes"; fi
    if [[ ${status[coldreal]} == ok ]]; then
      sync_url=${url}real/ cold_bibread coldreal "$i" "$selected" "$real_bytes" --field sync --parallel "$parallel"
    fi
  done
else
  for id in curlreal coldreal; do status[$id]="not run (no PDFs in $corpus_pdfs)"; done
fi

# 3. No-op re-sync of all $references PDFs: one cold sync of them all, then again and again.
status[coldall]=ok
status[noop]=ok
say "  cold sync of all $references PDFs"
remove_after_run=0
cold_bibread coldall 1 "$references" "$all_bytes" --all-pdfs --parallel "$parallel"
noop_home=$work/coldall-1
if [[ ${status[coldall]} == ok ]]; then
  for ((i = 1; i <= runs; i++)); do
    say "  no-op re-sync of $references PDFs: run $i/$runs"
    out=$bench_dir/noop.out
    l0=$(requests_logged)
    t0=$EPOCHREALTIME
    run_bibread "$noop_home" "$out" sync "$url" --all-pdfs --parallel "$parallel"
    t1=$EPOCHREALTIME
    w=$(seconds_between "$t0" "$t1")
    d=$(requests_since "$l0")
    printf 'noop run %d: wall %s s, %s\n' "$i" "$w" "$d" >>"$log"
    if ((rc != 0)); then fail noop "$i" "exit $rc" "$out"; break; fi
    if [[ -z ${wall[noop]:-} ]] || awk -v a="$w" -v b="${wall[noop]}" 'BEGIN { exit !(a < b) }'; then
      wall[noop]=$w
      detail[noop]=$d
      requests[noop]=${d%% requests*}
      gets[noop]=$(sed -n 's/.* GET \([0-9]*\).*/\1/p' <<<"$d")
    fi
  done
else
  status[noop]="not run (the cold sync of all PDFs failed)"
fi

# ---- report -----------------------------------------------------------------
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
rate() { awk -v b="$1" -v w="$2" 'BEGIN { printf "%.1f", b / 1e6 / w }'; }
row() { # LABEL ID BYTES
  local label=$1 id=$2 bytes=$3
  if [[ ${status[$id]} != ok || -z ${wall[$id]:-} ]]; then
    printf '%-40s %s\n' "$label" "${status[$id]}"
    return
  fi
  printf '%-40s %8.3f %8s %8s %9s %9s\n' "$label" "${wall[$id]}" "$(mb "$bytes")" "$(rate "$bytes" "${wall[$id]}")" \
    "${files[$id]:--}" "${requests[$id]:--}"
}

echo
echo "== sync: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, best of $runs runs"
echo "bibread:  $bibread"
echo "server:   $("$lighttpd" -v 2>&1 | head -n 1 | sed 's/ - .*//') with mod_webdav at $url"
echo "curl:     $(curl --version | head -n 1 | cut -d' ' -f1-2)"
echo "remote:   $references references, $references PDFs ($(mb "$all_bytes") MB), library.bib $(mb "$bib_bytes") MB"
echo "load:     $load_before (1, 5, 15 min load average before the runs; other work skews the figures)"
echo
printf '%-40s %8s %8s %8s %9s %9s\n' "cold sync, $selected small PDFs" "wall s" "MB" "MB/s" "PDFs" "requests"
printf '%s\n' "-----------------------------------------------------------------------------------------"
row "curl -Z --parallel-max $parallel" curl "$selected_bytes"
row "  (curl, library.bib alone)" curlone 0
row "bibread sync --field sync --parallel $parallel" cold200 "$selected_bytes"
row "  (bibread sync, .bib only, no PDFs)" bibonly 0
echo
printf '%-40s %8s %8s %8s %9s %9s\n' "cold sync, $selected real PDFs (best of $real_runs)" "wall s" "MB" "MB/s" "PDFs" "requests"
printf '%s\n' "-----------------------------------------------------------------------------------------"
row "curl -Z --parallel-max $parallel" curlreal "$real_bytes"
row "bibread sync --field sync --parallel $parallel" coldreal "$real_bytes"
echo
printf '%-40s %8s %8s %8s %9s %9s\n' "re-sync, $references PDFs" "wall s" "MB" "MB/s" "PDFs" "requests"
printf '%s\n' "-----------------------------------------------------------------------------------------"
row "bibread sync --all-pdfs, cold (once)" coldall "$all_bytes"
if [[ ${status[noop]} == ok && -n ${wall[noop]:-} ]]; then
  printf '%-40s %8.3f %8s %8s %9s %9s\n' "bibread sync --all-pdfs, no-op" "${wall[noop]}" 0.0 - "$references" "${requests[noop]}"
else
  printf '%-40s %s\n' "bibread sync --all-pdfs, no-op" "${status[noop]}"
fi
echo
echo "wall s: best wall time of the runs (bash \$EPOCHREALTIME around the command), every bibread run a"
echo "new process with empty XDG folders (cold) except the no-op, which reuses the cold --all-pdfs cache;"
echo "MB: the PDFs' bytes (10^6); MB/s: MB / wall s. bibread's time also covers start-up, downloading and"
echo "parsing library.bib ($(mb "$bib_bytes") MB), a PROPFIND of the root and one of papers/, and writing its"
echo "cache manifest; curl only GETs the $selected PDFs. Real PDFs: $selected copies of the $(( ${#real_pdfs[@]} )) PDFs of"
echo "$corpus_pdfs, round robin. PDFs: files in the cache (or curl's folder) afterwards,"
echo "checked against the remote; requests: what lighttpd logged during the best run (the no-op: by method below)."

goal() { # NAME OK(1/0) SHOWN
  local verdict=MISS
  [[ $2 == 1 ]] && verdict=PASS
  printf '  %s  %s: %s\n' "$verdict" "$1" "$3"
}
echo
echo "goal: cold sync of $selected real PDFs >= ${goal_share}% of curl's throughput; no-op re-sync of $references PDFs <= ${goal_noop} s,"
echo "      no GET per file. (The small PDFs are shown, not a goal: for 11 MB in all, start-up and the .bib,"
echo "      which curl does not fetch, weigh more than the transfer. See bench/README.md.)"
failed=0
if [[ ${status[curlreal]} == ok && ${status[coldreal]} == ok ]]; then
  share=$(awk -v c="${wall[curlreal]}" -v b="${wall[coldreal]}" 'BEGIN { printf "%.0f", 100 * c / b }')
  ok=$(awk -v s="$share" -v g="$goal_share" 'BEGIN { print (s >= g) ? 1 : 0 }')
  goal "cold sync of $selected real PDFs >= ${goal_share}% of curl" "$ok" \
    "${share}% ($(rate "$real_bytes" "${wall[coldreal]}") MB/s in $(s3 "${wall[coldreal]}") s vs curl's $(rate "$real_bytes" "${wall[curlreal]}") MB/s in $(s3 "${wall[curlreal]}") s)"
else
  goal "cold sync of $selected real PDFs >= ${goal_share}% of curl" 0 "curl ${status[curlreal]}, bibread ${status[coldreal]}"
  [[ ${status[curlreal]} == "not run"* ]] || failed=1
fi
# The small PDFs: shown, not a goal. With 11 MB in all, each tool's fixed part decides.
if [[ ${status[curl]} == ok && ${status[cold200]} == ok ]]; then
  share=$(awk -v c="${wall[curl]}" -v b="${wall[cold200]}" 'BEGIN { printf "%.0f", 100 * c / b }')
  printf '  ----  %d small PDFs (%s MB): %s%% of curl (%s MB/s in %s s vs curl'"'"'s %s MB/s in %s s)\n' \
    "$selected" "$(mb "$selected_bytes")" "$share" "$(rate "$selected_bytes" "${wall[cold200]}")" "$(s3 "${wall[cold200]}")" \
    "$(rate "$selected_bytes" "${wall[curl]}")" "$(s3 "${wall[curl]}")"
  if [[ ${status[bibonly]} == ok && ${status[curlone]} == ok ]]; then
    rest=$(awk -v b="${wall[cold200]}" -v o="${wall[bibonly]}" 'BEGIN { printf "%.4f", b - o }')
    curl_rest=$(awk -v b="${wall[curl]}" -v o="${wall[curlone]}" 'BEGIN { printf "%.4f", b - o }')
    printf '        each run'"'"'s fixed part: bibread %s s (start-up, the root listing, library.bib), curl %s s\n' \
      "$(s3 "${wall[bibonly]}")" "$(s3 "${wall[curlone]}")"
    printf '        (start-up, one GET); the rest: bibread %s s (listing papers/, fetching and recording the\n' "$(s3 "$rest")"
    printf '        PDFs), curl %s s: %s%% of curl\n' "$(s3 "$curl_rest")" \
      "$(awk -v c="$curl_rest" -v b="$rest" 'BEGIN { if (b > 0) printf "%.0f", 100 * c / b; else printf "-" }')"
  fi
else
  printf '  ----  %d small PDFs: curl %s, bibread %s\n' "$selected" "${status[curl]}" "${status[cold200]}"
  failed=1
fi
[[ ${status[curlone]} == ok ]] || failed=1
[[ ${status[bibonly]} == ok ]] || failed=1
if [[ ${status[noop]} == ok && -n ${wall[noop]:-} ]]; then
  ok=$(awk -v w="${wall[noop]}" -v g="$goal_noop" -v n="${gets[noop]:-0}" 'BEGIN { print (w <= g && n == 0) ? 1 : 0 }')
  goal "no-op re-sync of $references PDFs <= ${goal_noop} s, no GET" "$ok" "$(s3 "${wall[noop]}") s, ${detail[noop]}"
  if [[ ${status[coldall]} == ok ]]; then
    printf '  ----  the cold sync of all %d PDFs before it: %s s, %s MB/s\n' "$references" "$(s3 "${wall[coldall]}")" "$(rate "$all_bytes" "${wall[coldall]}")"
  fi
else
  goal "no-op re-sync of $references PDFs <= ${goal_noop} s, no GET" 0 "${status[noop]}; cold --all-pdfs: ${status[coldall]}"
  failed=1
fi
echo "(per-run figures: $log; lighttpd's logs: $server)"
exit $failed
