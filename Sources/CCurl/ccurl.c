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
    X(curl_easy_setopt) \
    X(curl_easy_getinfo) \
    X(curl_easy_perform) \
    X(curl_easy_strerror)

static struct {
    int loaded;
    char error[512];
#define CCURL_FIELD(name) __typeof__(&name) name;
    CCURL_SYMBOLS(CCURL_FIELD)
#undef CCURL_FIELD
} api;

static pthread_once_t api_once = PTHREAD_ONCE_INIT;

static void load_once(void) {
    void *handle = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) { handle = dlopen("libcurl.so", RTLD_NOW | RTLD_LOCAL); }
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
