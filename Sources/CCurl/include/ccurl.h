// CCurl: the only door from Swift to libcurl.
//
// Why this shim exists:
// - curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call. One typed
//   wrapper per argument type (long, string, pointer, 64-bit offset, callbacks) keeps every call
//   checked by the compiler.
// - libcurl drags in TLS, HTTP/2, LDAP, Kerberos and SSH libraries; linked normally they cost
//   every bibread command start-up time. ccurl.c opens it with dlopen the first time a transfer
//   is made, and compiles against the real headers, so every call is type-checked.
// Every symbol is prefixed `ccurl_`.
#ifndef CCURL_H
#define CCURL_H

#include <curl/curl.h>

typedef size_t (*ccurl_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*ccurl_progress_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow,
                                       curl_off_t ultotal, curl_off_t ulnow);

/// Opens and initialises libcurl once; returns NULL when it is ready, else why it cannot be used.
const char *ccurl_load(void);

// Everything below may only be called after ccurl_load() returned NULL.
const char *ccurl_version(void);
CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *handle);
CURLcode ccurl_easy_perform(CURL *handle);
const char *ccurl_easy_strerror(CURLcode code);

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ccurl_setopt_write_function(CURL *handle, ccurl_data_callback callback);
CURLcode ccurl_setopt_header_function(CURL *handle, ccurl_data_callback callback);
CURLcode ccurl_setopt_progress_function(CURL *handle, ccurl_progress_callback callback);
CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ccurl_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value);

#endif
