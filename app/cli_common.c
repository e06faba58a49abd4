/*
 * cli_common.c - what the commands share (cli_common.h): the options of the
 * view, run and compare, parsed by opts.c from one table that also gives the
 * help and the valid list in every refusal; the help; loading through the
 * session layer (session/session.h); refusing; checking the output.
 */
#include "app/cli_common.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/cli_format.h"
#include "app/datadir.h"
#include "app/opts.h"
#include "config.h"
#if HETCAST_HAVE_SIMGRID
#include "model/cluster_simgrid.h"
#endif
#include "sched/kkround.h"
#include "sched/pipeline.h"

enum {
    O_SEED = OPT_LONG, O_SOURCE, O_FORMAT, O_SUMMARY, O_SAVE, O_PARAM, O_LUA_BUDGET, O_LUA_MEMORY,
    O_TIME_LIMIT, O_NODE_LIMIT, O_SLICES, O_PATTERN, O_RECEIVERS, O_SIZE, O_OUTPUT, O_TRACE,
    O_SVG_PARTS, O_SVG_NODES, O_CERTIFY, O_CERTIFY_LP, O_SIMGRID, O_VERSION, O_TARGETS, O_EPSILON,
    O_LIST_CLUSTERS,
};

/* The options of the view, run and compare: the dispatch and the help. */
#define AT(f) offsetof(struct cli_opts, f)
static const struct opt cli_opt_table[] = {
    {"scheduler", 's', "NAME", "scheduler (default fnf; see the list below), or FILE.lua",
     OPT_CALL, 0, 0, 0, NULL},
    {"model", 'm', "NAME", "port model (default async; one-port for graphs; list below)",
     OPT_STRING, AT(s.model), 0, 0, NULL},
    {"seed", O_SEED, "N", "seed for the random schedulers (default 1)", OPT_SEED,
     AT(s.sopt.seed), 0, 0, NULL},
    {"source", O_SOURCE, "NAME", "the node that holds the message first", OPT_STRING,
     AT(s.source), 0, 0, NULL},
    {"format", O_FORMAT, "F", NULL /* the formats' list (cli_format.h), set by cli_usage */,
     OPT_STRING, AT(format), 0, 0, NULL},
    {"svg-parts", O_SVG_PARTS, "P", "for --format svg: gantt, tree or both (default) for a slide",
     OPT_STRING, AT(svg_parts), 0, 0, NULL},
    {"svg-nodes", O_SVG_NODES, "N", "for --format svg: the lanes drawn, NAME,NAME,... or critical "
     "(the source and the critical path)", OPT_STRING, AT(svg_nodes), 0, 0, NULL},
    {"output", O_OUTPUT, "DIR", "for --format otf2 and smpi: the directory they write",
     OPT_STRING, AT(output), 0, 0, NULL},
    {"size", O_SIZE, "BYTES", "the message size: SimGrid platforms (.xml, default 1), affine "
     "platform graphs, node tables with size segments", OPT_CALL,
     0, 0, 0, NULL},
    {"summary", O_SUMMARY, NULL, "only the summary lines (for large clusters)", OPT_FLAG,
     AT(summary), 0, 0, NULL},
    {"save-cluster", O_SAVE, "F", "also write the cluster as CSV to F", OPT_STRING,
     AT(save_cluster), 0, 0, NULL},
    {"param", O_PARAM, "K=V", "a parameter of a .lua cluster script (repeatable)", OPT_CALL, 0, 0,
     0, NULL},
    {"time-limit", O_TIME_LIMIT, "S", "optimal and the throughput LP: give up after S seconds "
     "(wall-clock, default 10)", OPT_SECONDS, AT(s.sopt.time_limit), 0, 0, NULL},
    {"node-limit", O_NODE_LIMIT, "N", "optimal: give up after N search nodes", OPT_CALL, 0, 0, 0,
     NULL},
    {"slices", O_SLICES, "K", "pipelined trees on platform graphs: slices to send (default 20); "
     "MPI's broadcasts on node tables and matrices: segments (default 1)",
     OPT_INT, AT(s.sopt.slices), 1, PIPE_MAX_SLICES, NULL},
    {"epsilon", O_EPSILON, "E", "kk-round: times rounded up to powers of 1 + E, within 1 + E of the "
     "least (0.001 to 4, default 0.25)", OPT_CALL, 0, 0, 0, NULL},
    {"lua-budget", O_LUA_BUDGET, "N", "Lua: instructions per call of a script (default 10000000)",
     OPT_CALL, 0, 0, 0, NULL},
    {"lua-memory", O_LUA_MEMORY, "MB", "Lua: memory of a script in MiB (default 64)", OPT_CALL, 0,
     0, 0, NULL},
    {"pattern", O_PATTERN, "P", "personalized exchange: all-to-all or all-to-some (exchange.md)",
     OPT_STRING, AT(s.pattern), 0, 0, NULL},
    {"receivers", O_RECEIVERS, "R", "all-to-some: NAME,NAME,... or P% (random, from --seed)",
     OPT_STRING, AT(s.receivers), 0, 0, NULL},
    {"targets", O_TARGETS, "NAMES", "a multicast: the nodes that must receive (NAME,NAME,...); the "
     "others may relay", OPT_STRING, AT(s.targets), 0, 0, NULL},
    {"certify", O_CERTIFY, NULL, "run and compare: prove the optimum again, by an integer program "
     "solved by GLPK (up to 10 nodes)", OPT_FLAG, AT(certify), 0, 0, NULL},
    {"certify-lp", O_CERTIFY_LP, "F", "run and compare: write that integer program to F (CPLEX LP "
     "format, for other solvers)", OPT_STRING, AT(certify_lp), 0, 0, NULL},
    {"simgrid", O_SIMGRID, NULL, "run and compare on a SimGrid platform (.xml): replay each "
     "schedule in SimGrid itself and print its makespan beside hetcast's", OPT_FLAG, AT(simgrid),
     0, 0, NULL},
    {"trace", O_TRACE, "F", "compare and the view: a measured run (CSV, as run --format csv "
     "writes; hetcast-mpi exec makes one) beside the prediction", OPT_STRING, AT(s.trace), 0, 0,
     NULL},
    {"list-clusters", O_LIST_CLUSTERS, NULL, "the bundled clusters, each a FILE by its bare name "
     "(hetcast run counterexample.csv)", OPT_FLAG, AT(list_clusters), 0, 0, NULL},
    {"version", O_VERSION, NULL, NULL /* in the usage lines, not among the options */, OPT_FLAG,
     AT(version), 0, 0, NULL},
    {NULL, 0, NULL, NULL, OPT_CALL, 0, 0, 0, NULL},
};
#undef AT

void cli_version(FILE *fp)
{
    fprintf(fp, "hetcast %s\n"
                "License: MIT (the source, LICENSE); a hetcast or hetcast-mpi binary links GLPK\n"
                "(GPL-3.0-or-later) and is therefore distributed under GPL-3.0-or-later as a whole.\n",
            HETCAST_VERSION);
}

/* The options (the formats' line from cli_format.h) and the lists that follow them. */
static void usage_options(FILE *fp)
{
    char *s = sched_names(), *m = model_names();
    char *formats = cli_format_list(FORMAT_RUN | FORMAT_COMPARE, " or ", true);
    struct opt tab[sizeof cli_opt_table / sizeof cli_opt_table[0]];
    memcpy(tab, cli_opt_table, sizeof tab);
    for (struct opt *t = tab; t->name; t++)
        if (t->key == O_FORMAT)
            t->help = formats;
    fputs("options:\n", fp);
    opts_help(fp, tab);
    fprintf(fp,
            "\n"
            "schedulers: %s\n"
            "            or FILE.lua, a heuristic in Lua (bundled in lua/; docs/lua.md)\n"
            "models:     %s\n"
            "\n"
            "exchanges (--pattern): -s random|caterpillar|rspb|orspb|matching|greedy|open-shop\n"
            "            (default caterpillar), -m sync|async\n"
            "\n"
            "Options take the GNU forms: --format=json, -sfnf, -- before a FILE that starts with -.\n"
            "\n",
            s, m);
    free(formats);
    free(s);
    free(m);
}

/* hetcast run --help and hetcast compare --help: that command's usage and options. */
static void command_usage(FILE *fp, bool compare)
{
    if (compare)
        fputs("usage: hetcast compare FILE [-s A -s B ...] [options]\n"
              "                                      several schedulers side by side (default: fnf, optimal)\n"
              "       hetcast compare FILE --trace MEASURED.csv [-s A] [options]\n"
              "                                      a measured run beside its prediction\n"
              "FILE: a .csv cluster, a .lua script, a .xml SimGrid platform, or - (CSV on standard input).\n"
              "\n", fp);
    else
        fputs("usage: hetcast run FILE [options]     schedule a broadcast and print it\n"
              "FILE: a .csv cluster, a .lua script, a .xml SimGrid platform, or - (CSV on standard input).\n"
              "\n", fp);
    usage_options(fp);
    fputs("The other commands: hetcast --help.  Manual: man hetcast; docs: docs/cli.md.\n", fp);
}

void cli_usage(FILE *fp)
{
    fprintf(fp,
            "usage: hetcast [FILE] [options]       open the interactive view (FILE: .csv, .lua or .xml)\n"
            "       hetcast run FILE [options]     schedule a broadcast and print it (FILE -: CSV on standard input)\n"
            "       hetcast compare FILE -s A -s B [options]\n"
            "                                      several schedulers side by side (default: fnf, optimal)\n"
            "       hetcast compare FILE --trace MEASURED.csv [-s A]\n"
            "                                      a measured run beside its prediction (hetcast FILE --trace\n"
            "                                      MEASURED.csv: in the view)\n"
            "       hetcast lesson FILE.lua [--print [--student] | --gift | --class ROOM]\n"
            "                                      present a lesson; --print writes its handout, --gift its\n"
            "                                      questions for Moodle; --class opens a live class at ROOM\n"
            "       hetcast join ROOM              a student's screen in a live class (docs/class.md)\n"
            "       hetcast practice LESSON [--in-a-row N] [--seed S] [--room ROOM --as NAME]\n"
            "                                      a lesson's predictions on random instances until N in\n"
            "                                      a row are right (docs/lessons.md)\n"
            "       hetcast class report ROOM.db [--format text|csv|json] [--anonymous]\n"
            "                                      a live class's votes per student and per question\n"
            "       hetcast experiment NAME [options]\n"
            "                                      reproduce a study (hetcast experiment --list)\n"
            "       hetcast bench [--quick] [--only LIST]\n"
            "                                      measure hetcast's speed (docs/performance.md)\n"
            "       hetcast --help | --version     (and hetcast COMMAND --help)\n"
            "\n");
    usage_options(fp);
    fputs("keys in the view: ? for help, q to quit.  Manual: man hetcast; docs: README.md and docs/.\n",
          fp);
}

int cli_fail(char *cause, int status)
{
    opts_say(diag_who(), cause ? cause : "failed");
    free(cause);
    return status;
}

int cli_output_status(int status)
{
    static bool said;   /* the failure is told once */
    int before = errno;   /* a writer that gave up left why (cluster_write_csv does) */
    errno = 0;
    bool bad = fflush(stdout) != 0;
    int err = errno ? errno : before ? before : EIO;
    if (!bad && !ferror(stdout))
        return status;
    if (!said)
        opts_error(1, "cannot write the output: %s", strerror(err));
    said = true;
    return status ? status : 1;
}

/* The options that are more than a value to store (cli_opt_table's OPT_CALL rows). */
static int set_opt(void *ctx, int key, const char *name, const char *val)
{
    struct cli_opts *o = ctx;
    struct session_opts *s = &o->s;
    switch (key) {
    case 's':
        if (s->nsched == SESSION_MAX_SCHEDS)
            return opts_error(2, "too many schedulers (at most %d): %s", SESSION_MAX_SCHEDS, val);
        s->sched[s->nsched++] = val;
        return 0;
    case O_PARAM:
        if (!strchr(val, '='))
            return opt_fail(name, val, "of the form name=value");
        if (s->nparams == SESSION_MAX_PARAMS)
            return opts_error(2, "too many --param (at most %d): %s", SESSION_MAX_PARAMS, val);
        s->params[s->nparams++] = val;
        return 0;
    case O_NODE_LIMIT:
        return opt_count(name, val, 1, &s->sopt.node_limit);
    case O_LUA_BUDGET:
        return opt_count(name, val, 1000, &s->sopt.lua_instructions);
    case O_LUA_MEMORY: {
        double mb;
        if (opt_double(name, val, 1, &mb))
            return 2;
        s->sopt.lua_memory = mb > 1048576 ? 1LL << 40 : (long long)(mb * 1048576);
        return 0;
    }
    case O_EPSILON: {
        char *end;
        errno = 0;
        double x = strtod(val, &end);
        if (!*val || *end || errno || !(x >= KK_MIN_EPSILON && x <= KK_MAX_EPSILON))
            return opt_fail(name, val, "a number from 0.001 to 4 (kk-round's rounding ratio less 1)");
        s->sopt.epsilon = x;
        return 0;
    }
    case O_SIZE:
        s->has_size = true;
        return opt_double(name, val, 0, &s->size);
    }
    return 0;
}

int cli_parse(const char *prog, int argc, char **argv, struct cli_opts *o, bool want_file)
{
    memset(o, 0, sizeof *o);
    session_opts_init(&o->s);
    const char *files[1];
    int nfiles = 0;
    int rc = opts_parse(prog, cli_opt_table, argc, argv, set_opt, o, files, 1, &nfiles);
    if (rc == OPTS_HELP) {
        if (strcmp(prog, "hetcast run") == 0 || strcmp(prog, "hetcast compare") == 0)
            command_usage(stdout, strcmp(prog, "hetcast compare") == 0);
        else
            cli_usage(stdout);
        return cli_output_status(0) == 0 ? -1 : 1;
    }
    if (rc == 0 && o->version) {   /* hetcast FILE --version, as hetcast --version */
        cli_version(stdout);
        return cli_output_status(0) == 0 ? -1 : 1;
    }
    if (rc == 0 && o->list_clusters) {
        if (app_list_bundled(stdout, "clusters", app_cluster_exts))
            return 1;
        return cli_output_status(0) == 0 ? -1 : 1;
    }
    if (rc)
        return rc;
    o->s.file = nfiles ? app_bundled("clusters", files[0], app_cluster_exts) : NULL;
    if (want_file && !o->s.file)
        return opts_error(2, "missing FILE (a .csv cluster, a .lua script, or - for CSV on "
                             "standard input); see hetcast --help");
    return 0;
}

#if HETCAST_HAVE_SIMGRID
/* A platform's load past a second: one line on stderr, rewritten, then ended. */
static void load_progress(void *ctx, const char *path, double done, double seconds)
{
    (void)ctx;
    char b[256];
    if (done < 0)
        fprintf(stderr, "\rhetcast: read %s in %.1f s%20s\n", SHOWN(path, b), seconds, "");
    else
        fprintf(stderr, "\rhetcast: reading %s: %3.0f%% of the routes, %.1f s",
                SHOWN(path, b), 100 * done, seconds);
    fflush(stderr);
}
#endif

struct cluster *cli_load(const struct cli_opts *o)
{
    struct diag warn;
    diag_init(&warn);
    char *cause = NULL;
#if HETCAST_HAVE_SIMGRID
    simgrid_set_progress(isatty(STDERR_FILENO) ? load_progress : NULL, NULL);   /* a terminal's */
#endif
    struct cluster *c = session_load(&o->s, &warn, &cause);
#if HETCAST_HAVE_SIMGRID
    simgrid_set_progress(NULL, NULL);
#endif
    diag_print(&warn, stderr);
    diag_free(&warn);
    if (!c)
        cli_fail(cause, 2);
    return c;
}
