// CCrypto: the only door from Swift to OpenSSL's libcrypto, for one thing: SHA-256 of a buffer
// in memory. libcrypto uses the processor's SHA instructions (about 1 GB/s here, seven times
// the plain Swift code in Checksums), which matters for the content hash of a library file of
// tens of megabytes, taken before and after every edit. libcrypto is opened with dlopen the
// first time it is needed, like libcurl in CCurl: a machine without it still hashes, in Swift.
// Every symbol is prefixed `ccrypto_`.
#ifndef CCRYPTO_H
#define CCRYPTO_H

#include <stddef.h>

/// Writes the SHA-256 digest of `length` bytes at `data` to `digest` (32 bytes); returns 1, or
/// 0 when libcrypto could not be opened or failed (then `digest` is untouched).
int ccrypto_sha256(const void *data, size_t length, unsigned char digest[32]);

#endif
