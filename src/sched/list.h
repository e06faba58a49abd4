/*
 * sched/list.h - the list-scheduling policies of SPEC §2 (sched/list.c):
 * fnf, slowest-first, random-pair and random-order, and fnf's two rules,
 * which optimal's reasons, the exercise and Lua heuristics share.
 */
#ifndef HETCAST_SCHED_LIST_H
#define HETCAST_SCHED_LIST_H

#include "sched/sched.h"

extern const struct sched_ops sched_fnf, sched_slowest_first, sched_random_pair,
    sched_random_order;

/* fnf's sender: the holder whose next send of msg completes first (ties: lowest index); -1 if none. */
int sched_fnf_sender(const struct engine *e, int msg, double *completion);
/* fnf's receiver: smallest send time, then receive time, then index; -1 if none waits. */
int sched_fastest_waiting(const struct engine *e, int msg);

#endif
