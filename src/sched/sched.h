/*
 * sched/sched.h - schedulers: policies plugged into the engine through one ops
 * table, so the engine, the command line, the view and Lua see one list
 * (sched/registry.h, above the policies).
 *
 * The engine calls prepare() once, then choose() whenever a node still waits
 * for a message, and books each decision (engine/engine.h).  A policy may look at
 * everything booked so far through the engine (read-only).  A policy that
 * builds a whole plan up front (optimal, trees) does it in prepare() and
 * hands the plan out one decision at a time in choose().
 */
#ifndef HETCAST_SCHED_H
#define HETCAST_SCHED_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "support/rng.h"

#define SCHED_DONE 0        /* choose(): nothing more to send */
#define SCHED_DECIDED 1     /* choose(): *d holds the next decision */

struct decision {
    int from, to, msg;
    char *reason;       /* narrated by the view, printed in text output: heap text
                           (xasprintf) sized to what it says, so names are never cut;
                           NULL: none.  Whoever calls choose() frees it.  A lean
                           engine (e->lean) keeps none, so policies skip it then */
    double not_before;  /* optional: no decision from this one on starts before this
                           time (-INFINITY: unknown); a lean engine processes its
                           streamed events up to it before booking */
    engine_say_fn say;  /* or, with no reason, the reason written when it is read from the
                           booked transfer (engine_book_said; say_arg static), NULL: none */
    const void *say_arg;
};

struct sched;

/* What a scheduler's makespan or sum of completion times is measured against. */
enum sched_objective {
    SCHED_MAKESPAN,     /* the latest time a node holds the message */
    SCHED_SUM,          /* the times every node holds it, added (Khuller & Kim) */
};

/* A guarantee a scheduler's source proves: on clusters of these kinds under
 * these models, its objective is at most factor x the least possible.
 * hetcast experiment algorithms prints it beside the measured ratio, and
 * its test fails where a run breaks it. */
struct sched_claim {
    unsigned kinds;             /* CLUSTER_KIND_BIT() mask */
    unsigned models;            /* MODEL_BIT() mask */
    enum sched_objective objective;
    double factor;              /* 1: optimal; 0 ends a list of claims */
    const char *source;         /* who proves it, as docs/models.md cites it */
};

struct sched_ops {
    const char *name;       /* command-line name */
    const char *summary;    /* one line for --help and the view's list */
    unsigned kinds;         /* CLUSTER_KIND_BIT() mask of supported kinds */
    unsigned models;        /* MODEL_BIT() mask of supported models */
    bool randomized;        /* uses --seed */
    bool multicast;         /* serves a multicast (model/targets.h): sends to the targets,
                               and to other nodes only to relay; the others are refused one */
    bool lean;              /* runs on a lean engine (engine_set_lean): reads bookings only
                               through engine_transfer() right after each one, and its
                               state is not needed once sched_run returns */
    int (*prepare)(struct sched *s, struct engine *e, char **cause);
    int (*choose)(struct sched *s, const struct engine *e, struct decision *d, char **cause);
    /* Optional, lean engines only (or a full one recording it: engine_record_lean): the
       whole run at once after prepare, instead of choose: 1 if it ran, 0 if not (sched_run
       asks choose), -1 with *cause. */
    int (*run_lean)(struct sched *s, struct engine *e, char **cause);
    void (*finish)(struct sched *s);   /* free s->state */
    const struct sched_claim *claims;  /* its proven guarantees, ended by factor 0;
                                          NULL: none (docs/models.md) */
};

struct sched_opts {
    uint64_t seed;          /* --seed, for randomized policies */
    double time_limit;      /* optimal, optimal-sum, the throughput LP: wall-clock seconds
                               before giving up (0: the scheduler's default; SCHED_NO_CLOCK:
                               none, only the work budgets, as every study sets) */
    long long node_limit;   /* optimal: search nodes before giving up (<= 0: default) */
    int max_nodes;          /* optimal: refuse clusters larger than this (<= 0: default) */
    bool opt_general;       /* optimal: search (sender, receiver) decisions even on node tables
                               where Theorem 1's receiver orders apply (async, sender-only,
                               multi-port): only to measure what the theorem saves */
    const char *script;     /* Lua heuristic: the script's path (-s FILE.lua) */
    const char *const *params;  /* Lua heuristic: --param K=V, for its param() and params */
    int nparams;
    long long lua_instructions; /* Lua: instruction budget per call (<= 0: default) */
    long long lua_memory;   /* Lua: memory cap in bytes (<= 0: default) */
    int slices;             /* pipelined trees: --slices K (<= 0: PIPE_DEFAULT_SLICES) */
    double epsilon;         /* kk-round: --epsilon E, times rounded up to powers of 1 + E
                               (<= 0: KK_DEFAULT_EPSILON, sched/kkround.h) */
    bool lean;              /* run_schedule: a lean engine (engine/engine.h) when the scheduler
                               allows it: only the result is wanted (--summary) */
    engine_book_fn on_book; /* run_schedule, on a lean engine: every booking as it is
                               made (--format csv writes its rows so), or NULL */
    void *on_book_ctx;
    bool on_book_rows;      /* on_book reads its nodes' rows (engine.h: prefetched for it) */
    bool reasons_later;     /* run_schedule: a list policy's reasons written when read
                               (engine_reason), not at booking: the view, which shows a few */
    bool reasons_unread;    /* run_schedule: no reason will be read (run --summary, whose
                               records a platform's shared links keep): a list policy
                               writes none */
    const volatile sig_atomic_t *cancel;  /* NULL, or a flag the front door sets (from a
                               signal handler or a key) to stop a long computation: the
                               long loops poll it (optimal's search, the LP, fef, Lua
                               calls) and fail with SCHED_CANCELLED_TEXT */
};
/* sched_opts.time_limit of a study: no wall clock, only the budgets counted in work
 * (search nodes, simplex iterations), so that a run gives the same answer on any
 * machine, however loaded. */
#define SCHED_NO_CLOCK (-1.0)
#define SCHED_CANCELLED_TEXT "cancelled"   /* the cause of a run stopped by opts.cancel */

enum opt_status {
    OPT_NONE = 0,   /* this scheduler makes no optimality claim */
    OPT_PROVEN,     /* the schedule is a proven optimum */
    OPT_GAVE_UP,    /* the search stopped at a limit: best found, not proven */
};

struct sched {
    const struct sched_ops *ops;
    struct sched_opts opt;
    struct rng rng;
    void *state;            /* the policy's own */
    enum opt_status status; /* set by optimal-type policies */
    double bound;           /* optimal: best proven lower bound when it gave up */
    long long explored;     /* optimal: search nodes explored */
    char note[1024];        /* what the policy wants said beside the result (room for
                             * the longest: a pipelined tree's with the LP's reason) */
    bool has_tree_cost;     /* tree policies on a latency matrix: */
    double tree_cost;       /* Figueira's cost, the heaviest root-to-leaf path */
    int slices;             /* pipelined trees (sched/pipeline.h): slices simulated; 0 otherwise */
    int segments;           /* segmented broadcasts on node tables and matrices (sched/segment.h):
                               the message's segments, K; 0 for the others */
    double throughput;      /* pipelined: the tree's slices per time unit, by the model's formula */
    double optimal_throughput;  /* pipelined: the LP (2) optimum over several trees; NAN if unknown */
    double throughput_bound;    /* pipelined under one-port-uni: the value of the LP with one port
                                   per node, an upper bound not known to be reached (optimal_throughput
                                   is then NAN); NAN under the other models */
};

void sched_opts_default(struct sched_opts *o);
void sched_init(struct sched *s, const struct sched_ops *ops, const struct sched_opts *o);
void sched_free(struct sched *s);
/* Does this policy take this cluster's kind and this model?  0, or -1 with
 * *cause saying why not (sched_check, sched/registry.h, also names the
 * schedulers that would work). */
int sched_supports(const struct sched_ops *ops, const struct cluster *c, enum model m,
                   char **cause);

/*
 * Run a policy to the end: prepare, choose/book until no node waits (or the
 * policy is done; on a lean engine, run_lean instead when the policy has it
 * and it runs), finish, build the timeline. Returns 0 or -1 with *cause
 * (a bad decision names the decision).  On a lean engine the policy must be
 * lean too; its state is released (finish) before the rest of the timeline
 * is streamed, so that the two never take memory at the same time.
 */
int sched_run(struct engine *e, struct sched *s, char **cause);

/* A plan made in prepare, handed out in choose: the decision *next of len
 * (from[i] -> to[i], message 0), *next advanced; SCHED_DONE after the last.
 * The reason is the caller's to write. */
int sched_plan_next(const int *from, const int *to, int len, int *next, struct decision *d);

#endif
