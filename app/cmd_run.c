/*
 * cmd_run.c - `hetcast run FILE` and `hetcast compare FILE` (SPEC §6): one
 * schedule or several side by side, in the format --format names
 * (cli_format.h).  A personalized exchange (--pattern) is cli_exchange.c's,
 * a measured run beside its prediction (--trace) cli_trace.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cli_common.h"
#include "app/cli_format.h"
#include "app/opts.h"
#include "output/export.h"
#include "output/report.h"
#include "output/spool.h"
#include "sched/lua_sched.h"
#include "sched/mpibcast.h"

/* --format (and --output) checked: the format, or NULL after a message. */
static const struct cli_format *check_format(const struct cli_opts *o)
{
    const struct cli_format *f = cli_format_find(o->format);
    if (!o->format)
        return f;
    if (!f) {
        char *valid = cli_format_list(FORMAT_RUN | FORMAT_COMPARE, ", ", false);
        char guess[96];
        opts_error(2, "unknown format \"%s\"; %svalid formats: %s", o->format,
                   text_guess(o->format, valid, guess, sizeof guess), valid);
        free(valid);
        return NULL;
    }
    if ((f->flags & FORMAT_DIR) && !o->output) {
        opts_error(2, "--format %s writes a directory: give it --output DIR", f->name);
        return NULL;
    }
    if (!(f->flags & FORMAT_DIR) && o->output) {
        char *dirs = cli_format_list(FORMAT_DIR, " or ", false);
        opts_error(2, "--output DIR is for --format %s; the other formats print to standard "
                      "output", dirs);
        free(dirs);
        return NULL;
    }
    return f;
}

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

/* --output without --format: 0, or 2 after saying what --output is for and,
 * when the name ends like a format, the command that writes that file. */
static int check_output_alone(const struct cli_opts *o, bool compare)
{
    if (!o->output || o->format)
        return 0;
    char *dirs = cli_format_list(FORMAT_DIR, " or ", false);
    const char *dot = strrchr(o->output, '.'), *slash = strrchr(o->output, '/');
    const struct cli_format *f = dot && (!slash || dot > slash) && dot[1] ? cli_format_find(dot + 1) : NULL;
    if (f && !(f->flags & FORMAT_DIR) && (f->flags & (compare ? FORMAT_COMPARE : FORMAT_RUN))) {
        opts_error(2, "--output is the directory of --format %s; the other formats print to "
                      "standard output: hetcast %s %s --format %s > %s", dirs,
                   compare ? "compare" : "run", o->s.file, f->name, o->output);
    } else {
        opts_error(2, "--output is the directory of --format %s: add --format %s, or leave "
                      "--output out to print the report", dirs, dirs);
    }
    free(dirs);
    return 2;
}

/* Options that do not go together: 0, or 2 with the message printed. */
static int check_combination(const struct cli_opts *o, bool compare)
{
    if (o->s.trace && !compare)
        return opts_error(2, "--trace is for hetcast compare (and the view): hetcast compare %s "
                             "--trace %s", o->s.file, o->s.trace);
    if (o->s.trace && session_is_exchange(&o->s))
        return opts_error(2, "--trace compares a broadcast; a personalized exchange (--pattern, "
                             "--receivers) has no measured trace");
    if ((o->svg_parts || o->svg_nodes) && (!o->format || strcmp(o->format, "svg") != 0))
        return opts_error(2, "--svg-parts and --svg-nodes shape an SVG: add --format svg");
    return check_output_alone(o, compare);
}

/* run (compare false) and compare. */
static int run_or_compare(int argc, char **argv, bool compare)
{
    struct cli_opts o;
    int rc = cli_parse(compare ? "hetcast compare" : "hetcast run", argc, argv, &o, true);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (check_combination(&o, compare))
        return 2;
    if (session_is_exchange(&o.s))
        return cli_exchange(&o, compare);
    const struct cli_format *f = check_format(&o);
    if (!f)
        return 2;
    if (o.s.trace)
        return cli_trace(&o, f);
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
    if (compare && !(f->flags & FORMAT_COMPARE))
        return opts_error(2, "--format %s replays one schedule: use hetcast run -s NAME", f->name);
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
    if (o.s.nsched == 0 && k > 1 && run_refuse_unproven(c, m, ops[1], NULL) < 0)
        k = 1;   /* compare on shared links: no optimum to show beside fnf */
    for (int i = 0; i < k; i++)
        if (run_refuse_unproven(c, m, ops[i], &cause) < 0 || sched_check(ops[i], c, m, &cause) < 0 ||
            mpibcast_check(ops[i], c, o.s.sopt.slices, &cause) < 0) {
            cluster_free(c);
            return cli_fail(cause, 2);
        }
    if (cli_certify_check(&o, c, f == cli_format_find(NULL)) || cli_simgrid_check(&o, c)) {
        cluster_free(c);
        return 2;
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
    bool lean = o.summary && (f->flags & FORMAT_LEAN) && !o.simgrid;   /* only the result */
    /* run in a format that streams: the table needs no record kept, the rows
       are written as a lean engine books them, where the scheduler allows a
       lean engine; else from the records afterwards */
    struct report_csv_stream stream = {stdout, c, ops[0]->name, 0};
    struct spool sp = {0};
    if (!compare && !o.summary && f->stream) {
        lean = true;
        o.s.sopt.on_book = f->stream;
        o.s.sopt.on_book_ctx = &stream;
        o.s.sopt.on_book_rows = true;   /* a row names its nodes */
    } else if (!compare && !o.summary && f->spooled) {
        /* the bookings kept in a temporary file for a writer that needs them
           all (output/spool.h); without one, the full engine's records */
        char *why = NULL;
        if (spool_open(&sp, &why) == 0) {
            lean = true;
            o.s.sopt.on_book = spool_book;
            o.s.sopt.on_book_ctx = &sp;
        }
        free(why);
    }
    o.s.sopt.reasons_later = (f->flags & FORMAT_WHY_LATER) != 0;
    o.s.sopt.reasons_unread = o.summary && !compare;
    int done = 0;
    for (; done < k; done++)
        if (session_run(&runs[done], &o.s, c, m, ops[done], lean, RUN_OPT_SMALL, &cause) < 0)
            break;
    int status = 0;
    if (done < k)
        status = cli_fail(cause, lua_sched_is(ops[done]) ? 2 : 1);   /* a bad script is bad input */
    else if (sp.fp && runs[0].eng.lean) {
        struct format_out out = {compare, o.summary, &so, o.output};
        if ((status = f->spooled(&out, &runs[0], &sp, &cause)) != 0)
            cli_fail(cause, status);
    } else if (!(o.s.sopt.on_book == f->stream && runs[0].eng.lean) || stream.rows == 0) {
        /* not streamed, or streamed without a booking (one node): the header alone */
        struct format_out out = {compare, o.summary, &so, o.output};
        if ((status = f->runs(&out, runs, compare ? k : 1, &cause)) != 0)
            cli_fail(cause, status);
    }
    if (status == 0 && done == k && (o.certify || o.certify_lp))
        status = cli_certify(&o, &runs[0]);
    if (status == 0 && done == k && o.simgrid)
        status = cli_simgrid(&o, runs, compare ? k : 1);
    for (int i = 0; i < done; i++)
        run_free(&runs[i]);
    spool_close(&sp);
    free(runs);
    free(keep);
    cluster_free(c);
    return cli_output_status(status);
}

int cmd_run(int argc, char **argv, const struct cli_views *v)
{
    (void)v;
    return run_or_compare(argc, argv, false);
}

int cmd_compare(int argc, char **argv, const struct cli_views *v)
{
    (void)v;
    return run_or_compare(argc, argv, true);
}
