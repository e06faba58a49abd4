/*
 * engine/engine.h - the event engine: port models, booking and the timeline.
 *
 * A schedule is built by a policy (struct sched_ops, sched/sched.h) that the engine
 * asks for one decision -- a (sender, receiver, message) triple -- whenever a
 * node still waits for a message.  The engine books each decision at the
 * earliest time the port model allows (SPEC §1): it never lets a node send a
 * message it does not hold, run two sends at once or two receives at once.
 *
 * Every booked transfer then yields its events (send starts, send port free,
 * message leaves the link, receiver holds it).  The events are ordered by a
 * stable sort on time (ties in insertion order), so equal-time events always come
 * out in the same order, and the timeline is a plain array: running to the
 * end is reading it all, stepping is reading one more, and stepping back is
 * replaying from the start (engine_snapshot), never undoing by hand.
 *
 * Messages: a broadcast has one message (0).  Pipelined slices are messages
 * 0..K-1 along one tree; a personalized exchange gives every (q, p) pair its
 * own message.  All are bookings on the same resources.
 *
 * Personalized mode (engine_init_exchange): message q*n+p is q's message for
 * p, held by q from time 0 and deliverable to p only.  Hold times are then
 * one n*n array (the delivery time of each message), not nmsg*n: an exchange
 * among n nodes costs O(n^2) memory, like its n(n-1) transfers.
 *
 * Lean mode (engine_set_lean), for broadcasts of millions of nodes where only
 * the result matters (--summary, hetcast bench): the same booking, but no
 * transfer records and no reasons are kept, and the timeline is streamed
 * instead of stored.  Each booking puts its transfer's first event into a
 * monotone queue (support/radixq.h); the events are taken out in the same (time,
 * booking, kind) order as engine_timeline's array, counted in nev and handed
 * to an optional callback, and each one's successor is derived on demand
 * from the start time, the costs and hold[] (a broadcast delivers to a node
 * once, so its receive port is free then and needs no recv_free[]).  The
 * queue holds only events not processed yet: a policy that knows how early
 * its later decisions can start says so (decision.not_before, sched/sched.h) and
 * the engine processes everything before that as it goes.  Memory: hold,
 * send_free, parent (20 bytes per node) plus 16 bytes per pending event
 * (and 2 bytes per node for the send times in a list run, 8 beyond 65535
 * distinct ones, engine/engine_lean.h).
 * A lean engine has no e->tr and no e->ev: the view, snapshots and the
 * reports of single transfers need a full one.
 *
 * A quiet engine (engine_set_quiet) is a lean one whose events nobody reads
 * (run and compare with --summary, run --format csv, json, svg and paje:
 * they print the bookings, or keep them in a file, and the result, from
 * on_book): each booking adds its events to nev and
 * queues none, so the queue and the work of ordering the events are
 * spared.  The bookings, holds, parents and makespan are the lean engine's
 * (tests/test_lean.c); hetcast bench keeps the stream, as it measures it.
 */
#ifndef HETCAST_ENGINE_H
#define HETCAST_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/cluster.h"
#include "support/radixq.h"
#include "model/timing.h"   /* enum model, the timing rule */

struct transfer {
    int from, to, msg;
    int seq;            /* booking order, 0-based */
    /* the times, as struct timing (model/timing.h) has them: the send port busy
       [start, send_end), the link [link_start, link_end) and the receive port
       [recv_start, recv_end) (empty: none), `to` holds message `msg` from hold,
       `from` may start its next send from free */
    double start, send_end, link_start, link_end, recv_start, recv_end, hold, free;
    double wait_start;  /* `from` was ready (held msg, port free) from here: when
                           start > wait_start it sat idle waiting for the receiver
                           (sync, one-port); otherwise wait_start == start */
    char *reason;       /* why the policy chose it; never NULL after booking */
};

/* The times of a transfer record as model/timing.h places them, and back. */
static inline void transfer_set_times(struct transfer *t, const struct timing *tm)
{
    t->start = tm->start;
    t->send_end = tm->send_end;
    t->link_start = tm->link_start;
    t->link_end = tm->link_end;
    t->recv_start = tm->recv_start;
    t->recv_end = tm->recv_end;
    t->hold = tm->hold;
    t->free = tm->free;
}
static inline struct timing transfer_times(const struct transfer *t)
{
    return (struct timing){t->start, t->send_end, t->link_start, t->link_end,
                           t->recv_start, t->recv_end, t->hold, t->free};
}
/* Its events beyond the start and the hold (TIMING_SEND_END, TIMING_LINK_END). */
static inline unsigned transfer_events(const struct transfer *t)
{
    struct timing tm = transfer_times(t);
    return timing_events(&tm);
}

enum event_kind {
    EV_SEND_START = 0,  /* the sender starts the transfer */
    EV_SEND_END,        /* the sender's port is free again */
    EV_LINK_END,        /* the message leaves the link (reaches the receiver) */
    EV_HOLD,            /* the receiver holds the message */
};

/* A reason written when it is read, from the transfer record and the cluster
 * alone (a list policy's: its choice's names and numbers are all there);
 * arg is the policy's, static (engine_book_said).  Heap text. */
struct engine;
typedef char *(*engine_say_fn)(const struct engine *e, const struct transfer *t, const void *arg);

struct event {           /* 16 bytes: a view's timeline at 10^6 nodes is 4 million of them */
    double time;
    unsigned seq : 30;   /* insertion sequence: ties in time keep this order (lean: the
                            booking's tie, its low 30 bits) */
    unsigned kind : 2;   /* enum event_kind */
    int transfer;        /* index into engine.tr (lean: the booking's number) */
};

struct engine;
/* A lean engine's timeline, one event at a time in timeline order: the
 * transfer is from -> to (see engine_set_lean). */
typedef void (*engine_event_fn)(void *ctx, const struct engine *e, const struct event *ev,
                                int from, int to);
/* A lean engine's bookings, one at a time in booking order (seq from 0): from
 * -> to at the times tm, what the full engine's record of it would hold. */
typedef void (*engine_book_fn)(void *ctx, int seq, int from, int to, const struct timing *tm);

struct engine {
    const struct cluster *c;
    enum model model;
    int n;              /* nodes */
    int nmsg;           /* messages (1 for a broadcast) */
    bool personal;      /* personalized exchange: see engine_init_exchange */
    double *hold;       /* hold[msg * n + p]: p holds msg from then; INFINITY: not booked.
                           Personalized: hold[msg], when msg's one receiver holds it */
    double *send_free;  /* send port of p free from */
    double *recv_free;  /* receive port of p free from */
    double *link_free;  /* multi-port on a platform graph: the link of edge k (as in
                           c->edges) is free from link_free[k], one message at a time
                           (pipelined slices); NULL otherwise */
    int *parent;        /* sender of message 0 to p, -1 for the source / none */
    int nwaiting;       /* nodes still without message 0 (a multicast: targets) */
    struct transfer *tr;
    int ntr, trcap;
    struct event *ev;   /* the timeline, built by engine_timeline (NULL when lean) */
    int nev;            /* its events (lean: events processed so far; quiet: booked) */
    bool quiet;         /* lean, its events counted at booking and never queued */
    double makespan;    /* latest hold time over all bookings (a multicast: of its targets) */

    /* Lean mode (engine_set_lean): ntr counts the bookings, tr stays NULL. */
    bool lean;
    struct transfer last;       /* lean: the latest booking (reason NULL) */
    struct radixq *stream;      /* lean: events booked but not processed yet */
    double streamed_to;         /* lean: time of the latest event processed */
    long long late;             /* lean: events processed after a later one (0 unless a
                                   policy's not_before was wrong) */
    engine_event_fn on_event;   /* lean: called for every event, or NULL */
    void *on_event_ctx;
    engine_book_fn on_book;     /* lean: called for every booking, or NULL (set it after
                                   engine_set_lean; --format csv streams its rows so) */
    void *on_book_ctx;
    bool on_book_rows;          /* on_book reads the nodes and names it is given (CSV's rows):
                                   the lean list run prefetches them for it */
    bool recording;             /* a full engine's lean run (engine_record_lean) */
    bool reasons_later;         /* a policy may leave its reasons to be written when read */
    bool reasons_unread;        /* no reason will be read: a policy may write none */
    engine_say_fn say;          /* the reasons left to be written when read (engine_reason) */
    const void *say_arg;
};

/* A broadcast of one message from c->source. Returns 0 or -1 with *cause. */
int engine_init(struct engine *e, const struct cluster *c, enum model m, char **cause);
/* nmsg messages, none held by anyone yet (for exchanges): see engine_give. */
int engine_init_messages(struct engine *e, const struct cluster *c, enum model m,
                         int nmsg, char **cause);
void engine_give(struct engine *e, int p, int msg, double t);   /* p holds msg at t */
/*
 * A personalized exchange: n*n messages, message q*n+p held by q from time 0
 * and deliverable only to p (engine_book refuses any other receiver).  The
 * caller books the transfers; q == p messages are never booked.  Refuses
 * clusters too large for n*n to fit an int.  Returns 0 or -1 with *cause.
 */
int engine_init_exchange(struct engine *e, const struct cluster *c, enum model m, char **cause);
void engine_free(struct engine *e);
/* Forget all bookings, back to the initial holdings of engine_init. */
void engine_reset(struct engine *e);
/*
 * Make e lean (see above) before its first booking: a broadcast (one
 * message) of fewer than 2^27 nodes.  fn (may be NULL) gets every event.
 * Returns 0 or -1 with *cause.
 */
int engine_set_lean(struct engine *e, engine_event_fn fn, void *ctx, char **cause);
/* Make e lean and quiet (see above): its events are counted, not streamed. */
int engine_set_quiet(struct engine *e, char **cause);
/* Lean: process the streamed events up to time t (INFINITY: all of them).
 * The caller promises that no booking from now on starts before t. */
void engine_stream_until(struct engine *e, double t);
/* Booking i: e->tr[i], or on a lean engine the latest booking only (NULL for others). */
static inline const struct transfer *engine_transfer(const struct engine *e, int i)
{
    if (i < 0 || i >= e->ntr)
        return NULL;
    if (e->lean)
        return i == e->ntr - 1 ? &e->last : NULL;
    return &e->tr[i];
}

/* What the messages of a broadcast of several are called: "slice" on a
 * platform graph (the pipelined trees, docs/pipeline.md), "segment" on a
 * node table or a latency matrix (MPI's segmented broadcasts, --slices K;
 * docs/models.md). */
static inline const char *engine_piece_name(const struct engine *e)
{
    return e->c->kind == CLUSTER_GRAPH ? "slice" : "segment";
}

static inline double engine_hold_time(const struct engine *e, int p, int msg)
{
    if (e->personal)
        return p == msg / e->n ? 0.0 : p == msg % e->n ? e->hold[msg] : __builtin_inf();
    return e->hold[(size_t)msg * (size_t)e->n + (size_t)p];
}
static inline bool engine_holds(const struct engine *e, int p, int msg)
{
    return engine_hold_time(e, p, msg) < __builtin_inf();
}
/* When could `q` start its next send of msg: max(holds it, port free). */
static inline double engine_ready(const struct engine *e, int q, int msg)
{
    double h = engine_hold_time(e, q, msg);
    return h > e->send_free[q] ? h : e->send_free[q];
}

/*
 * What booking from -> to of msg would give now, without booking it.
 * Returns 0, or -1 if impossible (no such edge, or `from` never gets msg).
 */
int engine_earliest(const struct engine *e, int from, int to, int msg, struct transfer *out);

/*
 * Book a transfer. Refuses (returns -1 with *cause) an unknown node, a sender
 * that will not hold the message, a receiver that already has it, a missing
 * edge. `reason` is copied; NULL gives an empty reason.
 */
int engine_book(struct engine *e, int from, int to, int msg, const char *reason, char **cause);
/* The same with a heap reason (a decision's, sched/sched.h) that the engine keeps
 * without a copy: *reason is taken (set to NULL) when booked, else left to
 * the caller to free. */
int engine_book_owned(struct engine *e, int from, int to, int msg, char **reason, char **cause);
/* The same with a reason written only when read (engine_reason): say(e, t, arg)
 * on the booked transfer, which must give the text the policy would have
 * given at booking.  An engine keeps one say: another one's text is written
 * at once. */
int engine_book_said(struct engine *e, int from, int to, int msg, engine_say_fn say, const void *arg,
                     char **cause);
/* The reason of e's transfer t: its text, or written now into *tmp (heap: the
 * caller frees *tmp, which is NULL otherwise).  Never NULL; "" for none. */
const char *engine_reason(const struct engine *e, const struct transfer *t, char **tmp);
/* Put prefix before transfer k's reason (written now, from its record as it
 * is, if it was left to be read), unless it has none: the times a policy
 * decided by are no longer the transfer's (engine/flow.h re-times them). */
void engine_reason_prefix(struct engine *e, int k, const char *prefix);

/*
 * Record a transfer with the times it has (t's from, to, msg, times and
 * reason), not booked by the timing rule: a measured transfer (session/trace.h).
 * The receiver then holds msg from t->hold; the sender need not hold it by
 * t->start (measured clocks are only so well aligned).  Refuses, like
 * engine_book, an unknown node, a node sending to itself and a receiver
 * that already has the message; a lean engine keeps no records.
 */
int engine_record(struct engine *e, const struct transfer *t, char **cause);

/* A list policy's whole lean run in its own order: engine/engine_lean.h. */

/*
 * A full engine's records from a list policy's lean run (sched_run, for a
 * policy with run_lean, when its reasons are written when read): e, full,
 * a broadcast on an async node table (no targets) before its first
 * booking, becomes lean and quiet, and keeps every booking as the full
 * engine's record (a reason written when read: the run sets e->say);
 * engine_record_lean_end makes it full again, with the holds, ports,
 * parents and records the same decisions booked one by one would give
 * (tests/test_lean.c).  False (e unchanged) where a list run does not apply.
 */
bool engine_record_lean(struct engine *e);
void engine_record_lean_end(struct engine *e);

/* Build e->ev from the bookings (sorted on time, then sequence).  Lean: process
 * every event still in the stream instead (e->ev stays NULL). */
void engine_timeline(struct engine *e);

/* The state after the first k events of the timeline (0 <= k <= nev). */
enum phase {
    PHASE_FUTURE = 0,   /* not started yet at this step */
    PHASE_SENDING,      /* on the sender's port */
    PHASE_LINK,         /* on the link (sender port free) */
    PHASE_RECEIVING,    /* arrived, on the receiver's port */
    PHASE_DONE,         /* the receiver holds it */
};
struct snapshot {
    int step;           /* events applied */
    double now;         /* time of the last applied event (0 at step 0) */
    int nholding;       /* nodes holding message 0 (incl. the source) */
    unsigned char *phase;   /* per transfer: enum phase */
    unsigned char *holds;   /* per node: holds message 0 */
};
void snapshot_init(struct snapshot *s, const struct engine *e);
void snapshot_free(struct snapshot *s);
/* Replays events [0, k) from the start: exact, whatever came before.  A lean
 * engine keeps no timeline: its snapshot is always the start. */
void engine_snapshot(const struct engine *e, int k, struct snapshot *s);
/* Apply one more event (s->step < e->nev). */
void engine_snapshot_step(const struct engine *e, struct snapshot *s);

/* One sentence on event k (0-based) for the narration line. */
void engine_narrate(const struct engine *e, int k, char *buf, size_t size);

#endif
