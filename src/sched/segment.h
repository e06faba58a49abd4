/*
 * sched/segment.h - segmented broadcasts on node tables and latency matrices:
 * the message cut into K segments, as MPI libraries send a long message
 * (docs/models.md, "The broadcasts MPI libraries choose from").
 *
 * A segment costs what the cluster says a message costs (s(q), the link,
 * r(p)): calibrate with the segment's size (hetcast-mpi calibrate --size),
 * and K segments make a message K times as long.  Segment k is engine
 * message k, all K held by the source at time 0; every node receives every
 * segment once.
 *
 * An algorithm is a plan: for every node, the sends it makes, in the order
 * it makes them (segment, receiver).  choose() hands out, among the nodes'
 * next sends whose segment the sender already holds, the one the engine can
 * start first (ties: the lower step, which is the segment unless the plan
 * runs in steps of its own, then the lower node), so every node
 * keeps its own order, sends as soon as its port and the segment allow, and
 * the transfers come out in time order.  A plan whose order could wait for
 * a segment that never comes is a bug: seg_choose says so.  A node's next
 * start only grows as bookings are made (its port, its holds and its
 * receiver's port are only ever taken), so a heap of the starts last seen
 * gives the earliest one, looked at again when it comes out: O(log n) a
 * decision, instead of a scan of every node.
 */
#ifndef HETCAST_SEGMENT_H
#define HETCAST_SEGMENT_H

#include "model/cluster.h"
#include "engine/engine.h"
#include "sched/sched.h"
#include "support/heap.h"

/* One send of a plan: segment seg to node `to`; role and arg say why (the
 * algorithm's own numbers, read by its reason function); step orders it
 * among the sends that could start at the same time (the lower first). */
struct seg_send {
    int seg, to;
    int role, arg;
    int step;
};

struct segplan;
/* Why u makes send x, as heap text (the caller frees it). */
typedef char *(*seg_reason_fn)(const void *ctx, const struct cluster *c, int u,
                               const struct seg_send *x);

struct segplan {
    int n, segments;
    struct seg_send **sends;    /* sends[u][0 .. len[u]): u's sends in order */
    int *len, *cap;
    int *next;                  /* choose()'s cursor: u's next send */
    struct heap ready;          /* choose(): nodes by (start, segment, node) of their next
                                   send when last looked at, a lower bound of it now */
    unsigned *version;          /* choose(): u's live entry in ready is the one pushed with
                                   version[u] (older ones are skipped) */
    int seen;                   /* choose(): bookings already folded in (-1: none yet) */
    seg_reason_fn reason;       /* may be NULL */
    const void *reason_ctx;
};

/* The segments of a run: --slices K when given (> 0), else 1. */
int seg_count(const struct sched *s);

/* An empty plan for n nodes and K segments. */
void seg_plan_init(struct segplan *p, int n, int segments);
void seg_plan_free(struct segplan *p);
/* Append a send to u's list (its step: the segment). */
void seg_plan_add(struct segplan *p, int u, int seg, int to, int role, int arg);
/* The same, in the plan's step `step` (two-tree's coloured steps). */
void seg_plan_add_at(struct segplan *p, int u, int step, int seg, int to, int role, int arg);

/*
 * Make e (a fresh one-message broadcast of its cluster) a K-segment one and
 * note K in s->segments.  Refuses (-1 with *cause) K outside 1 to SEG_MAX
 * and more than SEG_MAX_TRANSFERS transfers, K (n - 1): each is kept with
 * its reason (about 400 bytes).
 */
#define SEG_MAX 100000
#define SEG_MAX_TRANSFERS 2000000
int seg_start(struct segplan *p, struct sched *s, struct engine *e, char **cause);

/* The next decision of the plan (sched_ops.choose). */
int seg_choose(struct segplan *p, const struct engine *e, struct decision *d, char **cause);

/*
 * A lower bound on the makespan of any broadcast of K segments on c under
 * m: the one-message bound (engine/bounds.h), the source's K sends one
 * after the other and the segment its last send carries, and every
 * receiver's K receives one after the other on its receive port.  O(n^2).
 */
double seg_lower_bound(const struct cluster *c, enum model m, int segments);

#endif
