/*
 * model/cluster_simgrid.h - a SimGrid platform (XML) as a hetcast cluster, read
 * through libsimgrid's C API (docs/formats.md, "SimGrid platforms").
 *
 * Compiled only when meson found SimGrid (config.h: HETCAST_HAVE_SIMGRID);
 * without it session_load refuses .xml files itself.
 *
 * SimGrid's engine is one global object per process that logs to stderr and
 * ends the process on a bad file (an uncaught C++ exception, or a crash on a
 * missing route), and a large C++ library that costs every process that
 * links it 40 ms and 30 MB at start.  So the platform is read by a helper
 * program in a child process: it sets SimGrid's log to errors only, loads
 * the file, and sends the hosts and the latency, bandwidth and link count of
 * every route back over a pipe; the
 * parent turns what SimGrid said (or the signal that ended the child) into
 * one message naming the file.  hetcast's own state is never touched by
 * SimGrid, and a platform can be loaded again (the view reloads).
 */
#ifndef HETCAST_SIMGRID_LOAD_H
#define HETCAST_SIMGRID_LOAD_H

#include "model/cluster.h"
#include "model/platform.h"
#include "support/diag.h"

#include <stdint.h>

#define SIMGRID_DEFAULT_SIZE 1.0    /* bytes of the message when --size is not given */
#define SIMGRID_MAX_HOSTS 4096      /* a matrix of n*n routes: the CSV matrix's limit */
#define SIMGRID_MAX_ZONES 100       /* zones nested deeper are refused before SimGrid reads the
                                       file: its parser corrupts its memory near 500 */

/*
 * The helper's answer on its stdout (hetcast-simgrid PLATFORM.xml, the one
 * program that links libsimgrid, so that hetcast itself starts without it),
 * in the machine's own byte order: the host count (u32), each host's name
 * (u32 length, bytes) in SimGrid's order, then one route_rec per route, row
 * by row (all q -> p, p != q, for each q), each row written at once: when
 * the helper dies, the complete rows say which host it was reading.  Exit
 * status 0, SIMGRID_EXIT_TOO_MANY, or SimGrid's own end.
 */
struct route_rec {
    int32_t links;
    double latency;
    double bandwidth;
};
/*
 * Then the links section (a helper that says nothing more leaves the cluster
 * without its links: each route is then a private pipe): SIMGRID_LINKS_MAGIC
 * (u32), the link count (u32), each link's link_rec and name, then every
 * route in the rows' order as its link count (u32) and its links' numbers
 * (u32 each, from 0 in the order the links were written), the order
 * SimGrid's route crosses them.
 */
#define SIMGRID_LINKS_MAGIC 0x534b4e4cu   /* "LNKS" */
struct link_rec {
    double bandwidth;    /* bytes per second */
    double latency;      /* seconds */
    uint32_t shared;     /* 1: its flows share the bandwidth; 0: FATPIPE, each has all of it */
    uint32_t namelen;    /* the name's bytes, which follow */
};
#define SIMGRID_EXIT_TOO_MANY 3     /* more than SIMGRID_MAX_HOSTS hosts */
#define SIMGRID_EXIT_WRITE 4        /* the pipe closed */
#define SIMGRID_EXIT_NO_HELPER 5    /* the helper could not be run */

/* Where the helper is (the front door finds it: app/datadir.c). */
void simgrid_set_helper(const char *path);

/*
 * Who hears how a load goes (NULL: nobody; the view sets none): once a load
 * has taken SIMGRID_PROGRESS_AFTER seconds, fn(ctx, path, done, seconds) at
 * most five times a second with the part of the routes read (0 to 1), and
 * once at the end with done < 0 (the load is over).  This thread's loads.
 */
#define SIMGRID_PROGRESS_AFTER 1.0
typedef void (*simgrid_progress_fn)(void *ctx, const char *path, double done, double seconds);
void simgrid_set_progress(simgrid_progress_fn fn, void *ctx);

/*
 * Load the SimGrid platform at path for messages of size bytes.  Hosts
 * become nodes in natural name order (node-2 before node-10); each route
 * q -> p costs latency + size / bandwidth (SimGrid's route latency, the
 * sum over its links, and route bandwidth, the smallest).  When every route
 * that is a single link joins two hosts directly and those links reach
 * every host while other routes take several links, the cluster is a
 * platform graph of the single-link routes; otherwise a latency matrix of
 * all routes.  A route of no link (Vivaldi) is its latency alone; no link
 * and no latency is no route, refused as SimGrid refuses to send on it.
 * Send and receive overheads are 0.  Returns the cluster, or NULL with the
 * problems in d.  A file whose zones nest more than SIMGRID_MAX_ZONES deep,
 * or that holds a wifi zone or link (no point-to-point cost), is refused
 * first (the line of that tag).  A file simgrid_native_read reads is
 * read without the helper (unless HETCAST_NO_FASTPATH), to the same cluster.
 * Cost: a scan of the file's tags, one fork (none for such a file), O(n^2) routes.
 */
struct cluster *cluster_load_simgrid(const char *path, double size, struct diag *d);

/*
 * The cluster the helper's answer (its standard output, len bytes) says, as
 * cluster_load_simgrid reads it once the helper has exited 0; NULL with d
 * filled when the answer is cut short, names more than SIMGRID_MAX_HOSTS
 * hosts or is not a cluster (names that are not text, routes without
 * bandwidth).  The parent trusts nothing in it (tests/fuzz/fuzz_platform.c
 * feeds it any bytes).
 */
struct cluster *simgrid_reply_cluster(const char *path, double size, const char *data, size_t len,
                                      struct diag *d);

/*
 * The platform at path read without SimGrid (model/cluster_simgrid_native.c, a
 * fast path) when the file is one <cluster> that reader follows SimGrid 3.32's
 * rules for exactly: the hosts, routes and links hetcast-simgrid would give,
 * without its answer's n*n records.  NULL for any other file, which the helper
 * reads.  simgrid_native_names: the hosts' names in SimGrid's order (borrowed).
 * simgrid_native_times: time[a*n+c] (n*n), the time of a message of size bytes
 * from node a to node c as the helper's answer gives it (node a is SimGrid's
 * host order[a]), *bad the first a*n+c beyond CLUSTER_MAX_TIME (-1: none; its
 * record from simgrid_native_rec); tick (NULL: none) hears tick(ctx, done)
 * after each host's row, done from 0 to 1; false where SimGrid would fail on
 * a route (the helper reads the file).  Every route crosses two links or more
 * (its hosts' own).  simgrid_native_platform: the links and a rule for the
 * routes, numbered as the helper numbers them; it takes nv.
 * Cost: O(n^2) times (each from per-host sums for FLAT), O(1) space per route.
 */
typedef void (*simgrid_native_tick)(void *ctx, double done);
struct simgrid_native;
struct simgrid_native *simgrid_native_read(const char *path);
char *const *simgrid_native_names(const struct simgrid_native *nv, int *n);
/* The hosts in the order the file made them, as indices into simgrid_native_names
 * (n of them; the caller frees it). */
int *simgrid_native_made(const struct simgrid_native *nv);
bool simgrid_native_times(struct simgrid_native *nv, const int *order, double size, double *time,
                          long *bad, simgrid_native_tick tick, void *ctx);
struct route_rec simgrid_native_rec(const struct simgrid_native *nv, int a, int c);
struct platform *simgrid_native_platform(struct simgrid_native *nv);
/* FLAT: each pair's time by rule (simgrid_native_time(nv, a, c), the entry
 * simgrid_native_times would write) when every one provably needs none of
 * cluster_finish's repairs; *direct: no chain of routes is as short as a direct
 * one (cluster.h's direct_shortest).  O(n). */
bool simgrid_native_by_rule(struct simgrid_native *nv, const int *order, double size, bool *direct);
double simgrid_native_time(const void *nv, int a, int c);
void simgrid_native_free(struct simgrid_native *nv);

/*
 * Replay a broadcast's schedule in SimGrid itself (hetcast-simgrid --replay):
 * one actor per host of the schedule, the source's holding the message at
 * 0, every other waiting for it on its mailbox, then sending it on to its
 * receivers in the order of from[]/to[] (the bookings' order), one message
 * of size bytes at a time (each send returns when it is received) or, with
 * multi_port, all at once; SimGrid's CM02 network model without TCP window
 * (network/TCP-gamma:0) or cross-traffic.  c is the platform at path as
 * cluster_load_simgrid read it.  hold[p] gets when node p held the message
 * (INFINITY: never).  Returns 0, or -1 with *cause.
 */
int simgrid_replay(const struct cluster *c, const char *path, double size, bool multi_port,
                   const int *from, const int *to, int ntr, double *hold, char **cause);

#endif
