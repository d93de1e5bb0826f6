#include "ccurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// Each function is declared with its real prototype (__typeof__), resolved with dlsym.
#define CCURL_SYMBOLS(X) \
    X(curl_global_init) \
    X(curl_version) \
    X(curl_easy_init) \
    X(curl_easy_cleanup) \
    X(curl_easy_reset) \
    X(curl_easy_setopt) \
    X(curl_easy_getinfo) \
    X(curl_easy_perform) \
    X(curl_easy_strerror) \
    X(curl_slist_append) \
    X(curl_slist_free_all) \
    X(curl_multi_init) \
    X(curl_multi_cleanup) \
    X(curl_multi_add_handle) \
    X(curl_multi_remove_handle) \
    X(curl_multi_perform) \
    X(curl_multi_poll) \
    X(curl_multi_info_read) \
    X(curl_multi_strerror)

static struct {
    int loaded;
    char error[512];
#define CCURL_FIELD(name) __typeof__(&name) name;
    CCURL_SYMBOLS(CCURL_FIELD)
#undef CCURL_FIELD
} api;

static pthread_once_t api_once = PTHREAD_ONCE_INIT;

static void load_once(void) {
    // Lazy binding: libcurl's own dependencies (TLS, SSH, HTTP/2, LDAP, Kerberos) bind a
    // function when it is first called, not all at load time (RTLD_NOW took about 30 million
    // instructions, a tenth of a small sync). The functions used here are resolved at once
    // by dlsym below, so a libcurl that lacks one still fails here, with a message.
    void *handle = dlopen("libcurl.so.4", RTLD_LAZY | RTLD_LOCAL);
    if (handle == NULL) { handle = dlopen("libcurl.so", RTLD_LAZY | RTLD_LOCAL); }
    if (handle == NULL) {
        snprintf(api.error, sizeof api.error, "libcurl is not installed (%s)", dlerror());
        return;
    }
#define CCURL_RESOLVE(name) \
    api.name = (__typeof__(&name))dlsym(handle, #name); \
    if (api.name == NULL) { snprintf(api.error, sizeof api.error, "libcurl lacks %s", #name); return; }
    CCURL_SYMBOLS(CCURL_RESOLVE)
#undef CCURL_RESOLVE
    if (api.curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(api.error, sizeof api.error, "curl_global_init failed");
        return;
    }
    api.loaded = 1;
}

const char *ccurl_load(void) {
    pthread_once(&api_once, load_once);
    return api.loaded ? NULL : api.error;
}

const char *ccurl_version(void) { return api.curl_version(); }

CURL *ccurl_easy_init(void) { return api.curl_easy_init(); }
void ccurl_easy_cleanup(CURL *handle) { api.curl_easy_cleanup(handle); }
void ccurl_easy_reset(CURL *handle) { api.curl_easy_reset(handle); }
CURLcode ccurl_easy_perform(CURL *handle) { return api.curl_easy_perform(handle); }
const char *ccurl_easy_strerror(CURLcode code) { return api.curl_easy_strerror(code); }

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return api.curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return api.curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return api.curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return api.curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return api.curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_setopt_write_function(CURL *handle, ccurl_data_callback callback) {
    return api.curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}
CURLcode ccurl_setopt_header_function(CURL *handle, ccurl_data_callback callback) {
    return api.curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}
CURLcode ccurl_setopt_progress_function(CURL *handle, ccurl_progress_callback callback) {
    return api.curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}
CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return api.curl_easy_getinfo(handle, info, value);
}
CURLcode ccurl_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return api.curl_easy_getinfo(handle, info, value);
}
CURLcode ccurl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    char *string = NULL;
    CURLcode code = api.curl_easy_getinfo(handle, info, &string);
    *value = string;
    return code;
}

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *line) {
    return api.curl_slist_append(list, line);
}
void ccurl_slist_free_all(struct curl_slist *list) { api.curl_slist_free_all(list); }

CURLM *ccurl_multi_init(void) { return api.curl_multi_init(); }
CURLMcode ccurl_multi_cleanup(CURLM *multi) { return api.curl_multi_cleanup(multi); }
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *handle) {
    return api.curl_multi_add_handle(multi, handle);
}
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *handle) {
    return api.curl_multi_remove_handle(multi, handle);
}
CURLMcode ccurl_multi_perform(CURLM *multi, int *running) {
    return api.curl_multi_perform(multi, running);
}
CURLMcode ccurl_multi_poll(CURLM *multi, int timeout_ms, int *ready) {
    return api.curl_multi_poll(multi, NULL, 0, timeout_ms, ready);
}
const char *ccurl_multi_strerror(CURLMcode code) { return api.curl_multi_strerror(code); }

int ccurl_multi_next_done(CURLM *multi, CURL **handle, CURLcode *result) {
    int left = 0;
    CURLMsg *message;
    while ((message = api.curl_multi_info_read(multi, &left)) != NULL) {
        if (message->msg == CURLMSG_DONE) {
            *handle = message->easy_handle;
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}
