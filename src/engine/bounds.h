/*
 * engine/bounds.h - the bounds printed beside every result (SPEC §2).
 */
#ifndef HETCAST_BOUNDS_H
#define HETCAST_BOUNDS_H

#include <stdbool.h>

#include "model/cluster.h"
#include "engine/engine.h"

/*
 * A lower bound on any broadcast from c->source: every node p gets the
 * message along some chain from the source, each hop costing at least one
 * whole transfer; for node tables this is s(source) + L + max r (the
 * trivial bound of the papers).  In a multicast, over the targets only.
 */
double bound_lower(const struct cluster *c, enum model m);

/*
 * The Liu-Wang-Guo guarantee fnf <= 2T + beta, beta = max r' - 2 min r'
 * over the receivers with r' = r + L. Defined for node tables in the async
 * model only, broadcasts only (returns false otherwise); *consistent tells whether the speeds
 * are consistent, the condition under which the theorem holds.
 */
bool bound_fnf_beta(const struct cluster *c, enum model m, double *beta, bool *consistent);

/*
 * The earlier guarantee of Libeskind-Hadas & Hartline (2000), as Liu, Wang
 * & Guo §1 quote it (broadcasts only): fnf <= 2 alpha T + beta, alpha the largest ratio of a
 * node's receive time to its send time, beta the largest difference of two
 * receivers' receive times (r' = r + L as above; alpha is infinite when a
 * node sends in 0 and receives in more).  Node tables, async only.
 */
bool bound_lhh(const struct cluster *c, enum model m, double *alpha, double *beta);

#endif
