/*
 * sched/exchange.h - personalized exchange (Chen & Liu; SPEC §4): every node sends
 * its own message to every receiver -- every node (all-to-all) or a subset
 * (all-to-some) -- under the synchronous (rendezvous) or the asynchronous
 * model, simulated on the one event engine (engine_init_exchange).
 *
 * A schedule is a table of sending orders, as in the paper's Tables 1-6:
 * order[q * nrecv + k] is the k-th receiver of sender q.  A sender's own
 * entry (q is a receiver too) is listed where the order puts it, as in the
 * paper, but costs nothing ("local transmission is zero") and is never
 * booked.  Each order is an ops table (struct xsched_ops below): every one
 * but open-shop is fixed before the simulation (build); open-shop decides
 * while it simulates (choose) and the loop fills the table as it goes (the
 * own entry first).
 *
 * The simulation (exchange_run) drives the engine from one event loop for
 * every order and both models (a heap of READY and ARRIVAL events, support/heap.h),
 * so that the engine's earliest-time booking is exact.  The models differ in
 * one rule, what a ready sender does:
 *   sync   one event per sender, when it is ready (its previous transfer has
 *          ended).  If its next receiver's port is free it books now and the
 *          transfer holds both ports for [t, t+s+l+r); if not, the sender sits
 *          idle and tries again when that port frees (start > wait_start in
 *          the transfer).  Bookings thus happen in start-time order.
 *   async  a sender's sends follow each other every s(q) whatever the
 *          receivers do, so a "ready" event only decides the receiver and
 *          schedules the message's arrival at t + s(q) + L; the booking is
 *          made at the arrival event.  Bookings are thus in arrival order at
 *          every receiver (which then serves its messages first come, first
 *          served) and in sending order for every sender (with one latency
 *          L, arrivals keep the sending order), which is what the engine's
 *          earliest-time booking needs to be exact.
 * Events at the same time come out in a random order drawn from the seed:
 * ties between senders are broken at random, as in the paper.
 *
 * Cost: O(n R log n) time (sync: plus one event each time a waiting sender
 * finds its receiver taken again) and O(n R) memory for n senders and R
 * receivers (a lean run, exchange_opts.lean: O(n) for the rotation orders,
 * 4 bytes a message of order table for the others); building the orders of greedy takes O(n^2 R), open-shop's
 * choices O(n R^2) by the readable scan and O(n R^2 / 64) on the fast path
 * (sched/exchange_openshop_fast.h), matching O(n^4).
 */
#ifndef HETCAST_EXCHANGE_H
#define HETCAST_EXCHANGE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "model/cluster.h"
#include "engine/engine.h"

#define EXCHANGE_MATCHING_MAX_NODES 256   /* matching is O(n^4): refused above (max_nodes) */
/* exchange_run keeps a record of every transfer (struct transfer, the order
 * and row tables, the reason): about this many bytes a message, with the
 * timeline more.  It refuses, before allocating anything, an exchange whose
 * estimate passes EXCHANGE_MAX_BYTES: all-to-all on 4200 nodes fits, 4300
 * does not. */
#define EXCHANGE_BYTES_PER_MESSAGE 120
#define EXCHANGE_MAX_BYTES (2048.0 * 1024 * 1024)
#define EXCHANGE_MAX_NODES 46340   /* n * n must fit an int message id */

enum xpattern {
    XPAT_ALL_TO_ALL = 0,  /* every node sends to every other node */
    XPAT_ALL_TO_SOME,     /* every node sends to each node of a receiver subset */
};

struct exchange;
struct rng;

/*
 * The orders are a family of ops tables (as the broadcast schedulers are
 * `struct sched_ops`), all in one list (xsched_at), driven by the one
 * simulation loop of exchange_run.  An order is either fixed -- build() fills
 * the whole table before the simulation -- or decided while simulating --
 * choose() picks each sender's next receiver when the sender is ready.
 */

/* What choose() sees when sender q is ready to send its next message. */
struct xchoice {
    const struct exchange *x;   /* the exchange so far (x->eng: the bookings) */
    int q;                      /* the sender */
    double time;                /* when it is ready */
    const int *pool;            /* its receivers not chosen yet (never q itself) */
    int npool;                  /* > 0 */
    const double *recv_free;    /* per node, when its receive port frees: sync, the
                                   engine's (booked); async, an estimate once every
                                   message decided so far is received */
};

struct xsched_ops {
    const char *name;       /* command-line name (-s) */
    const char *summary;    /* one line for the lists and the view */
    const char *cost;       /* building the order, e.g. "O(n^4)" (said when refused) */
    unsigned models;        /* MODEL_BIT() mask of the models it runs under */
    bool randomized;        /* the order is drawn from the seed (not only the ties) */
    int max_nodes;          /* refused above this many nodes (0: no limit) */
    /* A fixed order: order[q * nrecv + k], q's k-th receiver, for every node q
       of c (recv: the receivers, increasing).  NULL if decided while simulating. */
    void (*build)(const struct cluster *c, const int *recv, int nrecv, struct rng *r,
                  int *order, const volatile sig_atomic_t *cancel);   /* cancel: NULL, or
                  stop early when it is set (exchange_run then fails: "cancelled") */
    /* Decided while simulating (build is NULL): the index in ch->pool of q's next
       receiver.  In sync it is asked again if that receiver turns out busy (the
       sender then waits and chooses anew), so it must not keep state.  The loop
       records the choice in the order table. */
    int (*choose)(const struct xchoice *ch);
    /* A fixed order that is a rotation of the receivers (NULL if not): for a
       lean run, which keeps O(n) instead of the table.  Fills start (n) so
       that q's k-th receiver is recv[(start[q] + k) % nrecv] and returns 0,
       or first (nrecv) so that it is recv[(first[k] + q) % nrecv] and returns
       1, from the same draws of r as build. */
    int (*rotation)(const struct cluster *c, const int *recv, int nrecv, struct rng *r,
                    int *start, int *first);
};

#define XSCHED_COUNT 7   /* the tables in the list, for callers' arrays */

extern const struct xsched_ops xsched_random, xsched_caterpillar, xsched_rspb, xsched_orspb,
    xsched_matching, xsched_greedy, xsched_open_shop;

const struct xsched_ops *xsched_find(const char *name);   /* NULL if none is called so */
const struct xsched_ops *xsched_at(int i);   /* 0 <= i < XSCHED_COUNT, in the docs' order */
char *xsched_names(void);                    /* "random, caterpillar, ..." (caller frees) */
/* Does ops run on c under m? If not, -1 and *cause says why (model, size). */
int xsched_check(const struct xsched_ops *ops, const struct cluster *c, enum model m,
                 char **cause);

const char *exchange_pattern_name(enum xpattern p);
int exchange_pattern_parse(const char *name, enum xpattern *out);   /* 0 or -1 */

/*
 * Receivers of an all-to-some from "NAME,NAME,..." (node names) or "P%" (a
 * random P percent of the nodes, at least one, drawn from seed: the same
 * seed gives the same subset whatever the scheduler).  *recv is allocated
 * (increasing node indices).  Returns 0 or -1 with *cause.
 */
int exchange_parse_receivers(const struct cluster *c, const char *spec, uint64_t seed,
                             int **recv, int *nrecv, char **cause);

/*
 * The fixed orders from given draws, so the paper's tables can be rebuilt
 * from its own random choices (the random variants draw them from the seed).
 * recv: the receivers, increasing; order: n * nrecv entries (node indices).
 */
/* Node i sends from the first receiver >= i (else the first), cyclically (Tables 1, 2). */
void exchange_caterpillar(int n, const int *recv, int nrecv, int *order);
/* Node i starts at recv[start[i]], then cyclically (Tables 3, 4). */
void exchange_rspb(int n, const int *recv, int nrecv, const int *start, int *order);
/* Node 0's k-th receiver is recv[first[k]] (a permutation of 0..nrecv-1), and
 * node i's is the receiver i places further, cyclically (Tables 5, 6). */
void exchange_orspb(int n, const int *recv, int nrecv, const int *first, int *order);

struct exchange_opts {
    enum xpattern pattern;
    const int *recv;      /* all-to-some: the receivers (node indices, any order) */
    int nrecv;
    const struct xsched_ops *ops;   /* the order (NULL: caterpillar, the default) */
    const int *order;     /* not NULL: simulate these orders (n * nrecv, receivers
                             increasing) instead of building ops's; ops is a label */
    uint64_t seed;        /* random orders and ties */
    bool timeline;        /* also build eng.ev, for stepping in the view */
    const volatile sig_atomic_t *cancel;   /* NULL, or a flag polled while the orders
                             are built and every 4096 events: set, the run fails with
                             "cancelled" (the front door's q, Ctrl-C or signal) */
    bool lean;            /* the summary only (--summary, the experiments): no engine
                             and no records, the ports' times alone; the order table
                             only where no rotation gives it (exchange.row and eng stay
                             empty, exchange.order is NULL for caterpillar, rspb and
                             orspb).  The same bookings: tests/test_exchange.c checks
                             them event for event.  Ignored with timeline. */
    /* NULL, or called with every transfer as it is booked, and its row (both
       paths; a lean run's transfer has no reason) */
    void (*on_book)(void *ctx, const struct transfer *t, int row);
    void *ctx;
};

struct exchange {
    const struct cluster *c;
    enum model model;
    enum xpattern pattern;
    const struct xsched_ops *ops;   /* the order (or its label, for a given order) */
    uint64_t seed;
    int n;              /* senders: every node */
    int nrecv;          /* receivers */
    int *recv;          /* the receivers, increasing node indices */
    int *order;         /* n * nrecv: order[q * nrecv + k], q's k-th receiver */
    int *row;           /* per transfer: its row k in its sender's order */
    struct engine eng;  /* the transfers (eng.tr) and, if asked, the timeline; empty if lean */
    bool lean;          /* exchange_opts.lean: summary figures only */
    int ntr;            /* transfers booked */
    double completion;  /* when the last receiver holds its last message */
    double lower_bound; /* max over nodes of max(total send time, total receive time) */
    int bound_node;     /* the node that sets the lower bound */
    bool bound_by_recv; /* by its receives (else by its sends) */
    int nwaits;         /* transfers whose sender sat idle waiting for the receiver */
    double idle;        /* the senders' idle time, summed over those transfers */
};

/* Simulate one exchange. Returns 0, or -1 with *cause (a bad pattern, model,
 * cluster or order); *x is then empty and needs no exchange_free. */
int exchange_run(struct exchange *x, const struct cluster *c, enum model m,
                 const struct exchange_opts *o, char **cause);
/* Can c hold an exchange under m?  Node tables (sync, async) and latency
 * matrices (sync: a pair's link is its own, asymmetric costs included).
 * 0, or -1 with *cause. */
int exchange_check_kind(const struct cluster *c, enum model m, char **cause);
void exchange_free(struct exchange *x);

/* Did the sender of transfer i sit idle before it? Then [*from, *to) is the wait. */
bool exchange_wait(const struct exchange *x, int i, double *from, double *to);
/* For the order table at time t: row[q] (n entries) gets the row of q's
 * latest transfer started at or before t, -1 if none yet.  O(transfers). */
void exchange_rows_at(const struct exchange *x, double t, int *row);

#endif
