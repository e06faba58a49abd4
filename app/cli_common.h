/*
 * app/cli_common.h - what hetcast's commands share (SPEC §6, docs/cli.md): the
 * options of the view, run and compare and their help, loading a cluster
 * with its warnings on stderr, one way to refuse, and the check that the
 * output was written.  The commands themselves (cmd_*.c, cli_exchange.c,
 * cli_trace.c, bench.c, app/study/) call these and never the dispatcher
 * (cli.c), which hands each command the front ends its row names.
 *
 * Exit status of every command: 0 success, 1 runtime failure, 2 bad usage or
 * bad input.
 */
#ifndef HETCAST_CLI_COMMON_H
#define HETCAST_CLI_COMMON_H

#include <stdbool.h>
#include <stdio.h>

#include "session/session.h"

struct bench_view_ops;
struct cli_format;
struct lesson;

/* What the user asked for: the session's part, and how to print it. */
struct cli_opts {
    struct session_opts s;
    const char *format;        /* --format NAME (app/cli_format.h) */
    const char *output;        /* --output DIR (a format that writes a directory) */
    const char *save_cluster;  /* --save-cluster F */
    bool summary;              /* --summary */
    const char *svg_parts;     /* --svg-parts gantt|tree|both (--format svg) */
    const char *svg_nodes;     /* --svg-nodes critical|NAME,NAME,... (--format svg) */
    bool certify;              /* --certify: prove the optimum again by an integer program */
    const char *certify_lp;    /* --certify-lp F: write that program (CPLEX LP format) */
    bool simgrid;              /* --simgrid: replay each schedule in SimGrid (cli_simgrid.c) */
    bool version;              /* --version among the options: the version, nothing run */
    bool list_clusters;        /* --list-clusters: the bundled clusters, nothing run */
};

/* The interactive view (ui/): returns an exit status. */
typedef int (*cli_view_fn)(const struct session_opts *o);
/* The view presenting a lesson (ui/): returns an exit status. */
struct room;
typedef int (*cli_lesson_fn)(const struct lesson *l, struct room *room);
/* The student's screen of a live class (ui/): ROOM, a test room's user or NULL; an exit status. */
typedef int (*cli_join_fn)(const char *room, const char *as);

/* The front ends main links in (ui/); a command is handed those its row in
 * cli.c names, the others NULL (a build without a view has none). */
struct cli_views {
    cli_view_fn view;                   /* hetcast [FILE] */
    cli_lesson_fn lesson;               /* hetcast lesson FILE */
    const struct bench_view_ops *bench; /* hetcast bench: the view's frame (app/bench.h) */
    cli_join_fn join;                   /* hetcast join ROOM */
};

/* ---- the commands (cli.c's table): argv[0] is the command word ---- */

/* hetcast [FILE] (cmd_view.c): argv[0] is the program. */
int cmd_view(int argc, char **argv, const struct cli_views *v);
/* hetcast run and hetcast compare (cmd_run.c). */
int cmd_run(int argc, char **argv, const struct cli_views *v);
int cmd_compare(int argc, char **argv, const struct cli_views *v);
/* hetcast lesson FILE [--print] (cmd_lesson.c). */
int cmd_lesson(int argc, char **argv, const struct cli_views *v);
/* hetcast join ROOM and hetcast class report ROOM.db (cmd_class.c). */
int cmd_join(int argc, char **argv, const struct cli_views *v);
int cmd_class(int argc, char **argv, const struct cli_views *v);
/* hetcast lesson FILE --gift (cli_gift.c): the questions in GIFT; first: the first lesson written. */
int lesson_gift(const struct lesson *l, bool first);
/* A cluster as a student reads it, on standard output: its nodes' times (node table), its
 * distances (latency matrix) or its links (platform graph), names escaped (app/cmd_lesson.c). */
void lesson_print_nodes(const struct cluster *c);
/* hetcast practice LESSON (cmd_practice.c). */
int cmd_practice(int argc, char **argv, const struct cli_views *v);
/* A problem of slide k of lesson l to stderr at the file's line the problem names (app/cmd_lesson.c). */
void lesson_complain(const struct lesson *l, int k, const char *what, bool warning);

/* Personalized exchanges (cli_exchange.c): run or compare with --pattern. */
int cli_exchange(const struct cli_opts *o, bool compare);
/* --certify and --certify-lp before the run: 0, or 2 after a message (cli_certify.c). */
int cli_certify_check(const struct cli_opts *o, const struct cluster *c, bool text);
/* After the run: the integer program's verdict on r's optimum, printed
 * under the report (cli_certify.c); 0, or 1 when it differs or gave up. */
int cli_certify(const struct cli_opts *o, const struct run *r);
/* --simgrid before the run (a platform, the text report): 0, or 2 after a message. */
int cli_simgrid_check(const struct cli_opts *o, const struct cluster *c);
/* --simgrid after the report: each run's schedule replayed in SimGrid, its makespan and
 * the largest difference of a node's hold time printed; 0, or 1 after a message. */
int cli_simgrid(const struct cli_opts *o, const struct run *runs, int k);
/* compare --trace: measured beside predicted (cli_trace.c) in format f. */
int cli_trace(const struct cli_opts *o, const struct cli_format *f);

/* ---- what they share (cli_common.c) ---- */

/* hetcast --help: the commands, the options of the view, run and compare,
 * the schedulers, models and exchanges. */
void cli_usage(FILE *fp);
/* hetcast --version: the version and the licence. */
void cli_version(FILE *fp);
/*
 * Parse the options of the view, run or compare (argv[0] is the command word;
 * prog names it in messages).  want_file: FILE is required.  A FILE that is
 * not there but is a bundled cluster's name (counterexample.csv, or without
 * its .csv) is that cluster (app_bundled).  Returns 0; -1 when --help printed
 * the help ("hetcast run" and "hetcast compare": their own), --version the
 * version or --list-clusters the bundled clusters; or an exit status after a
 * message.
 */
int cli_parse(const char *prog, int argc, char **argv, struct cli_opts *o, bool want_file);

/* Print cause as "WHO: cause" (diag_who: "hetcast run", ...) and return status; frees cause. */
int cli_fail(char *cause, int status);
/* Standard output flushed and checked: status, or (a write failed: a full
 * disk, /dev/full, a closed pipe) "cannot write the output: why" once and
 * 1 (a non-zero status is kept).  cli_main ends every command with it. */
int cli_output_status(int status);
/* Load o's cluster through the session layer and print its warnings to
 * stderr, each line as it is; NULL after printing why (status 2). */
struct cluster *cli_load(const struct cli_opts *o);

#endif
