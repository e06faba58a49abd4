/*
 * sched/fef.h - fef, fastest edge first (Bhat et al.; sched/fef.c): the
 * waiting node with the cheapest transfer from any holder is served next.
 */
#ifndef HETCAST_SCHED_FEF_H
#define HETCAST_SCHED_FEF_H

#include "sched/sched.h"

extern const struct sched_ops sched_fef;

#endif
