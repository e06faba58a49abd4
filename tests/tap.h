/*
 * tap.h - a tiny TAP producer for the test executables (after c-tap-harness's
 * basic.h): each check prints "ok N - name" or "not ok N - name" with what was
 * expected and what came, and the file and line, as TAP diagnostics.
 */
#ifndef HETCAST_TAP_H
#define HETCAST_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_n, tap_failed;

/* tap_scale(FULL, SMALL): how many random cases a loop draws: FULL, or SMALL
 * at the small scale: HETCAST_TEST_SCALE=small (test.sh's run under
 * valgrind; docs/reliability.md), or under valgrind when HETCAST_TEST_SCALE
 * is not set (=full forces the full scale).  The small scale is a prefix of
 * the full one: the same seeds, fewer of them, the same checks on each. */
static inline int tap_scale(int full, int small)
{
    const char *s = getenv("HETCAST_TEST_SCALE"), *pre = getenv("LD_PRELOAD");
    if (s)
        return strcmp(s, "small") == 0 ? small : full;
    return pre && strstr(pre, "vgpreload") ? small : full;
}

static inline void tap_plan_done(void) { printf("1..%d\n", tap_n); }
static inline int tap_exit(void) { tap_plan_done(); return tap_failed ? 1 : 0; }

static inline int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    tap_n++;
    printf("%sok %d - ", cond ? "" : "not ", tap_n);
    /* The description on one line: a message it quotes may hold line
       breaks (a Lua traceback, a wire line), which TAP would read as lines
       of their own; each break is shown as " | ". */
    char desc[4096];
    va_start(ap, fmt);
    vsnprintf(desc, sizeof desc, fmt, ap);
    va_end(ap);
    for (const char *p = desc; *p; p++) {
        if (*p == '\r')
            continue;
        if (*p == '\n')
            fputs(" | ", stdout);
        else
            putchar(*p);
    }
    printf("\n");
    if (!cond) {
        tap_failed++;
        printf("# failed at %s:%d\n", file, line);
    }
    fflush(stdout);
    return cond;
}

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is_int(got, want, ...) do { long long g_ = (got), w_ = (want); \
    if (!tap_ok(g_ == w_, __FILE__, __LINE__, __VA_ARGS__)) \
        printf("#   got: %lld\n#  want: %lld\n", g_, w_); } while (0)
#define is_double(got, want, eps, ...) do { double g_ = (got), w_ = (want); \
    if (!tap_ok(fabs(g_ - w_) <= (eps) || (isinf(g_) && isinf(w_) && (g_ > 0) == (w_ > 0)), \
                __FILE__, __LINE__, __VA_ARGS__)) \
        printf("#   got: %.17g\n#  want: %.17g\n", g_, w_); } while (0)
#define is_string(got, want, ...) do { const char *g_ = (got), *w_ = (want); \
    if (!tap_ok(g_ && w_ && strcmp(g_, w_) == 0, __FILE__, __LINE__, __VA_ARGS__)) \
        printf("#   got: \"%s\"\n#  want: \"%s\"\n", g_ ? g_ : "(null)", w_ ? w_ : "(null)"); } while (0)
/* A diagnostic: every line of it a TAP comment ("# "), whatever line breaks
   the message it quotes holds. */
static inline void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void tap_diag(const char *fmt, ...)
{
    char text[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    fputs("# ", stdout);
    for (const char *p = text; *p; p++) {
        putchar(*p);
        if (*p == '\n' && p[1])
            fputs("# ", stdout);
    }
    putchar('\n');
}
#define diag(...) tap_diag(__VA_ARGS__)

#endif
