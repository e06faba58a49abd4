/*
 * model/timing.h - the one timing rule: what a transfer q -> p costs on a cluster
 * and, under a port model, when its send, link and receive run, when p holds
 * the message and when q may send again (docs/models.md).
 *
 * Every time anywhere in hetcast -- the engine's bookings, its lean stream
 * and list run, the exact search, the bounds, the exchanges -- comes from
 * these functions, and every choice that depends on the port model asks a
 * predicate below (timing_rendezvous, timing_exchange_ok, ...) what the model
 * means rather than which model it is.  So a sixth port model is its
 * arithmetic here (timing_phases, timing_start, the inline predicates) and a
 * row in model/timing.c's table; a fourth cluster kind is timing_cost.
 * tests/test_timing.c checks that each of those callers agrees with
 * timing_of called directly, that no other file of src/ adds costs to times,
 * and that no file of src/, app/ or ui/ but these two compares a model
 * against MODEL_ names.
 *
 * They are static inline because the lean engine calls them once or twice
 * per event on millions of nodes: with the model a constant at the call,
 * the compiler keeps only that model's additions.  Every time is a sum in
 * one fixed order of additions (start + s, then + l, then + r), so a time
 * derived twice (a booking, and the event streamed later) is the very same
 * double.  Cost: O(1), no allocation.
 */
#ifndef HETCAST_TIMING_H
#define HETCAST_TIMING_H

#include <stdbool.h>
#include <stddef.h>

#include "model/cluster.h"

enum model {
    MODEL_ASYNC = 0,       /* asynchronous sender-receiver (default) */
    MODEL_SENDER_ONLY,     /* sender-only: cost s(q) */
    MODEL_SYNC,            /* synchronous: sender busy until the receive ends */
    MODEL_ONE_PORT,        /* one-port bidirectional: T = s + l + r */
    MODEL_MULTI_PORT,      /* multi-port: port busy send_q, message after T */
    MODEL_ONE_PORT_UNI,    /* one-port unidirectional: one port sends or receives (graphs) */
    MODEL_COUNT
};
#define MODEL_BIT(m) (1u << (m))
#define MODEL_ALL ((1u << MODEL_COUNT) - 1)

/* Names and one-line summaries (model/timing.c). */
const char *model_name(enum model m);
const char *model_summary(enum model m);
int model_parse(const char *name, enum model *out);   /* 0 or -1 */
char *model_names(void);                               /* "async, sender-only, ..." */
/* Models a cluster kind supports (graphs: one-port, multi-port and
 * one-port-uni only; one-port-uni on graphs only). */
unsigned model_mask_for(enum cluster_kind k);
/* "the M model does not apply to a KIND; valid models for a KIND: a, b, ..."
 * (malloc'd), the one refusal every front door and the engine give. */
char *model_refusal(enum model m, enum cluster_kind k);
enum model model_default_for(enum cluster_kind k);

/* The cost of one transfer q -> p, before the port model is applied (timing_cost). */
struct cost {
    double s;   /* send overhead of q */
    double l;   /* link time */
    double r;   /* receive overhead of p */
    double T;   /* whole transfer time for one-port / multi-port */
    double send_mp; /* multi-port: time q's port is busy */
};

/* When the resources of a transfer are free, before it is placed. */
struct timing_ports {
    double ready;       /* q holds the message and its send port is free */
    double recv_free;   /* p's receive port is free (async: the receive waits for it;
                           sync, one-port: the start waits for it) */
    double link_free;   /* multi-port on a platform graph: the edge q -> p carries one
                           message at a time and is free from here; -INFINITY elsewhere */
};

/* A placed transfer: the fields of struct transfer (engine/engine.h) that are times. */
struct timing {
    double start;       /* send port busy [start, send_end) */
    double send_end;
    double link_start;  /* link busy [link_start, link_end); empty: no link */
    double link_end;
    double recv_start;  /* receive port busy [recv_start, recv_end); empty: none */
    double recv_end;
    double hold;        /* p holds the message from here */
    double free;        /* q may start its next send from here */
};

/* The events of a transfer beyond its start and hold (engine_timeline, the lean stream). */
#define TIMING_SEND_END 1u  /* q is free before p holds it: "the send port is free" */
#define TIMING_LINK_END 2u  /* a receive phase follows the link: "the message arrives" */

/* The cost of a transfer made of a send s, a link l and a receive r (node
 * tables and matrices): T = s + l + r, and multi-port's port is busy s. */
static inline void timing_cost_parts(double s, double l, double r, struct cost *out)
{
    out->s = s;
    out->l = l;
    out->r = r;
    out->T = s + l + r;
    out->send_mp = s;
}

/* The affine cost model (Beaumont, Marchal & Robert §2.1): a message of
 * size L occupies a link alpha + L beta (start-up, then the inverse of the
 * bandwidth per unit); timing_set_message_size sets an edge's time by it. */
static inline double timing_affine(double alpha, double beta, double size)
{
    return alpha + size * beta;
}

/* A message of size bytes alone on a SimGrid route (docs/models.md, "Shared
 * links"): its latency, then its bytes at the route's bandwidth (the least
 * of its links'); a message of no bytes, the latency alone. */
static inline double timing_route(double latency, double size, double bandwidth)
{
    return size > 0 ? latency + size / bandwidth : latency;
}

/* Platform graphs: every affine edge (beta >= 0) takes the time of a message
 * of `size` units, alpha + size beta (timing_affine).  Node tables with size
 * segments: the latency of the segment covering size, L + size G.  Returns
 * how many edges or segments are affine (0: the size changes nothing), or -1
 * when the node table has segments and none covers size (nothing changed). */
int timing_set_message_size(struct cluster *c, double size);

/* A platform graph's edge under multi-port: its sender's port is busy for
 * the edge's send time or, when none is given, its whole time. */
static inline double timing_edge_send(const struct edge *e)
{
    return e->send >= 0 ? e->send : e->time;
}

/* The link time l of q -> p on a node table or a matrix (timing_cost's):
 * it reads no node, so the lean stream asks it alone. */
static inline double timing_link(const struct cluster *c, int q, int p)
{
    return c->kind == CLUSTER_MATRIX ? c->unit * cluster_dist(c, q, p)
                                     : c->latency;
}

/*
 * The steady-state period of a node u of a pipelined tree (Beaumont, Marchal
 * & Robert §3; docs/pipeline.md): recv is the time of the edge into u (0 at
 * the source), sends the sum of u's sends to its children (each edge's T,
 * under multi-port its send time), slowest the largest T among them.
 *   one-port      sends                      (receiving overlaps sending)
 *   multi-port    max(sends, slowest)
 *   one-port-uni  recv + sends               (one port: §2.3's unidirectional)
 */
static inline double timing_tree_period(enum model m, double recv, double sends, double slowest)
{
    if (m == MODEL_MULTI_PORT)
        return sends > slowest ? sends : slowest;
    if (m == MODEL_ONE_PORT_UNI)
        return recv + sends;
    return sends;
}

/* How long a send along edge e keeps its sender's port in a pipelined tree
 * (the `sends` of timing_tree_period): multi-port its send time, else T. */
static inline double timing_tree_send(enum model m, const struct edge *e)
{
    return m == MODEL_MULTI_PORT ? timing_edge_send(e) : e->time;
}

/* timing_tree_period's rule in words ("sends or slowest link" for
 * multi-port), for the note beside a tree's period: "MODEL: RULE". */
const char *timing_tree_rule(enum model m);

/*
 * A node table's T(q,p) in two parts, for a caller that keeps one part per
 * node (sched/fef_fast.c): head = s(q) + L, then T = head + r(p), the very double
 * timing_cost gives (s + l + r, added left to right).
 */
static inline double timing_node_head(const struct cluster *c, int q)
{
    return c->nodes[q].send + c->latency;
}
static inline double timing_head_recv(double head, double recv)
{
    return head + recv;
}

/*
 * Where the costs come from (docs/models.md, first table): node tables s(q),
 * L, r(p); latency matrices s(q), u * d[q][p], r(p); platform graphs the
 * edge's T (send_mp: its send time, T when not given).  T = s + l + r off
 * graphs.  Returns false when there is no such transfer (no edge).
 */
static inline bool timing_cost(const struct cluster *c, int q, int p, struct cost *out)
{
    if (c->kind == CLUSTER_GRAPH) {
        int k = c->edge_of ? c->edge_of[(size_t)q * (size_t)c->n + (size_t)p] : -1;
        if (k < 0)
            return false;
        const struct edge *e = &c->edges[k];
        out->s = 0;
        out->l = e->time;
        out->r = 0;
        out->T = e->time;
        out->send_mp = timing_edge_send(e);
        return true;
    }
    timing_cost_parts(c->nodes[q].send, timing_link(c, q, p), c->nodes[p].recv, out);
    return true;
}

/*
 * The steps of a send, a link and a receive, each a phase's end from its
 * start: timing_phases places every model with them, and a caller that
 * knows where a transfer stands may take one step alone (the lean stream
 * derives a link's end from the send's end; the exact search's slots are
 * send ends, and a receiver holds at recv_end(arrival(slot))).  Since each
 * is one addition in a fixed order, a step taken alone gives the very
 * double timing_phases gave.
 */
static inline double timing_send_end(const struct cost *k, double start)
{
    return start + k->s;
}

static inline double timing_arrival(const struct cost *k, double send_end)
{
    return send_end + k->l;
}

static inline double timing_recv_end(const struct cost *k, double recv_start)
{
    return recv_start + k->r;
}

/* Fill out: send [start, send_end), link [link_start, link_end), receive
 * [recv_start, recv_end), then hold and free. */
static inline void timing_set(struct timing *out, double start, double send_end, double link_start,
                              double link_end, double recv_start, double recv_end, double hold,
                              double free)
{
    *out = (struct timing){start, send_end, link_start, link_end, recv_start, recv_end, hold, free};
}

/*
 * The intervals of a transfer with costs k that starts at t under model m
 * (docs/models.md, second table, column by column); rf is when p's receive
 * port is free, which only async reads (the receive waits for it: receives
 * are served in arrival order).
 */
static inline void timing_phases(enum model m, const struct cost *k, double t, double rf,
                                 struct timing *out)
{
    switch (m) {
    case MODEL_ASYNC: {
        double se = timing_send_end(k, t), le = timing_arrival(k, se), rs = le > rf ? le : rf,
               re = timing_recv_end(k, rs);
        timing_set(out, t, se, se, le, rs, re, re, se);
        break;
    }
    case MODEL_SENDER_ONLY: {
        double se = timing_send_end(k, t);
        timing_set(out, t, se, se, se, se, se, se, se);
        break;
    }
    case MODEL_SYNC: {   /* the send port is held until the receive ends */
        double ls = timing_send_end(k, t), le = timing_arrival(k, ls), re = timing_recv_end(k, le);
        timing_set(out, t, re, ls, le, le, re, re, re);
        break;
    }
    case MODEL_ONE_PORT:
    case MODEL_ONE_PORT_UNI: {   /* uni: the same intervals, on one port per node */
        double e = t + k->T;
        timing_set(out, t, e, t, e, t, e, e, e);
        break;
    }
    case MODEL_MULTI_PORT:
    default: {
        double se = t + k->send_mp, le = t + k->T;
        timing_set(out, t, se, t, le, le, le, le, se);
        break;
    }
    }
}

/* The one-port models, bidirectional and unidirectional: a transfer holds
 * the sender's and the receiver's port for its whole time T. */
static inline bool timing_one_port(enum model m)
{
    return m == MODEL_ONE_PORT || m == MODEL_ONE_PORT_UNI;
}

/*
 * Does a node have one port for both directions (one-port-uni, Beaumont,
 * Marchal & Robert §2.3: "either a send or a receive")?  Then a node's
 * sends and receives never overlap: the engine keeps its send port and its
 * receive port busy together (engine_book), so a node is ready to send only
 * when it is not receiving and free to receive only when it is not sending.
 */
static inline bool timing_shares_port(enum model m)
{
    return m == MODEL_ONE_PORT_UNI;
}

/* The start rule: the sender's ready time; sync and one-port wait for the
 * receiver's port (a rendezvous), multi-port for a busy link. */
static inline double timing_start(enum model m, const struct timing_ports *at)
{
    double t = at->ready;
    if (m == MODEL_SYNC || timing_one_port(m))
        t = t > at->recv_free ? t : at->recv_free;
    else if (m == MODEL_MULTI_PORT && at->link_free > t)
        t = at->link_free;
    return t;
}

/* A transfer with costs k placed as early as the ports allow. */
static inline void timing_transfer(enum model m, const struct cost *k,
                                   const struct timing_ports *at, struct timing *out)
{
    timing_phases(m, k, timing_start(m, at), at->recv_free, out);
}

/*
 * The one timing rule: q -> p on c under m, placed as early as the ports
 * allow.  Returns false (out untouched) when there is no such transfer.
 */
static inline bool timing_of(const struct cluster *c, enum model m, int q, int p,
                             const struct timing_ports *at, struct timing *out)
{
    struct cost k;
    if (!timing_cost(c, q, p, &k))
        return false;
    timing_transfer(m, &k, at, out);
    return true;
}

/*
 * How long a transfer with costs k keeps the sender's port and the
 * receiver's port from each other, started with both free (a personalized
 * exchange's lower bound on latency matrices): sync, the rendezvous, both
 * for the whole s + l + r; async, the sender for s and the receiver for r.
 */
static inline void timing_port_busy(enum model m, const struct cost *k, double *send_busy,
                                    double *recv_busy)
{
    struct timing t;
    timing_phases(m, k, 0.0, 0.0, &t);
    *send_busy = t.free;
    *recv_busy = m == MODEL_SYNC || timing_one_port(m) ? t.recv_end : t.recv_end - t.recv_start;
}

/* Does a transfer keep p's receive port busy, to recv_end (async, sync,
 * one-port)?  Sender-only and multi-port have no receive port. */
static inline bool timing_holds_recv_port(enum model m)
{
    return m == MODEL_ASYNC || m == MODEL_SYNC || timing_one_port(m);
}

/* Does an edge carry one message at a time, busy to link_end (multi-port on
 * a platform graph: pipelined slices)?  Elsewhere links never conflict. */
static inline bool timing_holds_link(enum model m, enum cluster_kind k)
{
    return m == MODEL_MULTI_PORT && k == CLUSTER_GRAPH;
}

/*
 * A transfer as a message-passing program plays it (SimGrid SMPI's replay,
 * output/export_smpi.c): the sender computes `before`, sends over a link of
 * latency `link` (negative: no link can express it), and, where the model
 * keeps the sender until the receive ends (sync, one-port), computes
 * `after` once its send returns; the receiver computes r(p) on arrival
 * where it has a receive (timing_holds_recv_port but on graphs).  Platform
 * graphs: the edge's T on the link, less multi-port's send time.
 */
static inline void timing_split(enum model m, enum cluster_kind kind, const struct cost *k,
                                double *before, double *link, double *after)
{
    if (kind == CLUSTER_GRAPH) {
        bool mp = m == MODEL_MULTI_PORT;
        *before = mp ? k->send_mp : 0;
        *link = mp ? k->T - k->send_mp : k->T;
        *after = 0;
        return;
    }
    *before = k->s;
    *link = m == MODEL_SENDER_ONLY ? 0 : k->l;
    *after = m == MODEL_SYNC || timing_one_port(m) ? k->r : 0;
}

/*
 * What a port model means to the choices of the rest of hetcast: each is a
 * flag of the model's row in model/timing.c, so that no caller compares a
 * model against MODEL_ names.  Each says which callers decide by it.
 *
 * Is q's port busy until p's receive ends (q is free at recv_end: sync,
 * one-port, one-port-uni)?  A message-passing program then has the sender
 * wait for the receive (output/export_smpi.c, app/mpi's acknowledgement);
 * otherwise q sends again once its own send is done, so some optimal
 * broadcast has no idle sender and the exact search may run receiver orders
 * (Theorem 1 of Liu, Wang & Guo; sched/optimal.c).
 */
bool timing_sender_waits_receive(enum model m);
/* Does a transfer start only when p's receive port is free, and then hold
 * both ports to its end (sync, one-port, one-port-uni: timing_start,
 * timing_port_busy)?  An exchange's sender whose receiver is busy then sits
 * idle and waits (sched/exchange.c, output/report_exchange.c). */
bool timing_rendezvous(enum model m);
/* Does p hold the message at recv_end(arrival(send_end(start))), each phase
 * added in turn (async, sync, and sender-only where only the send counts),
 * rather than at start + T in one sum (one-port, multi-port)?  Then a
 * search that adds the phases in that order on raw doubles reaches the
 * engine's very times (sched/optimal.c's receiver orders). */
bool timing_hold_stepwise(enum model m);
/* Does only the send cost (sender-only): p holds the message when q's send
 * ends, the link and the receive count as 0 (sched/optimal.c,
 * output/export_smpi.c)? */
bool timing_send_only(enum model m);
/* Is it the model of Liu, Wang & Guo (async), in which their FNF guarantee
 * and Libeskind-Hadas & Hartline's are proved (engine/bounds.c)? */
bool timing_fnf_bounds(enum model m);
/* Does the lean engine's list run apply: it books every transfer by
 * async's rule (engine/engine_lean.c, lean_list_begin)? */
bool timing_list_run(enum model m);
/* Is the throughput linear program of a pipelined tree the one-port
 * model's, not the model's own (multi-port, as Beaumont, Marchal & Robert
 * do in §5.2.2)?  A tree's share of it is then "of the one-port optimum"
 * (output/report.c). */
bool timing_lp_of_one_port(enum model m);
/* Does a personalized exchange (Chen & Liu) run under m, on node tables
 * (sync, async: session/, sched/exchange.c, the view's chooser)?  And on
 * latency matrices, where only a sender that waits for the receive keeps
 * each receiver's messages in their sending order (sync)? */
bool timing_exchange_ok(enum model m);
bool timing_exchange_on_matrix(enum model m);
/* On a platform of shared links (model/platform.h), is a broadcast under m
 * timed by the shared-link simulation (engine/flow.h): a model without
 * per-node overheads, whose senders are one-port or multi-port (one-port,
 * multi-port)?  The others charge overheads SimGrid's links know nothing of,
 * and keep each route a private pipe (session/run.c says which links their
 * schedule shares). */
bool timing_shared_links(enum model m);
/* Does a sender start every send at once (multi-port), rather than one
 * after the other (one-port)?  The shared-link simulation's senders. */
bool timing_sends_at_once(enum model m);
/* The model of a platform of shared links when none is named: one-port. */
enum model model_default_platform(void);

/* The times measured when a transfer is played as real messages (app/mpi:
 * timing_split's waits, an acknowledgement where the sender waits for the
 * receive). */
struct timing_measure {
    double start;       /* q begins (and computes timing_split's `before`) */
    double link;        /* q's send begins: the message leaves */
    double send_end;    /* q's send returns */
    double free;        /* q may send again: send_end, or when p's acknowledgement came */
    double arrival;     /* the message is at p: the link ends */
    double recv_end;    /* p's receive ends (r(p) waited out) */
};

/* The send, link and receive intervals, hold and free of a measured
 * transfer under m, as timing_phases draws a simulated one: given the
 * times timing_phases gives, it gives them back. */
void timing_measured(enum model m, const struct timing_measure *at, struct timing *out);

/* Which of TIMING_SEND_END and TIMING_LINK_END the transfer has as events. */
static inline unsigned timing_events(const struct timing *t)
{
    unsigned mask = 0;
    if (t->free < t->hold)
        mask |= TIMING_SEND_END;
    if (t->recv_end > t->recv_start && t->link_end < t->hold && t->link_end > t->start)
        mask |= TIMING_LINK_END;
    return mask;
}

#endif
