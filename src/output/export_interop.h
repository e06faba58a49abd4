/*
 * output/export_interop.h - a schedule in the formats of the field's tools
 * (docs/interop.md): a Paje trace for ViTE and PajeNG, the broadcast tree in
 * Graphviz DOT, Chrome trace-event JSON for Perfetto, and SimGrid SMPI time-independent traces with the platform
 * that replays them (smpirun -replay), an independent check of the engine.
 *
 * The writers read a finished, non-lean run (its transfer records); they
 * write only to the FILE * or directory they are handed.  Node names come
 * from users' files, so every name goes out through the escaping of its
 * format (the *_string functions below), never raw.
 */
#ifndef HETCAST_EXPORT_INTEROP_H
#define HETCAST_EXPORT_INTEROP_H

#include <stdio.h>

#include "output/spool.h"
#include "session/run.h"

/* Above this many nodes the SMPI platform holds only the routes the schedule
 * uses (n - 1), not all n(n-1): a replay needs no others. */
#define SMPI_FULL_ROUTES_MAX 128

/*
 * Paje: a container per run (named by its scheduler) holding a container per
 * node; on each node the states "send" (its send port), "link" (the
 * message on its way in) and "recv" (its receive port); an arrow "message"
 * from each transfer's start at the sender to its hold at the receiver.
 * Events in time order (ends before starts at equal times).  0 or -1 (errno
 * EFBIG: more than PAJE_MAX_TRANSFERS transfers in all).
 */
#define PAJE_MAX_TRANSFERS ((1ll << 28) - 1)
int export_paje(FILE *fp, const struct run *runs, int k);
/* export_paje of one lean run whose bookings are in sp (output/spool.h): the
 * same bytes.  0, or -1 with *cause. */
int export_paje_spool(FILE *fp, const struct run *r, struct spool *sp, char **cause);

/*
 * DOT: one digraph; per run a cluster subgraph (one run: the graph itself)
 * with a node per node reached (label: name and hold time), an edge per
 * transfer of message 0 (label: booking order and start), the source as a
 * double circle and the critical path in bold.  0 or -1.
 */
int export_dot(FILE *fp, const struct run *runs, int k);

/*
 * Chrome trace-event JSON (Perfetto, chrome://tracing): an object whose
 * "traceEvents" hold, for each node of each run, a process (pid from 1, the
 * runs' nodes one after another; named by the node, or "scheduler: node" for
 * several runs) with a thread per port (tid 1 send port, 2 link in, 3
 * receive port; an interval that overlaps another on its port goes to tid
 * 4, 5, 6 ..., "send port 2"), all named by metadata events ("ph": "M");
 * then a complete event ("ph": "X") per transfer on its sender's send port,
 * and per non-empty link and receive interval on its receiver, in (node,
 * port, start) order; then per transfer a flow from its send slice to its
 * receive slice ("ph" "s" and "f", "bp" "e", ids from 1 in (run, transfer)
 * order: the viewers' arrows).  ts and dur are microseconds: a time t of the run is
 * t * us_per_unit.  Each event's args hold the transfer (seq, from, to, its
 * seven times in the run's unit) and "why", the reason it was chosen.
 * 0 or -1.
 */
int export_chrome(FILE *fp, const struct run *runs, int k, double us_per_unit);

/*
 * Seconds in one time unit of c on a timeline (Chrome, OTF2): its `# unit:`
 * (s, ms, us, ns), or EXPORT_ABSTRACT_SECONDS for the papers' abstract units,
 * which have no clock: each is drawn as one second, and the trace says so
 * (export_unit_text).
 */
#define EXPORT_ABSTRACT_SECONDS 1.0
double export_seconds_per_unit(const struct cluster *c);
/* What a unit of c is, for a trace's metadata: "ms", or "none (abstract units, each drawn as
 * 1 s)". */
const char *export_unit_text(const struct cluster *c);

/*
 * Can SimGrid replay r as it is?  Every single-message broadcast on a node
 * table or latency matrix can (async, sender-only, sync, one-port,
 * multi-port), and on a platform graph under one-port, and multi-port when
 * no send time exceeds its edge's time.  Refused, naming why: several
 * messages (pipelined slices: SimGrid links share their bandwidth instead of
 * carrying one slice after another), a lean run, a multi-port send longer
 * than its edge.  0, or -1 with *cause.
 */
int export_smpi_check(const struct run *r, char **cause);

/* May dir take a replay: new, empty, or holding only a replay this writer made (below)?
 * 0, or -1 with *cause. */
int export_smpi_check_dir(const char *dir, char **cause);

/*
 * Write dir/platform.xml, dir/hostfile, dir/rank-I.txt (one trace per rank,
 * rank I = node I), dir/index.txt and dir/README into a new directory beside
 * dir, swapped in when whole (support/atomic_dir.h): dir is new, empty or an
 * old replay (replaced whole, never mixed with the new one); anything else
 * is refused.  *command gets the smpirun command line (run in dir) that
 * replays it, to be freed.  0, or -1 with *cause.
 */
int export_smpi(const struct run *r, const char *dir, char **command, char **cause);

/* The escapings, for the writers and the tests. */
/* A Paje string field, in double quotes (Paje has no escapes): '"' becomes '\'', '\' "\\",
 * control characters the text "\n", "\t", "\xNN". */
void export_paje_string(FILE *fp, const char *s);
/* A DOT string, in double quotes: '"' and '\' escaped, a line break "\n", other controls "\xNN"
 * (as text: dot shows them, never reads them as escapes). */
void export_dot_string(FILE *fp, const char *s);
/* A JSON string for the Chrome trace, in double quotes: text (support/diag.h) as it is with '"'
 * and '\' escaped, a line break and a tab as \n and \t, every other byte that is not text as
 * the text "\xNN": the file is always UTF-8. */
void export_chrome_string(FILE *fp, const char *s);
/* XML attribute text (no quotes): & < > " ' as entities, tab, line feed and carriage return as
 * character references, other control characters as the text "\xNN" (XML 1.0 cannot hold them). */
void export_xml_string(FILE *fp, const char *s);

#endif
