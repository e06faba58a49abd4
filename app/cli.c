/*
 * cli.c - hetcast's command line (docs/cli.md): the table of commands and the
 * dispatch.  A command is a row: its name, its function and the front ends
 * it needs (git's commands[] in git.c); the dispatcher sets up what every
 * command shares, hands each only the front ends its row names and checks
 * the output after it.  What commands share is cli_common.h's; no command
 * calls back into this file.
 *
 * Exit status: 0 success, 1 runtime failure, 2 bad usage or bad input.
 */
#include "app/cli.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/bench.h"
#include "app/cli_common.h"
#include "app/datadir.h"
#include "app/opts.h"
#include "app/study/experiment.h"
#include "config.h"
#include "support/lua_sandbox.h"

#define NEEDS_VIEW        (1u << 0)   /* the interactive view (cli_views.view) */
#define NEEDS_LESSON_VIEW (1u << 1)   /* the lesson's view (cli_views.lesson) */
#define NEEDS_BENCH_VIEW  (1u << 2)   /* the view's frame for the bench (cli_views.bench) */
#define NEEDS_JOIN_VIEW   (1u << 3)   /* the student's screen of a live class (cli_views.join) */

struct command {
    const char *name;   /* argv[1] */
    int (*fn)(int argc, char **argv, const struct cli_views *v);   /* argv[0]: the name */
    unsigned needs;     /* NEEDS_*: the front ends it is handed; the others are NULL */
};

static int cmd_experiment(int argc, char **argv, const struct cli_views *v)
{
    (void)v;
    return experiment_main(argc - 1, argv + 1);
}

static int cmd_bench(int argc, char **argv, const struct cli_views *v)
{
    return bench_main(argc, argv, v->bench);
}

/* The commands, in the order the refusal of an unknown one lists them. */
static const struct command commands[] = {
    {"run", cmd_run, 0},
    {"compare", cmd_compare, 0},
    {"experiment", cmd_experiment, 0},
    {"bench", cmd_bench, NEEDS_BENCH_VIEW},
    {"lesson", cmd_lesson, NEEDS_LESSON_VIEW},
    {"join", cmd_join, NEEDS_JOIN_VIEW},
    {"class", cmd_class, 0},
    {"practice", cmd_practice, 0},
};
#define NCOMMANDS ((int)(sizeof commands / sizeof commands[0]))

/* No command named: hetcast [FILE] [options] (argv[0] is the program). */
static const struct command view_command = {NULL, cmd_view, NEEDS_VIEW};

/* Lua print() from a cluster script or heuristic: "script: text" on stderr. */
static void print_to_stderr(const char *script, const char *text, void *ud)
{
    (void)ud;
    opts_say(script, text);
}

static int call(const struct command *c, int argc, char **argv, const struct cli_views *views)
{
    struct cli_views v = {
        c->needs & NEEDS_VIEW ? views->view : NULL,
        c->needs & NEEDS_LESSON_VIEW ? views->lesson : NULL,
        c->needs & NEEDS_BENCH_VIEW ? views->bench : NULL,
        c->needs & NEEDS_JOIN_VIEW ? views->join : NULL,
    };
    return c->fn(argc, argv, &v);
}

/* "hetcast runn x.csv": a mistyped command, not a missing cluster file. */
static int unknown_command(const char *cmd)
{
    size_t len = 1;
    for (int i = 0; i < NCOMMANDS; i++)
        len += strlen(commands[i].name) + 5;
    char *names = xmalloc(len), *p = names;
    for (int i = 0; i < NCOMMANDS; i++)
        p += sprintf(p, "%s%s", i == 0 ? "" : i == NCOMMANDS - 1 ? " and " : ", ",
                     commands[i].name);
    const char *list[NCOMMANDS];
    for (int i = 0; i < NCOMMANDS; i++)
        list[i] = commands[i].name;
    const char *near = text_nearest(cmd, list, NCOMMANDS);
    if (near)
        opts_error(2, "unknown command %s; did you mean \"%s\"? the commands are %s (or give a "
                      "FILE to open the view); see hetcast --help", cmd, near, names);
    else
        opts_error(2, "unknown command %s; the commands are %s (or give a FILE to open the view); "
                      "see hetcast --help", cmd, names);
    free(names);
    return 2;
}

/* The command argv[1] names, or the view. */
static int dispatch(int argc, char **argv, const struct cli_views *views)
{
    /* A file-size limit (ulimit -f) makes write() fail with EFBIG, which every
     * save reports (status 1, the old file intact), instead of killing us. */
    signal(SIGXFSZ, SIG_IGN);
    sandbox_set_print(print_to_stderr, NULL);
    app_find_data();
    if (argc < 2)
        return call(&view_command, argc, argv, views);
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        cli_usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        cli_version(stdout);
        return 0;
    }
    for (int i = 0; i < NCOMMANDS; i++)
        if (strcmp(cmd, commands[i].name) == 0) {
            static char who[32];   /* "hetcast run": every message of the command starts so */
            snprintf(who, sizeof who, "hetcast %s", commands[i].name);
            diag_set_who(who);
            return call(&commands[i], argc - 1, argv + 1, views);
        }
    if (cmd[0] != '-' && !strchr(cmd, '.') && !strchr(cmd, '/') && access(cmd, F_OK) != 0 &&
        app_bundled("clusters", cmd, app_cluster_exts) == cmd)   /* not a bundled cluster either */
        return unknown_command(cmd);
    return call(&view_command, argc, argv, views);
}

int cli_main(int argc, char **argv, const struct cli_views *views)
{
    return cli_output_status(dispatch(argc, argv, views));
}
