#include "ccrypto.h"

#include <dlfcn.h>
#include <openssl/evp.h>
#include <pthread.h>

// Each function is declared with its real prototype (__typeof__), resolved with dlsym.
#define CCRYPTO_SYMBOLS(X) \
    X(EVP_sha256) \
    X(EVP_Digest)

static struct {
    int loaded;
#define CCRYPTO_FIELD(name) __typeof__(&name) name;
    CCRYPTO_SYMBOLS(CCRYPTO_FIELD)
#undef CCRYPTO_FIELD
} api;

static pthread_once_t api_once = PTHREAD_ONCE_INIT;

static void load_once(void) {
    void *handle = dlopen("libcrypto.so.3", RTLD_LAZY | RTLD_LOCAL);
    if (handle == NULL) { handle = dlopen("libcrypto.so", RTLD_LAZY | RTLD_LOCAL); }
    if (handle == NULL) { return; }
#define CCRYPTO_RESOLVE(name) \
    api.name = (__typeof__(&name))dlsym(handle, #name); \
    if (api.name == NULL) { return; }
    CCRYPTO_SYMBOLS(CCRYPTO_RESOLVE)
#undef CCRYPTO_RESOLVE
    api.loaded = 1;
}

int ccrypto_sha256(const void *data, size_t length, unsigned char digest[32]) {
    pthread_once(&api_once, load_once);
    if (!api.loaded) { return 0; }
    const EVP_MD *sha256 = api.EVP_sha256();
    if (sha256 == NULL) { return 0; }
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (api.EVP_Digest(data, length, out, &size, sha256, NULL) != 1 || size != 32) { return 0; }
    for (int i = 0; i < 32; i++) { digest[i] = out[i]; }
    return 1;
}
