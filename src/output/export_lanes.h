/*
 * output/export_lanes.h - the busy intervals of every port of every node of
 * some runs, as the timeline exports want them (Chrome trace JSON, OTF2):
 * sorted by (run, node, port, start), each on a lane of its port such that
 * no two intervals of one lane overlap (a lane is a track of a viewer: a
 * thread, a location).  A prediction never overlaps on a port; a measured
 * run may (real sends can), and then its port has a second lane.
 */
#ifndef HETCAST_EXPORT_LANES_H
#define HETCAST_EXPORT_LANES_H

#include "session/run.h"

enum { PORT_SEND, PORT_LINK, PORT_RECV, NPORTS };   /* a node's ports, in the tracks' order */

/* The ports' names, for people ("send port", "link in", "receive port"), and short ("send",
 * "link", "recv"). */
extern const char *const port_names[NPORTS];
extern const char *const port_short[NPORTS];

struct port_slot {
    int run, node, port, tr;   /* transfer tr of runs[run], busy on port of node */
    double start, end;         /* [start, end) in the run's time unit */
    int lane;                  /* its lane on that port, from 0 */
};

struct port_slots {
    struct port_slot *v;       /* in (run, node, port, start, transfer) order */
    long n;
    int *lanes;                /* lanes[(proc - 1) * NPORTS + port]: lanes a port uses */
    int nprocs;                /* the runs' nodes, one after another */
};

/*
 * The intervals of runs[0..k) (finished, non-lean): every transfer's send on
 * its sender (even when it takes no time, so that each transfer is seen
 * once), its link and receive on its receiver when they take time.
 * O(T log T) for T transfers.
 */
void port_slots_make(struct port_slots *ps, const struct run *runs, int k);
void port_slots_free(struct port_slots *ps);

/* Intervals laid first fit, each on the first lane whose last interval has ended (a new lane
 * when none has): the ports' lanes here, OTF2's tracks of a node (output/export_otf2.c).  Begin
 * with {0}; n = 0 starts over; free(end) at the end. */
struct lane_fit {
    double *end;   /* each lane's last interval's end */
    int n, cap;
};

/* The lane of [start, end) in start order. */
int lane_fit_place(struct lane_fit *f, double start, double end);

/* The process of node p of runs[r]: the runs' nodes numbered one after another, from 1. */
int port_slots_proc(const struct run *runs, int r, int p);
/* The lanes port uses on process proc (at least 1: an idle port is still a track). */
int port_slots_lanes(const struct port_slots *ps, int proc, int port);

#endif
