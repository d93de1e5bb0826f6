// The floor of bibread's stack for `bibread read LIB KEY --page N` (issue 31): poppler-glib
// alone, as bibread calls it, with nothing else: open the document, take page N, print its
// text. pdf-bench.sh compiles it (cc, pkg-config poppler-glib) and prints its time next to
// pdftotext's.
//
//   poppler-floor FILE.pdf N
#include <poppler.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: poppler-floor FILE.pdf PAGE\n");
        return 2;
    }
    GError *error = NULL;
    char *uri = g_filename_to_uri(argv[1], NULL, &error);
    PopplerDocument *document = uri ? poppler_document_new_from_file(uri, NULL, &error) : NULL;
    if (document == NULL) {
        fprintf(stderr, "poppler-floor: %s\n", error ? error->message : "cannot open");
        return 1;
    }
    PopplerPage *page = poppler_document_get_page(document, atoi(argv[2]) - 1);
    if (page == NULL) {
        fprintf(stderr, "poppler-floor: no page %s\n", argv[2]);
        return 1;
    }
    char *text = poppler_page_get_text(page);
    if (text) { fputs(text, stdout); }
    return 0;
}
