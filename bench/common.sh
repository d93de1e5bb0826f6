# Shared by the bench scripts (sourced): checks for the bibread and bibread-dev binaries, poppler-utils and the
# corpus PDFs, and the PASS/MISS line of a goal. Each script defines say and die first, and sets bibread (or bibread_dev) and corpora.

# require_built NAME VARIABLE PROGRAM MAKE_TARGET ENVIRONMENT: exits 2 unless the binary named
# by $VARIABLE is executable (saying how to build PROGRAM); then makes it an absolute path.
require_built() {
  local -n binary=$2
  if ! [[ -x $binary ]]; then
    say "$1: no $3 binary at $binary"
    say "  build it first:  make $4   (or set $5=/path/to/$3)"
    exit 2
  fi
  binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")
}

# require_bibread NAME: $bibread must be executable (the product: make release).
require_bibread() { require_built "$1" bibread bibread release BIBREAD; }

# require_bibread_dev NAME: $bibread_dev must be executable (the development tools, with the
# benchmarks' commands and the reader's hooks: make release-dev).
require_bibread_dev() { require_built "$1" bibread_dev bibread-dev release-dev BIBREAD_DEV; }

# require_poppler: pdftotext and pdfinfo, or exit 2.
require_poppler() {
  local tool
  for tool in pdftotext pdfinfo; do
    command -v "$tool" >/dev/null || die "needs $tool: apt-get install poppler-utils"
  done
}

# collect_pdfs: every PDF of $corpora/pdfs into the array pdfs, or exit 2 when there is none.
collect_pdfs() {
  pdfs=()
  local pdf
  for pdf in "$corpora"/pdfs/*.pdf; do [[ -f $pdf ]] && pdfs+=("$pdf"); done
  ((${#pdfs[@]})) || die "no PDFs in $corpora/pdfs (set BIBREAD_CORPORA to the corpora folder)"
}

# goal NAME OK(1/0) SHOWN: one line of the report, PASS when OK is 1, else MISS.
goal() {
  local verdict=MISS
  [[ $2 == 1 ]] && verdict=PASS
  printf '  %s  %s: %s\n' "$verdict" "$1" "$3"
}

# bench_corpus BENCH_DIR MAKE_CORPUS LOG: sets big to the ~26 MB bench library
# (BENCH_DIR/bench-corpus.bib), built with make-bench-corpus.sh unless a newer one is there.
bench_corpus() {
  big=$1/bench-corpus.bib
  if [[ -s $big && $big -nt $2 ]]; then
    say "corpus: reusing $big"
  else
    say "corpus: building $big ..."
    bash "$2" "$big.tmp" >>"$3" 2>&1 || die "make-bench-corpus.sh failed, see $3"
    mv -f "$big.tmp" "$big"
  fi
}

# require_before NAME: $before (BIBREAD_BEFORE, a second binary measured alongside), when set,
# must be executable; it is then made an absolute path.
require_before() {
  [[ -z $before ]] && return
  [[ -x $before ]] || die "BIBREAD_BEFORE=$before is not executable"
  before=$(cd "$(dirname "$before")" && pwd)/$(basename "$before")
}

# reader_bench_library NAME: what a bench of the reader in tmux needs: tmux, and the bench library
# in $big (built in $bench_dir, which becomes an absolute path), its build logged to NAME.log.
reader_bench_library() {
  command -v tmux >/dev/null || die "needs tmux (scripts/install-deps.sh bench)"
  local make_corpus=$corpora/make-bench-corpus.sh
  [[ -f $make_corpus ]] || die "no $make_corpus (set BIBREAD_CORPORA to the corpora folder)"
  mkdir -p "$bench_dir"
  bench_dir=$(cd "$bench_dir" && pwd)
  bench_corpus "$bench_dir" "$make_corpus" "$bench_dir/$1.log"
}
