// CPoppler: the only door from Swift to poppler-glib (and the bits of GLib it needs).
//
// Why this shim exists: G_OBJECT(), POPPLER_IS_DOCUMENT() and friends are macros, and
// g_object_unref takes an untyped pointer; typed wrappers keep ownership explicit. Prefixed
// `cpoppler_`.
#ifndef CPOPPLER_SHIM_H
#define CPOPPLER_SHIM_H

#include <poppler.h>
#include <glib.h>

static inline void cpoppler_document_unref(PopplerDocument *document) { g_object_unref(document); }
static inline void cpoppler_page_unref(PopplerPage *page) { g_object_unref(page); }

/// True when a GError says the document needs (another) password.
static inline int cpoppler_error_is_encrypted(const GError *error) {
    return error != NULL && error->domain == POPPLER_ERROR && error->code == POPPLER_ERROR_ENCRYPTED;
}

#endif
