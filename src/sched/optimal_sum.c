/*
 * sched/optimal_sum.c - the least sum of completion times (sched/optimal_sum.h):
 * the integer program's schedule, handed out one decision at a time in the
 * order it was booked when its times were replayed (sched/certify.c).
 */
#include "sched/optimal_sum.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sched/certify.h"
#include "support/diag.h"
#include "support/numfmt.h"

struct sum_state {
    struct certify_plan plan;
    int next;
};

double sched_sum_of_holds(const struct engine *e)
{
    double sum = 0;
    for (int p = 0; p < e->n; p++)
        if (p != e->c->source && isfinite(e->hold[p]))
            sum += e->hold[p];
    return sum;
}

static int sum_prepare(struct sched *s, struct engine *e, char **cause)
{
    if (e->ntr > 0 || e->nmsg != 1)
        return set_cause(cause, "optimal-sum: plans a whole broadcast from the start (the engine "
                                "already has bookings)");
    struct sum_state *st = xcalloc(1, sizeof *st);
    double limit = s->opt.time_limit > 0 ? s->opt.time_limit
                   : s->opt.time_limit < 0 ? 0   /* SCHED_NO_CLOCK: GLPK without a clock */
                                           : 10;
    char *why = NULL;
    if (certify_solve(e->c, e->model, CERTIFY_SUM, limit, s->opt.cancel, &st->plan, &why) < 0) {
        free(st);
        if (why && strcmp(why, SCHED_CANCELLED_TEXT) == 0)
            set_cause(cause, SCHED_CANCELLED_TEXT);   /* what every front door knows to look for */
        else
            set_cause(cause, "optimal-sum: %s", why ? why : "failed");
        free(why);
        return -1;
    }
    if (isnan(st->plan.value)) {
        char note[160];
        text_fit(note, sizeof note, "%s", st->plan.note);
        free(st);
        return set_cause(cause, "optimal-sum: no schedule: %s (--time-limit gives GLPK more time)", note);
    }
    s->state = st;
    /* status stays OPT_NONE: the claim is about the sum, not the makespan */
    if (st->plan.proven)
        text_fit(s->note, sizeof s->note, "the least sum of completion times, %s: proven by an integer "
                 "program (GLPK, %.2f s)", numfmt_txt(st->plan.sum), st->plan.seconds);
    else
        text_fit(s->note, sizeof s->note, "sum of completion times %s, not proven the least: %s",
                 numfmt_txt(st->plan.sum), st->plan.note);
    return 0;
}

static int sum_choose(struct sched *s, const struct engine *e, struct decision *d, char **cause)
{
    (void)cause;
    struct sum_state *st = s->state;
    if (!st || sched_plan_next(st->plan.from, st->plan.to, st->plan.len, &st->next, d) == SCHED_DONE)
        return SCHED_DONE;
    if (!e->lean)
        d->reason = xasprintf("least sum of completion times: %s sends to %s (decision %d of %d)",
                              e->c->nodes[d->from].name, e->c->nodes[d->to].name, st->next, st->plan.len);
    return SCHED_DECIDED;
}

static void sum_finish(struct sched *s)
{
    free(s->state);
    s->state = NULL;
}

/* Exact where GLPK proves (a run that stops at its limit is not measured). */
static const struct sched_claim sum_claims[] = {
    {~0u, MODEL_ALL, SCHED_SUM, 1, "integer program"},
    {0, 0, SCHED_MAKESPAN, 0, NULL},
};

const struct sched_ops sched_optimal_sum = {
    .name = "optimal-sum",
    .summary = "the least sum of completion times (integer program, GLPK; up to 10 nodes)",
    .kinds = CLUSTER_KIND_BIT(CLUSTER_NODES) | CLUSTER_KIND_BIT(CLUSTER_MATRIX) |
             CLUSTER_KIND_BIT(CLUSTER_GRAPH),
    .models = MODEL_ALL,
    .randomized = false,
    .prepare = sum_prepare,
    .choose = sum_choose,
    .finish = sum_finish,
    .claims = sum_claims,
};
