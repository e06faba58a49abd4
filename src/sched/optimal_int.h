/*
 * sched/optimal_int.h - what the files of `optimal` share, private to them
 * (sched/optimal.c's opening comment tells the searches): the limits and
 * units every search uses, the driver's passes (sched/optimal.c), the slot
 * search (sched/optimal_slot.c) with its memo (sched/optimal_memo.c), the
 * general search (sched/optimal_general.c) and the multicast over every set
 * of relays (sched/optimal_multicast.c).  Nothing else includes it but
 * tests/test_bruteforce.c (opt_gs_below); it does not include
 * sched/optimal.h (one module, no include circle).
 */
#ifndef HETCAST_OPTIMAL_INT_H
#define HETCAST_OPTIMAL_INT_H

#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "engine/engine.h"
#include "model/cluster.h"
#include "sched/sched.h"

struct opt_plan;   /* sched/optimal.h */

/* Beyond max_nodes, node tables in the slot search are still accepted
 * when they have few classes: the remaining-class multisets then number at
 * most OPT_CLASS_MIXES, which is what the memo and the bounds work on. */
#define OPT_CLASS_MAX 8
#define OPT_CLASS_MIXES 1000000.0
#define OPT_CLASS_MAX_NODES 2000
/* The rate bound (rate_slot) costs O(m (K + m)) a bound: only up to this
 * many receivers (beyond, the tables have few classes and as_counts_ok). */
#define OPT_RATE_MAX 64

#define CHECK_EVERY 1023            /* clock checks: every 1024 search nodes */

/* ---- limits ---- */

struct limits {
    long long node_limit;   /* the whole search */
    double time_limit;
    long long node_cap;     /* the current pass (<= the limits) */
    double time_cap;
    long long explored;
    struct timespec t0;
    bool stop;              /* a cap was reached: unwind, keep bounds valid */
    const volatile sig_atomic_t *cancel;   /* sched_opts.cancel: polled with the clock */
};

static inline bool cancelled(const struct limits *lim)
{
    return lim->cancel && *lim->cancel;
}

static inline double elapsed(const struct limits *lim)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - lim->t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - lim->t0.tv_nsec);
}

/* The wall-clock seconds a search may take: INFINITY for SCHED_NO_CLOCK (a
 * study's search, bounded by its node limit alone); sched/optimal.c. */
struct sched_opts;
double opt_time_limit(const struct sched_opts *o);

/* Count one search node. Returns true once the search must stop. */
static inline bool tick(struct limits *lim)
{
    if (lim->stop)
        return true;
    lim->explored++;
    if (lim->explored >= lim->node_cap)
        lim->stop = true;
    else if ((lim->explored & CHECK_EVERY) == 0 &&
             (elapsed(lim) >= lim->time_cap || cancelled(lim)))
        lim->stop = true;
    return lim->stop;
}

static inline double dmin(double a, double b) { return a < b ? a : b; }
static inline double dmax(double a, double b) { return a > b ? a : b; }

/* Have the limits of the whole search been reached? */
static inline bool exhausted(const struct limits *lim)
{
    return lim->explored >= lim->node_limit || elapsed(lim) >= lim->time_limit || cancelled(lim);
}

/* ---- units ---- */

/* v in the search's units: times scale, rounded (scale 0: raw doubles; see
 * find_scale in sched/optimal.c). */
static inline double scaled(double v, double scale)
{
    return scale > 0 ? nearbyint(v * scale) : v;
}

/* ---- the driver (sched/optimal.c) ---- */

/* The smallest 10^d (d <= 6) that makes every cost of c an integer, 0 if none. */
double opt_find_scale(const struct cluster *c);

/*
 * A pass asks "is there a schedule with makespan below t?": it returns a
 * lower bound on the optimum (fail-soft, valid even when stopped early),
 * and lowers *best when it finds a schedule below t -- it then goes on as
 * a plain branch and bound below the new incumbent, so a pass that finishes
 * after finding one has proven it optimal.
 */
typedef double (*pass_fn)(void *ctx, double t, double *best);

/* Passes until the optimum is proven or the limits are reached (see the
 * comment at its definition); returns the proven lower bound. */
double opt_drive(pass_fn pass, void *ctx, struct limits *lim, double lower, double *best, bool exact);

/* ---- the memo (sched/optimal_memo.c): state key -> proven lower bound ---- */

struct memo_slot {
    uint64_t hash;
    uint32_t off, len;      /* key words in the arena; len 0: empty slot */
    double lb;
};

struct memo {
    struct memo_slot *slot;
    size_t cap, used;       /* cap a power of two, used <= cap / 2 */
    uint64_t *arena;
    size_t alen, acap;
};

uint64_t opt_key_hash(const uint64_t *key, size_t len);
void opt_memo_free(struct memo *mm);
void opt_memo_clear(struct memo *mm);
/* The bound kept for key (hash h), or -INFINITY. */
double opt_memo_get(struct memo *mm, const uint64_t *key, size_t len, uint64_t h);
void opt_memo_put(struct memo *mm, const uint64_t *key, size_t len, uint64_t h, double lb);

/* ---- the dominance table (sched/optimal_memo.c): receivers waiting ->
 * profiles with their proven bounds (see as_search) ---- */

struct dom {
    size_t nb, max_nb;      /* buckets, a power of two; 0: off */
    size_t puts;            /* since the last growth */
    int kw, m0;             /* words of a key (the counts), slots of a profile */
    uint64_t *hash;         /* per entry; 0: empty */
    uint64_t *ckey;
    double *lb, *prof;      /* per entry: the bound, the profile padded to m0 */
    unsigned char *next;    /* per bucket: the entry to replace next */
    double *tmp;            /* m0: a profile being put */
};

void opt_dom_init(struct dom *dm, int kw, int m0);
void opt_dom_free(struct dom *dm);
/* The best bound the entries for ckey (hash h) give the profile P[0..len)
 * padded to m slots with H, if it reaches want; else -INFINITY. */
double opt_dom_get(const struct dom *dm, const uint64_t *ckey, uint64_t h, const double *P, int len, int m,
                   double want);
void opt_dom_put(struct dom *dm, const uint64_t *ckey, uint64_t h, const double *P, int len, int m, double H,
                 double lb);

/* ---- the searches ---- */

struct as_input {
    const struct cluster *c;
    bool sender_only;       /* receive times count as 0 */
    double scale;           /* 0: raw doubles */
    int *cls;               /* per node: class, -1 for the source */
    int K;
    double *cs, *cr;        /* scaled class times */
    int *count;
};

struct result {
    int *order;             /* slot search: class per receiver */
    int *from, *to;         /* general search: decisions */
    int len;
    double best;            /* scaled makespan of the best schedule */
    double lower;           /* scaled proven lower bound */
};

/* The general search's local search over orders: at most this many
 * evaluations (times what one costs: see gs_improve; the slot search's
 * as_improve has a budget of its own, AS_LS_WORK). */
#define OPT_LS_WORK 5e7

/* trial: order (of m0) with the element at i moved to place j. */
static inline void moved(const int *order, int m0, int i, int j, int *trial)
{
    int k = order[i], t = 0;
    for (int x = 0; x < m0; x++) {
        if (x == i)
            continue;
        if (x == j && j < i)
            trial[t++] = k;
        trial[t++] = order[x];
        if (x == j && j > i)
            trial[t++] = k;
    }
}

/* The slot search (sched/optimal_slot.c): in's receiver classes, then the search. */
void opt_as_classes(struct as_input *in);
void opt_as_input_free(struct as_input *in);
void opt_as_solve(const struct as_input *in, struct limits *lim, struct result *res);

/* The general search (sched/optimal_general.c). */
void opt_gs_solve(const struct cluster *c, enum model m, double scale, struct limits *lim,
                  struct result *res);
/* One pass of the general search below t alone, no incumbent but t: the least
 * makespan below t (scaled), or INFINITY when there is none (or lim stopped
 * it first).  For tests/test_bruteforce.c: with t just above the optimum,
 * every bound's cut is put to the test. */
double opt_gs_below(const struct cluster *c, enum model m, double scale, double t, struct limits *lim);

/* ---- sched/optimal.c and sched/optimal_multicast.c ---- */

/* Book the plan on a fresh engine: checks it and takes the engine's makespan. */
int opt_replay(const struct cluster *c, enum model m, struct opt_plan *out, char **cause);
/* optimal_solve of a multicast: the least broadcast over every set of relays. */
int opt_multicast_solve(const struct cluster *c, enum model m, const struct sched_opts *o,
                        struct opt_plan *out, char **cause);

#endif
