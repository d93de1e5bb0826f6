// CCurl: the only door from Swift to libcurl.
//
// Why this shim exists:
// - curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call. One typed
//   wrapper per argument type (long, string, pointer, list, 64-bit offset, callbacks) keeps
//   every call checked by the compiler.
// - Some of libcurl's constants are macros Swift cannot import (`(unsigned long)1 << 6`); they
//   are given here as typed constants.
// - CURLMsg holds a union; ccurl_multi_next_done hands Swift the two fields it needs.
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

/// CURLAUTH_BASIC, for CURLOPT_HTTPAUTH.
static const long ccurl_auth_basic = (long)CURLAUTH_BASIC;
/// CURLAUTH_BEARER, for CURLOPT_HTTPAUTH with CURLOPT_XOAUTH2_BEARER.
static const long ccurl_auth_bearer = (long)CURLAUTH_BEARER;
/// CURLSSH_AUTH_PUBLICKEY | CURLSSH_AUTH_AGENT, for CURLOPT_SSH_AUTH_TYPES.
static const long ccurl_ssh_auth_key_or_agent = (long)(CURLSSH_AUTH_PUBLICKEY | CURLSSH_AUTH_AGENT);
/// CURLSSH_AUTH_PASSWORD | CURLSSH_AUTH_KEYBOARD, for CURLOPT_SSH_AUTH_TYPES.
static const long ccurl_ssh_auth_password = (long)(CURLSSH_AUTH_PASSWORD | CURLSSH_AUTH_KEYBOARD);
/// CURL_NETRC_OPTIONAL, for CURLOPT_NETRC.
static const long ccurl_netrc_optional = (long)CURL_NETRC_OPTIONAL;
/// The size of the buffer CURLOPT_ERRORBUFFER needs.
static const int ccurl_error_size = CURL_ERROR_SIZE;

/// Opens and initialises libcurl once; returns NULL when it is ready, else why it cannot be used.
const char *ccurl_load(void);

// Everything below may only be called after ccurl_load() returned NULL.
const char *ccurl_version(void);

// Easy handles.
CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *handle);
/// Forgets every option set on the handle; keeps its connections and caches.
void ccurl_easy_reset(CURL *handle);
CURLcode ccurl_easy_perform(CURL *handle);
const char *ccurl_easy_strerror(CURLcode code);

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode ccurl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ccurl_setopt_write_function(CURL *handle, ccurl_data_callback callback);
CURLcode ccurl_setopt_header_function(CURL *handle, ccurl_data_callback callback);
/// Sets CURLOPT_XFERINFOFUNCTION (64-bit counts); CURLOPT_NOPROGRESS must also be set to 0.
CURLcode ccurl_setopt_progress_function(CURL *handle, ccurl_progress_callback callback);
CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ccurl_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value);
/// A string owned by the handle, valid until its next transfer or its cleanup.
CURLcode ccurl_getinfo_string(CURL *handle, CURLINFO info, const char **value);

// Header lists: append returns the new head, or NULL when out of memory (the list is unchanged).
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *line);
void ccurl_slist_free_all(struct curl_slist *list);

// Multi handles.
CURLM *ccurl_multi_init(void);
CURLMcode ccurl_multi_cleanup(CURLM *multi);
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode ccurl_multi_perform(CURLM *multi, int *running);
/// Waits up to `timeout_ms` for activity on the multi handle's sockets.
CURLMcode ccurl_multi_poll(CURLM *multi, int timeout_ms, int *ready);
const char *ccurl_multi_strerror(CURLMcode code);
/// Takes the next "transfer done" message: returns 1 and sets `handle` and `result`, or 0 when
/// none is left.
int ccurl_multi_next_done(CURLM *multi, CURL **handle, CURLcode *result);

#endif
