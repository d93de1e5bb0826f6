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
static inline int ccurses_ok(void) { return OK; }
static inline int ccurses_key_resize(void) { return KEY_RESIZE; }
static inline int ccurses_key_mouse(void) { return KEY_MOUSE; }

/// Draws one wide cell (a grapheme of up to 5 code points) at (y, x) with attributes and pair.
static inline int ccurses_put_cell(int y, int x, const wchar_t *text, unsigned int attrs, short pair) {
    cchar_t cell;
    if (setcchar(&cell, text, (attr_t)attrs, pair, NULL) != OK) { return ERR; }
    return mvadd_wch(y, x, &cell);
}

/// Mouse masks are macros built from NCURSES_MOUSE_MASK.
static inline mmask_t ccurses_mouse_events(void) {
    return BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED;
}
static inline int ccurses_is_click(mmask_t state) { return (state & (BUTTON1_CLICKED | BUTTON1_PRESSED)) != 0; }
static inline int ccurses_is_double_click(mmask_t state) { return (state & BUTTON1_DOUBLE_CLICKED) != 0; }
static inline int ccurses_is_wheel_up(mmask_t state) { return (state & BUTTON4_PRESSED) != 0; }
static inline int ccurses_is_wheel_down(mmask_t state) { return (state & BUTTON5_PRESSED) != 0; }

/// get_wch works on stdscr through a macro; KEY_CODE_YES says a function key arrived.
static inline int ccurses_get_wch(wint_t *character) { return wget_wch(stdscr, character); }
static inline int ccurses_key_code_yes(void) { return KEY_CODE_YES; }
static inline int ccurses_key_f0(void) { return KEY_F0; }

/// Cursor placement, refresh and erase are macros over stdscr.
static inline int ccurses_move(int y, int x) { return wmove(stdscr, y, x); }
static inline int ccurses_refresh(void) { return wrefresh(stdscr); }
static inline int ccurses_erase(void) { return werase(stdscr); }
static inline int ccurses_clear_ok(int flag) { return clearok(stdscr, flag ? TRUE : FALSE); }
static inline int ccurses_keypad(int flag) { return keypad(stdscr, flag ? TRUE : FALSE); }
static inline int ccurses_nodelay(int flag) { return nodelay(stdscr, flag ? TRUE : FALSE); }
static inline int ccurses_colors(void) { return COLORS; }

/// Starts curses on standard output and input; NULL when the terminal type is unknown
/// (unlike initscr, which would exit the process).
static inline SCREEN *ccurses_new_terminal(void) { return newterm(NULL, stdout, stdin); }

#endif
