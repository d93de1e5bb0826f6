#include "cpoppler.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <poppler.h>

// Each function is declared with its real prototype (__typeof__), resolved with dlsym.
#define CPOPPLER_SYMBOLS(X) \
    X(poppler_document_new_from_file) \
    X(poppler_document_get_n_pages) \
    X(poppler_document_get_page) \
    X(poppler_page_get_text) \
    X(poppler_get_version) \
    X(poppler_error_quark) \
    X(g_object_unref) \
    X(g_free) \
    X(g_strdup) \
    X(g_error_free)

static struct {
    int loaded;
    char error[512];
#define CPOPPLER_FIELD(name) __typeof__(&name) name;
    CPOPPLER_SYMBOLS(CPOPPLER_FIELD)
#undef CPOPPLER_FIELD
} api;

static pthread_once_t api_once = PTHREAD_ONCE_INIT;

static void load_once(void) {
    void *handle = dlopen("libpoppler-glib.so.8", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) { handle = dlopen("libpoppler-glib.so", RTLD_NOW | RTLD_LOCAL); }
    if (handle == NULL) {
        snprintf(api.error, sizeof api.error, "poppler-glib is not installed (%s)", dlerror());
        return;
    }
#define CPOPPLER_RESOLVE(name) \
    api.name = (__typeof__(&name))dlsym(handle, #name); \
    if (api.name == NULL) { snprintf(api.error, sizeof api.error, "poppler-glib lacks %s", #name); return; }
    CPOPPLER_SYMBOLS(CPOPPLER_RESOLVE)
#undef CPOPPLER_RESOLVE
    api.loaded = 1;
}

const char *cpoppler_load(void) {
    pthread_once(&api_once, load_once);
    return api.loaded ? NULL : api.error;
}

const char *cpoppler_version(void) { return api.poppler_get_version(); }

cpoppler_document *cpoppler_document_open(const char *uri, const char *password,
                                          cpoppler_status *status, char **message) {
    GError *error = NULL;
    PopplerDocument *document = api.poppler_document_new_from_file(uri, password, &error);
    *status = CPOPPLER_OK;
    *message = NULL;
    if (document == NULL) {
        if (error != NULL && error->domain == api.poppler_error_quark() && error->code == POPPLER_ERROR_ENCRYPTED) {
            *status = CPOPPLER_ERROR_ENCRYPTED;
        } else {
            *status = CPOPPLER_ERROR_OTHER;
            *message = api.g_strdup(error != NULL ? error->message : "unknown error");
        }
    }
    if (error != NULL) { api.g_error_free(error); }
    return document;
}

void cpoppler_document_release(cpoppler_document *document) { api.g_object_unref(document); }
int cpoppler_document_page_count(cpoppler_document *document) { return api.poppler_document_get_n_pages(document); }
cpoppler_page *cpoppler_document_page(cpoppler_document *document, int index) {
    return api.poppler_document_get_page(document, index);
}
void cpoppler_page_release(cpoppler_page *page) { api.g_object_unref(page); }
char *cpoppler_page_text(cpoppler_page *page) { return api.poppler_page_get_text(page); }
void cpoppler_free(void *memory) { api.g_free(memory); }
