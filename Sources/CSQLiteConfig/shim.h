#ifndef CSQLITECONFIG_SHIM_H
#define CSQLITECONFIG_SHIM_H

#include <sqlite3.h>

/// Leaves a database in WAL mode as it is when its last connection closes: no checkpoint, so
/// no flush of the log and of the database file on the way out (the log is read back by the
/// next connection). sqlite3_db_config is variadic, which Swift cannot call. SQLITE_OK (0)
/// when done.
static inline int csqlite_keep_log_on_close(sqlite3 *database) {
    return sqlite3_db_config(database, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

#endif
