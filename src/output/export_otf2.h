/*
 * output/export_otf2.h - schedules as an OTF2 archive (docs/interop.md), the
 * trace format of Score-P that Vampir, Trace Compass and Pipit read, written
 * through libotf2.
 *
 * DIR/traces.otf2 (the anchor file a viewer opens), DIR/traces.def and
 * DIR/traces/: a system tree node per run ("fnf (async)", "fnf (async,
 * measured)"), a location group (a process) per node of each run, named by
 * the node ("fnf: p0" for several runs), a location per port that is busy
 * in the run: "send port", "link in", "receive port" (a second lane of a
 * port, "send port 2", when intervals overlap on it, as measured ones may;
 * a port never busy has none); the regions "send",
 * "link" and "receive", entered and left at each busy interval's times,
 * the Enter carrying the attributes seq, from, to and why; per transfer an
 * MpiSend at its send's start and an MpiRecv at its receive's end (its
 * link's when the receive takes no time) in the communicator "transfers",
 * whose rank i is location i, tag seq, length 1.  The clock ticks
 * a nanosecond: a time t of the run is at t * seconds_per_unit * 1e9, and
 * the archive's property HETCAST::TIME_UNIT says what a unit is.
 */
#ifndef HETCAST_EXPORT_OTF2_H
#define HETCAST_EXPORT_OTF2_H

#include "session/run.h"

/* May dir take the archive (below), and do runs[0..k) fit OTF2's clock at a nanosecond a tick?
 * 0, or -1 with *cause. */
int export_otf2_check(const char *dir, const struct run *runs, int k, double seconds_per_unit,
                      char **cause);

/*
 * Write the archive of runs[0..k) (finished, non-lean) to dir: a new
 * directory, an empty one, or one holding an archive this writer made
 * (replaced); anything else is refused.  The archive is written beside dir
 * and swapped in when whole (support/atomic_dir.h): a failure leaves dir as it was.
 * 0, or -1 with *cause.
 */
int export_otf2(const char *dir, const struct run *runs, int k, double seconds_per_unit,
                char **cause);

#endif
