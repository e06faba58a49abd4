/*
 * cli.c - hetcast's command line (SPEC §6): the view, run, compare, and the
 * dispatch to experiment and bench.  Options are parsed by opts.c from one
 * table, which also gives the help and the valid list in every refusal;
 * loading and running go through the session layer (session/session.h).
 *
 * Exit status: 0 success, 1 runtime failure, 2 bad usage or bad input.  Every
 * refusal names what was wrong and what would be valid.
 */
#include "app/cli.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/bench.h"
#include "config.h"
#include "app/datadir.h"
#include "app/study/experiment.h"
#include "output/export.h"
#include "output/export_interop.h"
#include "support/lua_sandbox.h"
#include "sched/lua_sched.h"
#include "app/opts.h"
#include "sched/pipeline.h"
#include "output/report.h"
#include "support/numfmt.h"
#if HETCAST_HAVE_SIMGRID
#include "model/cluster_simgrid.h"
#endif

enum {
    O_SEED = OPT_LONG, O_SOURCE, O_FORMAT, O_SUMMARY, O_SAVE, O_PARAM, O_LUA_BUDGET, O_LUA_MEMORY,
    O_TIME_LIMIT, O_NODE_LIMIT, O_SLICES, O_PATTERN, O_RECEIVERS, O_SIZE, O_OUTPUT, O_TRACE,
    O_SVG_PARTS, O_SVG_NODES,
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
    {"format", O_FORMAT, "F", "text (default), csv, json, svg (Gantt and tree), paje, dot or smpi "
     "(interop.md)", OPT_STRING, AT(format), 0, 0, NULL},
    {"svg-parts", O_SVG_PARTS, "P", "--format svg: gantt, tree or both (default) for a slide",
     OPT_STRING, AT(svg_parts), 0, 0, NULL},
    {"svg-nodes", O_SVG_NODES, "N", "--format svg: the lanes drawn, NAME,NAME,... or critical (the "
     "source and the critical path)", OPT_STRING, AT(svg_nodes), 0, 0, NULL},
    {"output", O_OUTPUT, "DIR", "--format smpi: the directory for the platform, traces and README",
     OPT_STRING, AT(output), 0, 0, NULL},
    {"size", O_SIZE, "BYTES", "SimGrid platforms (.xml): the message size (default 1)", OPT_CALL,
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
    {"slices", O_SLICES, "K", "pipelined trees on platform graphs: slices to send (default 20)",
     OPT_INT, AT(s.sopt.slices), 1, PIPE_MAX_SLICES, NULL},
    {"lua-budget", O_LUA_BUDGET, "N", "Lua: instructions per call of a script (default 10000000)",
     OPT_CALL, 0, 0, 0, NULL},
    {"lua-memory", O_LUA_MEMORY, "MB", "Lua: memory of a script in MiB (default 64)", OPT_CALL, 0,
     0, 0, NULL},
    {"pattern", O_PATTERN, "P", "personalized exchange: all-to-all or all-to-some (exchange.md)",
     OPT_STRING, AT(s.pattern), 0, 0, NULL},
    {"receivers", O_RECEIVERS, "R", "all-to-some: NAME,NAME,... or P% (random, from --seed)",
     OPT_STRING, AT(s.receivers), 0, 0, NULL},
    {"trace", O_TRACE, "F", "compare and the view: a measured run (CSV, as run --format csv "
     "writes; hetcast-mpi exec makes one) beside the prediction", OPT_STRING, AT(s.trace), 0, 0,
     NULL},
    {NULL, 0, NULL, NULL, OPT_CALL, 0, 0, 0, NULL},
};
#undef AT

static void usage(FILE *fp)
{
    char *s = sched_names(), *m = model_names();
    fprintf(fp,
            "usage: hetcast [FILE] [options]       open the interactive view (FILE: .csv cluster, .lua script,\n"
            "                                      or .xml SimGrid platform)\n"
            "       hetcast run FILE [options]     schedule a broadcast and print it (FILE -: CSV on standard input)\n"
            "       hetcast compare FILE -s A -s B [options]\n"
            "                                      several schedulers side by side (default: fnf, optimal)\n"
            "       hetcast compare FILE --trace MEASURED.csv [-s A]\n"
            "                                      a measured run beside its prediction (hetcast FILE --trace\n"
            "                                      MEASURED.csv: in the view)\n"
            "       hetcast lesson FILE.lua [--print]\n"
            "                                      present a lesson; --print writes its handout\n"
            "       hetcast experiment NAME [options]\n"
            "                                      reproduce a study (hetcast experiment --list)\n"
            "       hetcast bench [--quick] [--only LIST]\n"
            "                                      measure hetcast's speed (docs/performance.md)\n"
            "       hetcast --help | --version     (and hetcast COMMAND --help)\n"
            "\n"
            "options:\n");
    opts_help(fp, cli_opt_table);
    fprintf(fp,
            "\n"
            "schedulers: %s\n"
            "            or FILE.lua, a heuristic in Lua (bundled in lua/; docs/lua.md)\n"
            "models:     %s\n"
            "exchanges (--pattern): -s random|caterpillar|rspb|orspb|matching|greedy|open-shop\n"
            "            (default caterpillar), -m sync|async\n"
            "\n"
            "Options take the GNU forms: --format=json, -sfnf, -- before a FILE that starts with -.\n"
            "keys in the view: ? for help, q to quit.  Manual: man hetcast; docs: README.md and docs/.\n",
            s, m);
    free(s);
    free(m);
}

int cli_fail(char *cause, int status)
{
    opts_say("hetcast", cause ? cause : "failed");
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

/* Lua print() from a cluster script or heuristic: "script: text" on stderr. */
static void print_to_stderr(const char *script, const char *text, void *ud)
{
    (void)ud;
    opts_say(script, text);
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
    case O_SIZE:
        s->has_size = true;
        return opt_double(name, val, 0, &s->size);
    }
    return 0;
}

/*
 * Parse a command's options (argv[0] is the command word).  want_file: FILE
 * is required.  Returns 0, or an exit status (OPTS_HELP printed the help: 0).
 */
static int parse_cli(const char *prog, int argc, char **argv, struct cli_opts *o, bool want_file)
{
    memset(o, 0, sizeof *o);
    session_opts_init(&o->s);
    const char *files[1];
    int nfiles = 0;
    int rc = opts_parse(prog, cli_opt_table, argc, argv, set_opt, o, files, 1, &nfiles);
    if (rc == OPTS_HELP) {
        usage(stdout);
        return cli_output_status(0) == 0 ? -1 : 1;
    }
    if (rc)
        return rc;
    o->s.file = nfiles ? files[0] : NULL;
    if (want_file && !o->s.file)
        return opts_error(2, "missing FILE (a .csv cluster, a .lua script, or - for CSV on "
                             "standard input); see hetcast --help");
    return 0;
}

static int check_format(const struct cli_opts *o, enum report_format *f)
{
    static const char *const names[] = {"text", "csv", "json", "svg", "paje", "dot", "smpi", NULL};
    static const enum report_format fmts[] = {REPORT_TEXT, REPORT_CSV, REPORT_JSON, REPORT_SVG,
                                              REPORT_PAJE, REPORT_DOT, REPORT_SMPI};
    int i;
    if (!o->format) {
        *f = REPORT_TEXT;
        return 0;
    }
    for (i = 0; names[i] && strcmp(names[i], o->format) != 0; i++)
        ;
    if (!names[i]) {
        opts_error(2, "unknown format \"%s\"; valid formats: text, csv, json, svg, paje, dot, smpi",
                   o->format);
        return -1;
    }
    *f = fmts[i];
    if ((*f == REPORT_SMPI) != (o->output != NULL)) {
        opts_error(2, *f == REPORT_SMPI ? "--format smpi writes a directory: give it --output DIR"
                                        : "--output DIR is for --format smpi; the other formats "
                                          "print to standard output");
        return -1;
    }
    return 0;
}

struct cluster *cli_load(const struct cli_opts *o)
{
    struct diag warn;
    diag_init(&warn);
    char *cause = NULL;
    struct cluster *c = session_load(&o->s, &warn, &cause);
    diag_print(&warn, stderr);
    diag_free(&warn);
    if (!c)
        cli_fail(cause, 2);
    return c;
}

#define CLI_SVG_WARN_BYTES (4u << 20)   /* a slide's picture is well under this */

/* --svg-parts: 0, or 2 after saying what is valid. */
static int svg_parts(const struct cli_opts *o, struct svg_opts *so)
{
    if (!o->svg_parts || strcmp(o->svg_parts, "both") == 0)
        so->parts = SVG_BOTH;
    else if (strcmp(o->svg_parts, "gantt") == 0)
        so->parts = SVG_GANTT;
    else if (strcmp(o->svg_parts, "tree") == 0)
        so->parts = SVG_TREE;
    else
        return opt_fail("--svg-parts", o->svg_parts, "gantt, tree or both");
    return 0;
}

/* --svg-nodes on the loaded cluster: keep (c->n entries) or critical; 0, or 2 naming the unknown node. */
static int svg_nodes(const struct cli_opts *o, const struct cluster *c, unsigned char *keep,
                     struct svg_opts *so)
{
    if (!o->svg_nodes)
        return 0;
    if (strcmp(o->svg_nodes, "critical") == 0) {
        so->critical = true;
        return 0;
    }
    const char *p = o->svg_nodes;
    int count = 0;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char *name = xasprintf("%.*s", (int)len, p);
        int at = len ? cluster_find(c, name) : -1;
        if (at < 0) {
            char *cause = len ? xasprintf("--svg-nodes: no node named \"%s\" in %s", name, o->s.file)
                              : xasprintf("--svg-nodes: an empty name in \"%s\" (NAME,NAME,... or "
                                          "critical)", o->svg_nodes);
            free(name);
            return cli_fail(cause, 2);
        }
        free(name);
        keep[at] = 1;
        count++;
        p += len + (comma ? 1 : 0);
        if (comma && !*p)
            return cli_fail(xasprintf("--svg-nodes: an empty name in \"%s\"", o->svg_nodes), 2);
    }
    if (count == 0)
        return cli_fail(xstrdup("--svg-nodes: no node named (NAME,NAME,... or critical)"), 2);
    so->keep = keep;
    return 0;
}

/* The SVG on standard output, with a warning on stderr when it is larger than a few MB. */
void cli_print_svg(const struct run *runs, int k, const struct svg_opts *so)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) {
        export_svg_opts(stdout, runs, k, so);
        return;
    }
    export_svg_opts(m, runs, k, so);
    fclose(m);
    if (len > CLI_SVG_WARN_BYTES)
        fprintf(stderr, "hetcast: warning: the SVG is %.1f MB, more than a slide holds\n", len / 1048576.0);
    fwrite(buf, 1, len, stdout);
    free(buf);
}

static void print_result(const struct cli_opts *o, enum report_format fmt, struct run *runs,
                         int k, bool compare, const struct svg_opts *so)
{
    if (fmt == REPORT_SVG)
        cli_print_svg(runs, compare ? k : 1, so);
    else if (fmt == REPORT_PAJE)
        export_paje(stdout, runs, compare ? k : 1);
    else if (fmt == REPORT_DOT)
        export_dot(stdout, runs, compare ? k : 1);
    else if (!compare && fmt == REPORT_TEXT)
        report_run_text(stdout, &runs[0], o->summary);
    else if (!compare && fmt == REPORT_CSV)
        report_run_csv(stdout, &runs[0], o->summary, true);
    else if (!compare)
        report_run_json(stdout, &runs[0], o->summary);
    else if (fmt == REPORT_TEXT)
        report_compare_text(stdout, runs, k, o->summary);
    else if (fmt == REPORT_CSV)
        report_compare_csv(stdout, runs, k, o->summary);
    else
        report_compare_json(stdout, runs, k, o->summary);
}

/* --format smpi: the replay directory, then what was written and how to replay it. */
static int smpi_out(const struct run *r, const char *dir)
{
    char *cause = NULL, *command = NULL;
    if (export_smpi_check(r, &cause) < 0)
        return cli_fail(cause, 2);
    if (export_smpi(r, dir, &command, &cause) < 0)
        return cli_fail(cause, 1);
    printf("makespan %s (%s, %s): replay it with SimGrid, ", numfmt_num(r->eng.makespan),
           r->sched.ops->name, model_name(r->model));
    text_put(dir, stdout);   /* the user's path, escaped like every message */
    fputs("/README:\n  ", stdout);
    text_put(command, stdout);
    fputc('\n', stdout);
    free(command);
    return 0;
}

static int cmd_run(int argc, char **argv, bool compare)
{
    struct cli_opts o;
    int rc = parse_cli(compare ? "hetcast compare" : "hetcast run", argc, argv, &o, true);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (o.s.trace && !compare)
        return opts_error(2, "--trace is for hetcast compare (and the view): hetcast compare %s "
                             "--trace %s", o.s.file, o.s.trace);
    if (o.s.trace && session_is_exchange(&o.s))
        return opts_error(2, "--trace compares a broadcast; a personalized exchange (--pattern, "
                             "--receivers) has no measured trace");
    if ((o.svg_parts || o.svg_nodes) && (!o.format || strcmp(o.format, "svg") != 0))
        return opts_error(2, "--svg-parts and --svg-nodes shape an SVG: add --format svg");
    if (session_is_exchange(&o.s))
        return cli_exchange(&o, compare);
    enum report_format fmt;
    if (check_format(&o, &fmt) < 0)
        return 2;
    if (o.s.trace)
        return cli_trace(&o, fmt);
    char *cause = NULL;
    const struct sched_ops *ops[SESSION_MAX_SCHEDS];
    int k = o.s.nsched;
    if (k == 0) {
        o.s.sched[k++] = "fnf";
        if (compare)
            o.s.sched[k++] = "optimal";
    }
    if (!compare && k > 1)
        return opts_error(2, "run takes one scheduler (got %d); use hetcast compare for more", k);
    if (compare && fmt == REPORT_SMPI)
        return opts_error(2, "--format smpi replays one schedule: use hetcast run -s NAME");
    struct svg_opts so = {SVG_BOTH, NULL, false};
    if (svg_parts(&o, &so))
        return 2;
    for (int i = 0; i < k; i++)
        if (!(ops[i] = session_sched(o.s.sched[i], &cause)))
            return cli_fail(cause, 2);
    struct cluster *c = cli_load(&o);
    if (!c)
        return 2;
    enum model m;
    if (session_model(&o.s, c, &m, &cause) < 0) {
        cluster_free(c);
        return cli_fail(cause, 2);
    }
    if (o.s.nsched == 0)   /* no -s: fnf, or what works on this kind of cluster */
        ops[0] = sched_default(c, m);
    for (int i = 0; i < k; i++)
        if (sched_check(ops[i], c, m, &cause) < 0) {
            cluster_free(c);
            return cli_fail(cause, 2);
        }
    if (o.save_cluster && cluster_save_csv(c, o.save_cluster, &cause) < 0) {
        cluster_free(c);
        return cli_fail(cause, 1);
    }
    unsigned char *keep = o.svg_nodes ? xcalloc((size_t)c->n + 1, 1) : NULL;   /* a byte a node */
    if (svg_nodes(&o, c, keep, &so)) {
        free(keep);
        cluster_free(c);
        return 2;
    }
    struct run *runs = xcalloc((size_t)k, sizeof *runs);
    bool lean = o.summary && fmt <= REPORT_JSON;   /* only the result is printed */
    /* run --format csv: the table needs no record kept, the rows are written as
       a lean engine books them (report_csv_stream_book), where the scheduler
       allows a lean engine; else from the records afterwards, as before */
    struct report_csv_stream stream = {stdout, c, ops[0]->name, 0};
    if (!compare && !o.summary && fmt == REPORT_CSV) {
        lean = true;
        o.s.sopt.on_book = report_csv_stream_book;
        o.s.sopt.on_book_ctx = &stream;
    }
    int done = 0;
    for (; done < k; done++)
        if (session_run(&runs[done], &o.s, c, m, ops[done], lean, RUN_OPT_SMALL, &cause) < 0)
            break;
    int status = 0;
    if (done < k)
        status = cli_fail(cause, lua_sched_is(ops[done]) ? 2 : 1);   /* a bad script is bad input */
    else if (fmt == REPORT_SMPI)
        status = smpi_out(&runs[0], o.output);
    else if (o.s.sopt.on_book && runs[0].eng.lean) {
        if (stream.rows == 0)   /* streamed; no booking (one node): the header alone */
            report_run_csv(stdout, &runs[0], false, true);
    } else
        print_result(&o, fmt, runs, k, compare, &so);
    for (int i = 0; i < done; i++)
        run_free(&runs[i]);
    free(runs);
    free(keep);
    cluster_free(c);
    return cli_output_status(status);
}

static int cmd_view(int argc, char **argv, cli_view_fn view)
{
    struct cli_opts o;
    int rc = parse_cli("hetcast", argc, argv, &o, false);
    if (rc)
        return rc < 0 ? 0 : rc;
    char deflt[4096];
    if (!o.s.file) {
        const char *data = app_datadir();
        if (!data)
            return opts_error(2, "no FILE, and the bundled clusters are not installed (set "
                                 "HETCAST_DATADIR to a folder holding clusters/ and lua/)");
        snprintf(deflt, sizeof deflt, "%s/clusters/counterexample.csv", data);
        o.s.file = deflt;
    }
    if (strcmp(o.s.file, SESSION_STDIN) == 0)
        return opts_error(2, "the view reads its keys from standard input: give it a cluster "
                             "FILE (hetcast run - reads a cluster from standard input)");
    if (o.s.trace && session_is_exchange(&o.s))
        return opts_error(2, "--trace compares a broadcast; a personalized exchange (--pattern, "
                             "--receivers) has no measured trace");
    if (o.format || o.summary || o.save_cluster || o.output || o.svg_parts || o.svg_nodes)
        return opts_error(2, "--format, --output, --summary, --save-cluster and --svg-* are for hetcast "
                             "run and compare; the view exports with e");
    if (!view)
        return opts_error(1, "this build has no interactive view; use hetcast run %s", o.s.file);
    return view(&o.s);
}

static int dispatch(int argc, char **argv, cli_view_fn view, const struct bench_view_ops *bench_view);

int cli_main(int argc, char **argv, cli_view_fn view, const struct bench_view_ops *bench_view)
{
    return cli_output_status(dispatch(argc, argv, view, bench_view));
}

/* The command argv[1] names, or the view. */
static int dispatch(int argc, char **argv, cli_view_fn view, const struct bench_view_ops *bench_view)
{
    /* A file-size limit (ulimit -f) makes write() fail with EFBIG, which every
     * save reports (status 1, the old file intact), instead of killing us. */
    signal(SIGXFSZ, SIG_IGN);
    sandbox_set_print(print_to_stderr, NULL);
    app_find_data();
    if (argc < 2)
        return cmd_view(argc, argv, view);
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
        return cmd_run(argc - 1, argv + 1, false);
    if (strcmp(cmd, "compare") == 0)
        return cmd_run(argc - 1, argv + 1, true);
    if (strcmp(cmd, "experiment") == 0)
        return experiment_main(argc - 2, argv + 2);
    if (strcmp(cmd, "bench") == 0)
        return bench_main(argc - 1, argv + 1, bench_view);
    if (strcmp(cmd, "lesson") == 0)
        return cmd_lesson(argc - 1, argv + 1);
    /* "hetcast runn x.csv": a mistyped command, not a missing cluster file. */
    if (cmd[0] != '-' && !strchr(cmd, '.') && !strchr(cmd, '/') && access(cmd, F_OK) != 0) {
        return opts_error(2, "unknown command %s; the commands are run, compare, experiment, "
                             "bench and lesson (or give a FILE to open the view); see hetcast --help", cmd);
    }
    return cmd_view(argc, argv, view);
}
