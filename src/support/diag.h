/*
 * support/diag.h - collected user-facing diagnostics.
 *
 * Loaders and checkers do not print: they append one line per problem to a
 * struct diag ("file:line: column: problem"), and the caller (main or the
 * view) decides where the lines go and what exit status follows.
 */
#ifndef HETCAST_DIAG_H
#define HETCAST_DIAG_H

#include <stdio.h>

#define DIAG_MAX_LINES 200   /* further errors are counted, not stored */

struct diag {
    char **lines;   /* formatted messages, in the order found */
    int nlines;
    int cap;
    int errors;     /* number of errors (may exceed nlines) */
    int warnings;   /* number of warnings */
};

void diag_init(struct diag *d);
void diag_free(struct diag *d);
/* file may be NULL; line <= 0 omits the line; col may be NULL. */
void diag_error(struct diag *d, const char *file, int line, const char *col,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void diag_warn(struct diag *d, const char *file, int line, const char *col,
               const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void diag_print(const struct diag *d, FILE *fp);
/* Append from's lines and counts to to; from is left empty. */
void diag_move(struct diag *to, struct diag *from);
/* "a, b, c": the names name_of(0) .. name_of(n - 1) joined (caller frees):
 * the valid lists of schedulers, orders and models in refusals. */
char *diag_join_names(int n, const char *(*name_of)(int i));
/* All lines joined by '\n' (caller frees); NULL if there are none. */
char *diag_join(const struct diag *d);

/* A user's text as it goes into a one-line message: control characters
 * (names may hold line breaks) and bytes that are not UTF-8 become '?', and
 * text longer than size - 4 bytes is cut with "..." (between characters).
 * Returns buf.  SHOWN(s, buf) for an array buf. */
const char *diag_shown(const char *s, char *buf, size_t size);
#define SHOWN(s, buf) diag_shown((s), (buf), sizeof (buf))

/*
 * Text, as hetcast accepts it in names and shows it on a terminal: valid
 * UTF-8 (no overlong forms, surrogates or code points past U+10FFFF)
 * without control characters (C0, DEL, the C1 range U+0080-U+009F) and
 * without U+FFFE and U+FFFF, which XML 1.0 cannot hold.
 */
/* The length of the character at s (1-4), 0 at the end, -1 if it is not text. */
int text_char(const char *s);
/* NULL if s is text, else what it holds ("a control character", ...). */
const char *text_flaw(const char *s);
/* s to fp with every byte that is not text written as \xNN (ESC -> \x1b),
 * but line breaks and tabs (a Lua traceback's), which cannot drive a
 * terminal: what reaches one and was not made by hetcast goes through here. */
void text_put(const char *s, FILE *fp);
/* The same into a fresh heap string (caller frees). */
char *text_escape(const char *s);
/* snprintf that cuts only between characters: text too long for buf ends
 * at the last whole UTF-8 character that fits, never inside one (a name in
 * a label, a title, a note).  Returns what snprintf returns.  Every fixed
 * buffer of the core that may hold a user's text is written through it;
 * reasons are not cut at all (struct decision: sized to what they say). */
int text_fit(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* How many of s's first n bytes to keep so that they end on a character's
 * boundary (s holds at least n bytes; s[n] is the first byte left out). */
size_t text_cut_len(const char *s, size_t n);

/*
 * The name among names[0..n) (n < 0: up to a NULL) that s looks like a slip
 * of, for "did you mean X?": the nearest by edits (a letter added, dropped,
 * changed, or two swapped; case ignored), when one edit tells them apart, two
 * in names of 6 or more letters, or up to half of s when they share their
 * first three letters (recieve: recv).  NULL when none is that near, or s is
 * one of them.  O(n |s| |name|).
 */
const char *text_nearest(const char *s, const char *const *names, int n);

/* "did you mean \"X\"? " into buf when s is a slip of X, one of the names in
 * list ("a, b, c": the list a refusal shows), else ""; returns buf. */
const char *text_guess(const char *s, const char *list, char *buf, size_t size);

/* printf into a fresh heap string (NULL only when out of memory). */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Set *cause (if cause is not NULL) to a formatted message; returns -1. */
int set_cause(char **cause, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* What every message on standard error starts with: "hetcast" and the
 * command as far as it is known ("hetcast run", "hetcast experiment
 * pipeline"; plain "hetcast" for the view and before a command is named).
 * The front door sets it (docs/cli.md, "Messages"); who must outlive its use. */
void diag_set_who(const char *who);
const char *diag_who(void);
/* Print "WHO: what" (diag_who) to stderr and exit(1): out of memory only. */
_Noreturn void diag_fatal(const char *what);
void *xmalloc(size_t n);             /* exit with a message on exhaustion */
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

#endif
