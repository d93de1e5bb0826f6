#!/usr/bin/env python3
"""Parse a BibTeX file with python bibtexparser 2 and touch every entry's type,
key and field values, as bibread's `list --json` must. Used by bench/parse-bench.sh.

    python bench/bibtexparser-parse.py FILE.bib      # prints one line of counts

bibtexparser's default parse stack resolves @string references and removes the
enclosing braces/quotes, so macro expansion is part of the measured work.
Broken blocks and duplicate keys end up in library.failed_blocks; they are
counted, not fatal.
"""
import sys

import bibtexparser


def main() -> int:
    if len(sys.argv) != 2:
        print(f"usage: {sys.argv[0]} FILE.bib", file=sys.stderr)
        return 2
    library = bibtexparser.parse_file(sys.argv[1])
    entries = fields = nbytes = 0
    for entry in library.entries:
        entries += 1
        nbytes += len(entry.entry_type) + len(entry.key)
        for field in entry.fields:
            fields += 1
            value = field.value
            nbytes += len(field.key) + (len(value) if isinstance(value, str) else len(str(value)))
    print(
        f"entries={entries} strings={len(library.strings)} "
        f"other={len(library.preambles) + len(library.comments)} "
        f"failed={len(library.failed_blocks)} fields={fields} bytes={nbytes}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
