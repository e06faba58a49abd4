/*
 * app/cli.h - the command line of SPEC §6 (docs/cli.md): `hetcast [FILE]`,
 * run, compare, experiment, bench.  A front door: it parses what the user
 * typed (app/opts.h), asks the core through the session layer (session/session.h) and
 * prints the result or one message.  Exit status: 0 success, 1 runtime
 * failure, 2 bad usage or bad input.
 */
#ifndef HETCAST_CLI_H
#define HETCAST_CLI_H

#include <stdbool.h>

#include "output/report.h"
#include "session/session.h"

/* What the user asked for: the session's part, and how to print it. */
struct cli_opts {
    struct session_opts s;
    const char *format;        /* --format: text (default), csv, json, svg, paje, dot, smpi */
    const char *output;        /* --output DIR (--format smpi) */
    const char *save_cluster;  /* --save-cluster F */
    bool summary;              /* --summary */
    const char *svg_parts;     /* --svg-parts gantt|tree|both (--format svg) */
    const char *svg_nodes;     /* --svg-nodes critical|NAME,NAME,... (--format svg) */
};

/* The interactive view (ui/): returns an exit status. */
typedef int (*cli_view_fn)(const struct session_opts *o);

struct bench_view_ops;
/* bench_view: the view's frame for `hetcast bench` (app/bench.h); NULL skips that figure. */
int cli_main(int argc, char **argv, cli_view_fn view, const struct bench_view_ops *bench_view);

struct lesson;
/* The view presenting a lesson (ui/): returns an exit status.  Set by main before cli_main. */
typedef int (*cli_lesson_fn)(const struct lesson *l);
extern cli_lesson_fn cli_lesson_view;
/* `hetcast lesson FILE [--print]` (cmd_lesson.c). */
int cmd_lesson(int argc, char **argv);

/* Personalized exchanges (cli_exchange.c): run or compare with --pattern. */
int cli_exchange(const struct cli_opts *o, bool compare);

/* compare --trace: measured beside predicted (cli_trace.c); fmt from --format. */
int cli_trace(const struct cli_opts *o, enum report_format fmt);
/* An SVG of k runs on standard output, with a warning on stderr when it is larger than a slide holds. */
struct svg_opts;
void cli_print_svg(const struct run *runs, int k, const struct svg_opts *so);

/* Print cause as "hetcast: cause" (or as it is when it names its file) and
 * return status; frees cause. */
int cli_fail(char *cause, int status);
/* Standard output flushed and checked: status, or (a write failed: a full
 * disk, /dev/full, a closed pipe) "cannot write the output: why" once and
 * 1 (a non-zero status is kept).  cli_main ends every command with it. */
int cli_output_status(int status);
/* Load o's cluster through the session layer and print its warnings to
 * stderr, each line as it is; NULL after printing why (status 2). */
struct cluster *cli_load(const struct cli_opts *o);

#endif
