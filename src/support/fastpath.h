/*
 * support/fastpath.h - the switch between hetcast's fast paths and the readable
 * paths beside them (docs/performance.md, "Fast paths").
 *
 * Each fast path lives in a file of its own (model/cluster_fast.c: the nodes sorted
 * by their times; model/cluster_csv_fast.c: CSV lines split without libcsv; sched/fef_fast.c;
 * sched/exchange_openshop_fast.c: open-shop's choice; support/numfmt_fast.c: numbers as text) next to
 * a plain version in the module that uses it, and must give exactly what
 * the plain one gives: tests/test_fastpaths.c and the fuzz harnesses run
 * both and compare.  The environment variable HETCAST_NO_FASTPATH (set,
 * not empty and not "0") turns every fast path off, for the program too.
 */
#ifndef HETCAST_FASTPATH_H
#define HETCAST_FASTPATH_H

#include <stdbool.h>

/* Are the fast paths on?  The first call reads HETCAST_NO_FASTPATH. */
bool fastpath_on(void);

/* Turn them on or off from here on (tests, fuzzers), whatever the
 * environment says. */
void fastpath_set(bool on);

#endif
