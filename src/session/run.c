/*
 * session/run.c - one scheduler run with its bounds and (when asked) the optimum.
 */
#include "session/run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bounds.h"
#include "sched/optimal.h"
#include "sched/registry.h"
#include "sched/segment.h"

static void compute_optimum(struct run *r, const struct sched_opts *o, enum run_optimum want)
{
    if (r->sched.status == OPT_PROVEN) {
        r->opt = OPT_PROVEN;
        r->optimum = r->eng.makespan;
        text_fit(r->opt_note, sizeof r->opt_note, "%s", r->sched.note);
        return;
    }
    if (r->sched.status == OPT_GAVE_UP) {
        r->opt = OPT_GAVE_UP;
        r->optimum = r->eng.makespan;
        r->opt_lower = r->sched.bound;
        text_fit(r->opt_note, sizeof r->opt_note, "%s", r->sched.note);
        return;
    }
    if (r->sched.slices > 0) {   /* K slices: the single-message optimum says nothing */
        text_fit(r->opt_note, sizeof r->opt_note,
                 "not computed for a pipelined run of %d slices; see the LP %s",
                 r->sched.slices,
                 timing_shares_port(r->model) ? "bound on the throughput" : "optimal throughput");
        return;
    }
    if (r->sched.segments > 1) {   /* the exact search covers one message */
        if (r->eng.makespan <= r->lower_bound) {
            r->opt = OPT_PROVEN;
            r->optimum = r->eng.makespan;
            text_fit(r->opt_note, sizeof r->opt_note,
                     "proven: the schedule meets the lower bound for %d segments", r->sched.segments);
        } else {
            text_fit(r->opt_note, sizeof r->opt_note,
                     "not searched for a message of %d segments (the exact search covers one "
                     "message); the lower bound is for %d segments", r->sched.segments,
                     r->sched.segments);
        }
        return;
    }
    if (want == RUN_OPT_NEVER) {
        text_fit(r->opt_note, sizeof r->opt_note, "not computed");
        return;
    }
    if (want == RUN_OPT_SMALL && r->c->n > RUN_AUTO_OPTIMUM_NODES) {
        text_fit(r->opt_note, sizeof r->opt_note,
                 "not computed for %d nodes (done by default up to %d; use -s optimal)", r->c->n,
                 RUN_AUTO_OPTIMUM_NODES);
        return;
    }
    struct opt_plan plan;
    char *cause = NULL;
    struct sched_opts oo = *o;
    if (want == RUN_OPT_SMALL && (oo.time_limit <= 0 || oo.time_limit > 2))
        oo.time_limit = 2;
    if (optimal_solve(r->c, r->model, &oo, &plan, &cause) < 0) {
        text_fit(r->opt_note, sizeof r->opt_note, "%s", cause ? cause : "not computed");
        free(cause);
        return;
    }
    r->opt = plan.status;
    r->optimum = plan.makespan;
    r->opt_lower = plan.lower;
    opt_plan_reason(&plan, r->opt_note, sizeof r->opt_note);
    opt_plan_free(&plan);
}

int run_schedule(struct run *r, const struct cluster *c, enum model m,
                 const struct sched_ops *ops, const struct sched_opts *o,
                 enum run_optimum want, char **cause)
{
    memset(r, 0, sizeof *r);
    r->c = c;
    r->model = m;
    sched_init(&r->sched, ops, o);
    if (sched_check(ops, c, m, cause) < 0 || engine_init(&r->eng, c, m, cause) < 0) {
        sched_free(&r->sched);
        return -1;
    }
    if (o && o->lean && ops->lean && r->eng.nmsg == 1) {
        if (engine_set_quiet(&r->eng, cause) < 0) {
            sched_free(&r->sched);
            engine_free(&r->eng);
            return -1;
        }
        r->eng.on_book = o->on_book;
        r->eng.on_book_ctx = o->on_book_ctx;
    }
    if (sched_run(&r->eng, &r->sched, cause) < 0) {
        sched_free(&r->sched);
        engine_free(&r->eng);
        return -1;
    }
    r->lower_bound = r->sched.segments > 1 ? seg_lower_bound(c, m, r->sched.segments)
                                           : bound_lower(c, m);
    r->has_beta = bound_fnf_beta(c, m, &r->beta, &r->consistent);
    compute_optimum(r, &r->sched.opt, want);
    return 0;
}

void run_free(struct run *r)
{
    sched_free(&r->sched);
    engine_free(&r->eng);
}

bool run_guarantee(const struct run *r, double *limit)
{
    if (!r->has_beta || r->opt != OPT_PROVEN)
        return false;
    *limit = 2 * r->optimum + r->beta;
    return true;
}
