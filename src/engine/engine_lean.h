/*
 * engine/engine_lean.h - the lean engine's streamed timeline and the list run
 * (engine/engine_lean.c); engine/engine.h says what a lean engine is and keeps.
 *
 * A list run is a list policy's whole broadcast (fnf, slowest-first,
 * random-order; sched/list.c) on a lean async node table, booked in one
 * loop that the policy drives: it picks each sender by its own rule and
 * calls lean_list_book, which books that sender to the next receiver of its
 * order with the engine's timing (model/timing.h).  The engine never knows how
 * the sender was picked.  While it runs the node arrays are kept in the
 * policy's order (the node order[i] at position i), so that the receivers
 * are read one after the other instead of at random places, and put back
 * at the end; positions, not nodes, go in and out of the functions below.
 * An on_event callback gets the real nodes but must not read e's arrays.
 * Costs 2 bytes a node besides the stream (the send times in that order, as
 * ids of the distinct ones; 8 bytes beyond 65535 distinct times), and at
 * the end 8 for the first array put back in node order.
 *
 *     const struct lean_list run = lean_list_begin(e, order, nheld);
 *     struct lean_last last;
 *     if (run.e) {
 *         for (each waiting node) {
 *             int q = <the policy's sender: the position of a holder>;
 *             int p = lean_list_book(&run, &last, q, not_before);
 *             <lean_list_ready(&run, q), lean_list_ready(&run, p): new ready times>
 *         }
 *         lean_list_end(&run, &last);
 *     }
 *
 * The result is the same bookings, events (in the same order) and final
 * state as the same decisions booked one by one with engine_book and
 * streamed with engine_stream_until (tests/test_lean.c checks it).
 */
#ifndef HETCAST_ENGINE_LEAN_H
#define HETCAST_ENGINE_LEAN_H

#include <stdint.h>

#include "engine/engine.h"

/* A list run, fixed from lean_list_begin to lean_list_end: declare it const,
 * so that the compiler keeps its fields in registers across the stream. */
struct lean_list {
    struct engine *e;   /* NULL: the run does not apply (see lean_list_begin) */
    const int *order;   /* node at each position: the nheld holders, then the receivers */
    int nheld;
    /* The send time of the node at each position (lean_list_send): while
     * the table has at most LEAN_SEND_IDS distinct ones, si[i] is its id in
     * sv (2 bytes a position) and s is NULL; beyond, s[i] is the time and si
     * NULL. */
    double *s;
    uint16_t *si;
    double *sv;
    double L;           /* the node table's latency */
    double *hold, *send_free;   /* e's arrays, in the run's order */
    int *parent;        /* e's, in the run's order, senders as positions */
};

/* The latest booking of a list run: its sender's position and ready time. */
struct lean_last {
    int q;
    double ready;
};

/*
 * Start a list run: order[0..n) holds every node, first the nheld that hold
 * the message (in increasing index), then the waiting ones in the order the
 * policy serves them.  Only an async node table, lean, before its first
 * booking: returns a run with e == NULL otherwise (nothing changed: book
 * one by one).  order must stay as it is until lean_list_end.
 */
struct lean_list lean_list_begin(struct engine *e, const int *order, int nheld);

/* When the node at position i could start its next send (engine_ready). */
static inline double lean_list_ready(const struct lean_list *r, int i)
{
    double h = r->hold[i], f = r->send_free[i];
    return h > f ? h : f;
}

/* Distinct send times a list run keeps by id (struct lean_list). */
#define LEAN_SEND_IDS 65535

/* The send time of the node at position i. */
static inline double lean_list_send(const struct lean_list *r, int i)
{
    return r->si ? r->sv[r->si[i]] : r->s[i];
}

/* Process the streamed events of the run up to time t (INFINITY: all). */
void lean_list_stream(const struct lean_list *r, double t);

/* A transfer's events: its start and its hold, and the optional ones of
 * `events` (TIMING_SEND_END, TIMING_LINK_END). */
static inline int lean_event_count(unsigned events)
{
    return 2 + (int)(events & 1u) + (int)(events >> 1 & 1u);
}

/* A stream item's tie for the first event of booking i (engine/engine_lean.c). */
static inline uint32_t lean_first_tie(int booking, unsigned events)
{
    return (uint32_t)booking << 4 | (uint32_t)EV_SEND_START << 2 | events;
}

/*
 * Process the stream up to not_before (the caller promises that no booking
 * from now on starts earlier, as decision.not_before), then book the holder
 * at position q to the next receiver at its ready time, by the timing rule;
 * *last becomes this booking.  Returns the receiver's position.  O(1)
 * besides the events processed; inline, as the loop it sits in runs once a
 * node.
 */
static inline int lean_list_book(const struct lean_list *r, struct lean_last *last, int q,
                                 double not_before)
{
    struct engine *e = r->e;
    int p = r->nheld + e->ntr;
    lean_list_stream(r, not_before);
    double recv = r->send_free[p];   /* parked there by lean_list_begin */
    r->send_free[p] = 0;
    struct timing_ports at = {lean_list_ready(r, q), 0.0, -__builtin_inf()};
    struct cost k;
    struct timing t;
    timing_cost_parts(lean_list_send(r, q), r->L, recv, &k);
    timing_transfer(MODEL_ASYNC, &k, &at, &t);
    if (__builtin_expect(e->on_book != NULL, 0)) {
        /* a hook that reads the receivers' nodes (on_book_rows: their names, for
           the CSV rows) reads them at random places: fetch the node 16 bookings
           ahead and the name 8 ahead (the records of engine_record_lean and the
           spool read none, and the name's address is a load that would stall) */
        const struct node *nodes = e->c->nodes;
        int n = e->n;
        if (p + 16 < n && e->on_book_rows)
            __builtin_prefetch(&nodes[r->order[p + 16]]);
        if (p + 8 < n && e->on_book_rows)
            __builtin_prefetch(nodes[r->order[p + 8]].name);
        e->on_book(e->on_book_ctx, e->ntr, r->order[q], r->order[p], &t);
    }
    if (e->quiet)   /* nobody reads the events: count them (engine/engine.h) */
        e->nev += lean_event_count(timing_events(&t));
    else
        rq_push(e->stream, t.start, lean_first_tie(e->ntr, timing_events(&t)), q);
    e->ntr++;
    r->hold[p] = t.hold;
    r->send_free[q] = t.free;
    r->parent[p] = q;
    if (e->nwaiting > 0)
        e->nwaiting--;
    if (t.hold > e->makespan)
        e->makespan = t.hold;
    *last = (struct lean_last){q, at.ready};
    return p;
}

/* Process the rest of the stream and put e's arrays back in node order
 * (last: the latest booking, for e->last). */
void lean_list_end(const struct lean_list *r, const struct lean_last *last);

/* engine/engine.c's booking on a lean engine: queue t's first event (booking i). */
void lean_push(struct engine *e, const struct transfer *t, int booking);

#endif
