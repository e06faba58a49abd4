/*
 * sched/exchange.c - personalized exchange on the event engine (sched/exchange.h): the
 * sending orders of Chen & Liu (random, caterpillar, RSPB, ORSPB) and of
 * Bhat, Prasanna & Raghavendra as Chen & Liu describe them (matching,
 * greedy, open-shop), and the event loop that books them on the engine.
 */
#include "sched/exchange.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support/calq.h"
#include "support/fastpath.h"
#include "sched/exchange_greedy_fast.h"
#include "support/heap.h"
#include "sched/exchange_openshop_fast.h"
#include "support/rng.h"

/* Independent streams from one --seed: orders, ties, the receiver subset. */
#define SALT_TIES 0x7469657374696573ULL
#define SALT_RECV 0x7265636569766572ULL

static const char *const patterns[] = {"all-to-all", "all-to-some"};

const char *exchange_pattern_name(enum xpattern p)
{
    return p <= XPAT_ALL_TO_SOME ? patterns[p] : "?";
}

int exchange_pattern_parse(const char *name, enum xpattern *out)
{
    for (int p = 0; p <= XPAT_ALL_TO_SOME; p++)
        if (strcmp(name, patterns[p]) == 0) {
            *out = (enum xpattern)p;
            return 0;
        }
    return -1;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Fisher-Yates over a[0..n). */
static void shuffle(struct rng *r, int *a, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(r, (uint64_t)i + 1), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* "12.5%" -> 12.5; -1 if s is not a percentage. */
static double parse_percent(const char *s)
{
    size_t len = strlen(s);
    if (len < 2 || s[len - 1] != '%')
        return -1;
    char *end;
    double x = strtod(s, &end);
    if (end != s + len - 1 || !isfinite(x) || x <= 0 || x > 100)
        return -1;
    return x;
}

int exchange_parse_receivers(const struct cluster *c, const char *spec, uint64_t seed,
                             int **recv, int *nrecv, char **cause)
{
    *recv = NULL;
    *nrecv = 0;
    if (!spec || !*spec)
        return set_cause(cause, "--receivers: give node names (a,b,c) or a percentage (30%%)");
    if (strchr(spec, '%')) {
        double pct = parse_percent(spec);
        if (pct < 0)
            return set_cause(cause, "--receivers: \"%s\" is not a percentage in (0%%, 100%%]", spec);
        int k = (int)floor(c->n * pct / 100 + 0.5);
        if (k < 1)
            k = 1;
        int *all = xmalloc((size_t)c->n * sizeof *all);
        for (int i = 0; i < c->n; i++)
            all[i] = i;
        struct rng r;
        rng_seed(&r, seed ^ SALT_RECV);
        shuffle(&r, all, c->n);
        qsort(all, (size_t)k, sizeof *all, cmp_int);
        *recv = all;
        *nrecv = k;
        return 0;
    }
    char *copy = xstrdup(spec);
    int *list = xmalloc((size_t)c->n * sizeof *list), k = 0;
    unsigned char *seen = xcalloc((size_t)c->n, 1);
    for (char *tok = copy; tok; ) {
        char *comma = strchr(tok, ',');
        if (comma)
            *comma = '\0';
        int p = cluster_find(c, tok);
        if (p < 0) {
            if (!*tok)
                set_cause(cause, "--receivers: \"%s\" has an empty name", spec);
            else
                set_cause(cause, "--receivers: \"%s\" is not a node of %s (its first nodes: %s%s%s)",
                          tok, c->name ? c->name : "the cluster", c->nodes[0].name,
                          c->n > 1 ? ", " : "", c->n > 1 ? c->nodes[1].name : "");
            k = -1;
            break;
        }
        if (seen[p]) {
            set_cause(cause, "--receivers: %s is listed twice", tok);
            k = -1;
            break;
        }
        seen[p] = 1;
        list[k++] = p;
        tok = comma ? comma + 1 : NULL;
    }
    free(copy);
    free(seen);
    if (k == 0)
        set_cause(cause, "--receivers: \"%s\" names no node", spec);
    if (k <= 0) {
        free(list);
        return -1;
    }
    qsort(list, (size_t)k, sizeof *list, cmp_int);
    *recv = list;
    *nrecv = k;
    return 0;
}

/* ---- the fixed orders ---- */

void exchange_caterpillar(int n, const int *recv, int nrecv, int *order)
{
    for (int i = 0; i < n; i++) {
        int start = 0;
        while (start < nrecv && recv[start] < i)
            start++;
        if (start == nrecv)
            start = 0;
        for (int k = 0; k < nrecv; k++)
            order[(size_t)i * nrecv + k] = recv[(start + k) % nrecv];
    }
}

void exchange_rspb(int n, const int *recv, int nrecv, const int *start, int *order)
{
    for (int i = 0; i < n; i++)
        for (int k = 0; k < nrecv; k++)
            order[(size_t)i * nrecv + k] = recv[(start[i] + k) % nrecv];
}

void exchange_orspb(int n, const int *recv, int nrecv, const int *first, int *order)
{
    for (int i = 0; i < n; i++)
        for (int k = 0; k < nrecv; k++)
            order[(size_t)i * nrecv + k] = recv[(first[k] + i) % nrecv];
}

/* What a transfer q -> p costs in all: s(q) + l + r(p); a node's own message is free. */
static double pair_cost(const struct cluster *c, int q, int p)
{
    struct cost k;
    if (q == p || !timing_cost(c, q, p, &k))
        return 0;
    return k.T;   /* s + l + r, by the timing rule's costs (model/timing.h) */
}

/*
 * Hungarian method (Kuhn-Munkres, potentials; O(m^3)): a[i][j] (m x m, row
 * major) costs, minimised; match[i] receives row i's column.  Ties go to the
 * lowest column index found first, so the result is deterministic.
 */
static void hungarian(int m, const double *a, int *match)
{
    double *u = xcalloc((size_t)m + 1, sizeof *u), *v = xcalloc((size_t)m + 1, sizeof *v);
    double *minv = xmalloc(((size_t)m + 1) * sizeof *minv);
    int *p = xcalloc((size_t)m + 1, sizeof *p), *way = xcalloc((size_t)m + 1, sizeof *way);
    unsigned char *used = xmalloc((size_t)m + 1);
    for (int i = 1; i <= m; i++) {
        p[0] = i;
        int j0 = 0;
        for (int j = 0; j <= m; j++)
            minv[j] = INFINITY;
        memset(used, 0, (size_t)m + 1);
        do {
            used[j0] = 1;
            int i0 = p[j0], j1 = 0;
            double delta = INFINITY;
            for (int j = 1; j <= m; j++) {
                if (used[j])
                    continue;
                double cur = a[(size_t)(i0 - 1) * m + (j - 1)] - u[i0] - v[j];
                if (cur < minv[j]) {
                    minv[j] = cur;
                    way[j] = j0;
                }
                if (minv[j] < delta) {
                    delta = minv[j];
                    j1 = j;
                }
            }
            for (int j = 0; j <= m; j++) {
                if (used[j]) {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
        } while (p[j0] != 0);
        do {
            int j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        } while (j0);
    }
    for (int j = 1; j <= m; j++)
        match[p[j] - 1] = j - 1;
    free(u);
    free(v);
    free(minv);
    free(p);
    free(way);
    free(used);
}

/*
 * Matching (Bhat et al., as Chen & Liu describe it): a bipartite graph of the
 * n senders and the receivers, each edge weighing the cost of its transfer;
 * every round takes a maximum-weight perfect matching and removes its edges.
 * All-to-some pads the receivers with n - nrecv dummy columns of weight 0 (a
 * sender matched to one sits the round out), so the graph is n-regular and
 * every round has a perfect matching of the edges left: n rounds.
 */
static void order_matching(const struct cluster *c, int n, const int *recv, int nrecv, int *order,
                           const volatile sig_atomic_t *cancel)
{
    double maxw = 0;
    for (int q = 0; q < n; q++)
        for (int k = 0; k < nrecv; k++)
            if (pair_cost(c, q, recv[k]) > maxw)
                maxw = pair_cost(c, q, recv[k]);
    double forbidden = 4.0 * n * (maxw + 1) + 1;   /* worse than any perfect matching of edges left */
    double *a = xmalloc((size_t)n * n * sizeof *a);
    unsigned char *gone = xcalloc((size_t)n * n, 1);
    int *match = xmalloc((size_t)n * sizeof *match), *filled = xcalloc((size_t)n, sizeof *filled);
    for (int round = 0; round < n && !(cancel && *cancel); round++) {
        for (int q = 0; q < n; q++)
            for (int j = 0; j < n; j++)
                a[(size_t)q * n + j] = gone[(size_t)q * n + j] ? forbidden
                                       : j < nrecv             ? -pair_cost(c, q, recv[j])
                                                               : 0;
        hungarian(n, a, match);
        for (int q = 0; q < n; q++) {
            int j = match[q];
            gone[(size_t)q * n + j] = 1;
            if (j < nrecv)
                order[(size_t)q * nrecv + filled[q]++] = recv[j];
        }
    }
    free(a);
    free(gone);
    free(match);
    free(filled);
}

struct by_cost {
    double cost;
    int k;
    bool own;   /* the sender's own entry: last whatever the costs */
};

/* The own entry last; then decreasing cost, then the lower receiver index. */
static int cmp_by_cost(const void *a, const void *b)
{
    const struct by_cost *x = a, *y = b;
    if (x->own != y->own)
        return x->own ? 1 : -1;
    if (x->cost != y->cost)
        return x->cost < y->cost ? 1 : -1;
    return (x->k > y->k) - (x->k < y->k);
}

/* The first receiver k of a sender's list that it has not sent to and that no
 * one has taken this round; -1 if none.  Greedy's inner loop, O(R), written
 * as a loop of its own with an early return: that compiles to a tight loop,
 * where a `pick < 0` loop condition inside the rounds did not. */
static int greedy_pick(const int *list, const unsigned char *sent, const unsigned char *taken,
                       int nrecv)
{
    for (int i = 0; i < nrecv; i++) {
        int k = list[i];
        if (!sent[k] && !taken[k])
            return k;
    }
    return -1;
}

/* Greedy's picks: the readable lists (every sender's sorted list, scanned
 * from its head) or sched/exchange_greedy_fast.c's bitsets (g not NULL). */
struct greedy_pick_state {
    struct gfast *g;
    int nrecv;
    int *list;                /* q's list: list[q * nrecv ..] */
    unsigned char *sent;      /* sent[q * nrecv + k] */
    unsigned char *taken;     /* this round's */
};

static void greedy_lists(const struct cluster *c, int n, const int *recv, int nrecv,
                         struct greedy_pick_state *st)
{
    st->nrecv = nrecv;
    st->g = FAST_PATH(true) ? gfast_new(c, recv, nrecv, pair_cost) : NULL;
    if (st->g)
        return;
    st->list = xmalloc((size_t)n * nrecv * sizeof *st->list);
    struct by_cost *sorted = xmalloc((size_t)nrecv * sizeof *sorted);
    for (int q = 0; q < n; q++) {
        for (int k = 0; k < nrecv; k++)
            sorted[k] = (struct by_cost){pair_cost(c, q, recv[k]), k, recv[k] == q};
        qsort(sorted, (size_t)nrecv, sizeof *sorted, cmp_by_cost);
        for (int k = 0; k < nrecv; k++)
            st->list[(size_t)q * nrecv + k] = sorted[k].k;
    }
    free(sorted);
    st->sent = xcalloc((size_t)n * nrecv, 1);
    st->taken = xmalloc((size_t)nrecv);
}

static void greedy_round(struct greedy_pick_state *st)
{
    if (st->g)
        gfast_round(st->g);
    else
        memset(st->taken, 0, (size_t)st->nrecv);
}

static int greedy_next(struct greedy_pick_state *st, int q)
{
    if (st->g)
        return gfast_pick(st->g, q);
    size_t at = (size_t)q * st->nrecv;
    return greedy_pick(&st->list[at], &st->sent[at], st->taken, st->nrecv);
}

static void greedy_take(struct greedy_pick_state *st, int q, int k)
{
    if (st->g) {
        gfast_take(st->g, q, k);
        return;
    }
    st->taken[k] = 1;
    st->sent[(size_t)q * st->nrecv + k] = 1;
}

static void greedy_done(struct greedy_pick_state *st)
{
    gfast_free(st->g);
    free(st->list);
    free(st->sent);
    free(st->taken);
}

/*
 * Greedy (Bhat et al., as Chen & Liu describe it): each sender lists its
 * receivers by decreasing transfer cost (ties: lower index; its own entry
 * costs nothing and comes last, even after transfers that cost nothing).  Round by round, the senders pick in turn
 * the first receiver of their list that they have not sent to yet and that
 * no one has picked this round; a sender that finds none sits the round out
 * and picks first in the next round.  Then the others follow in this
 * round's order rotated by one, so that this round's last picker comes
 * first ("if there is no sender idle in this round, the last sender will be
 * the first node to pick in the next round").
 */
static void order_greedy(const struct cluster *c, int n, const int *recv, int nrecv, int *order,
                         const volatile sig_atomic_t *cancel)
{
    struct greedy_pick_state st = {0};
    greedy_lists(c, n, recv, nrecv, &st);
    int *count = xcalloc((size_t)n, sizeof *count), *turn = xmalloc((size_t)n * sizeof *turn);
    int *next = xmalloc((size_t)n * sizeof *next), *idle = xmalloc((size_t)n * sizeof *idle);
    int nturn = n;
    for (int q = 0; q < n; q++)
        turn[q] = q;
    while (nturn > 0 && !(cancel && *cancel)) {   /* cancelled: the order is left unfinished */
        greedy_round(&st);
        int nidle = 0, nbusy = 0;
        for (int t = 0; t < nturn; t++) {
            int q = turn[t];
            int pick = greedy_next(&st, q);
            if (pick < 0) {
                idle[nidle++] = q;
                continue;
            }
            greedy_take(&st, q, pick);
            order[(size_t)q * nrecv + count[q]++] = recv[pick];
            next[nbusy++] = q;   /* this round's pickers, in picking order */
        }
        /* next round: the idle first, then the pickers rotated (last first) */
        int m = 0;
        for (int i = 0; i < nidle; i++)
            turn[m++] = idle[i];
        for (int i = 0; i < nbusy; i++) {
            int q = next[(i + nbusy - 1) % nbusy];
            if (count[q] < nrecv)
                turn[m++] = q;
        }
        nturn = m;
    }
    greedy_done(&st);
    free(count);
    free(turn);
    free(next);
    free(idle);
}

/* ---- the fixed orders as ops tables' build() ---- */

/* The rotations of lean runs (xsched_ops.rotation): the draws of the builds below. */
static void caterpillar_starts(int n, const int *recv, int nrecv, int *start)
{
    for (int i = 0, k = 0; i < n; i++) {
        while (k < nrecv && recv[k] < i)
            k++;
        start[i] = k == nrecv ? 0 : k;
    }
}

static int rot_caterpillar(const struct cluster *c, const int *recv, int nrecv, struct rng *r,
                           int *start, int *first)
{
    (void)r;
    (void)first;
    caterpillar_starts(c->n, recv, nrecv, start);
    return 0;
}

static void rspb_starts(const struct cluster *c, int nrecv, struct rng *r, int *start)
{
    int n = c->n;
    if (nrecv == n) {
        for (int i = 0; i < n; i++)
            start[i] = i;
        shuffle(r, start, n);
    } else {
        for (int i = 0; i < n; i++)
            start[i] = (int)rng_below(r, (uint64_t)nrecv);
    }
}

static int rot_rspb(const struct cluster *c, const int *recv, int nrecv, struct rng *r,
                    int *start, int *first)
{
    (void)recv;
    (void)first;
    rspb_starts(c, nrecv, r, start);
    return 0;
}

static void orspb_firsts(int nrecv, struct rng *r, int *first)
{
    for (int k = 0; k < nrecv; k++)
        first[k] = k;
    shuffle(r, first, nrecv);
}

static int rot_orspb(const struct cluster *c, const int *recv, int nrecv, struct rng *r,
                     int *start, int *first)
{
    (void)c;
    (void)recv;
    (void)start;
    orspb_firsts(nrecv, r, first);
    return 1;
}

static void build_random(const struct cluster *c, const int *recv, int nrecv, struct rng *r,
                         int *order, const volatile sig_atomic_t *cancel)
{
    (void)cancel;
    for (int q = 0; q < c->n; q++) {
        int *o = &order[(size_t)q * nrecv];
        memcpy(o, recv, (size_t)nrecv * sizeof *o);
        shuffle(r, o, nrecv);
    }
}

static void build_caterpillar(const struct cluster *c, const int *recv, int nrecv,
                              struct rng *r, int *order, const volatile sig_atomic_t *cancel)
{
    (void)cancel;
    (void)r;
    exchange_caterpillar(c->n, recv, nrecv, order);
}

/* All-to-all: the first row is a random permutation (Table 3); with fewer
 * receivers than senders each picks its start at random (Table 4). */
static void build_rspb(const struct cluster *c, const int *recv, int nrecv, struct rng *r,
                       int *order, const volatile sig_atomic_t *cancel)
{
    (void)cancel;
    int n = c->n, *start = xmalloc((size_t)n * sizeof *start);
    rspb_starts(c, nrecv, r, start);
    exchange_rspb(n, recv, nrecv, start, order);
    free(start);
}

static void build_orspb(const struct cluster *c, const int *recv, int nrecv, struct rng *r,
                        int *order, const volatile sig_atomic_t *cancel)
{
    (void)cancel;
    int *first = xmalloc((size_t)nrecv * sizeof *first);
    orspb_firsts(nrecv, r, first);
    exchange_orspb(c->n, recv, nrecv, first, order);
    free(first);
}

static void build_matching(const struct cluster *c, const int *recv, int nrecv, struct rng *r,
                           int *order, const volatile sig_atomic_t *cancel)
{
    (void)r;
    order_matching(c, c->n, recv, nrecv, order, cancel);
}

static void build_greedy(const struct cluster *c, const int *recv, int nrecv, struct rng *r,
                         int *order, const volatile sig_atomic_t *cancel)
{
    (void)r;
    order_greedy(c, c->n, recv, nrecv, order, cancel);
}

/* ---- the simulation ---- */

/*
 * The exchange's own time arithmetic, all of it: a message q -> p whose send
 * starts at t under the async model on a node table.  The sender may start
 * its next send at t + s(q); the message arrives at t + s(q) + L and, if p's
 * receive port frees at recv_free, is received by max(arrival, recv_free) +
 * r(p).  (In sync the loop reads the engine's port times, which the booking
 * set: the rendezvous arithmetic is the engine's.)
 */
struct xfer {
    double send_end;   /* the sender's next send may start */
    double arrival;    /* the message reaches p */
    double recv_end;   /* p has received it */
};

static struct xfer xfer_times(const struct cluster *c, int q, int p, double t, double recv_free)
{
    struct timing_ports at = {t, recv_free, -INFINITY};
    struct timing tm = {0};
    timing_of(c, MODEL_ASYNC, q, p, &at, &tm);   /* the timing rule (model/timing.h) */
    return (struct xfer){tm.send_end, tm.link_end, tm.recv_end};
}

/*
 * The events.  READY: sender q decides its next message (sync: and sends it
 * if the receiver is free).  ARRIVAL (async only): q's message of order row
 * `row` reaches its receiver and is booked.  Packed in the heap item's data;
 * the item's seq is a random draw, so that ties in time come out at random.
 */
enum { XEV_READY, XEV_ARRIVAL };

static uint64_t ev_pack(int kind, int q, int row)
{
    return (uint64_t)(uint32_t)row << 32 | (uint64_t)(uint32_t)q << 1 | (uint64_t)kind;
}

static int ev_kind(uint64_t d) { return (int)(d & 1); }
static int ev_q(uint64_t d) { return (int)((uint32_t)d >> 1); }
static int ev_row(uint64_t d) { return (int)(int32_t)(uint32_t)(d >> 32); }

struct sim {
    struct exchange *x;
    bool dynamic;     /* the order is decided while simulating (ops->choose) */
    bool at_ready;    /* senders have READY events: sync, or a dynamic order */
    int *cursor;      /* q's next row to send (fixed) or to decide (dynamic) */
    int *left;        /* q's messages still to decide, or in sync to send (own entry not counted) */
    int *brow;        /* async: q's next row to book (its next arrival) */
    unsigned char *pending;   /* async: q's next arrival is in the heap */
    int *pool;        /* dynamic: q's receivers not chosen yet, pool[q*nrecv ..] */
    int *npool;
    double *est;      /* dynamic, async: when p will have received all chosen so far */
    double *send_free, *recv_free;   /* per node: the ports' times (the engine's arrays,
                                        or the lean run's own) */
    bool lean;        /* exchange_opts.lean: no engine, no records (book_lean) */
    int *rot_start;   /* lean, a rotation order without its table: row q is
                         recv[(rot_start[q] + k) % nrecv] */
    int *rot_first;   /* ... or its k-th entry recv[(rot_first[k] + q) % nrecv] */
    void (*on_book)(void *ctx, const struct transfer *t, int row);
    void *ctx;
    struct oshop *oshop;   /* open-shop's fast path (sched/exchange_openshop_fast.h) instead of pool and
                              choose, NULL if not taken */
    struct heap heap;
    struct calq *calq;     /* the events in a calendar queue (support/calq.h) instead of the heap,
                              NULL if not taken: the same order */
    struct rng ties;
    const volatile sig_atomic_t *cancel;   /* exchange_opts.cancel */
};

static void push(struct sim *s, int kind, double time, int q, int row)
{
    uint64_t seq = rng_next(&s->ties);
    if (s->calq)
        calq_push(s->calq, 2 * q + kind, time, seq, (uint64_t)(uint32_t)row);
    else
        heap_push_seq(&s->heap, time, seq, ev_pack(kind, q, row));
}

/* The least event out (time, seq): false when there is none. */
static inline bool pop(struct sim *s, struct heap_item *ev)
{
    if (!s->calq)
        return heap_pop(&s->heap, ev);
    int id;
    uint64_t row;
    if (!calq_pop(s->calq, &id, &ev->time, &row))
        return false;
    ev->data = ev_pack(id & 1, id >> 1, (int)(int32_t)(uint32_t)row);
    return true;
}

/* q's k-th receiver: from the table, or from the rotation a lean run keeps instead. */
static inline int order_at(const struct sim *s, int q, int k)
{
    const struct exchange *x = s->x;
    if (x->order)
        return x->order[(size_t)q * x->nrecv + k];
    int j = s->rot_start ? s->rot_start[q] + k : s->rot_first[k] + q % x->nrecv;
    return x->recv[j >= x->nrecv ? j - x->nrecv : j];
}

/* The first row >= k (below limit: the rows decided so far) that is not q's own entry. */
static int skip_own(const struct sim *s, int q, int k, int limit)
{
    while (k < limit && order_at(s, q, k) == q)
        k++;
    return k;
}

/* Sender q, ready at t: its next receiver, without deciding it yet (a sync
 * sender whose receiver is busy waits and asks again).  *slot: the choice's
 * index in q's pool (dynamic) or its row (fixed). */
static inline int next_receiver(struct sim *s, int q, double t, int *slot)
{
    struct exchange *x = s->x;
    if (!s->dynamic) {
        *slot = s->cursor[q] = skip_own(s, q, s->cursor[q], x->nrecv);
        return order_at(s, q, *slot);
    }
    if (s->oshop)
        return *slot = oshop_choose(s->oshop, q);   /* the slot is the receiver itself */
    const int *pool = &s->pool[(size_t)q * x->nrecv];
    struct xchoice ch = {x, q, t, pool, s->npool[q],
                         timing_rendezvous(x->model) ? s->recv_free : s->est};
    *slot = x->ops->choose(&ch);
    return pool[*slot];
}

/* Decide q's next message (next_receiver's slot): returns its row in q's order. */
static inline int commit(struct sim *s, int q, int slot)
{
    if (!s->dynamic)
        return s->cursor[q]++;
    struct exchange *x = s->x;
    int row = s->cursor[q]++;
    if (s->oshop) {
        x->order[(size_t)q * x->nrecv + row] = slot;
        oshop_take(s->oshop, q, slot);
        return row;
    }
    int *pool = &s->pool[(size_t)q * x->nrecv];
    x->order[(size_t)q * x->nrecv + row] = pool[slot];
    pool[slot] = pool[--s->npool[q]];
    return row;
}

/* A lean run's booking: the engine's earliest-time booking of q -> p (the
 * sender holds its own message from 0; engine_earliest, engine_book) on the
 * ports' times alone, and the summary's sums as exchange_run makes them from
 * the records (a wait: start > wait_start). */
static void book_lean(struct sim *s, int q, int p, int row)
{
    struct exchange *x = s->x;
    double sf = s->send_free[q];
    struct timing_ports at = {0.0 > sf ? 0.0 : sf, s->recv_free[p], -INFINITY};
    struct timing tm = {0};
    timing_of(x->c, x->model, q, p, &at, &tm);   /* the timing rule (model/timing.h) */
    s->send_free[q] = tm.free;
    if (timing_holds_recv_port(x->model))
        s->recv_free[p] = tm.recv_end;
    if (tm.hold > x->completion)
        x->completion = tm.hold;
    if (at.ready < tm.start) {
        x->nwaits++;
        x->idle += tm.start - at.ready;
    }
    if (s->on_book) {
        struct transfer t;
        memset(&t, 0, sizeof t);
        t.from = q;
        t.to = p;
        t.msg = q * x->n + p;
        t.seq = x->ntr;
        t.wait_start = at.ready;
        transfer_set_times(&t, &tm);
        s->on_book(s->ctx, &t, row);
    }
    x->ntr++;
}

static int book(struct sim *s, int q, int p, int row, char **cause)
{
    struct exchange *x = s->x;
    if (s->lean) {
        book_lean(s, q, p, row);
        return 0;
    }
    char *why = NULL;
    if (engine_book(&x->eng, q, p, q * x->n + p, NULL, &why) < 0) {
        set_cause(cause, "exchange: %s", why);
        free(why);
        return -1;
    }
    x->row[x->eng.ntr - 1] = row;
    x->ntr = x->eng.ntr;
    if (s->on_book)
        s->on_book(s->ctx, &x->eng.tr[x->eng.ntr - 1], row);
    return 0;
}

/* Async: put q's next decided, unbooked message in the heap at its arrival. */
static void push_arrival(struct sim *s, int q)
{
    struct exchange *x = s->x;
    int row = s->brow[q] = skip_own(s, q, s->brow[q], s->cursor[q]);
    if (row >= s->cursor[q] || s->pending[q])
        return;   /* not decided yet, or one is in the heap already */
    int p = order_at(s, q, row);
    /* sends follow each other: this one starts when the last booked one's s ends */
    push(s, XEV_ARRIVAL, xfer_times(x->c, q, p, s->send_free[q], 0).arrival, q, row);
    s->pending[q] = 1;
}

/*
 * Sender q is ready at t: the model's rule, the one place where sync and
 * async differ, because their bookings must come in different orders for the
 * engine's earliest-time booking to be exact.
 *   sync   the rendezvous holds both ports from the start, so a transfer is
 *          booked when it starts: now if p's receive port is free, else q
 *          sits idle and is ready again when the port frees (a dynamic order
 *          chooses anew then).  Bookings come in start-time order.
 *   async  q moves on after s(q) whatever p does: the message is decided now
 *          and booked when it arrives (ARRIVAL), so that every receiver's
 *          bookings come in arrival order, the order it serves them.
 */
static int ready(struct sim *s, int q, double t, char **cause)
{
    struct exchange *x = s->x;
    int slot, p = next_receiver(s, q, t, &slot);
    if (timing_rendezvous(x->model)) {
        double free_at = s->recv_free[p];
        if (free_at > t) {
            push(s, XEV_READY, free_at, q, -1);
            return 0;
        }
        if (book(s, q, p, commit(s, q, slot), cause) < 0)
            return -1;
        if (s->oshop)
            oshop_update(s->oshop, p);   /* its receive port's time grew */
        if (--s->left[q] > 0)
            push(s, XEV_READY, s->send_free[q], q, -1);
        return 0;
    }
    struct xfer f = xfer_times(x->c, q, p, t, s->est ? s->est[p] : 0);
    commit(s, q, slot);
    if (s->est) {
        s->est[p] = f.recv_end;
        if (s->oshop)
            oshop_update(s->oshop, p);
    }
    push_arrival(s, q);
    if (--s->left[q] > 0)
        push(s, XEV_READY, f.send_end, q, -1);
    return 0;
}

/* Async: q's message of row `row` arrives; book it and queue q's next one. */
static int arrive(struct sim *s, int q, int row, char **cause)
{
    if (book(s, q, order_at(s, q, row), row, cause) < 0)
        return -1;
    s->pending[q] = 0;
    s->brow[q] = row + 1;
    push_arrival(s, q);
    return 0;
}

/*
 * The calendar queue's buckets (support/calq.h): a sender's events come about once
 * a message (a decision and an arrival in async), every time its port is
 * busy for one, so about sum 2 / busy(q) events fall in a unit of time, and
 * a bucket of 4 / that holds a few (times of two decimals tie on their own:
 * at N = 2000 about ten events share a time, and a bucket); an event is
 * pushed at most about a busy time and a transfer ahead, which the window
 * covers.  The times of one transfer each, by the timing rule; the order
 * does not depend on them, only the speed.
 */
static void calendar_init(struct calq *cq, const struct cluster *c, enum model m, int n,
                          const int *recv, int nrecv)
{
    double rate = 0, ahead = 0;
    for (int q = 0; q < n; q++) {
        int p = recv[q % nrecv] != q ? recv[q % nrecv] : recv[(q + 1) % nrecv];
        struct timing_ports at = {0, 0, -INFINITY};
        struct timing tm = {0};
        if (p == q || !timing_of(c, m, q, p, &at, &tm))
            continue;
        if (tm.free > 0)
            rate += 2 / tm.free;   /* tm.free: q's port is busy until then */
        if (tm.free + tm.hold > ahead)
            ahead = tm.free + tm.hold;
    }
    double width = rate > 0 && isfinite(rate) ? 4 / rate : 1;
    double nb = ahead / width * 1.5;
    calq_init(cq, 2 * n, nb < (double)(1 << 20) ? (size_t)nb : (size_t)1 << 20, width);
}

/*
 * The one loop, for every order and both models.  Senders start ready at 0;
 * in async a fixed order is decided before the loop, so its senders need no
 * READY events and start with their first arrival instead (a sender's sends
 * follow each other every s(q), and with one latency its messages arrive in
 * its sending order: each sender keeps just its next arrival in the heap).
 * The heap holds at most one READY and one ARRIVAL per sender.
 */
static int simulate(struct sim *s, char **cause)
{
    struct exchange *x = s->x;
    for (int q = 0; q < x->n; q++)
        if (s->left[q] > 0) {
            if (s->at_ready)
                push(s, XEV_READY, 0, q, -1);
            else
                push_arrival(s, q);
        }
    struct heap_item ev;
    for (unsigned steps = 0; pop(s, &ev); steps++) {
        if ((steps & 4095) == 0 && s->cancel && *s->cancel)
            return set_cause(cause, "cancelled");
        int q = ev_q(ev.data);
        int rc = ev_kind(ev.data) == XEV_ARRIVAL ? arrive(s, q, ev_row(ev.data), cause)
                                                 : ready(s, q, ev.time, cause);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/*
 * Open-shop: q's receiver that can receive the message earliest.  The message
 * would be received from max(ready, port free) -- ready being now (sync) or
 * its arrival now + s(q) + L (async), the same for all of q's receivers on a
 * node table -- so that is the receiver whose port is free first (sync: the
 * engine's receive port; async: the estimate once the messages decided so far
 * are received).  Ties: the lower index.  O(receivers left).
 */
static int choose_open_shop(const struct xchoice *ch)
{
    const double *free_at = ch->recv_free;
    int best = 0;
    for (int i = 1; i < ch->npool; i++) {
        int p = ch->pool[i], b = ch->pool[best];
        if (free_at[p] < free_at[b] || (free_at[p] == free_at[b] && p < b))
            best = i;
    }
    return best;
}

/* ---- the list of orders ---- */

#define BOTH_MODELS (MODEL_BIT(MODEL_SYNC) | MODEL_BIT(MODEL_ASYNC))

const struct xsched_ops xsched_random = {
    .name = "random",
    .summary = "each node sends to the receivers in a random order",
    .cost = "O(n R)", .models = BOTH_MODELS, .randomized = true, .build = build_random,
};
const struct xsched_ops xsched_caterpillar = {
    .name = "caterpillar",
    .summary = "node i sends to i, i+1, ... (the receivers from the first >= i, cyclically)",
    .cost = "O(n R)", .models = BOTH_MODELS, .build = build_caterpillar,
    .rotation = rot_caterpillar,
};
const struct xsched_ops xsched_rspb = {
    .name = "rspb",
    .summary = "Random_Starting_Point_Baseline: a random first receiver, then the caterpillar",
    .cost = "O(n R)", .models = BOTH_MODELS, .randomized = true, .build = build_rspb,
    .rotation = rot_rspb,
};
const struct xsched_ops xsched_orspb = {
    .name = "orspb",
    .summary = "One_Random_Starting_Point_Baseline: a random order for node 0, shifted by one per node",
    .cost = "O(n R)", .models = BOTH_MODELS, .randomized = true, .build = build_orspb,
    .rotation = rot_orspb,
};
const struct xsched_ops xsched_matching = {
    .name = "matching",
    .summary = "Bhat et al.: rounds of maximum-weight perfect matchings of senders and receivers",
    .cost = "O(n^4)", .models = BOTH_MODELS, .max_nodes = EXCHANGE_MATCHING_MAX_NODES,
    .build = build_matching,
};
const struct xsched_ops xsched_greedy = {
    .name = "greedy",
    .summary = "Bhat et al.: rounds; each sender takes its costliest receiver not yet taken",
    .cost = "O(n^2 R)", .models = BOTH_MODELS, .build = build_greedy,
};
const struct xsched_ops xsched_open_shop = {
    .name = "open-shop",
    .summary = "Bhat et al.: the earliest ready sender sends to its earliest free receiver",
    .cost = "O(n R^2)", .models = BOTH_MODELS, .choose = choose_open_shop,
};

/* In the order of docs/exchange.md; `compare` without -s runs them in this order. */
static const struct xsched_ops *const xscheds[] = {
    &xsched_random, &xsched_caterpillar, &xsched_rspb, &xsched_orspb,
    &xsched_matching, &xsched_greedy, &xsched_open_shop,
};

_Static_assert(sizeof xscheds / sizeof *xscheds == XSCHED_COUNT, "XSCHED_COUNT: the list's length");

const struct xsched_ops *xsched_at(int i)
{
    return i >= 0 && i < XSCHED_COUNT ? xscheds[i] : NULL;
}

const struct xsched_ops *xsched_find(const char *name)
{
    for (int i = 0; i < XSCHED_COUNT; i++)
        if (strcmp(name, xscheds[i]->name) == 0)
            return xscheds[i];
    return NULL;
}

static const char *xsched_name_at(int i) { return xscheds[i]->name; }

char *xsched_names(void)
{
    return diag_join_names(XSCHED_COUNT, xsched_name_at);
}

int xsched_check(const struct xsched_ops *ops, const struct cluster *c, enum model m,
                 char **cause)
{
    if (!(ops->models & MODEL_BIT(m)))
        return set_cause(cause, "%s does not run under -m %s", ops->name, model_name(m));
    if (ops->max_nodes > 0 && c->n > ops->max_nodes)
        return set_cause(cause, "%s takes %s time: refused for %d nodes (at most %d); "
                         "use greedy or open-shop", ops->name, ops->cost, c->n, ops->max_nodes);
    return 0;
}

/* The same bound on a latency matrix, where a pair's link is its own: every
 * transfer's port times (timing_port_busy) summed per node.  O(n R). */
static double matrix_lower_bound(const struct cluster *c, enum model m, const int *recv, int nrecv,
                                 int *node, bool *by_recv)
{
    double *out = xcalloc((size_t)c->n, sizeof *out), *in = xcalloc((size_t)c->n, sizeof *in);
    unsigned char *is_recv = xcalloc((size_t)c->n, 1);
    for (int k = 0; k < nrecv; k++)
        is_recv[recv[k]] = 1;
    for (int q = 0; q < c->n; q++)
        for (int k = 0; k < nrecv; k++) {
            int p = recv[k];
            struct cost cost;
            double sb, rb;
            if (p == q || !timing_cost(c, q, p, &cost))
                continue;
            timing_port_busy(m, &cost, &sb, &rb);
            out[q] += sb;
            in[p] += rb;
        }
    double best = 0;
    for (int x = 0; x < c->n; x++) {
        if (out[x] > best) {
            best = out[x];
            *node = x;
            *by_recv = false;
        }
        if (is_recv[x] && in[x] > best) {
            best = in[x];
            *node = x;
            *by_recv = true;
        }
    }
    free(out);
    free(in);
    free(is_recv);
    return best;
}

/* The lower bound alone; *node and *by_recv (may be NULL) say who sets it.
 * The time a transfer charges each port is the model's: s + l + r on both in
 * sync (the rendezvous holds both ports), s(q) and r(p) in async. */
static double exchange_lower_bound(const struct cluster *c, enum model m, const int *recv,
                                   int nrecv, int *node, bool *by_recv)
{
    if (c->kind == CLUSTER_MATRIX) {
        int nd = 0;
        bool br = false;
        double b = matrix_lower_bound(c, m, recv, nrecv, &nd, &br);
        if (node)
            *node = nd;
        if (by_recv)
            *by_recv = br;
        return b;
    }
    /* sends of q: sum over its receivers; receives of p: sum over all senders */
    double best = 0, sum_s = 0, sum_r_recv = 0;
    int best_node = 0;
    bool best_recv = false;
    unsigned char *is_recv = xcalloc((size_t)c->n, 1);
    for (int k = 0; k < nrecv; k++) {
        is_recv[recv[k]] = 1;
        sum_r_recv += c->nodes[recv[k]].recv;
    }
    for (int q = 0; q < c->n; q++)
        sum_s += c->nodes[q].send;
    for (int x = 0; x < c->n; x++) {
        /* as a sender: one transfer to each receiver but itself */
        int outs = nrecv - is_recv[x];
        double send = timing_rendezvous(m) ? outs * (c->nodes[x].send + c->latency) +
                                            (sum_r_recv - (is_recv[x] ? c->nodes[x].recv : 0))
                                      : outs * c->nodes[x].send;
        if (send > best) {
            best = send;
            best_node = x;
            best_recv = false;
        }
        if (!is_recv[x])
            continue;
        int ins = c->n - 1;
        double recvt = timing_rendezvous(m)
                           ? (sum_s - c->nodes[x].send) + ins * (c->latency + c->nodes[x].recv)
                           : ins * c->nodes[x].recv;
        if (recvt > best) {
            best = recvt;
            best_node = x;
            best_recv = true;
        }
    }
    free(is_recv);
    if (node)
        *node = best_node;
    if (by_recv)
        *by_recv = best_recv;
    return best;
}

bool exchange_wait(const struct exchange *x, int i, double *from, double *to)
{
    if (i < 0 || i >= x->eng.ntr)
        return false;
    const struct transfer *t = &x->eng.tr[i];
    if (!(t->wait_start < t->start))
        return false;
    *from = t->wait_start;
    *to = t->start;
    return true;
}

void exchange_rows_at(const struct exchange *x, double t, int *row)
{
    for (int q = 0; q < x->n; q++)
        row[q] = -1;
    for (int i = 0; i < x->eng.ntr; i++) {
        const struct transfer *tr = &x->eng.tr[i];
        if (tr->start <= t && x->row[i] > row[tr->from])
            row[tr->from] = x->row[i];
    }
}

void exchange_free(struct exchange *x)
{
    free(x->recv);
    free(x->order);
    free(x->row);
    engine_free(&x->eng);
    memset(x, 0, sizeof *x);
}

/* Every row of a given order must be a permutation of the receivers. */
static int check_order(const struct exchange *x, const int *order, char **cause)
{
    unsigned char *seen = xmalloc((size_t)x->n);
    int rc = 0;
    for (int q = 0; q < x->n && rc == 0; q++) {
        memset(seen, 0, (size_t)x->n);
        for (int k = 0; k < x->nrecv; k++) {
            int p = order[(size_t)q * x->nrecv + k];
            if (p < 0 || p >= x->n || seen[p]) {
                rc = set_cause(cause, "the order of %s is not a permutation of the receivers "
                               "(entry %d: %d)", x->c->nodes[q].name, k + 1, p);
                break;
            }
            seen[p] = 1;
        }
        for (int k = 0; k < x->nrecv && rc == 0; k++)
            if (!seen[x->recv[k]])
                rc = set_cause(cause, "the order of %s leaves out the receiver %s",
                               x->c->nodes[q].name, x->c->nodes[x->recv[k]].name);
    }
    free(seen);
    return rc;
}

int exchange_check_kind(const struct cluster *c, enum model m, char **cause)
{
    const char *name = c->name ? c->name : "the cluster";
    if (c->target)   /* a multicast's targets (model/targets.h) mean nothing here */
        return set_cause(cause, "a personalized exchange has no targets (this cluster names some, a "
                         "multicast): all-to-some names its receivers with --receivers");
    if (c->kind == CLUSTER_MATRIX && timing_exchange_ok(m) && !timing_exchange_on_matrix(m))
        return set_cause(cause, "an asynchronous exchange on a latency matrix is not simulated "
                         "(its messages can arrive out of their sending order, which the "
                         "simulation does not book); %s runs under -m sync", name);
    if (c->kind != CLUSTER_NODES && c->kind != CLUSTER_MATRIX)
        return set_cause(cause, "a personalized exchange needs a node table (name,send,recv) or a "
                         "latency matrix (-m sync); %s is a %s", name, cluster_kind_name(c->kind));
    return 0;
}

/* The receivers of o, sorted (all-to-all: every node); NULL after saying why
 * (one that is not a node, or listed twice). */
static int *receivers_of(const struct exchange_opts *o, int n, int nrecv, char **cause)
{
    int *recv = xmalloc((size_t)nrecv * sizeof *recv);
    if (o->pattern == XPAT_ALL_TO_ALL) {
        for (int i = 0; i < n; i++)
            recv[i] = i;
    } else {
        memcpy(recv, o->recv, (size_t)nrecv * sizeof *recv);
        qsort(recv, (size_t)nrecv, sizeof *recv, cmp_int);
        for (int k = 0; k < nrecv; k++)
            if (recv[k] < 0 || recv[k] >= n || (k > 0 && recv[k] == recv[k - 1])) {
                int bad = recv[k];
                free(recv);
                set_cause(cause, "receiver %d is %s", bad,
                          bad < 0 || bad >= n ? "not a node" : "listed twice");
                return NULL;
            }
    }
    return recv;
}

/*
 * The order of the rows, before the run: a rotation's first receivers (no
 * table), the given order (checked), or the one ops->build makes; an order
 * chosen during the run is left to it.  -1 after saying why.
 */
static int order_of(struct exchange *x, const struct exchange_opts *o, bool table, struct sim *s,
                    char **cause)
{
    const struct cluster *c = x->c;
    const struct xsched_ops *ops = x->ops;
    int n = x->n, nrecv = x->nrecv, *recv = x->recv;
    if (table)
        x->order = xmalloc((size_t)n * nrecv * sizeof *x->order);
    if (!table) {
        struct rng r;
        rng_seed(&r, o->seed);
        int *start = xmalloc((size_t)n * sizeof *start), *first = xmalloc((size_t)nrecv * sizeof *first);
        if (ops->rotation(c, recv, nrecv, &r, start, first)) {
            s->rot_first = first;
            free(start);
        } else {
            s->rot_start = start;
            free(first);
        }
    } else if (o->order) {
        memcpy(x->order, o->order, (size_t)n * nrecv * sizeof *x->order);
        if (check_order(x, x->order, cause) < 0)
            return -1;
    } else if (ops->build) {
        struct rng r;
        rng_seed(&r, o->seed);
        ops->build(c, recv, nrecv, &r, x->order, o->cancel);
        if (o->cancel && *o->cancel)
            return set_cause(cause, "cancelled");
    }
    return 0;
}

/* The simulation's state for x: the ports, the cursors, what each sender has
 * left, and the pool or open-shop's state of an order chosen during the run. */
static void sim_setup(struct sim *s, struct exchange *x, const struct exchange_opts *o)
{
    const struct xsched_ops *ops = x->ops;
    enum model m = x->model;
    bool lean = x->lean;
    int n = x->n, nrecv = x->nrecv, *recv = x->recv;
    unsigned char *is_recv = xcalloc((size_t)n, 1);
    for (int k = 0; k < nrecv; k++)
        is_recv[recv[k]] = 1;
    size_t ntr = 0;
    s->x = x;
    s->lean = lean;
    s->on_book = o->on_book;
    s->ctx = o->ctx;
    if (lean) {
        s->send_free = xcalloc((size_t)n, sizeof *s->send_free);
        s->recv_free = xcalloc((size_t)n, sizeof *s->recv_free);
    } else {
        s->send_free = x->eng.send_free;
        s->recv_free = x->eng.recv_free;
    }
    s->cancel = o->cancel;
    s->dynamic = !o->order && !ops->build;
    s->at_ready = timing_rendezvous(m) || s->dynamic;
    s->cursor = xcalloc((size_t)n, sizeof *s->cursor);
    s->brow = xcalloc((size_t)n, sizeof *s->brow);
    s->pending = xcalloc((size_t)n, 1);
    s->left = xmalloc((size_t)n * sizeof *s->left);
    for (int q = 0; q < n; q++) {
        s->left[q] = nrecv - is_recv[q];
        ntr += (size_t)s->left[q];
    }
    if (!lean)
        x->row = xmalloc((ntr ? ntr : 1) * sizeof *x->row);
    if (s->dynamic) {
        /* the own entry first: it costs nothing and is decided at once */
        s->est = xcalloc((size_t)n, sizeof *s->est);
        for (int q = 0; q < n; q++)
            if (is_recv[q])
                x->order[(size_t)q * nrecv + s->cursor[q]++] = q;
        if (FAST_PATH(ops->choose == choose_open_shop)) {
            s->oshop = oshop_new(n, recv, nrecv, timing_rendezvous(m) ? s->recv_free : s->est);
        } else {
            s->pool = xmalloc((size_t)n * nrecv * sizeof *s->pool);
            s->npool = xcalloc((size_t)n, sizeof *s->npool);
            for (int q = 0; q < n; q++)
                for (int k = 0; k < nrecv; k++)
                    if (recv[k] != q)
                        s->pool[(size_t)q * nrecv + s->npool[q]++] = recv[k];
        }
    }
    if (!s->at_ready)
        for (int q = 0; q < n; q++)
            s->cursor[q] = nrecv;   /* async, a fixed order: every row is decided */
    free(is_recv);
}

static void sim_free(struct sim *s)
{
    if (s->calq)
        calq_free(s->calq);
    free(s->cursor);
    free(s->brow);
    free(s->pending);
    free(s->left);
    free(s->pool);
    free(s->npool);
    free(s->est);
    oshop_free(s->oshop);
    free(s->rot_start);
    free(s->rot_first);
    if (s->lean) {
        free(s->send_free);
        free(s->recv_free);
    }
    heap_free(&s->heap);
}

int exchange_run(struct exchange *x, const struct cluster *c, enum model m,
                 const struct exchange_opts *o, char **cause)
{
    memset(x, 0, sizeof *x);
    if (exchange_check_kind(c, m, cause) < 0)
        return -1;
    if (!timing_exchange_ok(m))
        return set_cause(cause, "a personalized exchange runs under -m sync or -m async, not %s",
                         model_name(m));
    const struct xsched_ops *ops = o->ops ? o->ops : &xsched_caterpillar;
    if (!o->order && xsched_check(ops, c, m, cause) < 0)
        return -1;
    int n = c->n, nrecv = o->pattern == XPAT_ALL_TO_ALL ? n : o->nrecv;
    if (nrecv < 1)
        return set_cause(cause, "all-to-some needs at least one receiver");
    /* A lean run keeps the ports' times, and the order table only where no
     * rotation gives the rows (random, matching, greedy, open-shop, a given
     * order): O(n) memory for caterpillar, RSPB and ORSPB. */
    bool lean = o->lean && !o->timeline;
    bool table = !lean || o->order || !ops->rotation;
    /* The size check, before anything is allocated: n * nrecv records
     * (less the n sends to oneself at most, left out of the estimate), or
     * the lean run's order table. */
    double messages = (double)n * nrecv, per = lean ? (double)sizeof(int) : EXCHANGE_BYTES_PER_MESSAGE;
    double bytes = table ? messages * per : 0;
    if (bytes > EXCHANGE_MAX_BYTES)
        return set_cause(cause, "an exchange of %d senders and %d receivers books about %.0f "
                         "transfers: about %.1f GiB of %s (%.0f bytes each), more than the "
                         "%.0f GiB an exchange may take; use fewer nodes, or fewer receivers "
                         "(--pattern all-to-some)%s", n, nrecv, messages,
                         bytes / (1024.0 * 1024 * 1024), lean ? "order table" : "records", per,
                         EXCHANGE_MAX_BYTES / (1024.0 * 1024 * 1024),
                         lean ? "" : ", or --summary with caterpillar, rspb or orspb");
    if (n > EXCHANGE_MAX_NODES)
        return set_cause(cause, "%d nodes are too many for a personalized exchange (at most %d)",
                         n, EXCHANGE_MAX_NODES);
    int *recv = receivers_of(o, n, nrecv, cause);
    if (!recv)
        return -1;
    if (!lean && engine_init_exchange(&x->eng, c, m, cause) < 0) {
        free(recv);
        return -1;
    }
    x->c = c;
    x->model = m;
    x->pattern = o->pattern;
    x->ops = ops;
    x->seed = o->seed;
    x->n = n;
    x->nrecv = nrecv;
    x->recv = recv;
    x->lean = lean;
    struct sim s;
    memset(&s, 0, sizeof s);
    if (order_of(x, o, table, &s, cause) < 0) {
        exchange_free(x);
        return -1;
    }
    sim_setup(&s, x, o);
    rng_seed(&s.ties, o->seed ^ SALT_TIES);
    heap_init(&s.heap, 2 * (size_t)n + 1);   /* at most a READY and an ARRIVAL per sender */
    struct calq cq;
    if (FAST_PATH(true)) {
        calendar_init(&cq, c, m, n, recv, nrecv);
        s.calq = &cq;
    }
    int rc = simulate(&s, cause);
    sim_free(&s);
    if (rc < 0) {
        exchange_free(x);
        return -1;
    }
    x->lower_bound = exchange_lower_bound(c, m, recv, nrecv, &x->bound_node, &x->bound_by_recv);
    if (lean)
        return 0;   /* book_lean kept the completion and the waits */
    x->completion = x->eng.makespan;
    for (int i = 0; i < x->eng.ntr; i++) {
        double a, b;
        if (exchange_wait(x, i, &a, &b)) {
            x->nwaits++;
            x->idle += b - a;
        }
    }
    if (o->timeline)
        engine_timeline(&x->eng);
    return 0;
}
