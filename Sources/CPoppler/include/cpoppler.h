// CPoppler: the only door from Swift to poppler-glib.
//
// Why this shim exists:
// - poppler-glib is a GObject library: macros (G_OBJECT, POPPLER_ERROR), untyped
//   g_object_unref, GError out-parameters. The functions here take and return plain C types,
//   so Swift never sees GLib.
// - poppler-glib drags in cairo, GLib, NSS and X11 libraries; linked normally, loading them
//   costs every bibread command ~20 ms at start-up. cpoppler.c opens it with dlopen the first
//   time a PDF is needed, and compiles against the real headers, so every call is type-checked.
// Every symbol is prefixed `cpoppler_`.
#ifndef CPOPPLER_H
#define CPOPPLER_H

/// An open PDF document (a PopplerDocument).
typedef struct _PopplerDocument cpoppler_document;
/// One page of a document (a PopplerPage).
typedef struct _PopplerPage cpoppler_page;

/// What went wrong opening a document.
///
/// poppler reports a missing password and a wrong one alike (POPPLER_ERROR_ENCRYPTED), and a
/// truncated file, a damaged one and a file that is no PDF at all alike (POPPLER_ERROR_DAMAGED,
/// "PDF document is damaged"); the caller tells the first two apart by whether it gave a password.
typedef enum {
    CPOPPLER_OK = 0,
    CPOPPLER_ERROR_ENCRYPTED = 1,
    CPOPPLER_ERROR_OTHER = 2,
} cpoppler_status;

/// A rectangle in points, origin at the top left of the page, y growing downwards
/// (the layout of PopplerRectangle).
typedef struct {
    double x1, y1, x2, y2;
} cpoppler_rect;

/// One entry of a document's outline (bookmarks), flattened depth-first.
typedef struct {
    /// The title in UTF-8 (never NULL).
    char *title;
    /// The depth: 0 for a top-level entry.
    int level;
    /// The 1-based page it leads to, or 0 when it leads to no page of this document.
    int page;
} cpoppler_outline_item;

/// Opens poppler-glib once; returns NULL when it is ready, else why it cannot be used.
const char *cpoppler_load(void);

/// Starts cpoppler_load() on a thread of its own and returns at once, so that opening
/// poppler-glib and its libraries overlaps the caller's work; cpoppler_load() then waits for it.
void cpoppler_start_loading(void);

/// The poppler version string. Only after cpoppler_load() returned NULL.
const char *cpoppler_version(void);

/// Opens a document from a descriptor open for reading on a regular file, and closes the
/// descriptor: poppler opens the same file (through /proc/self/fd), never the path again, so a
/// FIFO put in its place cannot block it. On failure returns NULL, sets `status` and, for
/// CPOPPLER_ERROR_OTHER, `message` to a string the caller frees with cpoppler_free.
cpoppler_document *cpoppler_document_open_descriptor(int descriptor, const char *password,
                                                     cpoppler_status *status, char **message);
void cpoppler_document_release(cpoppler_document *document);
int cpoppler_document_page_count(cpoppler_document *document);

/// The page at a 0-based index (a new reference), or NULL.
cpoppler_page *cpoppler_document_page(cpoppler_document *document, int index);
void cpoppler_page_release(cpoppler_page *page);

/// All the page's text in reading order, including text that lies outside the crop box (as
/// pdftotext prints it), with one rectangle per character (Unicode scalar, separators included)
/// in `*rects`. Returns the text or NULL; the caller frees the text and `*rects` with
/// cpoppler_free. `*rects` is NULL and `*count` 0 when poppler gives no rectangles.
char *cpoppler_page_text_with_layout(cpoppler_page *page, cpoppler_rect **rects, unsigned *count);

/// A run of characters in one font: scalars `start` through `end` (inclusive) of
/// cpoppler_page_text_with_layout's text (the same indices as its rectangles).
typedef struct {
    /// The font's name as the PDF gives it, subset prefix included ("ABCDEF+CMTT10"); never NULL.
    char *font_name;
    /// The font size in points.
    double font_size;
    int start;
    int end;
} cpoppler_text_run;

/// The fonts of the page's text, as runs in text order, `*count` of them (NULL and 0 when poppler
/// gives none). Reflow needs them (poppler_page_get_text_attributes_for_area) to keep a line in a
/// monospace font (code) or a heading (larger or bold) as a line of its own; the rectangles alone
/// cannot tell code from prose. Free the runs with cpoppler_text_runs_free.
cpoppler_text_run *cpoppler_page_text_runs(cpoppler_page *page, int *count);
void cpoppler_text_runs_free(cpoppler_text_run *runs, int count);

/// The page's label (such as "iv" or "A-3"), or NULL; poppler gives the page number as a
/// string when the document has no labels. The caller frees it with cpoppler_free.
char *cpoppler_page_label(cpoppler_page *page);

/// The 0-based index of a page that poppler's reading of the document's page labels prints
/// with `label`, or -1 (poppler_document_get_page_by_label: a number in a document without
/// labels; it reads the page tree only up to that page). Not always the first such page, and
/// not always a page whose label reads exactly so: the caller checks.
int cpoppler_document_page_index_by_label(cpoppler_document *document, const char *label);

/// The document's title from its information dictionary, or NULL; free it with cpoppler_free.
char *cpoppler_document_title(cpoppler_document *document);

/// The outline flattened depth-first, `*count` entries (NULL and 0 when there is none); named
/// destinations are resolved. Free it with cpoppler_outline_free.
cpoppler_outline_item *cpoppler_document_outline(cpoppler_document *document, int *count);
void cpoppler_outline_free(cpoppler_outline_item *items, int count);

/// Frees memory poppler or GLib allocated.
void cpoppler_free(void *memory);

#endif
