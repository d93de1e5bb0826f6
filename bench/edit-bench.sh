#!/usr/bin/env bash
# The reader's edits on the ~26 MB benchmark library: x toggles a reference's read flag N times;
# key → screen showing the ✓, and key → the edit written, re-read and renamed (durable).
# Goals (issue 28): on screen ≤ 50 ms, on disk ≤ 1 s.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
bibread_dev=${BIBREAD_DEV:-$repo/.build/release/bibread-dev}
bench_dir=${BENCH_DIR:-$repo/.build/bench}
corpora=${BIBREAD_CORPORA:-$repo/../shared/corpora}
[[ -x "$bibread_dev" ]] || { echo "edit-bench: $bibread_dev is missing; run: make release-dev" >&2; exit 2; }
mkdir -p "$bench_dir"
big="$bench_dir/bench-corpus.bib"
[[ -s "$big" ]] || bash "$corpora/make-bench-corpus.sh" "$big" >/dev/null
# The corpora hold Better BibTeX exports, whose comments make the whole concatenation read as a
# Zotero export (read-only): the bench edits a copy without those comment lines.
writable="$bench_dir/bench-corpus-writable.bib"
[[ -s "$writable" && "$writable" -nt "$big" ]] ||
  grep -v -e 'Better BibTeX' -e '% ? Title looks like' -e 'DeclarePrefChars' -e 'Citekey duplicates in this file' "$big" >"$writable"
echo "== edits in the reader: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores"
"$bibread_dev" edit-latency "$writable" --rounds "${RUNS:-20}" 2>/dev/null
