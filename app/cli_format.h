/*
 * app/cli_format.h - the output formats of run and compare (--format), one
 * row each: its name, what --help says of it, which commands take it and its
 * writers.  The option's help line, every refusal's list of valid formats,
 * the bash completion (it reads the help line) and the dispatch of the
 * output all read this one table (cli_format.c), so adding a format is a row
 * and its writers.  Writers print to standard output.
 */
#ifndef HETCAST_CLI_FORMAT_H
#define HETCAST_CLI_FORMAT_H

#include <stdbool.h>

#include "engine/engine.h"
#include "session/run.h"

#define FORMAT_RUN      (1u << 0)   /* hetcast run: one schedule */
#define FORMAT_COMPARE  (1u << 1)   /* hetcast compare: several side by side */
#define FORMAT_TRACE    (1u << 2)   /* compare --trace: measured beside predicted */
#define FORMAT_EXCHANGE (1u << 3)   /* run and compare --pattern: personalized exchanges */
#define FORMAT_DIR      (1u << 4)   /* writes the directory --output DIR, not standard output */
#define FORMAT_LEAN     (1u << 5)   /* with --summary it prints the result alone: no records kept */
#define FORMAT_WHY_LATER (1u << 6)  /* reads every reason once, after the run: a list policy's
                                       are written then (sched_opts.reasons_later) */

struct exchange;
struct spool;
struct svg_opts;
struct trace;

/* How the user asked a writer to write. */
struct format_out {
    bool compare;                 /* compare: runs side by side; run: the first alone */
    bool summary;                 /* --summary */
    const struct svg_opts *svg;   /* --svg-parts and --svg-nodes (NULL: the whole picture) */
    const char *dir;              /* --output DIR (FORMAT_DIR) */
};

struct cli_format {
    const char *name;   /* --format NAME */
    const char *note;   /* NULL, or what --help adds in parentheses after the name */
    unsigned flags;     /* FORMAT_*: the commands that take it, and how it writes */
    /* run (runs[0]) and compare (runs[0..k)): 0, or an exit status with *cause */
    int (*runs)(const struct format_out *out, const struct run *runs, int k, char **cause);
    /* run without --summary: each transfer written as a lean engine books it
     * (ctx: struct report_csv_stream); NULL: written from the records after */
    engine_book_fn stream;
    /* FORMAT_TRACE: the trace t beside k predictions, each followed by its
     * measured run (runs[0..2k)): 0, or an exit status with *cause */
    int (*trace)(const struct format_out *out, const struct trace *t, const struct run *runs,
                 int k, char **cause);
    /* FORMAT_EXCHANGE: xs[0..k) (run: k is 1) */
    void (*exchange)(const struct format_out *out, const struct exchange *xs, int k);
    /* run without --summary, on a lean engine whose bookings went to sp
     * (output/spool.h): what runs writes, byte for byte; NULL: the format is
     * written from the records (or streamed) */
    int (*spooled)(const struct format_out *out, const struct run *r, struct spool *sp,
                   char **cause);
};

/* The format called name (NULL: the default, the first row); NULL if none is.  O(formats). */
const struct cli_format *cli_format_find(const char *name);

/*
 * The formats that have any of flags, in the table's order: their names (with
 * notes: "svg (Gantt and tree)") joined by ", ", and by last before the last
 * (" or ", or ", ").  Caller frees.
 */
char *cli_format_list(unsigned flags, const char *last, bool notes);

#endif
