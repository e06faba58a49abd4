/*
 * cli.h - the command line of SPEC §6.  Everything but the interactive view
 * lives in the core, so tests can call it; ui/main.c passes the view in.
 */
#ifndef HETCAST_CLI_H
#define HETCAST_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "cluster.h"
#include "engine.h"
#include "sched.h"

#define CLI_MAX_PARAMS 64
#define CLI_MAX_SCHEDS 16

/* What the user asked for; also handed to the view. */
struct cli_opts {
    const char *file;
    const char *sched[CLI_MAX_SCHEDS];   /* -s, in order */
    int nsched;
    const char *model;                   /* -m, NULL: the kind's default */
    const char *source;                  /* --source */
    const char *format;                  /* --format */
    const char *save_cluster;            /* --save-cluster */
    const char *params[CLI_MAX_PARAMS];  /* --param k=v (Lua cluster scripts) */
    int nparams;
    bool summary;
    struct sched_opts sopt;              /* --seed, --time-limit, --node-limit */
    bool seed_given;
    const char *pattern;                 /* --pattern all-to-all|all-to-some: an exchange */
    const char *receivers;               /* --receivers NAMES|P%: all-to-some's receivers */
};

/* The interactive view (ui/): returns an exit status. */
typedef int (*cli_view_fn)(const struct cli_opts *o);

struct bench_view_ops;
/* bench_view: the view's frame for `hetcast bench` (bench.h); NULL skips that figure. */
int cli_main(int argc, char **argv, cli_view_fn view, const struct bench_view_ops *bench_view);

/*
 * Load FILE (.csv, or .lua through the scripting layer), apply --source, and
 * print the warnings to stderr. On failure prints the problems and returns
 * NULL: the caller exits with status 2.
 */
struct cluster *cli_load_cluster(const struct cli_opts *o, char **cause);

/* Resolve -m for a cluster (the kind's default if none). 0 or -1 with *cause. */
int cli_model(const struct cli_opts *o, const struct cluster *c, enum model *m, char **cause);
/* Find a scheduler by name; an unknown one gives the list of valid ones. */
const struct sched_ops *cli_sched(const char *name, char **cause);

/* Personalized exchanges (cli_exchange.c): run or compare with --pattern. */
int cli_exchange(const struct cli_opts *o, bool compare);
struct exchange;
/*
 * Simulate the exchange o asks for (--pattern, --receivers, -m, --seed) on c
 * with the exchange scheduler sched (NULL: caterpillar); timeline: also build
 * the engine's events for stepping.  0, or -1 with *cause (*x then needs no
 * exchange_free).
 */
int cli_exchange_run(const struct cli_opts *o, const struct cluster *c, const char *sched,
                     bool timeline, struct exchange *x, char **cause);

#endif
