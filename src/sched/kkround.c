/*
 * sched/kkround.c - `kk-round` (sched/kkround.h): round the node table's
 * times up to a geometric grid, solve the rounded table exactly (optimal),
 * book that schedule with the real times.
 *
 * Why the guarantee holds.  Fix a schedule's tree and each sender's order of
 * sends, and book it as early as the ports allow (the engine does, decision
 * by decision, in the plan's order).  In every port model of a node table
 * (docs/models.md's table) a node receives at most once, so no receive port
 * is ever busy when its one transfer comes; a start is then the sender's
 * hold time or the end of its previous send, whichever is later, and every
 * phase end is a start plus costs.  Each time is a max of sums of costs with
 * no constant: monotone in the costs (floating addition and max are too, so
 * this holds for the engine's doubles exactly) and homogeneous (times all
 * costs by f, every time by f).  With real costs c <= rounded c' <= (1 + eps) c:
 *   kk-round = S'(c) <= S'(c') = OPT(c') <= S*(c') <= S*((1 + eps) c) = (1 + eps) OPT(c)
 * where S' is the rounded optimum's schedule and S* the real optimum's.  A
 * multicast is the same (its makespan a max over the targets' holds).
 * When the rounded search gives up with best B' and bound L' <= OPT(c'):
 * kk-round <= B' and OPT(c) >= L' / (1 + eps), which the note states.
 */
#include "sched/kkround.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bounds.h"
#include "model/targets.h"
#include "sched/optimal.h"
#include "support/diag.h"

/* ---- the grid ---- */

/*
 * The points of the grid of ratio 1 + eps from m (the smallest positive time
 * of a kind) up to top: p[0] = m, and each next point the largest multiple
 * of a decimal quantum q = 10^-d (the coarsest with q <= eps * m, d <= 6) at
 * most (1 + eps) times the one before.  Since eps * p[k] >= q the next point
 * lies above p[k], and a time t with p[k-1] < t <= p[k] is rounded to p[k] <=
 * (1 + eps) p[k-1] < (1 + eps) t.  The points are held as counts of q (exact
 * integers in doubles), so a point is the double nearest its decimal, as a
 * time read from a file is: the exact search keeps its integer arithmetic.
 * Where no quantum fits (eps * m < 10^-6, or counts beyond 2^52) the points
 * are m (1 + eps)^k, each from the one before.  *np points, malloc'd.
 */
static double *grid_points(double m, double top, double eps, int *np)
{
    double S = 1;
    int d = 0;
    while (d < 6 && eps * m * S < 1) {
        S *= 10;
        d++;
    }
    bool snap = eps * m * S >= 1 && top * S * (1 + eps) < 4503599627370496.0;
    int n = 1, cap = 64;
    double *p = xmalloc((size_t)cap * sizeof *p), u = m * S;
    p[0] = m;
    while (p[n - 1] < top) {
        double next;
        if (snap) {
            double v = floor((1 + eps) * u);
            u = v > u ? v : floor(u) + 1;   /* rounding of the product: never stand still */
            next = u / S;
        } else {
            next = p[n - 1] * (1 + eps);
        }
        if (n == cap) {
            cap *= 2;
            p = xrealloc(p, (size_t)cap * sizeof *p);
        }
        p[n++] = next;
    }
    *np = n;
    return p;
}

/* The least grid point >= t (t <= the last point). */
static double grid_up(const double *p, int n, double t)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (p[mid] >= t)
            hi = mid;
        else
            lo = mid + 1;
    }
    return p[lo];
}

/* Round field `recv` (false: send) of every node of c up to its grid. */
static void round_times(struct cluster *c, bool recv, double eps)
{
    double m = INFINITY, top = 0;
    for (int i = 0; i < c->n; i++) {
        double t = recv ? c->nodes[i].recv : c->nodes[i].send;
        if (t > 0 && isfinite(t)) {
            m = fmin(m, t);
            top = fmax(top, t);
        }
    }
    if (!isfinite(m))
        return;   /* all zero: nothing to round */
    int np;
    double *p = grid_points(m, top, eps, &np);
    for (int i = 0; i < c->n; i++) {
        double *t = recv ? &c->nodes[i].recv : &c->nodes[i].send;
        if (*t > 0 && isfinite(*t))
            *t = grid_up(p, np, *t);
    }
    free(p);
}

struct cluster *kk_round_cluster(const struct cluster *c, double eps)
{
    if (c->kind != CLUSTER_NODES || !(eps >= KK_MIN_EPSILON && eps <= KK_MAX_EPSILON))
        return NULL;
    unsigned char *keep = xmalloc((size_t)(c->n > 0 ? c->n : 1));
    int *map = xmalloc((size_t)(c->n > 0 ? c->n : 1) * sizeof *map);
    memset(keep, 1, (size_t)c->n);
    struct cluster *r = cluster_subset(c, keep, map);
    free(keep);
    bool same = r && r->n == c->n;
    for (int i = 0; same && i < r->n; i++)
        same = map[i] == i;
    free(map);
    if (!same) {   /* cluster_subset keeps every node of a node table, in order */
        cluster_free(r);
        return NULL;
    }
    if (c->target) {
        r->target = xmalloc((size_t)c->n);
        memcpy(r->target, c->target, (size_t)c->n);
        r->ntargets = c->ntargets;
    }
    round_times(r, false, eps);
    round_times(r, true, eps);
    return r;
}

static int cmp_pair(const void *a, const void *b)
{
    const double *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0;
}

int kk_classes(const struct cluster *c, bool sender_only)
{
    int n = 0;
    double *v = xmalloc((size_t)(c->n > 0 ? c->n : 1) * 2 * sizeof *v);
    for (int i = 0; i < c->n; i++)
        if (i != c->source) {
            v[2 * n] = c->nodes[i].send;
            v[2 * n + 1] = sender_only ? 0 : c->nodes[i].recv;
            n++;
        }
    qsort(v, (size_t)n, 2 * sizeof *v, cmp_pair);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (i == 0 || cmp_pair(v + 2 * i, v + 2 * (i - 1)) != 0)
            k++;
    free(v);
    return k;
}

/* ---- the scheduler ---- */

struct kk_state {
    struct opt_plan plan;   /* the rounded table's schedule, in c's node numbers */
    int next;
};

/* Book the plan on c with the real times: its makespan, or -1 with *cause. */
static int replay_real(const struct cluster *c, enum model m, const struct opt_plan *p, double *ms,
                       char **cause)
{
    struct engine x;
    char *why = NULL;
    if (engine_init(&x, c, m, cause) < 0)
        return -1;
    int rc = 0;
    for (int i = 0; i < p->len && rc == 0; i++)
        if (engine_book(&x, p->from[i], p->to[i], 0, NULL, &why) < 0) {
            rc = set_cause(cause, "kk-round: internal error, step %d of the rounded schedule: %s", i + 1,
                           why);
            free(why);
        }
    *ms = x.makespan;
    engine_free(&x);
    return rc;
}

static int kk_prepare(struct sched *s, struct engine *e, char **cause)
{
    if (e->ntr > 0 || e->nmsg != 1)
        return set_cause(cause, "kk-round: plans a whole broadcast from the start (the engine "
                                "already has bookings)");
    const struct cluster *c = e->c;
    double eps = s->opt.epsilon > 0 ? s->opt.epsilon : KK_DEFAULT_EPSILON;
    struct cluster *r = kk_round_cluster(c, eps);
    if (!r)
        return set_cause(cause, "kk-round: --epsilon %g is not between %g and %g", eps, KK_MIN_EPSILON,
                         KK_MAX_EPSILON);
    bool so = timing_send_only(e->model);
    int k0 = kk_classes(c, so), k1 = kk_classes(r, so);
    struct kk_state *st = xcalloc(1, sizeof *st);
    char *why = NULL;
    if (optimal_solve(r, e->model, &s->opt, &st->plan, &why) < 0) {
        cluster_free(r);
        free(st);
        if (why && strcmp(why, SCHED_CANCELLED_TEXT) == 0)
            set_cause(cause, SCHED_CANCELLED_TEXT);
        else
            set_cause(cause, "kk-round: the table rounded to powers of %g has %d classes (of %d): %s%s",
                      1 + eps, k1, k0, why ? why : "failed",
                      why && strstr(why, "beyond the exact search") ? "; a larger --epsilon leaves fewer "
                      "classes" : "");
        free(why);
        return -1;
    }
    cluster_free(r);
    const struct opt_plan *p = &st->plan;
    double ms;
    if (replay_real(c, e->model, p, &ms, cause) < 0) {
        opt_plan_free(&st->plan);
        free(st);
        return -1;
    }
    if (ms > p->makespan) {   /* the argument at the top of this file */
        set_cause(cause, "kk-round: internal error, the real times end at %g, after the rounded "
                  "schedule's %g", ms, p->makespan);
        opt_plan_free(&st->plan);
        free(st);
        return -1;
    }
    s->state = st;
    s->explored = p->explored;
    char proof[200];
    opt_plan_reason(p, proof, sizeof proof);
    /* OPT(c) >= OPT(c') / (1 + eps) >= the rounded bound / (1 + eps), and bound_lower */
    bool proven = p->status == OPT_PROVEN;
    double lr = p->lower / (1 + eps), lp = bound_lower(c, e->model), lb = fmin(fmax(lr, lp), ms);
    char least[160];
    if (lr >= lp)
        text_fit(least, sizeof least, "the least >= %g = the rounded table's %s %g / %g", lb,
                 proven ? "optimum" : "bound", p->lower, 1 + eps);
    else
        text_fit(least, sizeof least, "the least >= %g, the lower bound", lb);
    char ratio[64];
    if (lb > 0)
        text_fit(ratio, sizeof ratio, "%.4g", ms / lb);
    else
        text_fit(ratio, sizeof ratio, "1");   /* ms == 0: nothing to send, or every cost 0 */
    if (proven) {   /* status stays OPT_NONE: within 1 + eps, not optimal */
        text_fit(s->note, sizeof s->note, "within %g of the least makespan, %s by this run: the times "
                 "rounded up to powers of %g leave %d classes (of %d); the rounded table's optimum %g "
                 "(%s); this schedule with the real times %g, %s (%.2f s)", 1 + eps, ratio, 1 + eps, k1,
                 k0, p->makespan, proof, ms, least, p->seconds);
        return 0;
    }
    s->status = OPT_GAVE_UP;
    s->bound = lb;
    /* short enough for a report's optimum line (session/run.h's opt_note) */
    text_fit(s->note, sizeof s->note, "within %s of the least makespan by this run, 1 + eps = %g not "
             "guaranteed (the rounded search gave up after %lld search nodes): %g, and %s; times rounded "
             "up to powers of %g: %d classes (of %d) (%.2f s)", ratio, 1 + eps, p->explored, ms, least,
             1 + eps, k1, k0, p->seconds);
    return 0;
}

static int kk_choose(struct sched *s, const struct engine *e, struct decision *d, char **cause)
{
    (void)cause;
    struct kk_state *st = s->state;
    if (!st || sched_plan_next(st->plan.from, st->plan.to, st->plan.len, &st->next, d) == SCHED_DONE)
        return SCHED_DONE;
    if (!e->lean)
        d->reason = xasprintf("kk-round: %s sends to %s (decision %d of %d of the rounded table's %s "
                              "schedule, at the real times)", e->c->nodes[d->from].name,
                              e->c->nodes[d->to].name, st->next, st->plan.len,
                              st->plan.status == OPT_PROVEN ? "optimal" : "best found");
    return SCHED_DECIDED;
}

static void kk_finish(struct sched *s)
{
    struct kk_state *st = s->state;
    if (!st)
        return;
    opt_plan_free(&st->plan);
    free(st);
    s->state = NULL;
}

/* Within 1 + eps (the default eps) where the rounded search proves (a run
 * that gives up is not measured against it); node tables, every model they
 * take: the argument at the top of this file holds in each. */
static const struct sched_claim kk_claims[] = {
    {CLUSTER_KIND_BIT(CLUSTER_NODES), MODEL_ALL, SCHED_MAKESPAN, 1 + KK_DEFAULT_EPSILON,
     "rounding + search"},
    {0, 0, SCHED_MAKESPAN, 0, NULL},
};

const struct sched_ops sched_kk_round = {
    .name = "kk-round",
    .summary = "within 1 + eps of the least makespan: times rounded up to powers of 1 + eps "
               "(--epsilon, default 0.25), the rounded table solved exactly (node tables)",
    .kinds = CLUSTER_KIND_BIT(CLUSTER_NODES),
    .models = MODEL_ALL,
    .multicast = true,   /* the argument holds for a multicast too; optimal searches its relays */
    .randomized = false,
    .prepare = kk_prepare,
    .choose = kk_choose,
    .finish = kk_finish,
    .claims = kk_claims,
};
