/*
 * support/fastpath.h - the switch between hetcast's fast paths and the readable
 * paths beside them (docs/performance.md, "Fast paths").
 *
 * Each fast path lives in a file of its own (model/cluster_fast.c: the nodes sorted
 * by their times; model/cluster_csv_fast.c: CSV lines split without libcsv;
 * model/csvread_fast.c: short decimals without strtod; sched/fef_fast.c;
 * sched/exchange_greedy_fast.c, sched/exchange_openshop_fast.c: the exchange's
 * choices; support/numfmt_fast.c: numbers as text; model/cluster_simgrid_native.c:
 * a SimGrid <cluster> without the helper) next to
 * a plain version in the module that uses it, and must give exactly what
 * the plain one gives: tests/test_fastpaths.c and the fuzz harnesses run
 * both and compare.  The environment variable HETCAST_NO_FASTPATH (set,
 * not empty and not "0") turns every fast path off, for the program too.
 *
 * Every place that chooses between a fast path and the readable one does it
 * through FAST_PATH, so `grep -rn FAST_PATH src` lists them all:
 *     if (FAST_PATH(numfmt_fast_shortest(buf, x, 6)))   (the fast path, when it takes x)
 *         return buf;
 *     ...                                               (else the readable path)
 * FAST_PATH(cond) is true when the fast paths are on and cond holds; cond is
 * not evaluated when they are off.  FAST_PATH(true): on, whatever the input.
 */
#ifndef HETCAST_FASTPATH_H
#define HETCAST_FASTPATH_H

#include <stdbool.h>

/* Are the fast paths on?  The first call reads HETCAST_NO_FASTPATH.  Code
 * that switches uses FAST_PATH, not this. */
bool fastpath_on(void);

#define FAST_PATH(cond) (fastpath_on() && (cond))

/* Turn them on or off from here on (tests, fuzzers), whatever the
 * environment says. */
void fastpath_set(bool on);

#endif
