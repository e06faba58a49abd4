/*
 * sched/optimal.c - the exact minimum-makespan broadcast by branch and bound
 * (SPEC §2 `optimal`), and the scheduler that hands its plan out.
 *
 * Promises: a plan marked OPT_PROVEN has the least makespan of all
 * schedules under the cluster's port model (never a heuristic's answer
 * passed off as optimal); a search stopped by its node or time limit says
 * OPT_GAVE_UP, keeps the best schedule found and a proven lower bound.
 * Booking the plan's decisions in order with engine_book reproduces the
 * schedule and its makespan exactly (the makespan reported is the
 * engine's own).
 *
 * Two searches:
 *
 * - Node tables under async (and sender-only, and multi-port when the
 *   arithmetic is exact): by Theorem 1 of Liu, Wang & Guo an optimal
 *   schedule has no idle sender, so a schedule is a receiver order and the
 *   k-th receiver takes the earliest free "slot" (the earliest completion
 *   of a holder's next send).  The search state is the multiset of
 *   remaining receiver classes (identical (send, recv) nodes are
 *   interchangeable, one branch per class) and the sorted slot profile:
 *   the first m future send completions of the current holders, m the
 *   receivers left.  Which holder owns a slot does not matter for the
 *   future, only when it falls.  Bounds (a relaxed slot supply paired with
 *   the largest receive times; a rate bound that lets each waiting
 *   receiver offer slots at its own pace, the ones that must be served
 *   early because they receive slowly included; and a count of the whole
 *   slots each class needs before its deadline, class against class when
 *   the classes are few, in two groups when they are many), a memo over
 *   states and a symmetry rule for equal slots keep it small (see as_bound,
 *   rate_slot, as_counts_ok, as_groups_ok, as_search); the first
 *   incumbent comes from an iterated local search over receiver orders
 *   (as_improve).
 *
 * - Everything else (sync, one-port, multi-port in inexact arithmetic,
 *   latency matrices, platform graphs): a search over (sender, receiver)
 *   decisions booked at the sender's ready time, in non-decreasing start
 *   time.  No model here has a receive-port conflict in a broadcast (every
 *   node receives once), so delaying a send never helps and every schedule
 *   is matched by one with no idle sender, which this enumeration reaches
 *   (see gs_search).  Bounds: earliest holds and slots (gs_bound), and in
 *   integer arithmetic a count of the whole transfers the nodes can still
 *   send before the target, for the slow receivers alone too
 *   (gs_count_ok), and, where a transfer frees its sender as its receiver
 *   holds (sync, one-port), a packing of the waiting nodes into the
 *   senders' room before the target (gs_pack_ok); the first incumbent
 *   comes from an iterated local search over receiver orders (gs_improve).
 *
 * Both run as passes with a target (see drive): the plain branch and bound
 * below the incumbent first, then, if that hits three quarters of a limit,
 * targets from below that tighten the proven lower bound.
 *
 * Arithmetic: when every cost is a decimal with at most 6 digits after the
 * point, the searches run on integers (scaled by 10^d, held exactly in
 * doubles), which makes every comparison exact for the values as written
 * (the engine's doubles may then differ from them in the last bit, and so
 * may the reported makespan from the search's).  Otherwise they run on the
 * raw doubles with the engine's order of additions; the slot search's
 * bounds are then still exact (floating addition is monotone), and the
 * general search only prunes a bound that beats the incumbent by a relative
 * 1e-9, so rounding can never cut off a better schedule.
 */
#include "sched/optimal.h"
#include "sched/optimal_int.h"

#include "engine/explain.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/bounds.h"
#include "sched/list.h"
#include "model/targets.h"
#include "support/rng.h"

double opt_time_limit(const struct sched_opts *o)
{
    return o->time_limit > 0 ? o->time_limit : o->time_limit < 0 ? INFINITY : OPT_DEFAULT_TIME_LIMIT;
}

/* ---- units: exact integer arithmetic when the costs allow it ---- */

/* Is v the double nearest to a multiple of 1/scale (within a few ulps)? */
static bool on_grid(double v, double scale)
{
    double x = v * scale;
    return fabs(x - nearbyint(x)) <= 16 * DBL_EPSILON * fmax(1.0, fabs(x));
}

/* Is every cost the engine uses a multiple of 1/scale? *big: the largest
 * transfer, scaled. O(n) for node tables, O(n^2) otherwise. */
static bool costs_on_grid(const struct cluster *c, double scale, double *big)
{
    int n = c->n;
    *big = 0;
    if (c->kind == CLUSTER_NODES) {
        double ms = 0, mr = 0;
        for (int p = 0; p < n; p++) {
            const struct node *nd = &c->nodes[p];
            if (!isfinite(nd->send) || !isfinite(nd->recv) || !on_grid(nd->send, scale) ||
                !on_grid(nd->recv, scale))
                return false;
            ms = fmax(ms, fabs(nd->send));
            mr = fmax(mr, fabs(nd->recv));
        }
        *big = (ms + fabs(c->latency) + mr) * scale;
        return isfinite(c->latency) && on_grid(c->latency, scale);
    }
    for (int q = 0; q < n; q++)
        for (int p = 0; p < n; p++) {
            struct cost k;
            if (p == q || !timing_cost(c, q, p, &k))
                continue;
            double v[5] = {k.s, k.l, k.r, k.T, k.send_mp};
            for (int i = 0; i < 5; i++) {
                if (!isfinite(v[i]) || !on_grid(v[i], scale))
                    return false;
                *big = fmax(*big, fabs(v[i]) * scale);
            }
        }
    return true;
}

/*
 * The smallest 10^d (d <= 6) that turns every cost into an integer, with
 * room for sums of 4 (n + 2) times the largest transfer below 2^52 (no
 * time in a schedule comes near that); 0 when there is none.
 */
double opt_find_scale(const struct cluster *c)
{
    for (double scale = 1; scale <= 1e6; scale *= 10) {
        double big;
        if (costs_on_grid(c, scale, &big))
            return big * 4.0 * (double)(c->n + 2) < 4503599627370496.0 ? scale : 0;
    }
    return 0;
}

/* ---- the driver: passes, each with a target ---- */

/*
 * First the plain pass (t = the incumbent) with three quarters of the node
 * and time limits: when it finishes, the optimum is proven and nothing
 * else runs.  Otherwise the rest goes to passes with targets bisecting the
 * proven bound and the incumbent from below: proving "nothing below t" far
 * below the optimum is cheap, so a search that gives up still reports a
 * tight lower bound (and may yet close the gap).  With exact (integer)
 * arithmetic makespans are integers, so bounds round up.  Returns the
 * proven lower bound; the search was exact iff it equals *best.
 */
double opt_drive(pass_fn pass, void *ctx, struct limits *lim, double lower, double *best, bool exact)
{
    double room = (double)lim->node_limit * 0.75;
    lim->node_cap = room >= 1 ? (long long)room : 1;
    lim->time_cap = lim->time_limit * 0.75;
    for (int round = 0; lower < *best; round++) {
        double t = *best;
        if (round > 0) {
            if (exhausted(lim))
                break;
            lim->node_cap = lim->node_limit;
            lim->time_cap = lim->time_limit;
            lim->stop = false;
            t = lower + 0.5 * (*best - lower);
            if (exact)
                t = ceil(t);
            if (round > 12 || !(t < *best) || (!exact && *best - lower <= 1e-9 * fabs(*best)))
                t = *best;
        }
        double v = pass(ctx, t, best);
        if (!lim->stop && *best < t)
            return *best;   /* found below t and finished below it: optimal */
        if (!lim->stop)
            v = dmax(v, t);   /* finished, nothing below t */
        v = dmin(v, *best);
        lower = dmax(lower, exact ? ceil(v) : v);
        if (lim->stop && round > 0)
            break;
    }
    return dmin(lower, *best);
}

/* ---- optimal_solve ---- */

void opt_plan_free(struct opt_plan *p)
{
    if (!p)
        return;
    free(p->from);
    free(p->to);
    p->from = p->to = NULL;
    p->len = 0;
}

/* Is every node reachable from the source? Names the first that is not.
 * Node tables and matrices have every transfer, so only graphs are walked:
 * the walk is O(n^2), minutes on the 10^5-node tables the size check below
 * refuses anyway. */
static int check_reachable(const struct cluster *c, char **cause)
{
    if (c->kind != CLUSTER_GRAPH)
        return 0;
    int n = c->n, *stack = xmalloc((size_t)n * sizeof *stack), top = 0;
    unsigned char *seen = xcalloc((size_t)n, 1);
    stack[top++] = c->source;
    seen[c->source] = 1;
    while (top > 0) {
        int q = stack[--top];
        for (int p = 0; p < n; p++) {
            struct cost k;
            if (!seen[p] && p != q && timing_cost(c, q, p, &k)) {
                seen[p] = 1;
                stack[top++] = p;
            }
        }
    }
    int bad = -1;
    for (int p = 0; p < n && bad < 0; p++)
        if (!seen[p])
            bad = p;
    free(stack);
    free(seen);
    if (bad >= 0)
        return set_cause(cause, "optimal: %s cannot be reached from the source %s", c->nodes[bad].name,
                         c->nodes[c->source].name);
    return 0;
}

/* Book the plan on a fresh engine: checks it and takes the engine's makespan. */
int opt_replay(const struct cluster *c, enum model m, struct opt_plan *out, char **cause)
{
    struct engine e;
    char *why = NULL;
    if (engine_init(&e, c, m, cause) < 0)
        return -1;
    for (int i = 0; i < out->len; i++)
        if (engine_book(&e, out->from[i], out->to[i], 0, NULL, &why) < 0) {
            set_cause(cause, "optimal: internal error, plan step %d: %s", i + 1, why);
            free(why);
            engine_free(&e);
            return -1;
        }
    out->makespan = e.makespan;
    engine_free(&e);
    return 0;
}

/* Turn a class order into decisions: next member of the class, fnf's sender. */
static int order_to_plan(const struct cluster *c, enum model m, const struct as_input *in,
                         const int *order, struct opt_plan *out, char **cause)
{
    struct engine e;
    char *why = NULL;
    int n = c->n, *used = xcalloc((size_t)in->K, sizeof *used);
    if (engine_init(&e, c, m, cause) < 0) {
        free(used);
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < n - 1 && rc == 0; i++) {
        int k = order[i], seen = 0, p = -1;
        for (int x = 0; x < n && p < 0; x++)
            if (in->cls[x] == k && seen++ == used[k])
                p = x;
        used[k]++;
        int q = sched_fnf_sender(&e, 0, NULL);   /* the slot rule's sender: fnf's */
        out->from[i] = q;
        out->to[i] = p;
        if (engine_book(&e, q, p, 0, NULL, &why) < 0) {
            rc = set_cause(cause, "optimal: internal error, receiver %d: %s", i + 1, why);
            free(why);
        }
    }
    out->makespan = e.makespan;
    engine_free(&e);
    free(used);
    return rc;
}

int optimal_solve(const struct cluster *c, enum model m, const struct sched_opts *o,
                  struct opt_plan *out, char **cause)
{
    if (c->target)   /* every set of relays: above */
        return opt_multicast_solve(c, m, o, out, cause);
    memset(out, 0, sizeof *out);
    struct limits lim;
    memset(&lim, 0, sizeof lim);
    clock_gettime(CLOCK_MONOTONIC, &lim.t0);
    lim.node_limit = o && o->node_limit > 0 ? o->node_limit : OPT_DEFAULT_NODE_LIMIT;
    lim.time_limit = o ? opt_time_limit(o) : OPT_DEFAULT_TIME_LIMIT;
    lim.cancel = o ? o->cancel : NULL;
    int max_nodes = o && o->max_nodes > 0 ? o->max_nodes : OPT_DEFAULT_MAX_NODES;
    int n = c->n;

    if (m >= MODEL_COUNT)
        return set_cause(cause, "optimal: unknown model");
    if (!(model_mask_for(c->kind) & MODEL_BIT(m))) {
        char *no = model_refusal(m, c->kind);
        set_cause(cause, "optimal: %s", no);
        free(no);
        return -1;
    }
    if (n < 1 || c->source < 0 || c->source >= n)
        return set_cause(cause, "optimal: the cluster has no source");
    if (check_reachable(c, cause) < 0)
        return -1;

    double scale = opt_find_scale(c);
    bool slots = !(o && o->opt_general) && c->kind == CLUSTER_NODES &&
                 !timing_sender_waits_receive(m) && (timing_hold_stepwise(m) || scale > 0);
    struct as_input in;
    memset(&in, 0, sizeof in);
    in.c = c;
    in.sender_only = timing_send_only(m);
    in.scale = scale;
    if (n > max_nodes && n > OPT_CLASS_MAX_NODES)   /* refused below too; as_classes is O(n^2) */
        return set_cause(cause,
                         "optimal: %d nodes is beyond the exact search (at most %d nodes; node "
                         "tables of up to %d nodes with at most %d distinct (send, recv) classes); "
                         "use -s fnf, or a smaller cluster", n, max_nodes, OPT_CLASS_MAX_NODES,
                         OPT_CLASS_MAX);
    if (slots)
        opt_as_classes(&in);
    if (n > max_nodes) {
        double mixes = 1;
        for (int k = 0; slots && k < in.K; k++)
            mixes *= in.count[k] + 1;
        if (!slots || in.K > OPT_CLASS_MAX || mixes > OPT_CLASS_MIXES || n > OPT_CLASS_MAX_NODES) {
            if (slots)
                set_cause(cause,
                          "optimal: %d nodes in %d classes is beyond the exact search (at most %d "
                          "nodes; larger node tables need at most %d distinct (send, recv) classes, "
                          "%d nodes and %.0f mixes of classes, this one has %.0f); use -s fnf, or a "
                          "smaller cluster", n, in.K, max_nodes, OPT_CLASS_MAX, OPT_CLASS_MAX_NODES,
                          OPT_CLASS_MIXES, mixes);
            else
                set_cause(cause,
                          "optimal: %d nodes is beyond the exact search (at most %d); use -s fnf, "
                          "or a smaller cluster", n, max_nodes);
            opt_as_input_free(&in);
            return -1;
        }
    }

    struct result res;
    memset(&res, 0, sizeof res);
    int rc = 0;
    out->len = n - 1;
    out->from = xmalloc((size_t)(n > 1 ? n - 1 : 1) * sizeof *out->from);
    out->to = xmalloc((size_t)(n > 1 ? n - 1 : 1) * sizeof *out->to);
    if (n == 1) {
        res.best = res.lower = 0;
    } else if (slots) {
        opt_as_solve(&in, &lim, &res);
        rc = order_to_plan(c, m, &in, res.order, out, cause);
        free(res.order);
    } else {
        opt_gs_solve(c, m, scale, &lim, &res);
        memcpy(out->from, res.from, (size_t)(n - 1) * sizeof *out->from);
        memcpy(out->to, res.to, (size_t)(n - 1) * sizeof *out->to);
        free(res.from);
        free(res.to);
        rc = opt_replay(c, m, out, cause);
    }
    opt_as_input_free(&in);
    if (rc == 0 && cancelled(&lim))
        rc = set_cause(cause, SCHED_CANCELLED_TEXT);
    if (rc < 0) {
        opt_plan_free(out);
        return -1;
    }
    out->explored = lim.explored;
    out->seconds = elapsed(&lim);
    out->slots = slots;
    if (n > 1 && res.lower < res.best) {
        out->status = OPT_GAVE_UP;
        out->proof = OPT_PROOF_NONE;
        double lower = dmax(bound_lower(c, m), scale > 0 ? res.lower / scale : res.lower);
        out->lower = dmin(lower, out->makespan);
    } else {
        out->status = OPT_PROVEN;
        out->lower = out->makespan;
        double lb = bound_lower(c, m);
        if (n == 1)
            out->proof = OPT_PROOF_ONE_NODE;
        else if (isfinite(lb) && out->makespan <= lb + 1e-9 * fabs(lb))
            out->proof = OPT_PROOF_LOWER_BOUND;
        else if (out->explored == 0)
            out->proof = OPT_PROOF_ROOT_BOUND;
        else
            out->proof = OPT_PROOF_SEARCH;
    }
    return 0;
}

void opt_plan_reason(const struct opt_plan *p, char *buf, size_t size)
{
    const char *bound = p->slots ? "slot bound" : "start-time bound";
    switch (p->status == OPT_PROVEN ? p->proof : OPT_PROOF_NONE) {
    case OPT_PROOF_ONE_NODE:
        text_fit(buf, size, "proven: the source is the only node");
        break;
    case OPT_PROOF_LOWER_BOUND:
        text_fit(buf, size, "proven: a schedule meets the lower bound");
        break;
    case OPT_PROOF_ROOT_BOUND:
        text_fit(buf, size, "proven: the exact search's %s is %g before any branching, and a "
                 "schedule meets it", bound, p->makespan);
        break;
    case OPT_PROOF_SEARCH:
        text_fit(buf, size, "proven by exhaustive search (%lld search nodes)", p->explored);
        break;
    case OPT_PROOF_RELAYS:
        text_fit(buf, size, "proven: the least of the exact optima of every set of relays, %lld search "
                 "node%s in all", p->explored, p->explored == 1 ? "" : "s");
        break;
    case OPT_PROOF_NONE:
        text_fit(buf, size, "search gave up after %lld search nodes: optimum between %g and %g",
                 p->explored, p->lower, p->makespan);
        break;
    }
}

/* ---- the scheduler ---- */

struct opt_state {
    struct opt_plan plan;
    int next;
};

static int opt_prepare(struct sched *s, struct engine *e, char **cause)
{
    if (e->ntr > 0 || e->nmsg != 1)
        return set_cause(cause, "optimal: plans a whole broadcast from the start (the engine "
                                "already has bookings)");
    struct opt_state *st = xcalloc(1, sizeof *st);
    if (optimal_solve(e->c, e->model, &s->opt, &st->plan, cause) < 0) {
        free(st);
        return -1;
    }
    const struct opt_plan *p = &st->plan;
    s->state = st;
    s->status = p->status;
    s->bound = p->lower;
    s->explored = p->explored;
    if (p->status == OPT_PROVEN) {
        char why[200];
        opt_plan_reason(p, why, sizeof why);
        if (p->proof == OPT_PROOF_SEARCH || p->proof == OPT_PROOF_RELAYS)
            text_fit(s->note, sizeof s->note, "proven optimal: %s (%lld search node%s, %.2f s)",
                     p->proof == OPT_PROOF_SEARCH ? "exhaustive search"
                                                  : "the least of the exact optima of every set of relays",
                     p->explored, p->explored == 1 ? "" : "s", p->seconds);
        else   /* "proven: WHY" */
            text_fit(s->note, sizeof s->note, "proven optimal: %s (%.2f s)",
                     strncmp(why, "proven: ", 8) == 0 ? why + 8 : why, p->seconds);
    } else {
        long long limit = s->opt.node_limit > 0 ? s->opt.node_limit : OPT_DEFAULT_NODE_LIMIT;
        char why[96];
        if (p->explored >= limit)
            text_fit(why, sizeof why, "at the node limit (%lld nodes, %.2f s)", p->explored, p->seconds);
        else
            text_fit(why, sizeof why, "after %.3g s (%lld nodes)", p->seconds, p->explored);
        text_fit(s->note, sizeof s->note, "gave up %s: best found %g, optimum >= %g", why, p->makespan,
                 p->lower);
    }
    return 0;
}

static int opt_choose(struct sched *s, const struct engine *e, struct decision *d, char **cause)
{
    (void)cause;
    struct opt_state *st = s->state;
    if (!st || st->next >= st->plan.len)
        return SCHED_DONE;
    int i = st->next++, q = st->plan.from[i], p = st->plan.to[i];
    const char *qn = e->c->nodes[q].name, *pn = e->c->nodes[p].name;
    d->from = q;
    d->to = p;
    d->msg = 0;
    struct transfer t;
    if (engine_earliest(e, q, p, 0, &t) < 0) {
        d->reason = xasprintf("optimal: %s sends to %s (decision %d of %d)", qn, pn, i + 1,
                              st->plan.len);
        return SCHED_DECIDED;
    }
    double done;
    bool first = e->c->kind == CLUSTER_NODES && sched_fnf_sender(e, 0, &done) == q && done == t.send_end;
    char *gain = explain_pick(e, &t);   /* what the choice achieves, not only its order */
    const char *sep = gain ? ": " : "", *said = gain ? gain : "";
    if (first)
        d->reason = xasprintf("optimal order: %s next (receiver %d of %d); %s's send completes first "
                              "(t=%g)%s%s", pn, i + 1, st->plan.len, qn, t.send_end, sep, said);
    else
        d->reason = xasprintf("optimal schedule: %s sends to %s at t=%g, %s holds it at t=%g "
                              "(decision %d of %d)%s%s", qn, pn, t.start, pn, t.hold, i + 1,
                              st->plan.len, sep, said);
    free(gain);
    return SCHED_DECIDED;
}

static void opt_finish(struct sched *s)
{
    struct opt_state *st = s->state;
    if (!st)
        return;
    opt_plan_free(&st->plan);
    free(st);
    s->state = NULL;
}

/* Exact where it proves (a run that gives up is not measured against it). */
static const struct sched_claim opt_claims[] = {
    {~0u, MODEL_ALL, SCHED_MAKESPAN, 1, "exact search"},
    {0, 0, SCHED_MAKESPAN, 0, NULL},
};

const struct sched_ops sched_optimal = {
    .name = "optimal",
    .summary = "exact minimum makespan (branch and bound; says when it gives up)",
    .kinds = CLUSTER_KIND_BIT(CLUSTER_NODES) | CLUSTER_KIND_BIT(CLUSTER_MATRIX) |
             CLUSTER_KIND_BIT(CLUSTER_GRAPH),
    .models = MODEL_ALL,
    .multicast = true,   /* every set of relays (multicast_solve) */
    .randomized = false,
    .prepare = opt_prepare,
    .choose = opt_choose,
    .finish = opt_finish,
    .claims = opt_claims,
};
