# Shared by the bench scripts (sourced): checks for the bibread binary, poppler-utils and the
# corpus PDFs, and the PASS/MISS line of a goal. Each script defines say and die first, and sets bibread and corpora.

# require_bibread NAME: exits 2 unless $bibread is executable; then makes it an absolute path.
require_bibread() {
  if ! [[ -x $bibread ]]; then
    say "$1: no bibread binary at $bibread"
    say "  build it first:  make release   (or set BIBREAD=/path/to/bibread)"
    exit 2
  fi
  bibread=$(cd "$(dirname "$bibread")" && pwd)/$(basename "$bibread")
}

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
