/*
 * app/opts.h - the one option parser of every hetcast command (run, compare,
 * experiment and its studies, bench).  A command describes its options in a
 * table; getopt_long parses them (GNU forms: -s fnf, -sfnf, --scheduler fnf,
 * --scheduler=fnf, abbreviations, options after operands, "--" to end them,
 * "-" as an operand), and the same table gives the help lines and the list
 * of valid options in every refusal.  Typed rows (enum opt_type) are parsed
 * and stored by the table itself; the rest go to the command's function.
 *
 * Messages go to stderr as "PROG: problem" (PROG is the command, e.g.
 * "hetcast run"); a refusal returns exit status 2.
 */
#ifndef HETCAST_OPTS_H
#define HETCAST_OPTS_H

#include <stdbool.h>
#include <stdio.h>

#define OPTS_HELP (-1)   /* opts_parse: -h or --help was given */
#define OPT_LONG 256     /* keys of long-only options start here */

/* What opts_parse stores by itself, at offset `at` of the context; OPT_CALL
 * hands the option to the command's opts_fn instead. */
enum opt_type {
    OPT_CALL = 0,
    OPT_FLAG,      /* bool = true */
    OPT_STRING,    /* const char * = the value (the last one given) */
    OPT_INT,       /* int in [lo, hi] */
    OPT_LONGINT,   /* long in [lo, hi] */
    OPT_NUMBER,    /* double >= lo, finite */
    OPT_SECONDS,   /* double > 0 and finite, <= hi when hi > 0: a time limit (0 is
                      refused, not "no limit") */
    OPT_SEED,      /* unsigned long long, any non-negative integer */
    OPT_CHOICE,    /* int: the index of the value in choices */
};

/* The choices of a study's --format: text (0) or csv (1). */
extern const char *const opts_text_csv[];

struct opt {
    const char *name;   /* the long name, without "--" */
    int key;            /* a short letter, or OPT_LONG + k for a long-only option */
    const char *meta;   /* the value's name in the help ("N"); NULL: takes no value */
    const char *help;   /* one line of help; NULL: left out of the help */
    enum opt_type type;
    size_t at;          /* offsetof the field in the context (not OPT_CALL) */
    double lo, hi;      /* OPT_INT, OPT_LONGINT: the range; OPT_NUMBER: lo; OPT_SECONDS:
                           hi, if > 0 */
    const char *const *choices;   /* OPT_CHOICE: the valid values, NULL-terminated */
};

/* Handle an OPT_CALL option key (its name as given, e.g. "--seed") with
 * value val (NULL when it takes none): 0, or an exit status (after a message). */
typedef int (*opts_fn)(void *ctx, int key, const char *name, const char *val);

/*
 * Parse argv[1..argc) (argv[0] is the command word) against tab, ended by a
 * row with a NULL name; -h and --help are always understood.  Operands go to
 * operands[0..max) in order (*noperands of them).  Returns 0, OPTS_HELP, or 2
 * after one message naming the option and the valid ones.
 */
int opts_parse(const char *prog, const struct opt *tab, int argc, char **argv, opts_fn fn,
               void *ctx, const char **operands, int max, int *noperands);

/* The help lines of tab ("  -s, --scheduler NAME   help"), one an option. */
void opts_help(FILE *fp, const struct opt *tab);

/* The refusals of option values, each "PROG: OPT: "VAL" is not WANT"; each returns 2. */
int opt_fail(const char *opt, const char *val, const char *want);
/* Print "PROG: message" to stderr and return status (refusals after parsing). */
/* The front doors' one message printer: "who: text" on stderr, every byte
 * that is not text (ESC, control characters, bytes that are not UTF-8)
 * shown as \xNN, so a name or a script cannot drive the terminal.  who may
 * be NULL. */
void opts_say(const char *who, const char *text);
int opts_error(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An integer in [lo, hi]. */
int opt_long(const char *opt, const char *s, long lo, long hi, long *out);
/* A non-negative integer (a seed). */
int opt_u64(const char *opt, const char *s, unsigned long long *out);
/* A finite number >= lo. */
int opt_double(const char *opt, const char *s, double lo, double *out);
/* A number of seconds > 0, finite, and <= hi when hi > 0 (the refusal says the range). */
int opt_seconds(const char *opt, const char *s, double hi, double *out);
/* A count >= lo written as a number (1e6 is fine), capped at 10^15. */
int opt_count(const char *opt, const char *s, double lo, long long *out);
/* N or LO:HI, integers in [lo, hi] with LO <= HI. */
int opt_range(const char *opt, const char *s, long lo, long hi, long *first, long *last);
/* One of names (NULL-terminated): its index in *out; the refusal lists them. */
int opt_choice(const char *opt, const char *s, const char *const *names, int *out);

#endif
