/*
 * sched/registry.h - the built-in schedulers, one list in the docs' order
 * (sched/registry.c): found by name, counted, listed, the default for a
 * cluster, and the check a front door makes before a run, whose refusal
 * names the schedulers that would work.  It includes the policies; they
 * include sched/sched.h, never this.
 */
#ifndef HETCAST_REGISTRY_H
#define HETCAST_REGISTRY_H

#include "sched/sched.h"

const struct sched_ops *sched_find(const char *name);   /* NULL if none is called so */
int sched_count(void);
const struct sched_ops *sched_at(int i);                /* NULL outside 0 .. sched_count() - 1 */
char *sched_names(void);                       /* "fnf, slowest-first, ..." (caller frees) */
/* The scheduler used when none is named: fnf, or where fnf does not apply
 * (platform graphs) the first built-in heuristic that does. */
const struct sched_ops *sched_default(const struct cluster *c, enum model m);
/* Is this policy usable on this cluster and model? If not, *cause says why
 * (a cluster kind it does not take: with the built-ins that take it). */
int sched_check(const struct sched_ops *ops, const struct cluster *c, enum model m, char **cause);

#endif
