/*
 * cli.c - hetcast's command line (SPEC §6): run, compare, experiment, help.
 *
 * Exit status: 0 success, 1 runtime failure, 2 bad usage or bad input.  Every
 * refusal names what was wrong and what would be valid.
 */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "config.h"
#include "exchange.h"
#include "experiment.h"
#include "export.h"
#include "lua_cluster.h"
#include "lua_sched.h"
#include "pipeline.h"
#include "report.h"
#include "run.h"

static const char usage_text[] =
    "usage: hetcast [FILE]                 open the interactive view (FILE: .csv cluster or .lua script)\n"
    "       hetcast run FILE [options]     schedule a broadcast and print it\n"
    "       hetcast compare FILE -s A -s B [options]\n"
    "                                      several schedulers side by side (default: fnf, optimal)\n"
    "       hetcast experiment NAME [options]\n"
    "                                      reproduce a study (hetcast experiment --list)\n"
    "       hetcast bench [--quick] [--only LIST]\n"
    "                                      measure hetcast's speed (docs/performance.md)\n"
    "       hetcast --help | --version\n"
    "\n"
    "options:\n"
    "  -s, --scheduler NAME   scheduler (default fnf): %s\n"
    "                         or FILE.lua, a heuristic in Lua (bundled in lua/; docs/lua.md)\n"
    "  -m, --model NAME       port model (default async; one-port for graphs): %s\n"
    "      --seed N           seed for the random schedulers (default 1)\n"
    "      --source NAME      the node that holds the message first\n"
    "      --format F         text (default), csv, json or svg (Gantt and tree)\n"
    "      --summary          only the summary lines (for large clusters)\n"
    "      --save-cluster F   also write the cluster as CSV to F\n"
    "      --param K=V        a parameter of a .lua cluster script (repeatable)\n"
    "      --lua-budget N     Lua: instructions per call of a script (default 10000000)\n"
    "      --lua-memory MB    Lua: memory of a script in MiB (default 64)\n"
    "      --time-limit S     optimal: give up after S seconds (default 10)\n"
    "      --node-limit N     optimal: give up after N search nodes\n"
    "      --slices K         pipelined trees on platform graphs: slices to send (default 20)\n"
    "      --pattern P        personalized exchange, all-to-all or all-to-some (docs/exchange.md):\n"
    "                         -s random|caterpillar|rspb|orspb|matching|greedy|open-shop\n"
    "                         (default caterpillar), -m sync|async\n"
    "      --receivers R      all-to-some: NAME,NAME,... or P%% (a random P percent, from --seed)\n"
    "\n"
    "keys in the view: ? for help, q to quit.  Docs: README.md and docs/.\n";

static void usage(FILE *fp)
{
    char *s = sched_names(), *m = model_names();
    fprintf(fp, usage_text, s, m);
    free(s);
    free(m);
}

static const char valid_options[] =
    "-s, -m, --seed, --source, --format, --summary, --save-cluster, --param, --time-limit, "
    "--node-limit, --slices, --lua-budget, --lua-memory, --pattern, --receivers";

static int bad_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "hetcast: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    return 2;
}

static int parse_number(const char *opt, const char *s, double lo, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (!*s || *end || errno || !isfinite(x) || x < lo) {
        fprintf(stderr, "hetcast: %s: \"%s\" is not a valid number (at least %g)\n", opt, s, lo);
        return -1;
    }
    *out = x;
    return 0;
}

/* Parse options after the command word. Returns 0, or an exit status. */
static int parse_opts(int argc, char **argv, int i, struct cli_opts *o, bool want_file)
{
    for (; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED_VALUE()                                                       \
    do {                                                                   \
        if (!val)                                                          \
            return bad_usage("option %s needs a value", a);                \
        i++;                                                               \
    } while (0)
        if (strcmp(a, "-s") == 0 || strcmp(a, "--scheduler") == 0) {
            NEED_VALUE();
            if (o->nsched == CLI_MAX_SCHEDS)
                return bad_usage("too many schedulers (at most 16): %s", val);
            o->sched[o->nsched++] = val;
        } else if (strcmp(a, "-m") == 0 || strcmp(a, "--model") == 0) {
            NEED_VALUE();
            o->model = val;
        } else if (strcmp(a, "--seed") == 0) {
            NEED_VALUE();
            char *end;
            errno = 0;
            unsigned long long s = strtoull(val, &end, 10);
            if (!*val || *end || errno || val[0] == '-')
                return bad_usage("--seed: \"%s\" is not a non-negative integer", val);
            o->sopt.seed = s;
            o->seed_given = true;
        } else if (strcmp(a, "--source") == 0) {
            NEED_VALUE();
            o->source = val;
        } else if (strcmp(a, "--format") == 0) {
            NEED_VALUE();
            o->format = val;
        } else if (strcmp(a, "--save-cluster") == 0) {
            NEED_VALUE();
            o->save_cluster = val;
        } else if (strcmp(a, "--param") == 0) {
            NEED_VALUE();
            if (!strchr(val, '='))
                return bad_usage("--param: \"%s\" is not of the form name=value", val);
            if (o->nparams == CLI_MAX_PARAMS)
                return bad_usage("too many --param (at most 64): %s", val);
            o->params[o->nparams++] = val;
        } else if (strcmp(a, "--time-limit") == 0) {
            NEED_VALUE();
            if (parse_number(a, val, 0, &o->sopt.time_limit) < 0)
                return 2;
        } else if (strcmp(a, "--node-limit") == 0) {
            NEED_VALUE();
            double x;
            if (parse_number(a, val, 1, &x) < 0)
                return 2;
            o->sopt.node_limit = (long long)x;
        } else if (strcmp(a, "--slices") == 0) {
            NEED_VALUE();
            char *end;
            errno = 0;
            long k = strtol(val, &end, 10);
            if (!*val || *end || errno || k < 1 || k > PIPE_MAX_SLICES) {
                fprintf(stderr, "hetcast: --slices: \"%s\" is not an integer from 1 to %d\n", val,
                        PIPE_MAX_SLICES);
                return 2;
            }
            o->sopt.slices = (int)k;
        } else if (strcmp(a, "--lua-budget") == 0) {
            NEED_VALUE();
            double x;
            if (parse_number(a, val, 1000, &x) < 0)
                return 2;
            o->sopt.lua_instructions = x > 1e15 ? (long long)1e15 : (long long)x;
        } else if (strcmp(a, "--lua-memory") == 0) {
            NEED_VALUE();
            double x;
            if (parse_number(a, val, 1, &x) < 0)
                return 2;
            o->sopt.lua_memory = x > 1048576 ? 1LL << 40 : (long long)(x * 1048576);
        } else if (strcmp(a, "--pattern") == 0) {
            NEED_VALUE();
            o->pattern = val;
        } else if (strcmp(a, "--receivers") == 0) {
            NEED_VALUE();
            o->receivers = val;
        } else if (strcmp(a, "--summary") == 0) {
            o->summary = true;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "hetcast: unknown option %s; valid options: %s\n", a, valid_options);
            return 2;
        } else if (!o->file) {   /* the view takes an optional FILE */
            o->file = a;
        } else {
            return bad_usage("unexpected argument \"%s\" (one FILE only)", a);
        }
#undef NEED_VALUE
    }
    if (want_file && !o->file)
        return bad_usage("%s", "missing FILE (a .csv cluster or a .lua script); see hetcast --help");
    return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

struct cluster *cli_load_cluster(const struct cli_opts *o, char **cause)
{
    struct diag d;
    diag_init(&d);
    struct cluster *c = NULL;
    if (ends_with(o->file, ".lua")) {
        struct sandbox_limits lim = {o->sopt.lua_instructions, o->sopt.lua_memory};
        c = cluster_load_lua(o->file, o->params, o->nparams, &lim, o->sopt.seed, &d);
    } else {
        c = cluster_load_csv(o->file, &d);
        if (c && o->nparams > 0)
            diag_warn(&d, NULL, 0, NULL, "--param is for .lua cluster scripts; ignored for %s",
                      o->file);
    }
    if (!c) {
        char *all = diag_join(&d);
        set_cause(cause, "%s", all ? all : "cannot load the cluster");
        free(all);
        diag_free(&d);
        return NULL;
    }
    if (o->source) {
        int s = cluster_find(c, o->source);
        if (s < 0) {
            set_cause(cause, "--source: \"%s\" is not a node of %s (its first nodes: %s%s%s%s%s)",
                      o->source, o->file, c->nodes[0].name, c->n > 1 ? ", " : "",
                      c->n > 1 ? c->nodes[1].name : "", c->n > 2 ? ", " : "",
                      c->n > 2 ? c->nodes[2].name : "");
            cluster_free(c);
            diag_free(&d);
            return NULL;
        }
        c->source = s;
    }
    diag_print(&d, stderr);   /* the warnings */
    diag_free(&d);
    return c;
}

int cli_model(const struct cli_opts *o, const struct cluster *c, enum model *m, char **cause)
{
    if (!o->model) {
        *m = model_default_for(c->kind);
        return 0;
    }
    if (model_parse(o->model, m) < 0) {
        char *names = model_names();
        set_cause(cause, "unknown model \"%s\"; valid models: %s", o->model, names);
        free(names);
        return -1;
    }
    if (!(model_mask_for(c->kind) & MODEL_BIT(*m)))
        return set_cause(cause, "the %s model does not apply to a %s; use -m one-port or -m multi-port",
                         model_name(*m), cluster_kind_name(c->kind));
    return 0;
}

const struct sched_ops *cli_sched(const char *name, char **cause)
{
    if (ends_with(name, ".lua"))
        return lua_sched_ops(name, cause);
    const struct sched_ops *ops = sched_find(name);
    enum xalgo xa;
    if (!ops && exchange_algo_parse(name, &xa) == 0) {
        char *names = sched_names();
        set_cause(cause, "%s schedules a personalized exchange: use it with --pattern all-to-all "
                  "or --pattern all-to-some; the broadcast schedulers are: %s", name, names);
        free(names);
    } else if (!ops) {
        char *names = sched_names();
        set_cause(cause, "unknown scheduler \"%s\"; valid schedulers: %s (or a Lua heuristic, "
                  "FILE.lua)", name, names);
        free(names);
    }
    return ops;
}

static int fail(char *cause, int status)
{
    fprintf(stderr, "hetcast: %s\n", cause ? cause : "failed");
    free(cause);
    return status;
}

static int check_format(const struct cli_opts *o, enum report_format *f)
{
    const char *s = o->format ? o->format : "text";
    if (strcmp(s, "text") == 0)
        *f = REPORT_TEXT;
    else if (strcmp(s, "csv") == 0)
        *f = REPORT_CSV;
    else if (strcmp(s, "json") == 0)
        *f = REPORT_JSON;
    else if (strcmp(s, "svg") == 0)
        *f = REPORT_SVG;
    else {
        fprintf(stderr, "hetcast: unknown format \"%s\"; valid formats: text, csv, json, svg\n", s);
        return -1;
    }
    return 0;
}

static int cmd_run(int argc, char **argv, bool compare)
{
    struct cli_opts o;
    memset(&o, 0, sizeof o);
    sched_opts_default(&o.sopt);
    int rc = parse_opts(argc, argv, 2, &o, true);
    if (rc)
        return rc;
    if (o.pattern || o.receivers)
        return cli_exchange(&o, compare);
    enum report_format fmt;
    if (check_format(&o, &fmt) < 0)
        return 2;
    char *cause = NULL;
    const struct sched_ops *ops[CLI_MAX_SCHEDS];
    int k = o.nsched;
    if (k == 0) {
        o.sched[k++] = "fnf";
        if (compare)
            o.sched[k++] = "optimal";
    }
    if (!compare && k > 1)
        return bad_usage("run takes one scheduler (got several); use hetcast compare for %s",
                         "more");
    for (int i = 0; i < k; i++)
        if (!(ops[i] = cli_sched(o.sched[i], &cause)))
            return fail(cause, 2);
    struct cluster *c = cli_load_cluster(&o, &cause);
    if (!c)
        return fail(cause, 2);
    enum model m;
    if (cli_model(&o, c, &m, &cause) < 0) {
        cluster_free(c);
        return fail(cause, 2);
    }
    if (o.nsched == 0)   /* no -s: fnf, or what works on this kind of cluster */
        ops[0] = sched_default(c, m);
    for (int i = 0; i < k; i++)
        if (sched_check(ops[i], c, m, &cause) < 0) {
            cluster_free(c);
            return fail(cause, 2);
        }
    if (o.save_cluster && cluster_save_csv(c, o.save_cluster, &cause) < 0) {
        cluster_free(c);
        return fail(cause, 1);
    }
    struct run *runs = xcalloc((size_t)k, sizeof *runs);
    int done = 0;
    for (; done < k; done++) {
        struct sched_opts so = o.sopt;
        if (lua_sched_script(ops[done]))
            so.script = lua_sched_script(ops[done]);
        so.lean = o.summary && fmt != REPORT_SVG;   /* only the result is printed */
        if (run_schedule(&runs[done], c, m, ops[done], &so, RUN_OPT_SMALL, &cause) < 0)
            break;
    }
    if (done < k) {
        bool bad_script = lua_sched_is(ops[done]);   /* a bad script is bad input */
        for (int i = 0; i < done; i++)
            run_free(&runs[i]);
        free(runs);
        cluster_free(c);
        return fail(cause, bad_script ? 2 : 1);
    }
    if (fmt == REPORT_SVG) {
        export_svg(stdout, runs, compare ? k : 1);
    } else if (!compare) {
        if (fmt == REPORT_TEXT)
            report_run_text(stdout, &runs[0], o.summary);
        else if (fmt == REPORT_CSV)
            report_run_csv(stdout, &runs[0], o.summary, true);
        else
            report_run_json(stdout, &runs[0], o.summary);
    } else {
        if (fmt == REPORT_TEXT)
            report_compare_text(stdout, runs, k, o.summary);
        else if (fmt == REPORT_CSV)
            report_compare_csv(stdout, runs, k, o.summary);
        else
            report_compare_json(stdout, runs, k, o.summary);
    }
    for (int i = 0; i < k; i++)
        run_free(&runs[i]);
    free(runs);
    cluster_free(c);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "hetcast: cannot write the output: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}

static int cmd_view(int argc, char **argv, int first, cli_view_fn view)
{
    struct cli_opts o;
    memset(&o, 0, sizeof o);
    sched_opts_default(&o.sopt);
    int rc = parse_opts(argc, argv, first, &o, false);
    if (rc)
        return rc;
    if (!o.file)
        o.file = HETCAST_CLUSTERDIR "/counterexample.csv";
    if (!view) {
        fprintf(stderr, "hetcast: this build has no interactive view; use hetcast run %s\n", o.file);
        return 1;
    }
    return view(&o);
}

int cli_main(int argc, char **argv, cli_view_fn view, const struct bench_view_ops *bench_view)
{
    if (argc < 2)
        return cmd_view(argc, argv, 1, view);
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("hetcast %s\n", HETCAST_VERSION);
        return 0;
    }
    if (strcmp(cmd, "run") == 0)
        return cmd_run(argc, argv, false);
    if (strcmp(cmd, "compare") == 0)
        return cmd_run(argc, argv, true);
    if (strcmp(cmd, "experiment") == 0)
        return experiment_main(argc - 2, argv + 2);
    if (strcmp(cmd, "bench") == 0)
        return bench_main(argc - 2, argv + 2, bench_view);
    if (cmd[0] == '-' && cmd[1] != '\0' && strcmp(cmd, "-s") != 0 && strcmp(cmd, "-m") != 0 &&
        strncmp(cmd, "--", 2) != 0) {
        fprintf(stderr, "hetcast: unknown option %s; see hetcast --help\n", cmd);
        return 2;
    }
    /* "hetcast runn x.csv": a mistyped command, not a missing cluster file. */
    if (cmd[0] != '-' && !strchr(cmd, '.') && !strchr(cmd, '/') && access(cmd, F_OK) != 0) {
        fprintf(stderr, "hetcast: unknown command %s; the commands are run, compare, experiment "
                        "and bench (or give a FILE to open the view); see hetcast --help\n", cmd);
        return 2;
    }
    return cmd_view(argc, argv, 1, view);
}
