/*
 * cli_trace.c - `hetcast compare FILE --trace MEASURED.csv`: a measured
 * timeline (hetcast-mpi exec writes one; docs/mpi.md) beside the schedule
 * hetcast predicts, in the formats that take --trace (cli_format.h).
 * Reading and pairing are the session layer's (session_trace, shared with
 * the view), measuring session/trace.h's.
 *
 * Which scheduler is predicted: each -s, paired with the trace's rows of
 * that scheduler; without -s, every scheduler the trace's scheduler column
 * names, or the default one (fnf) for a trace whose one group names none.
 * Exit status: 0, 1 runtime failure, 2 bad usage or input.
 */
#include "app/cli_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cli_format.h"
#include "app/opts.h"
#include "session/trace.h"

/* Print d's lines as one message, "WHO: file:line: problem" (diag_who) and the next problems under it,
 * as a cluster's are printed, and return 2 (a bad trace is bad input). */
static int bad_input(struct diag *d)
{
    char *lines = diag_join(d);
    int dropped = d->errors + d->warnings - d->nlines;
    if (dropped > 0) {
        char *more = xasprintf("%s\n(%d more problems not shown)", lines ? lines : "", dropped);
        free(lines);
        lines = more;
    }
    diag_free(d);
    return cli_fail(lines, 2);
}

int cli_trace(const struct cli_opts *o, const struct cli_format *f)
{
    if (!(f->flags & FORMAT_TRACE)) {
        char *valid = cli_format_list(FORMAT_TRACE, " or ", false);
        opts_error(2, "--trace prints %s (not --format %s)", valid, o->format);
        free(valid);
        return 2;
    }
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
    const struct sched_ops *ops[SESSION_MAX_SCHEDS];
    int grp[SESSION_MAX_SCHEDS];
    int k = session_trace(&o->s, c, m, SESSION_MAX_SCHEDS, &t, ops, grp, &d, &cause);
    if (k < 0) {
        cluster_free(c);
        if (!cause)
            return bad_input(&d);
        diag_free(&d);
        return cli_fail(cause, 2);
    }
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
        struct format_out out = {true, o->summary, NULL, o->output};
        if ((status = f->trace(&out, &t, runs, k, &cause)) != 0)
            cli_fail(cause, status);
    }
    for (int i = 0; i < 2 * done; i++)
        run_free(&runs[i]);
    free(runs);
    diag_free(&d);
    trace_free(&t);
    cluster_free(c);
    return status;
}
