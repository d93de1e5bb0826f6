#ifndef BIBREAD_CZLIB_SHIM_H
#define BIBREAD_CZLIB_SHIM_H

#include <zlib.h>

/// inflateInit is a macro (it passes the library version and the stream's size): a typed
/// wrapper so that Swift can call it.
static inline int czlib_inflate_init(z_streamp stream) {
    return inflateInit(stream);
}

#endif
