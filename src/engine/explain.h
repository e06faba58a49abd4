/*
 * engine/explain.h - why, not only what: where two schedules of one broadcast
 * part and what it costs (the node that then holds the message later, its
 * receive start and the bound it meets or misses), and what one booking
 * achieves (a receive that starts at once, a node served as early as it
 * can ever be, the lower bound met).  Reads engines; never prints.
 */
#ifndef HETCAST_EXPLAIN_H
#define HETCAST_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/engine.h"

struct explain_diff {
    bool parted;            /* the two schedules make different decisions somewhere */
    int decision;           /* the first differing booking, 0-based */
    double time;            /* when the earlier of the two differing transfers starts */
    int a_from, a_to;       /* the first schedule's pick there */
    int b_from, b_to;       /* the second's */
    int worse;              /* 0: the first ends later, 1: the second, -1: they end together */
    int late;               /* the node that holds the message later in the worse schedule; -1 none */
    double late_hold[2];    /* its hold time in each schedule */
    double late_recv[2];    /* when its receive starts in each */
    double earliest;        /* the earliest it can ever hold the message: straight from the source at 0 */
    double loss;            /* the worse schedule's makespan minus the other's (0: none worse) */
    /* What pushed the late node in the worse schedule: the transfer into it,
       from late_from, starts at late_start because of push. */
    int late_from;
    double late_start;
    enum { PUSH_NONE, PUSH_HOLD, PUSH_PORT, PUSH_WAIT } push;
        /* PUSH_HOLD: late_from holds the message only from late_start; PUSH_PORT:
           late_from's send port is held until late_start by its earlier sends,
           held[0..nheld) (transfer indices, the last EXPLAIN_HELD of a chain of
           nchain back to back); PUSH_WAIT: late_from waits from wait_start for
           the receiver (rendezvous); PUSH_NONE: it starts at 0 from the source */
#define EXPLAIN_HELD 3
    int held[EXPLAIN_HELD], nheld, nchain;
};

/*
 * Compare two broadcasts of the same cluster (message 0) decision by
 * decision, in booking order.  O(n + transfers).  Returns 0, or -1 when the
 * engines are not two broadcasts of one cluster.
 */
int explain_first_difference(const struct engine *a, const struct engine *b, struct explain_diff *d);

/*
 * The "first difference: ..." text for names na and nb of the two
 * schedules a and b: both picks, the loss of the worse one against the other
 * (the makespans' difference), the node that finishes late and what pushed
 * it (its sender's hold, or the earlier sends that held the sender's port),
 * each phase named only when the model has it (no receive step where r = 0
 * on a latency matrix), and whether the other schedule serves it as early
 * as any can.  Node names are written as they are: callers that print to a
 * terminal pass the text through their own escaping.
 */
void explain_diff_text(const struct engine *a, const struct engine *b, const char *na,
                       const char *nb, const struct explain_diff *d, char *buf, size_t size);

/*
 * The earlier sends of e->tr[i]'s sender that hold its send port back to back
 * up to e->tr[i]'s start, latest last: up to max indices in held, returns
 * how many there are in all (0: its start is not a port wait).  O(transfers).
 */
int explain_port_chain(const struct engine *e, int i, int *held, int max);

/*
 * What booking t achieves on e (before or after it is booked): whether its
 * receive starts as soon as the message arrives, whether the receiver holds
 * it as early as it ever can, and whether that meets the lower bound.
 * Returns that text (the caller frees it), sized to it, or NULL when there
 * is nothing to say.
 */
char *explain_pick(const struct engine *e, const struct transfer *t);

#endif
