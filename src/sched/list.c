/*
 * sched/list.c - the list-scheduling policies of SPEC §2: fnf,
 * slowest-first, random-pair and random-order (fef: fef.c).  In a multicast
 * (model/targets.h) fnf serves the targets only, never a relay.
 *
 * fnf and its relatives keep the holders in a priority queue keyed by the
 * completion of their next send (ready + s, ties lowest index), as Liu, Wang
 * & Guo's implementation does (§5.2), and the waiting nodes presorted: a
 * decision costs O(log n), a broadcast O(n log n).  The queue is a radix
 * queue (support/radixq.h): completions never go below the smallest one, so it is
 * monotone, and it serves the same (completion, index) order as a binary
 * heap at a fraction of the cache misses on millions of nodes.  The waiting
 * nodes are sorted by cluster_sort_nodes (model/cluster.h).  All of them run on a
 * lean engine (no reasons, engine/engine.h) and tell it how early their next
 * decisions can start (decision.not_before).  On a lean async node table,
 * fnf, slowest-first and random-order run their whole order at once on the
 * engine's list run (engine/engine_lean.h): the same decisions in one loop, the
 * sender picked here by fnf's rule, the bookings timed by the engine, with
 * the nodes in the order they are served.
 */
#include "sched/list.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine_lean.h"
#include "support/fastpath.h"
#include "support/hugemem.h"
#include "support/numfmt.h"
#include "support/numfmt_fast.h"
#include "support/radixq.h"

/* ---- shared helpers ---- */

/*
 * fnf's sender rule: a holder's key is when its next send would complete,
 * its ready time plus its send time s (Liu, Wang & Guo §5.2), whatever the
 * model; the least key sends (ties: lowest index).  The rule of the papers,
 * not the model's timing: under sync a send occupies its port longer.
 */
static inline double fnf_completion(double ready, double s)
{
    return ready + s;
}

/* Every holder, now or later, completes its next send at done or later (the
 * least key), so none starts before done - smax (less a hair for the
 * rounding): decision.not_before. */
static inline double not_before(double done, double smax)
{
    return done - smax - (done + smax) * 0x1p-50;
}

int sched_fnf_sender(const struct engine *e, int msg, double *completion)
{
    int best = -1;
    double bc = INFINITY;
    for (int q = 0; q < e->n; q++) {
        if (!engine_holds(e, q, msg))
            continue;
        double c = fnf_completion(engine_ready(e, q, msg), e->c->nodes[q].send);
        if (c < bc) {
            bc = c;
            best = q;
        }
    }
    if (completion)
        *completion = bc;
    return best;
}

static bool faster(const struct node *a, int ia, const struct node *b, int ib)
{
    if (a->send != b->send)
        return a->send < b->send;
    if (a->recv != b->recv)
        return a->recv < b->recv;
    return ia < ib;
}

int sched_fastest_waiting(const struct engine *e, int msg)
{
    int best = -1;
    for (int p = 0; p < e->n; p++)
        if (!engine_holds(e, p, msg) &&
            (best < 0 || faster(&e->c->nodes[p], p, &e->c->nodes[best], best)))
            best = p;
    return best;
}

/* ---- state of the heap-based policies ---- */

struct list_state {
    struct radixq senders;  /* holders by completion of their next send; an entry
                               whose key is no longer its node's completion is stale */
    int chosen;             /* the sender list_choose gave, still on top; -1: none */
    double smax;            /* the largest send time of any node */
    int *order;             /* receivers in the order the policy serves them */
    int norder, next;
    int seen;               /* bookings already folded into the heap */
    int *holders;           /* random-pair: holders, waiting (swap-remove) */
    int nholders;
    int *waiting;
    int *wpos;
    int nwaiting;
    const char *why;        /* the policy's words for its receiver (list_say) */
};

static double completion_of(const struct engine *e, int q)
{
    return fnf_completion(engine_ready(e, q, 0), e->c->nodes[q].send);
}

static struct list_state *list_new(const struct engine *e, const char *why)
{
    struct list_state *st = xcalloc(1, sizeof *st);
    st->why = why;
    rq_init(&st->senders);
    st->chosen = -1;
    st->order = xmalloc((size_t)(e->n ? e->n : 1) * sizeof(int));
    mem_advise_huge(st->order, (size_t)e->n * sizeof(int));   /* read at random places */
    for (int p = 0; p < e->n; p++) {
        if (engine_holds(e, p, 0))
            rq_push(&st->senders, completion_of(e, p), (uint32_t)p, p);
        else if (cluster_is_target(e->c, p))   /* a multicast serves its targets only */
            st->order[st->norder++] = p;
        if (e->c->nodes[p].send > st->smax)
            st->smax = e->c->nodes[p].send;
    }
    st->seen = e->ntr;
    return st;
}

static void list_finish(struct sched *s)
{
    struct list_state *st = s->state;
    rq_free(&st->senders);
    free(st->order);
    free(st->holders);
    free(st->waiting);
    free(st->wpos);
    free(st);
    s->state = NULL;
}

/*
 * Fold bookings made since the last call into the sender queue: the sender
 * and the receiver come in with their new completions.  The sender the
 * policy chose is still on top, and its old entry goes; an entry of a sender
 * booked by someone else stays behind, stale, and list_top drops it.
 * Returns -1 if a lean engine no longer has a booking to fold.
 */
static int list_sync(struct list_state *st, const struct engine *e)
{
    for (; st->seen < e->ntr; st->seen++) {
        const struct transfer *t = engine_transfer(e, st->seen);
        if (!t)
            return -1;
        if (t->from == st->chosen)
            rq_pop(&st->senders);
        st->chosen = -1;
        rq_push(&st->senders, completion_of(e, t->from), (uint32_t)t->from, t->from);
        rq_push(&st->senders, completion_of(e, t->to), (uint32_t)t->to, t->to);
    }
    return 0;
}

/* The holder whose next send completes first (ties: lowest index), -1 if none. */
static int list_top(struct list_state *st, const struct engine *e, double *completion)
{
    const struct rq_item *it;
    while ((it = rq_top(&st->senders))) {
        int q = it->val;
        double c = rq_time(it);
        if (c == completion_of(e, q)) {
            *completion = c;
            return q;
        }
        rq_pop(&st->senders);   /* stale */
    }
    return -1;
}

/* The next receiver in st->order that still waits. */
static int list_next_receiver(struct list_state *st, const struct engine *e)
{
    while (st->next < st->norder && engine_holds(e, st->order[st->next], 0))
        st->next++;
    return st->next < st->norder ? st->order[st->next] : -1;
}

/* %g's text of x: from the bits on the fast path (support/numfmt_fast.h), else snprintf's. */
static const char *say_g(char buf[NUMFMT_SIZE], double x)
{
    if (!FAST_PATH(numfmt_fast_g(buf, x, 6)))
        snprintf(buf, NUMFMT_SIZE, "%g", x);
    return buf;
}

/* The concatenation of the n (at most 24) strings of part[] (NULL: "(null)", as glibc's %s),
 * in one allocation. */
static char *say_join(const char *const *part, int n)
{
    size_t len[24], total = 1;
    for (int i = 0; i < n; i++)
        total += len[i] = strlen(part[i] ? part[i] : "(null)");
    char *out = xmalloc(total), *at = out;
    for (int i = 0; i < n; i++) {
        memcpy(at, part[i] ? part[i] : "(null)", len[i]);
        at += len[i];
    }
    *at = '\0';
    return out;
}

/* list_say's text without printf's %g (a million of them in a Chrome trace at 10^6 nodes, each
 * its five numbers' digits by big-number arithmetic): the same words, the numbers by say_g. */
static char *list_say_fast(const struct node *nq, const struct node *np, const struct transfer *t,
                           double done, const char *why_receiver)
{
    char g[6][NUMFMT_SIZE];
    if (t->free > done) {
        const char *part[] = {nq->name, " can finish a send first (free at t=", say_g(g[0], t->wait_start),
                              ", s=", say_g(g[1], nq->send), ", overhead done at t=", say_g(g[2], done),
                              ", port busy until t=", say_g(g[3], t->free), "); ", np->name, " is ",
                              why_receiver, " (s=", say_g(g[4], np->send), ", r=",
                              say_g(g[5], np->recv), ")"};
        return say_join(part, (int)(sizeof part / sizeof part[0]));
    }
    const char *part[] = {nq->name, " can finish a send first (free at t=", say_g(g[0], t->wait_start),
                          ", s=", say_g(g[1], nq->send), ", done at t=", say_g(g[2], done), "); ",
                          np->name, " is ", why_receiver, " (s=", say_g(g[4], np->send), ", r=",
                          say_g(g[5], np->recv), ")"};
    return say_join(part, (int)(sizeof part / sizeof part[0]));
}

/*
 * list_choose's reason, written when it is read (engine_book_said) from the
 * booked transfer t alone: the sender was free (held the message, port free)
 * from t->wait_start, its completion is fnf_completion of that, its port is
 * free again at t->free, later than the completion under sync (the whole
 * transfer).  why_receiver is the policy's words for its receiver.
 */
static char *list_say(const struct engine *e, const struct transfer *t, const void *why_receiver)
{
    const struct node *nq = &e->c->nodes[t->from], *np = &e->c->nodes[t->to];
    double done = fnf_completion(t->wait_start, nq->send);
    if (FAST_PATH(true))
        return list_say_fast(nq, np, t, done, why_receiver);
    if (t->free > done)
        return xasprintf("%s can finish a send first (free at t=%g, s=%g, overhead done at t=%g, "
                         "port busy until t=%g); %s is %s (s=%g, r=%g)", nq->name, t->wait_start,
                         nq->send, done, t->free, np->name, (const char *)why_receiver, np->send,
                         np->recv);
    return xasprintf("%s can finish a send first (free at t=%g, s=%g, done at t=%g); %s is %s "
                     "(s=%g, r=%g)", nq->name, t->wait_start, nq->send, done, np->name,
                     (const char *)why_receiver, np->send, np->recv);
}

static int list_choose(struct sched *s, const struct engine *e, struct decision *d, char **cause)
{
    struct list_state *st = s->state;
    if (!st)   /* let go of after the last receiver */
        return SCHED_DONE;
    if (list_sync(st, e) < 0)
        return set_cause(cause, "%s: bookings were made on the lean engine behind its back",
                         s->ops->name);
    int p = list_next_receiver(st, e);
    double done;
    int q = p < 0 ? -1 : list_top(st, e, &done);
    if (q < 0)
        return SCHED_DONE;
    /* Receivers and senders a few decisions on are random places in memory
     * on a large cluster: ask for them now, so that the misses overlap. */
    if (st->next + 8 < st->norder) {
        int r = st->order[st->next + 8];
        __builtin_prefetch(&e->hold[r]);
        __builtin_prefetch(&e->send_free[r]);
        __builtin_prefetch(&e->parent[r]);
        __builtin_prefetch(&e->c->nodes[r]);
    }
    const struct rq_item *ahead = rq_ahead(&st->senders, 4);
    if (ahead) {
        __builtin_prefetch(&e->hold[ahead->val]);
        __builtin_prefetch(&e->send_free[ahead->val]);
        __builtin_prefetch(&e->c->nodes[ahead->val]);
    }
    st->chosen = q;
    d->from = q;
    d->to = p;
    d->msg = 0;
    d->not_before = not_before(done, st->smax);
    if (e->reasons_later) {   /* the reason written when it is read, from the booked transfer */
        d->say = list_say;
        d->say_arg = st->why;
    } else if (!e->lean && !e->reasons_unread) {
        struct transfer t;   /* what booking it gives */
        if (engine_earliest(e, q, p, 0, &t) == 0)
            d->reason = list_say(e, &t, st->why);
    }
    if (++st->next == st->norder)   /* the last receiver: the queue and the order are let go of
                                       before the timeline is built */
        list_finish(s);
    return SCHED_DECIDED;
}

/* A booking hook reads its sender's node and name (the CSV rows): the next
 * senders are random places in memory, so ask for them a booking or more
 * ahead (the next one's node; the name of the one after it, and the node of
 * the one after that, when the run of equal times has them).  Only a hint:
 * rq_top here is the top the next round reads (nothing is pushed between). */
static void prefetch_senders(const struct engine *e, struct radixq *senders, const int *order)
{
    const struct node *nodes = e->c->nodes;
    const struct rq_item *next = rq_top(senders), *a1 = rq_ahead(senders, 1),
                         *a3 = rq_ahead(senders, 3);
    if (next)
        __builtin_prefetch(&nodes[order[next->val]]);
    if (a1)
        __builtin_prefetch(nodes[order[a1->val]].name);
    if (a3)
        __builtin_prefetch(&nodes[order[a3->val]]);
}

/*
 * The whole run at once on a lean engine (engine/engine_lean.h): the holders
 * first, then order[] as it is.  What list_choose decides -- its sender by
 * fnf_completion, its not_before -- in one loop, with the engine's arrays
 * in the order the nodes are served; the sender queue holds positions.  A
 * full engine's lean run (engine_record_lean) gets list_say for its reasons.
 */
static int list_run_lean(struct sched *s, struct engine *e, char **cause)
{
    struct list_state *st = s->state;
    int n = e->n, nheld = n - st->norder;
    if (st->seen != e->ntr || e->ntr > 0 || st->next > 0 || nheld < 1 || e->c->target)
        return 0;
    memmove(st->order + nheld, st->order, (size_t)st->norder * sizeof *st->order);
    for (int p = 0, h = 0; p < n && h < nheld; p++)
        if (engine_holds(e, p, 0))
            st->order[h++] = p;
    const struct lean_list run = lean_list_begin(e, st->order, nheld);
    if (!run.e) {
        memmove(st->order, st->order + nheld, (size_t)st->norder * sizeof *st->order);
        return 0;
    }
    struct radixq *senders = &st->senders;
    const int *order = st->order;
    struct lean_last last = {-1, 0};
    rq_free(senders);
    rq_init(senders);
    for (int i = 0; i < nheld; i++)
        rq_push(senders, fnf_completion(lean_list_ready(&run, i), lean_list_send(&run, i)),
                (uint32_t)order[i], i);
    int rc = 1;
    for (int left = st->norder; left > 0; left--) {
        if (((st->norder - left) & 0xffff) == 0 && s->opt.cancel && *s->opt.cancel) {
            rc = set_cause(cause, SCHED_CANCELLED_TEXT);
            break;
        }
        /* no entry goes stale: nobody else books */
        const struct rq_item *top = rq_top(senders);
        int q = top->val;
        double done = rq_time(top);
        rq_pop(senders);
        int p = lean_list_book(&run, &last, q, not_before(done, st->smax));
        rq_push(senders, fnf_completion(lean_list_ready(&run, q), lean_list_send(&run, q)),
                (uint32_t)order[q], q);
        rq_push(senders, fnf_completion(lean_list_ready(&run, p), lean_list_send(&run, p)),
                (uint32_t)order[p], p);
        /* left - 1 bookings are left, each pops one: the rest never come up */
        rq_trim(senders, (size_t)(left - 1));
        if (__builtin_expect(e->on_book_rows, 0) && left > 1)
            prefetch_senders(e, senders, order);
    }
    rq_free(senders);   /* as sched_run frees the policy before the last events */
    lean_list_end(&run, &last);
    if (e->recording) {   /* a full engine's records: the reasons list_choose would give */
        e->say = list_say;
        e->say_arg = st->why;
    }
    return rc;
}

/* ---- fnf ---- */

static int fnf_prepare(struct sched *s, struct engine *e, char **cause)
{
    (void)cause;
    struct list_state *st =
        list_new(e, e->c->target ? "the fastest waiting target" : "the fastest waiting node");
    cluster_sort_nodes(e->c->nodes, st->order, st->norder, false, false);
    s->state = st;
    return 0;
}

static int fnf_choose(struct sched *s, const struct engine *e, struct decision *d, char **cause)
{
    return list_choose(s, e, d, cause);
}

/* Khuller & Kim, "Broadcasting in heterogeneous networks" (Algorithmica
 * 2007): in the sender-only model (node i sends in t_i, receiving is free)
 * fastest-node-first has the least sum of completion times and a makespan
 * within 1.5 of the least. */
static const struct sched_claim fnf_claims[] = {
    {CLUSTER_KIND_BIT(CLUSTER_NODES), MODEL_BIT(MODEL_SENDER_ONLY), SCHED_MAKESPAN, 1.5,
     "Khuller & Kim 2007"},
    {CLUSTER_KIND_BIT(CLUSTER_NODES), MODEL_BIT(MODEL_SENDER_ONLY), SCHED_SUM, 1,
     "Khuller & Kim 2007"},
    {0, 0, SCHED_MAKESPAN, 0, NULL},
};

const struct sched_ops sched_fnf = {
    .name = "fnf",
    .summary = "fastest node first: earliest-finishing sender to the fastest waiting node",
    .kinds = CLUSTER_KIND_BIT(CLUSTER_NODES) | CLUSTER_KIND_BIT(CLUSTER_MATRIX),
    .models = MODEL_ALL,
    .multicast = true,   /* the fastest waiting target */
    .lean = true,
    .prepare = fnf_prepare,
    .choose = fnf_choose,
    .run_lean = list_run_lean,
    .finish = list_finish,
    .claims = fnf_claims,
};

/* ---- slowest-first ---- */

static int slowest_prepare(struct sched *s, struct engine *e, char **cause)
{
    (void)cause;
    struct list_state *st = list_new(e, "the slowest waiting node (largest receive time)");
    cluster_sort_nodes(e->c->nodes, st->order, st->norder, true, true);
    s->state = st;
    return 0;
}

static int slowest_choose(struct sched *s, const struct engine *e, struct decision *d, char **cause)
{
    return list_choose(s, e, d, cause);
}

const struct sched_ops sched_slowest_first = {
    .name = "slowest-first",
    .summary = "like fnf, but the waiting node with the largest receive time goes first",
    .kinds = CLUSTER_KIND_BIT(CLUSTER_NODES) | CLUSTER_KIND_BIT(CLUSTER_MATRIX),
    .models = MODEL_ALL,
    .lean = true,
    .prepare = slowest_prepare,
    .choose = slowest_choose,
    .run_lean = list_run_lean,
    .finish = list_finish,
};

/* ---- random-order ---- */

static int rorder_prepare(struct sched *s, struct engine *e, char **cause)
{
    (void)cause;
    struct list_state *st = list_new(e, "next in the random order");
    for (int i = st->norder - 1; i > 0; i--) {   /* Fisher-Yates */
        int j = (int)rng_below(&s->rng, (uint64_t)i + 1);
        int t = st->order[i];
        st->order[i] = st->order[j];
        st->order[j] = t;
    }
    s->state = st;
    return 0;
}

static int rorder_choose(struct sched *s, const struct engine *e, struct decision *d, char **cause)
{
    return list_choose(s, e, d, cause);
}

const struct sched_ops sched_random_order = {
    .name = "random-order",
    .summary = "a random order of receivers, each served by fnf's sender (seeded by --seed)",
    .kinds = CLUSTER_KIND_BIT(CLUSTER_NODES) | CLUSTER_KIND_BIT(CLUSTER_MATRIX),
    .models = MODEL_ALL,
    .lean = true,
    .randomized = true,
    .prepare = rorder_prepare,
    .choose = rorder_choose,
    .run_lean = list_run_lean,
    .finish = list_finish,
};

/* ---- random-pair ---- */

static int rpair_prepare(struct sched *s, struct engine *e, char **cause)
{
    (void)cause;
    struct list_state *st = xcalloc(1, sizeof *st);
    st->holders = xmalloc((size_t)e->n * sizeof(int));
    st->waiting = xmalloc((size_t)e->n * sizeof(int));
    st->wpos = xmalloc((size_t)e->n * sizeof(int));
    for (int p = 0; p < e->n; p++) {
        st->wpos[p] = -1;
        if (engine_holds(e, p, 0)) {
            st->holders[st->nholders++] = p;
        } else {
            st->wpos[p] = st->nwaiting;
            st->waiting[st->nwaiting++] = p;
        }
    }
    s->state = st;
    return 0;
}

static int rpair_choose(struct sched *s, const struct engine *e, struct decision *d, char **cause)
{
    (void)cause;
    struct list_state *st = s->state;
    if (st->nwaiting == 0 || st->nholders == 0)
        return SCHED_DONE;
    int q = st->holders[rng_below(&s->rng, (uint64_t)st->nholders)];
    int i = (int)rng_below(&s->rng, (uint64_t)st->nwaiting);
    int p = st->waiting[i];
    st->waiting[i] = st->waiting[--st->nwaiting];   /* swap-remove */
    st->wpos[st->waiting[i]] = i;
    st->holders[st->nholders++] = p;
    d->from = q;
    d->to = p;
    d->msg = 0;
    if (!e->lean)
        d->reason = xasprintf(
                 "random pair: %s drawn among %d holders, %s among %d waiting nodes; %s is free "
                 "at t=%g", e->c->nodes[q].name, st->nholders - 1, e->c->nodes[p].name,
                 st->nwaiting + 1, e->c->nodes[q].name, engine_ready(e, q, 0));
    return SCHED_DECIDED;
}

const struct sched_ops sched_random_pair = {
    .name = "random-pair",
    .summary = "a random holder sends to a random waiting node (seeded by --seed)",
    .kinds = CLUSTER_KIND_BIT(CLUSTER_NODES) | CLUSTER_KIND_BIT(CLUSTER_MATRIX),
    .models = MODEL_ALL,
    .lean = true,
    .randomized = true,
    .prepare = rpair_prepare,
    .choose = rpair_choose,
    .finish = list_finish,
};

