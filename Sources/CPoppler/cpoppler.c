#include "cpoppler.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <poppler.h>

_Static_assert(sizeof(cpoppler_rect) == sizeof(PopplerRectangle), "cpoppler_rect must match PopplerRectangle");

// Each function is declared with its real prototype (__typeof__), resolved with dlsym.
#define CPOPPLER_SYMBOLS(X) \
    X(poppler_document_new_from_file) \
    X(poppler_document_get_n_pages) \
    X(poppler_document_get_page) \
    X(poppler_page_get_text_for_area) \
    X(poppler_page_get_text_layout_for_area) \
    X(poppler_page_get_text_attributes_for_area) \
    X(poppler_page_free_text_attributes) \
    X(poppler_page_get_label) \
    X(poppler_page_get_index) \
    X(poppler_document_get_page_by_label) \
    X(poppler_document_get_title) \
    X(poppler_document_find_dest) \
    X(poppler_dest_free) \
    X(poppler_action_free) \
    X(poppler_index_iter_new) \
    X(poppler_index_iter_get_child) \
    X(poppler_index_iter_get_action) \
    X(poppler_index_iter_next) \
    X(poppler_index_iter_free) \
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
    // RTLD_LAZY, as for libcurl: the dynamic linker binds each function of poppler, GLib, cairo
    // and the rest when it is first called, not all at load time (RTLD_NOW bound every symbol
    // of them all). dlsym below still checks every function bibread calls.
    void *handle = dlopen("libpoppler-glib.so.8", RTLD_LAZY | RTLD_LOCAL);
    if (handle == NULL) { handle = dlopen("libpoppler-glib.so", RTLD_LAZY | RTLD_LOCAL); }
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

static void *load_in_background(void *unused) {
    (void)unused;
    pthread_once(&api_once, load_once);
    return NULL;
}

void cpoppler_start_loading(void) {
    // A thread of its own, detached: cpoppler_load() in the caller's thread waits for it through
    // pthread_once when it is not done yet (and does the work itself when no thread could start).
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0) { return; }
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    (void)pthread_create(&thread, &attributes, load_in_background, NULL);
    pthread_attr_destroy(&attributes);
}

const char *cpoppler_version(void) { return api.poppler_get_version(); }

cpoppler_document *cpoppler_document_open_descriptor(int descriptor, const char *password,
                                                     cpoppler_status *status, char **message) {
    // The open file, not its path: /proc/self/fd/N opens what the descriptor refers to, even
    // when the path names something else by now. (Not poppler_document_new_from_fd: with poppler
    // 22.12 it says "PDF document is damaged" for an encrypted PDF given a wrong password.)
    GError *error = NULL;
    char uri[64];
    snprintf(uri, sizeof uri, "file:///proc/self/fd/%d", descriptor);
    PopplerDocument *document = api.poppler_document_new_from_file(uri, password, &error);
    close(descriptor);
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
void cpoppler_free(void *memory) { api.g_free(memory); }

char *cpoppler_page_text_with_layout(cpoppler_page *page, cpoppler_rect **rects, unsigned *count) {
    // An area far larger than any page: poppler_page_get_text stops at the crop box, pdftotext
    // does not (some pages have text beyond it, such as a clipped picture of a page).
    PopplerRectangle everything = { -1e6, -1e6, 1e6, 1e6 };
    PopplerRectangle *layout = NULL;
    guint n = 0;
    *rects = NULL;
    *count = 0;
    char *text = api.poppler_page_get_text_for_area(page, &everything);
    if (text == NULL) { return NULL; }
    if (api.poppler_page_get_text_layout_for_area(page, &everything, &layout, &n) && layout != NULL) {
        *rects = (cpoppler_rect *)layout;
        *count = n;
    } else if (layout != NULL) {
        api.g_free(layout);
    }
    return text;
}

cpoppler_text_run *cpoppler_page_text_runs(cpoppler_page *page, int *count) {
    // The same area as cpoppler_page_text_with_layout, so that the indices match its text.
    PopplerRectangle everything = { -1e6, -1e6, 1e6, 1e6 };
    *count = 0;
    GList *attributes = api.poppler_page_get_text_attributes_for_area(page, &everything);
    if (attributes == NULL) { return NULL; }
    int length = 0;
    for (GList *item = attributes; item != NULL; item = item->next) { length++; }
    cpoppler_text_run *runs = calloc((size_t)length, sizeof *runs);
    int filled = 0;
    if (runs != NULL) {
        for (GList *item = attributes; item != NULL; item = item->next) {
            PopplerTextAttributes *run = item->data;
            char *name = strdup(run->font_name != NULL ? run->font_name : "");
            if (name == NULL) { break; }
            runs[filled++] = (cpoppler_text_run){ name, run->font_size, run->start_index, run->end_index };
        }
    }
    api.poppler_page_free_text_attributes(attributes);
    *count = filled;
    return runs;
}

void cpoppler_text_runs_free(cpoppler_text_run *runs, int count) {
    if (runs == NULL) { return; }
    for (int i = 0; i < count; i++) { free(runs[i].font_name); }
    free(runs);
}

char *cpoppler_page_label(cpoppler_page *page) { return api.poppler_page_get_label(page); }

int cpoppler_document_page_index_by_label(cpoppler_document *document, const char *label) {
    PopplerPage *page = api.poppler_document_get_page_by_label(document, label);
    if (page == NULL) { return -1; }
    int index = api.poppler_page_get_index(page);
    api.g_object_unref(page);
    return index;
}

char *cpoppler_document_title(cpoppler_document *document) { return api.poppler_document_get_title(document); }

// ---- outline ------------------------------------------------------------------------------

/// Outlines nest rarely beyond 10; these bounds only stop a malicious file.
enum { OUTLINE_MAX_DEPTH = 64, OUTLINE_MAX_ITEMS = 1 << 20 };

typedef struct {
    cpoppler_outline_item *items;
    int count;
    int capacity;
    int failed;
} outline_list;

/// The 1-based page a GOTO_DEST action leads to, or 0.
static int action_page(PopplerDocument *document, PopplerAction *action) {
    if (action == NULL || action->type != POPPLER_ACTION_GOTO_DEST || action->goto_dest.dest == NULL) { return 0; }
    PopplerDest *dest = action->goto_dest.dest;
    if (dest->type != POPPLER_DEST_NAMED) { return dest->page_num > 0 ? dest->page_num : 0; }
    if (dest->named_dest == NULL) { return 0; }
    PopplerDest *resolved = api.poppler_document_find_dest(document, dest->named_dest);
    if (resolved == NULL) { return 0; }
    int page = resolved->page_num > 0 ? resolved->page_num : 0;
    api.poppler_dest_free(resolved);
    return page;
}

static void outline_append(outline_list *list, const char *title, int level, int page) {
    if (list->failed) { return; }
    if (list->count == list->capacity) {
        int capacity = list->capacity == 0 ? 64 : list->capacity * 2;
        cpoppler_outline_item *grown = realloc(list->items, (size_t)capacity * sizeof *grown);
        if (grown == NULL) { list->failed = 1; return; }
        list->items = grown;
        list->capacity = capacity;
    }
    char *copy = strdup(title != NULL ? title : "");
    if (copy == NULL) { list->failed = 1; return; }
    list->items[list->count++] = (cpoppler_outline_item){ copy, level, page };
}

static void outline_walk(PopplerDocument *document, PopplerIndexIter *iter, int level, outline_list *list) {
    do {
        if (list->failed || list->count >= OUTLINE_MAX_ITEMS) { return; }
        PopplerAction *action = api.poppler_index_iter_get_action(iter);
        outline_append(list, action != NULL ? action->any.title : NULL, level, action_page(document, action));
        if (action != NULL) { api.poppler_action_free(action); }
        if (level + 1 < OUTLINE_MAX_DEPTH) {
            PopplerIndexIter *child = api.poppler_index_iter_get_child(iter);
            if (child != NULL) {
                outline_walk(document, child, level + 1, list);
                api.poppler_index_iter_free(child);
            }
        }
    } while (api.poppler_index_iter_next(iter));
}

cpoppler_outline_item *cpoppler_document_outline(cpoppler_document *document, int *count) {
    *count = 0;
    PopplerIndexIter *iter = api.poppler_index_iter_new(document);
    if (iter == NULL) { return NULL; }
    outline_list list = { NULL, 0, 0, 0 };
    outline_walk(document, iter, 0, &list);
    api.poppler_index_iter_free(iter);
    *count = list.count;
    return list.items;
}

void cpoppler_outline_free(cpoppler_outline_item *items, int count) {
    if (items == NULL) { return; }
    for (int i = 0; i < count; i++) { free(items[i].title); }
    free(items);
}
