/*
 * opts.c - getopt_long over a command's option table (app/opts.h), and the
 * parsers of option values, every refusal naming the option, the value and
 * what was wanted.
 */
#include "app/opts.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "support/diag.h"

const char *const opts_text_csv[] = {"text", "csv", NULL};

void opts_say(const char *who, const char *text)
{
    if (who) {
        text_put(who, stderr);
        fputs(": ", stderr);
    }
    text_put(text, stderr);
    fputc('\n', stderr);
}

int opts_error(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *text = xmalloc(n > 0 ? (size_t)n + 1 : 1);
    va_start(ap, fmt);
    vsnprintf(text, n > 0 ? (size_t)n + 1 : 1, fmt, ap);
    va_end(ap);
    opts_say(diag_who(), text);
    free(text);
    return status;
}

/* "-s, -m, --seed, ...": the options of tab as a user types them. */
static char *valid_list(const struct opt *tab)
{
    size_t len = 1;
    for (const struct opt *o = tab; o->name; o++)
        len += strlen(o->name) + 8;
    char *s = xmalloc(len), *p = s;
    *p = '\0';
    for (const struct opt *o = tab; o->name; o++)
        p += sprintf(p, "%s%s%s", p == s ? "" : ", ", o->key < OPT_LONG ? "-" : "--",
                     o->key < OPT_LONG ? (char[2]){(char)o->key, '\0'} : o->name);
    return s;
}

/* "did you mean \"--format\"? " for --fromat, among tab's long names and --help. */
static const char *option_guess(const struct opt *tab, const char *given, char *buf, size_t size)
{
    buf[0] = '\0';
    if (strncmp(given, "--", 2) != 0)
        return buf;
    int n = 1;
    for (const struct opt *o = tab; o->name; o++)
        n++;
    const char **names = xcalloc((size_t)n, sizeof *names);
    n = 0;
    for (const struct opt *o = tab; o->name; o++)
        names[n++] = o->name;
    names[n++] = "help";
    const char *near = text_nearest(given + 2, names, n);
    if (near)
        snprintf(buf, size, "did you mean \"--%s\"? ", near);
    free(names);
    return buf;
}

static const struct opt *by_key(const struct opt *tab, int key)
{
    for (const struct opt *o = tab; o->name; o++)
        if (o->key == key)
            return o;
    return NULL;
}

/* A typed row's value into its field, or an OPT_CALL row to fn. */
static int store(const struct opt *o, void *ctx, opts_fn fn, const char *name, const char *val)
{
    char *field = (char *)ctx + o->at;
    long x;
    switch (o->type) {
    case OPT_CALL:
        return fn ? fn(ctx, o->key, name, val) : 0;
    case OPT_FLAG:
        *(bool *)field = true;
        return 0;
    case OPT_STRING:
        *(const char **)field = val;
        return 0;
    case OPT_INT:
        if (opt_long(name, val, (long)o->lo, (long)o->hi, &x))
            return 2;
        *(int *)field = (int)x;
        return 0;
    case OPT_LONGINT:
        return opt_long(name, val, (long)o->lo, (long)o->hi, (long *)field);
    case OPT_NUMBER:
        return opt_double(name, val, o->lo, (double *)field);
    case OPT_SECONDS:
        return opt_seconds(name, val, o->hi, (double *)field);
    case OPT_SEED:
        return opt_u64(name, val, (unsigned long long *)field);
    case OPT_CHOICE:
        return opt_choice(name, val, o->choices, (int *)field);
    }
    return 0;
}

int opts_parse(const char *p, const struct opt *tab, int argc, char **argv, opts_fn fn,
               void *ctx, const char **operands, int max, int *noperands)
{
    diag_set_who(p);
    int n = 0;
    while (tab[n].name)
        n++;
    struct option *lo = xcalloc((size_t)n + 2, sizeof *lo);
    char *shorts = xmalloc(2 * (size_t)n + 4), *sp = shorts;
    *sp++ = ':';   /* a missing value is ':', not '?' */
    for (int i = 0; i < n; i++) {
        lo[i] = (struct option){tab[i].name, tab[i].meta ? required_argument : no_argument, NULL,
                                tab[i].key};
        if (tab[i].key < OPT_LONG) {
            *sp++ = (char)tab[i].key;
            if (tab[i].meta)
                *sp++ = ':';
        }
    }
    lo[n] = (struct option){"help", no_argument, NULL, 'h'};
    *sp++ = 'h';
    *sp = '\0';

    int status = 0;
    *noperands = 0;
    opterr = 0;
    optind = 0;   /* GNU: start afresh (a second parse in one process) */
    /* "-" first: operands come back as key 1, in their place among the options. */
    char *spec = xasprintf("-%s", shorts);
    for (;;) {
        int li = -1;
        int c = getopt_long(argc, argv, spec, lo, &li);
        if (c == -1)
            break;
        const char *given = argv[optind - 1];
        if (c == 1) {   /* an operand */
            if (*noperands == max) {
                status = opts_error(2, "unexpected argument \"%s\"", optarg);
                break;
            }
            operands[(*noperands)++] = optarg;
            continue;
        }
        if (c == 'h' && !by_key(tab, 'h')) {
            status = OPTS_HELP;
            break;
        }
        if (c == '?' || c == ':') {
            char *valid = valid_list(tab);
            char name[64], guess[96];
            if (optopt && optopt < OPT_LONG && !(given[0] == '-' && given[1] == '-'))
                snprintf(name, sizeof name, "-%c", optopt);
            else
                snprintf(name, sizeof name, "%.*s", (int)strcspn(given, "="), given);
            if (c == ':')
                status = opts_error(2, "option %s needs a value", name);
            else
                status = opts_error(2, "unknown option %s; %svalid options: %s", name,
                                    option_guess(tab, name, guess, sizeof guess), valid);
            free(valid);
            break;
        }
        const struct opt *o = by_key(tab, c);
        char name[64];
        if (li >= 0)
            snprintf(name, sizeof name, "--%s", lo[li].name);
        else
            snprintf(name, sizeof name, "-%c", c);
        if (o && (status = store(o, ctx, fn, name, o->meta ? optarg : NULL)) != 0)
            break;
    }
    /* after "--", getopt_long stops: the rest are operands */
    for (; status == 0 && optind < argc; optind++) {
        if (*noperands == max) {
            status = opts_error(2, "unexpected argument \"%s\"", argv[optind]);
            break;
        }
        operands[(*noperands)++] = argv[optind];
    }
    free(spec);
    free(shorts);
    free(lo);
    return status;
}

void opts_help(FILE *fp, const struct opt *tab)
{
    for (const struct opt *o = tab; o->name; o++) {
        if (!o->help)
            continue;
        char left[64];
        if (o->key < OPT_LONG)
            snprintf(left, sizeof left, "-%c, --%s%s%s", o->key, o->name, o->meta ? " " : "",
                     o->meta ? o->meta : "");
        else
            snprintf(left, sizeof left, "    --%s%s%s", o->name, o->meta ? " " : "",
                     o->meta ? o->meta : "");
        fprintf(fp, "  %-22s %s\n", left, o->help);
    }
}

int opt_fail(const char *opt, const char *val, const char *want)
{
    return opts_error(2, "%s: \"%s\" is not %s", opt, val, want);
}

/* Written as a decimal number starts so: a digit, or a sign or point before
 * one; strtod and strtol would also take leading spaces, hexadecimal (0x10),
 * inf and nan. */
static bool decimal(const char *s)
{
    s += (*s == '-' || *s == '+');
    s += (*s == '.');
    if (!(*s >= '0' && *s <= '9'))
        return false;
    return !strpbrk(s, "xXpP");
}

/* strtod's number, finite, with the whole of s read; an underflow (1e-320)
 * is the tiny number it is, not a mistake. */
static bool read_double(const char *s, double *x)
{
    char *end;
    errno = 0;
    *x = strtod(s, &end);
    if (errno == ERANGE && isfinite(*x))
        errno = 0;
    return decimal(s) && !*end && !errno && isfinite(*x);
}

int opt_long(const char *opt, const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (!decimal(s) || *end || errno || x < lo || x > hi) {
        char want[96];
        snprintf(want, sizeof want, "an integer from %ld to %ld", lo, hi);
        return opt_fail(opt, s, want);
    }
    *out = x;
    return 0;
}

int opt_u64(const char *opt, const char *s, unsigned long long *out)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (!*s || *end || errno || s[0] == '-' || s[0] == '+' || s[0] == ' ')
        return opt_fail(opt, s, "a non-negative integer");
    *out = x;
    return 0;
}

int opt_double(const char *opt, const char *s, double lo, double *out)
{
    double x;
    if (!read_double(s, &x) || x < lo) {
        char want[64];
        snprintf(want, sizeof want, "a number >= %g", lo);
        return opt_fail(opt, s, want);
    }
    *out = x;
    return 0;
}

int opt_seconds(const char *opt, const char *s, double hi, double *out)
{
    if (hi > 0) {   /* one refusal, with the range, for every value out of it */
        char want[96];
        snprintf(want, sizeof want, "a number of seconds > 0 and <= %.15g", hi);
        double x;
        if (!read_double(s, &x) || !(x > 0) || x > hi)
            return opt_fail(opt, s, want);
        *out = x;
        return 0;
    }
    if (opt_double(opt, s, 0, out))
        return 2;
    if (!(*out > 0))
        return opt_fail(opt, s, "a time limit: a number of seconds > 0 (there is no \"no limit\"; "
                                "a larger number waits longer)");
    return 0;
}

int opt_count(const char *opt, const char *s, double lo, long long *out)
{
    double x = 0;
    if (opt_double(opt, s, lo, &x))
        return 2;
    *out = x >= 1e15 ? 1000000000000000LL : (long long)x;   /* no float-to-integer overflow */
    return 0;
}

int opt_range(const char *opt, const char *s, long lo, long hi, long *first, long *last)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", s);
    char *colon = strchr(buf, ':');
    if (colon)
        *colon = '\0';
    if (opt_long(opt, buf, lo, hi, first))
        return 2;
    return opt_long(opt, colon ? colon + 1 : buf, *first, hi, last);
}

int opt_choice(const char *opt, const char *s, const char *const *names, int *out)
{
    char want[256] = "";
    size_t k = 0;
    for (int i = 0; names[i]; i++) {
        if (strcmp(s, names[i]) == 0) {
            *out = i;
            return 0;
        }
        if (k < sizeof want)
            k += (size_t)snprintf(want + k, sizeof want - k, "%s%s",
                                  i == 0 ? "" : names[i + 1] ? ", " : " or ", names[i]);
    }
    return opt_fail(opt, s, want);
}
