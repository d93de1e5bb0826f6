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
typedef enum {
    CPOPPLER_OK = 0,
    CPOPPLER_ERROR_ENCRYPTED = 1,
    CPOPPLER_ERROR_OTHER = 2,
} cpoppler_status;

/// Opens poppler-glib once; returns NULL when it is ready, else why it cannot be used.
const char *cpoppler_load(void);

/// The poppler version string. Only after cpoppler_load() returned NULL.
const char *cpoppler_version(void);

/// Opens a document from a file:// URI. On failure returns NULL, sets `status` and, for
/// CPOPPLER_ERROR_OTHER, `message` to a string the caller frees with cpoppler_free.
cpoppler_document *cpoppler_document_open(const char *uri, const char *password,
                                          cpoppler_status *status, char **message);
void cpoppler_document_release(cpoppler_document *document);
int cpoppler_document_page_count(cpoppler_document *document);

/// The page at a 0-based index (a new reference), or NULL.
cpoppler_page *cpoppler_document_page(cpoppler_document *document, int index);
void cpoppler_page_release(cpoppler_page *page);

/// The page's text in reading order; the caller frees it with cpoppler_free.
char *cpoppler_page_text(cpoppler_page *page);

/// Frees memory poppler or GLib allocated.
void cpoppler_free(void *memory);

#endif
