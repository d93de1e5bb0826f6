// CCurses: the only door from Swift to ncursesw.
//
// Why this shim exists: ncurses exposes much of its API as C macros (COLOR_PAIR, getmaxyx, ...)
// that Swift cannot import, and wide-character calls are only declared when
// _XOPEN_SOURCE_EXTENDED is defined before the header is included. Every wrapper is a typed
// `static inline` function prefixed with `ccurses_`.
#ifndef CCURSES_SHIM_H
#define CCURSES_SHIM_H

#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <ncursesw/curses.h>

/// COLOR_PAIR(n) is a macro.
static inline int ccurses_color_pair(int pair) { return (int)COLOR_PAIR(pair); }

/// getmaxy/getmaxx are macros over WINDOW internals.
static inline int ccurses_lines(WINDOW *window) { return getmaxy(window); }
static inline int ccurses_columns(WINDOW *window) { return getmaxx(window); }

/// stdscr is a macro on some builds (reentrant ncurses).
static inline WINDOW *ccurses_stdscr(void) { return stdscr; }

/// Attribute bits are macros.
static inline unsigned int ccurses_attr_bold(void) { return (unsigned int)A_BOLD; }
static inline unsigned int ccurses_attr_reverse(void) { return (unsigned int)A_REVERSE; }
static inline unsigned int ccurses_attr_underline(void) { return (unsigned int)A_UNDERLINE; }
static inline unsigned int ccurses_attr_dim(void) { return (unsigned int)A_DIM; }

/// ERR and OK are macros.
static inline int ccurses_err(void) { return ERR; }
static inline int ccurses_key_resize(void) { return KEY_RESIZE; }
static inline int ccurses_key_mouse(void) { return KEY_MOUSE; }

/// Draws one wide cell (a grapheme of up to 5 code points) at (y, x) with attributes and pair.
static inline int ccurses_put_cell(int y, int x, const wchar_t *text, unsigned int attrs, short pair) {
    cchar_t cell;
    if (setcchar(&cell, text, (attr_t)attrs, pair, NULL) != OK) { return ERR; }
    return mvadd_wch(y, x, &cell);
}

#endif
