/*
 * cli_trace.c - `hetcast compare FILE --trace MEASURED.csv`: a measured
 * timeline (hetcast-mpi exec writes one; docs/mpi.md) beside the schedule
 * hetcast predicts, as text, CSV, JSON or SVG.  Reading and pairing are the
 * core's (session/trace.h), the output output/report_trace.h's and output/export.h's.
 *
 * Which scheduler is predicted: each -s, paired with the trace's rows of
 * that scheduler (trace_select); without -s, every scheduler the trace's
 * scheduler column names, or the default one (fnf) for a trace whose one
 * group names none.  Exit status: 0, 1 runtime failure, 2 bad usage or input.
 */
#include "app/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/export.h"
#include "app/opts.h"
#include "output/report.h"
#include "output/report_trace.h"
#include "session/trace.h"

/* Print d's lines and return 2 (a bad trace is bad input). */
static int bad_input(struct diag *d)
{
    diag_print(d, stderr);
    diag_free(d);
    return 2;
}

/* The schedulers to predict: ops[i] with the trace's group grp[i]; k of them, or -1 after a message. */
static int pick(const struct cli_opts *o, const struct trace *t, const struct cluster *c, enum model m,
                const struct sched_ops **ops, int *grp)
{
    char *cause = NULL;
    int k = 0;
    if (o->s.nsched > 0) {
        for (int i = 0; i < o->s.nsched; i++) {
            if (!(ops[k] = session_sched(o->s.sched[i], &cause)) ||
                (grp[k] = trace_select(t, ops[k]->name, &cause)) < 0)
                return cli_fail(cause, 2), -1;
            k++;
        }
        return k;
    }
    for (int g = 0; g < t->ngroups && k < SESSION_MAX_SCHEDS; g++) {
        const char *name = t->groups[g];
        if (!sched_find(name) && t->ngroups == 1) {   /* one run named otherwise: the default */
            ops[k] = sched_default(c, m);
        } else if (!sched_find(name)) {
            char *valid = sched_names(), b[128];
            opts_error(2, "%s:%d: scheduler: \"%s\" is not one of hetcast's (%s); give -s NAME to "
                       "compare the rows of one", t->file, t->group_line[g], SHOWN(name, b), valid);
            free(valid);
            return -1;
        } else {
            ops[k] = sched_find(name);
        }
        grp[k++] = g;
    }
    return k;
}

int cli_trace(const struct cli_opts *o, enum report_format fmt)
{
    if (fmt != REPORT_TEXT && fmt != REPORT_CSV && fmt != REPORT_JSON && fmt != REPORT_SVG)
        return opts_error(2, "--trace prints text, csv, json or svg (not --format %s)", o->format);
    if (o->save_cluster)
        return opts_error(2, "--save-cluster is for a prediction alone; leave out --trace");
    char *cause = NULL;
    for (int i = 0; i < o->s.nsched; i++)   /* a misspelt name before any loading */
        if (!session_sched(o->s.sched[i], &cause))
            return cli_fail(cause, 2);
    struct cluster *c = cli_load(o);
    if (!c)
        return 2;
    enum model m;
    if (session_model(&o->s, c, &m, &cause) < 0) {
        cluster_free(c);
        return cli_fail(cause, 2);
    }
    struct diag d;
    diag_init(&d);
    struct trace t;
    if (trace_load(&t, o->s.trace, c, &d) < 0) {
        cluster_free(c);
        return bad_input(&d);
    }
    const struct sched_ops *ops[SESSION_MAX_SCHEDS];
    int grp[SESSION_MAX_SCHEDS];
    int k = pick(o, &t, c, m, ops, grp);
    for (int i = 0; i < k; i++)
        if (sched_check(ops[i], c, m, &cause) < 0) {
            k = -1;
            cli_fail(cause, 2);
        }
    if (k < 0) {
        trace_free(&t);
        cluster_free(c);
        return 2;
    }
    struct run *runs = xcalloc(2 * (size_t)k, sizeof *runs);
    int done = 0, status = 0;
    for (; done < k; done++) {
        if (session_run(&runs[2 * done], &o->s, c, m, ops[done], false, RUN_OPT_SMALL, &cause) < 0) {
            status = cli_fail(cause, 1);
            break;
        }
        if (trace_measure(&t, grp[done], &runs[2 * done], &runs[2 * done + 1], &d) < 0) {
            run_free(&runs[2 * done]);
            status = bad_input(&d);
            break;
        }
    }
    if (done == k) {
        if (fmt == REPORT_SVG)
            cli_print_svg(runs, 2 * k, NULL);
        else if (fmt == REPORT_TEXT)
            report_trace_text(stdout, &t, runs, k, o->summary);
        else if (fmt == REPORT_CSV)
            report_trace_csv(stdout, &t, runs, k, o->summary);
        else
            report_trace_json(stdout, &t, runs, k, o->summary);
    }
    for (int i = 0; i < 2 * done; i++)
        run_free(&runs[i]);
    free(runs);
    diag_free(&d);
    trace_free(&t);
    cluster_free(c);
    return status;
}
