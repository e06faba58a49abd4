/*
 * sched/relay.h - relay-fnf, a multicast heuristic (model/targets.h): fnf
 * that may also serve the fastest nodes that are not targets, as relays.
 *
 * Bar-Noy, Guha, Naor & Schieber (SIAM J. Comput. 30(2), 2000) show that a
 * multicast in a heterogeneous network gains from relays -- nodes outside
 * the target set that receive only to pass the message on -- and give an
 * O(log k) approximation for k targets.  relay-fnf is not their algorithm:
 * it runs fnf on the targets plus the j fastest non-targets (fnf's order:
 * send time, receive time, index) for several j, including j = 0, and keeps
 * the run whose last target holds the message first (ties: fewer relays).
 * Its one guarantee is that of its construction: it never ends later than
 * fnf on the targets alone (j = 0 is among its runs).  Cost: one fnf run,
 * O(n log n), for each j in 0, 1, ..., 64 and then the powers of two up to
 * every non-target.
 */
#ifndef HETCAST_SCHED_RELAY_H
#define HETCAST_SCHED_RELAY_H

#include "sched/sched.h"

extern const struct sched_ops sched_relay_fnf;

#endif
