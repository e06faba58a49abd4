/*
 * sched/fef_fast.c - fef's choice on a node table, O(n log n) a run (sched/fef_fast.h).
 *
 * The waiting nodes are kept in groups of equal r(p), the groups in
 * increasing r, each group's nodes in increasing index; a cursor per group
 * and one over the groups skip the nodes that hold by now, so every node is
 * passed once: O(n) in all after the O(n log n) sort.  The holders are only
 * summarized: the least A = s(q) + L with the lowest index that has it,
 * and the second-least A.
 */
#include "sched/fef_fast.h"

#include "support/diag.h"
#include "model/timing.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

struct fef_fast {
    const struct cluster *c;
    int n;
    bool *held;
    int *holders;       /* every holder, in the order they came */
    int nholders;
    double amin, a2;    /* least A of the holders, least A above it (INFINITY: none) */
    int amin_q;         /* the lowest index of a holder with A = amin */
    int *by_r;          /* the nodes by (r, index) */
    int *group_end;     /* group_end[g]: one past the last position of group g in by_r */
    int *group_pos;     /* group_pos[g]: the first position of group g that may still wait */
    int ngroups;
    int first_group;    /* no waiting node in the groups before it */
};

struct r_item {
    double r;
    int node;
};

/* (r, index) increasing. */
static int cmp_r(const void *x, const void *y)
{
    const struct r_item *a = x, *b = y;
    if (a->r != b->r)
        return a->r < b->r ? -1 : 1;
    return (a->node > b->node) - (a->node < b->node);
}

struct fef_fast *fef_fast_new(const struct cluster *c)
{
    if (!c || c->kind != CLUSTER_NODES || c->n < 1)
        return NULL;
    struct fef_fast *f = xcalloc(1, sizeof *f);
    int n = c->n;
    f->c = c;
    f->n = n;
    f->held = xcalloc((size_t)n, sizeof *f->held);
    f->holders = xmalloc((size_t)n * sizeof *f->holders);
    f->amin = f->a2 = INFINITY;
    f->amin_q = -1;
    struct r_item *items = xmalloc((size_t)n * sizeof *items);
    for (int i = 0; i < n; i++)
        items[i] = (struct r_item){c->nodes[i].recv, i};
    qsort(items, (size_t)n, sizeof *items, cmp_r);
    f->by_r = xmalloc((size_t)n * sizeof *f->by_r);
    for (int i = 0; i < n; i++)
        f->by_r[i] = items[i].node;
    free(items);
    f->group_end = xmalloc((size_t)n * sizeof *f->group_end);
    f->group_pos = xmalloc((size_t)n * sizeof *f->group_pos);
    for (int i = 0; i < n; i++) {
        if (i == 0 || c->nodes[f->by_r[i]].recv != c->nodes[f->by_r[i - 1]].recv) {
            f->group_pos[f->ngroups] = i;
            f->ngroups++;
        }
        f->group_end[f->ngroups - 1] = i + 1;
    }
    return f;
}

void fef_fast_free(struct fef_fast *f)
{
    if (!f)
        return;
    free(f->held);
    free(f->holders);
    free(f->by_r);
    free(f->group_end);
    free(f->group_pos);
    free(f);
}

/* s(q) + L, as timing_cost adds them. */
static double a_of(const struct fef_fast *f, int q)
{
    return timing_node_head(f->c, q);
}

void fef_fast_hold(struct fef_fast *f, int q)
{
    if (f->held[q])
        return;
    f->held[q] = true;
    f->holders[f->nholders++] = q;
    double a = a_of(f, q);
    if (a < f->amin) {
        f->a2 = f->amin;
        f->amin = a;
        f->amin_q = q;
    } else if (a == f->amin) {
        if (q < f->amin_q)
            f->amin_q = q;
    } else if (a < f->a2) {
        f->a2 = a;
    }
}

/* The first node of group g that still waits, or -1 (the cursor moves on). */
static int group_first(struct fef_fast *f, int g)
{
    while (f->group_pos[g] < f->group_end[g] && f->held[f->by_r[f->group_pos[g]]])
        f->group_pos[g]++;
    return f->group_pos[g] < f->group_end[g] ? f->by_r[f->group_pos[g]] : -1;
}

/* The lowest-index holder whose transfer into a node of receive time r costs
 * t, the least such cost: the holder of least A unless another A rounds to
 * the same t (then a scan of the holders, as the readable path does). */
static int sender_for(const struct fef_fast *f, double r, double t)
{
    if (!(timing_head_recv(f->a2, r) == t))
        return f->amin_q;
    int best = -1;
    for (int i = 0; i < f->nholders; i++) {
        int q = f->holders[i];
        if (timing_head_recv(a_of(f, q), r) == t && (best < 0 || q < best))
            best = q;
    }
    return best;
}

int fef_fast_pick(struct fef_fast *f, int *from, int *to, double *cost)
{
    if (f->nholders == 0)
        return 0;
    while (f->first_group < f->ngroups && group_first(f, f->first_group) < 0)
        f->first_group++;
    if (f->first_group == f->ngroups)
        return 0;
    int g = f->first_group;
    int p = group_first(f, g);
    double r = f->c->nodes[p].recv, t = timing_head_recv(f->amin, r);
    int q = sender_for(f, r, t);
    /* Later groups whose r rounds to the same t (rare): the lowest (sender, receiver). */
    for (int h = g + 1; h < f->ngroups; h++) {
        double rh = f->c->nodes[f->by_r[f->group_end[h] - 1]].recv;
        if (!(timing_head_recv(f->amin, rh) == t))
            break;
        int ph = group_first(f, h);
        if (ph < 0)
            continue;
        int qh = sender_for(f, rh, t);
        if (qh < q || (qh == q && ph < p)) {
            q = qh;
            p = ph;
        }
    }
    *from = q;
    *to = p;
    *cost = t;
    return 1;
}
