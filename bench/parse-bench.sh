#!/usr/bin/env bash
# Benchmark bibread's BibTeX parsing against Text::BibTeX (C btparse) and python
# bibtexparser 2 on the ~26 MB library that ../shared/corpora/make-bench-corpus.sh
# builds, plus bibread alone on beebe/tugboat.bib. Prints a table and the goals.
#
#   bench/parse-bench.sh                 # or: make bench
#
# Environment:
#   BIBREAD            bibread binary        (default <repo>/.build/release/bibread)
#   RUNS               runs per tool, best wall time kept (default 3)
#   BENCH_DIR          corpus, venv, logs    (default <repo>/.build/bench)
#   BIBREAD_CORPORA    the corpora folder    (default <repo>/../shared/corpora)
#   PYTHON             python for the venv   (default python3)
#   SKIP_BIBTEXPARSER  1: leave bibtexparser out (it takes 8 to 12 s a run)
#
# Exit status: 0 when the report was made, whatever the goals say; 1 when a
# measured command failed (its row says FAILED); 2 when the harness cannot run
# (no bibread binary, no GNU time, no corpora, bad RUNS).
set -euo pipefail
export LC_ALL=C # '.' as decimal point in EPOCHREALTIME, printf and awk

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
corpora=${BIBREAD_CORPORA:-$repo/../shared/corpora}
bench_dir=${BENCH_DIR:-$repo/.build/bench}
bibread=${BIBREAD:-$repo/.build/release/bibread}
runs=${RUNS:-3}
python=${PYTHON:-python3}
venv=$bench_dir/venv
gnu_time=/usr/bin/time

# Goals (bibread on the big library, and on tugboat.bib).
goal_wall=0.30 goal_rss_mb=120 goal_speedup=4 goal_tugboat_ms=50

say() { printf '%s\n' "$*" >&2; }
die() { say "parse-bench: $*"; exit 2; }
# shellcheck source=bench/common.sh
source "$here/common.sh"

# ---- preconditions ----------------------------------------------------------
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer, not '$runs'"
if ! [[ -x $gnu_time ]] || ! "$gnu_time" --version 2>&1 | grep -q 'GNU'; then
  die "needs GNU time at $gnu_time: apt-get install time"
fi
if ! [[ -x $bibread ]]; then
  say "parse-bench: no bibread binary at $bibread"
  say "  build it first:  make release   (or set BIBREAD=/path/to/bibread)"
  exit 2
fi
bibread=$(cd "$(dirname "$bibread")" && pwd)/$(basename "$bibread")
make_corpus=$corpora/make-bench-corpus.sh
tugboat=$corpora/bib/beebe/tugboat.bib
[[ -f $make_corpus ]] || die "no $make_corpus (set BIBREAD_CORPORA to the corpora folder)"
[[ -f $tugboat ]] || die "no $tugboat"

mkdir -p "$bench_dir"
bench_dir=$(cd "$bench_dir" && pwd)
log=$bench_dir/parse-bench.log
: >"$log"

# ---- the corpus -------------------------------------------------------------
bench_corpus "$bench_dir" "$make_corpus" "$log"
big_bytes=$(wc -c <"$big")
# Count @-blocks the way make-bench-corpus.sh does, split into entries and the rest.
read -r blocks corpus_entries < <(grep -oiE '^[[:space:]]*@[a-z]+[[:space:]]*[{(]' "$big" |
  awk '{ t = tolower($0); gsub(/[^a-z]/, "", t); n++; if (t != "string" && t != "comment" && t != "preamble") e++ }
       END { print n + 0, e + 0 }')
tug_bytes=$(wc -c <"$tugboat")
cat "$big" "$tugboat" >/dev/null # warm the page cache
load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)

# ---- measuring --------------------------------------------------------------
declare -A wall rss status counts errfile
# measure ID STDOUT_FILE CMD... : run CMD $runs times, keep the best wall time and
# the peak RSS of that run. Peak RSS is GNU time's %M. Wall time is taken around
# the whole /usr/bin/time call with $EPOCHREALTIME (µs resolution; GNU time's %e
# has only 10 ms, too coarse for the 50 ms goal), so it includes the ~2 ms that
# time itself takes to fork and exec. stderr goes to /dev/null (btparse prints
# thousands of warnings on this corpus); a failing command is run once more to
# keep its stderr for the report.
measure() {
  local id=$1 out=$2
  shift 2
  local tf=$bench_dir/$id.time err=$bench_dir/$id.stderr i rc t0 t1 w e m u k
  errfile[$id]=$err
  status[$id]=ok
  for ((i = 1; i <= runs; i++)); do
    say "  $id: run $i/$runs"
    rc=0
    t0=$EPOCHREALTIME
    "$gnu_time" -f '%e %M %U %S' -o "$tf" "$@" >"$out" 2>/dev/null || rc=$?
    t1=$EPOCHREALTIME
    if ((rc != 0)); then
      status[$id]="FAILED (exit $rc)"
      printf '%s run %d: exit %d: %s\n' "$id" "$i" "$rc" "$*" >>"$log"
      "$@" >/dev/null 2>"$err" || true # once more, to keep its stderr
      return 0
    fi
    read -r e m u k < <(tail -n 1 "$tf")
    w=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
    printf '%s run %d: wall %s s (time: %%e %s s, user %s s, sys %s s), peak RSS %s KiB\n' \
      "$id" "$i" "$w" "$e" "$u" "$k" "$m" >>"$log"
    if [[ -z ${wall[$id]:-} ]] || awk -v a="$w" -v b="${wall[$id]}" 'BEGIN { exit !(a < b) }'; then
      wall[$id]=$w
      rss[$id]=$m
    fi
  done
  counts[$id]=$(tail -n 1 "$out" 2>/dev/null || true)
}

# key=value from a counts line: count ID KEY
count() { sed -n "s/.*\\b$2=\\([0-9]*\\).*/\\1/p" <<<"${counts[$1]:-}"; }

say "bibread: $bibread"
measure bibread /dev/null "$bibread" list "$big" --json
measure bibread-tugboat /dev/null "$bibread" list "$tugboat" --json

# bibread's entry counts (untimed): one more run each, its JSON counted by python.
bibread_count() {
  local id=$1 file=$2 json=$bench_dir/bibread-list.json n
  [[ ${status[$id]} == ok ]] || return 0
  if "$bibread" list "$file" --json >"$json" 2>/dev/null; then
    n=$("$python" - "$json" <<'EOF' 2>/dev/null || true
import json, sys
with open(sys.argv[1], encoding="utf-8") as f:
    text = f.read()
try:
    doc = json.loads(text)
except ValueError:  # JSON Lines?
    doc = [json.loads(l) for l in text.splitlines() if l.strip()]
if isinstance(doc, dict):
    doc = next((v for k, v in doc.items() if k in ("entries", "items") and isinstance(v, list)), None)
print(len(doc) if isinstance(doc, list) else "")
EOF
)
    if [[ -n $n ]]; then counts[$id]="entries=$n"; else counts[$id]="output is not a JSON list of entries, entry count unknown"; fi
  fi
  rm -f "$json"
}
bibread_count bibread "$big"
bibread_count bibread-tugboat "$tugboat"

tb_version=
if perl -MText::BibTeX -e 1 2>/dev/null; then
  tb_version=$(perl -MText::BibTeX -e 'print $Text::BibTeX::VERSION')
  say "Text::BibTeX $tb_version"
  tb_out=$bench_dir/textbibtex.out
  measure textbibtex "$tb_out" perl "$here/textbibtex-parse.pl" "$big"
  measure textbibtex-tugboat "$bench_dir/textbibtex-tugboat.out" perl "$here/textbibtex-parse.pl" "$tugboat"
else
  status[textbibtex]="not available (apt-get install libtext-bibtex-perl)"
  status[textbibtex-tugboat]=${status[textbibtex]}
fi

bp_version=2.1.0
setup_bibtexparser() {
  local py=$venv/bin/python
  if [[ -x $py ]] && "$py" -c 'import importlib.metadata as m, sys; sys.exit(m.version("bibtexparser") != "2.1.0")' 2>/dev/null; then
    return 0
  fi
  say "bibtexparser: installing bibtexparser==$bp_version into $venv ..."
  { [[ -x $py ]] || "$python" -m venv "$venv"; } >>"$log" 2>&1 || return 1
  "$py" -m pip install --disable-pip-version-check -q --retries 1 --timeout 20 \
    "bibtexparser==$bp_version" >>"$log" 2>&1
}
if [[ ${SKIP_BIBTEXPARSER:-0} == 1 ]]; then
  status[bibtexparser]="skipped (SKIP_BIBTEXPARSER=1)"
elif setup_bibtexparser; then
  say "bibtexparser $bp_version"
  measure bibtexparser "$bench_dir/bibtexparser.out" "$venv/bin/python" "$here/bibtexparser-parse.py" "$big"
else
  status[bibtexparser]="not available"
  say "bibtexparser: install failed, see $log"
fi

# ---- report -----------------------------------------------------------------
# row ID LABEL SIZE_BYTES REF_ID
row() {
  local id=$1 label=$2 size=$3 ref=$4 n
  if [[ ${status[$id]:-} != ok ]]; then
    printf '%-26s  %s\n' "$label" "${status[$id]:-not run}"
    return
  fi
  n=$(count "$id" entries)
  awk -v label="$label" -v w="${wall[$id]}" -v kb="${rss[$id]}" -v size="$size" -v n="$n" \
    -v ref="${wall[$ref]:-}" -v refok="$([[ ${status[$ref]:-} == ok ]] && echo 1)" '
    function group(x,   s) { s = sprintf("%d", x); while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]([,]|$)/, ",&", s); return s }
    BEGIN {
      printf "%-26s %8.3f %7.1f %8.1f %9s %11s %8s\n", label, w, size / 1e6 / w, kb * 1024 / 1e6,
        (n == "" ? "?" : group(n)), (n == "" ? "?" : group(n / w)),
        (refok ? sprintf("%7.2f×", ref / w) : "       -")
    }'
}
header() {
  printf '%-26s %8s %7s %8s %9s %11s %8s\n' "$1" "wall s" "MB/s" "RSS MB" "entries" "entries/s" "vs T::B"
  printf '%s\n' "------------------------------------------------------------------------------------"
}

mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
echo
echo "== bibread parse benchmark: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, best of $runs runs"
echo "corpus:  $big"
echo "         $(mb "$big_bytes") ($big_bytes bytes), $blocks @-blocks, $corpus_entries of them entries"
echo "bibread: $bibread"
echo "load:    $load_before (1, 5, 15 min load average before the runs; other work skews the figures)"
echo
header "$(mb "$big_bytes") library"
row bibread "bibread list --json" "$big_bytes" textbibtex
row textbibtex "Text::BibTeX ${tb_version:-}" "$big_bytes" textbibtex
row bibtexparser "bibtexparser $bp_version" "$big_bytes" textbibtex
echo
header "tugboat.bib, $(mb "$tug_bytes")"
row bibread-tugboat "bibread list --json" "$tug_bytes" textbibtex-tugboat
row textbibtex-tugboat "Text::BibTeX ${tb_version:-}" "$tug_bytes" textbibtex-tugboat
echo
echo "wall s: best wall time of the runs; MB/s: file size / wall (MB = 10^6 bytes);"
echo "RSS MB: peak resident memory of that run; entries: regular entries the tool reports;"
echo "vs T::B: Text::BibTeX's wall time / this tool's (above 1 = faster than Text::BibTeX)."
notes=()
for id in bibread textbibtex bibtexparser; do
  if [[ ${status[$id]:-} == ok ]]; then notes+=("$id: ${counts[$id]:-entry count unknown}"); fi
done
for id in bibread bibread-tugboat textbibtex textbibtex-tugboat bibtexparser; do
  if [[ ${status[$id]:-} == FAILED* ]]; then
    notes+=("$id ${status[$id]}, last lines of its stderr (${errfile[$id]}):")
    while IFS= read -r l; do notes+=("    $l"); done < <(tail -n 5 "${errfile[$id]}" | cut -c1-150)
  fi
done
if ((${#notes[@]})); then
  echo
  printf 'note: %s\n' "${notes[0]}"
  ((${#notes[@]} == 1)) || printf '      %s\n' "${notes[@]:1}"
fi

# goal NAME OK(1/0/"") SHOWN
goal() {
  local verdict=MISS
  if [[ $2 == 1 ]]; then verdict=PASS; elif [[ -z $2 ]]; then verdict="n/a "; fi
  printf '  %s  %s: %s\n' "$verdict" "$1" "$3"
}
holds() { awk -v a="$1" -v b="$2" "BEGIN { exit !(a $3 b) }" && echo 1 || echo 0; }
echo
echo "goal: bibread ≤ $goal_wall s, ≤ $goal_rss_mb MB, ≥ ${goal_speedup}× faster than Text::BibTeX; tugboat.bib ≤ $goal_tugboat_ms ms"
if [[ ${status[bibread]} == ok ]]; then
  rss_mb=$(awk -v kb="${rss[bibread]}" 'BEGIN { printf "%.1f", kb * 1024 / 1e6 }')
  goal "bibread wall ≤ $goal_wall s" "$(holds "${wall[bibread]}" $goal_wall '<=')" "$(printf '%.3f s' "${wall[bibread]}")"
  goal "bibread peak RSS ≤ $goal_rss_mb MB" "$(holds "$rss_mb" $goal_rss_mb '<=')" "$rss_mb MB"
  if [[ ${status[textbibtex]:-} == ok ]]; then
    speedup=$(awk -v a="${wall[textbibtex]}" -v b="${wall[bibread]}" 'BEGIN { printf "%.2f", a / b }')
    goal "≥ ${goal_speedup}× faster than Text::BibTeX" "$(holds "$speedup" $goal_speedup '>=')" "${speedup}×"
  else
    goal "≥ ${goal_speedup}× faster than Text::BibTeX" "" "Text::BibTeX ${status[textbibtex]:-not run}"
  fi
else
  goal "bibread wall ≤ $goal_wall s" 0 "bibread ${status[bibread]}"
  goal "bibread peak RSS ≤ $goal_rss_mb MB" 0 "bibread ${status[bibread]}"
  goal "≥ ${goal_speedup}× faster than Text::BibTeX" 0 "bibread ${status[bibread]}"
fi
if [[ ${status[bibread-tugboat]} == ok ]]; then
  tug_ms=$(awk -v w="${wall[bibread-tugboat]}" 'BEGIN { printf "%.1f", w * 1000 }')
  goal "tugboat.bib ≤ $goal_tugboat_ms ms" "$(holds "$tug_ms" $goal_tugboat_ms '<=')" "$tug_ms ms"
else
  goal "tugboat.bib ≤ $goal_tugboat_ms ms" 0 "bibread ${status[bibread-tugboat]}"
fi
echo "(per-run figures: $log)"

for id in bibread bibread-tugboat textbibtex textbibtex-tugboat bibtexparser; do
  if [[ ${status[$id]:-} == FAILED* ]]; then exit 1; fi
done
exit 0
