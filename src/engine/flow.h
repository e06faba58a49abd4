/*
 * engine/flow.h - transfers on shared links (docs/models.md, "Shared links"):
 * a broadcast's schedule on a platform (model/platform.h) timed as SimGrid's
 * CM02 network model times it (Casanova & Marchal's model, with Velho &
 * Legrand's max-min sharing; without the TCP window, cross-traffic or LV08's
 * correction factors).
 *
 * A transfer q -> p first pays its route's latency, then its bytes flow; the
 * flows in flight share each SHARED link's bandwidth max-min fairly, weighted
 * as CM02 weighs them (a flow's share goes as the inverse of its route's
 * latency), a FATPIPE link giving each its full bandwidth: progressive
 * filling, re-done at every start and end of a flow (an event-driven fluid
 * simulation), so a transfer's end is known only when those of the flows
 * around it are.
 *
 * The schedule is the policy's: who sends to whom, and each sender's order
 * (its bookings in booking order).  One-port senders send one message at a
 * time, the next starting when the previous one is received; multi-port
 * senders start every send at once.  The times replace the bookings' own
 * (flow_retime), which the policy made from each route's cost alone.
 */
#ifndef HETCAST_FLOW_H
#define HETCAST_FLOW_H

#include <stdbool.h>

#include "engine/engine.h"
#include "model/platform.h"

/* One change of a flow's rate: from `time` on, transfer `tr` moves `rate`
 * bytes/s, held back by link `link` (-1: none, the latency still running)
 * that `sharers` flows cross then. */
struct flow_change {
    double time;
    int tr;
    int link;
    int sharers;
    double rate;
};

struct flow_log {
    struct flow_change *ch;
    int n, cap;
};

/*
 * Time e's bookings (a full engine's broadcast of one message) on e->c's
 * platform: every transfer record, hold and the makespan are replaced by the
 * shared-link times, the timeline rebuilt.  multi_port: senders start every
 * send at once.  log (may be NULL) gets every change of a flow's rate, in
 * time order.  Returns 0, or -1 with *cause (a lean engine, several messages).
 * Cost: O(events x (flows in flight x route length)) per re-timing.
 */
int flow_retime(struct engine *e, bool multi_port, struct flow_log *log, char **cause);
/* Did sharing links slow transfer t of e down (a broadcast timed on the
 * platform's shared links)?  Then *took is how long it took, *alone how long
 * its route alone takes (beyond rounding). */
bool flow_slowed(const struct engine *e, const struct transfer *t, double *took, double *alone);
/* What flow_retime puts before the reason of a transfer it moved: the policy
 * decided by times that sharing changed. */
#define FLOW_PLANNED "planned with each route's cost alone: "
void flow_log_free(struct flow_log *log);

/* A SHARED link that carries the bytes of two flows or more at some time. */
struct flow_lane {
    int link;
    int most;        /* the most flows whose bytes cross it at once */
    bool held;       /* it held back a flow that shared it (the flow's neck, flow_change.link) */
    int n;           /* the flows whose bytes cross it: tr[0 .. n), by when their bytes start */
    int *tr;
};

/* The sharing of a run timed by flow_retime, read from its log. */
struct flow_lanes {
    struct flow_lane *lane;   /* those that held a flow back first, then by most flows at once,
                                 then by link */
    int n;
    double *from;             /* per transfer: when its bytes start (INFINITY: never) */
    int *head, *next;         /* per transfer: its log entries, head[tr], next[i] (-1 ends) */
};

/*
 * The lanes of e's run from its flow log: every SHARED link that two flows'
 * bytes cross at once.  A flow's bytes move from its first logged positive
 * rate to its transfer's hold time.  Cost: O(log + transfers x route length
 * + lanes x flows^2).
 */
void flow_lanes_make(const struct engine *e, const struct flow_log *log, struct flow_lanes *out);
void flow_lanes_free(struct flow_lanes *fl);
/* The number of flows whose bytes cross lane k's link at time t. */
int flow_lane_count(const struct flow_lanes *fl, const struct engine *e, int k, double t);
/* The most flows at once on lane k's link within [a, b). */
int flow_lane_most(const struct flow_lanes *fl, const struct engine *e, int k, double a, double b);
/* Transfer tr's rate at t (bytes/s; 0 outside its bytes' time). */
double flow_rate_at(const struct flow_lanes *fl, const struct flow_log *log, const struct engine *e,
                    int tr, double t);

#endif
