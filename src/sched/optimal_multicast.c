/*
 * sched/optimal_multicast.c - a multicast's optimum (sched/optimal_int.h): the least
 * broadcast optimum over every set of relays, each searched by optimal_solve.
 */
#include "sched/optimal_int.h"

#include "sched/optimal.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/bounds.h"
#include "model/targets.h"

/* ---- a multicast: every set of relays ---- */

/*
 * A multicast schedule informs its targets and some set R of other nodes,
 * and is then a broadcast of the cluster of targets + R: no uninformed node
 * holds a port.  Some optimal multicast serves no relay that passes the
 * message to no target (removing such a leaf only frees its sender's port
 * earlier), so each of its relays holds the message before some target and
 * its makespan is that broadcast's.  Hence the multicast optimum is the
 * least broadcast optimum over every R, and a lower bound is the least of
 * the broadcasts' bounds.  2^(non-targets) searches: at most
 * OPT_MAX_RELAYS candidates.
 */
#define OPT_MAX_RELAYS 12

int opt_multicast_solve(const struct cluster *c, enum model m, const struct sched_opts *o,
                        struct opt_plan *out, char **cause)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int n = c->n, nr = 0, relays[OPT_MAX_RELAYS];
    for (int p = 0; p < n; p++)
        if (!c->target[p] && p != c->source && nr++ < OPT_MAX_RELAYS)
            relays[nr - 1] = p;
    if (nr > OPT_MAX_RELAYS)
        return set_cause(cause, "optimal: a multicast is searched over every set of relays, for at "
                         "most %d nodes that are not targets (this cluster has %d); use -s relay-fnf, "
                         "or fewer nodes", OPT_MAX_RELAYS, nr);
    struct sched_opts so;
    if (o)
        so = *o;
    else
        sched_opts_default(&so);
    double time_limit = opt_time_limit(&so);
    long long node_limit = so.node_limit > 0 ? so.node_limit : OPT_DEFAULT_NODE_LIMIT;
    unsigned char *keep = xmalloc((size_t)n);
    int *map = xmalloc((size_t)n * sizeof *map), *best_map = xmalloc((size_t)n * sizeof *best_map);
    struct opt_plan best = {0};
    best.makespan = INFINITY;
    double lower = INFINITY;
    bool gave_up = false;
    long long explored = 0;
    int rc = 0;
    for (unsigned mask = 0; rc == 0 && mask < (1u << nr); mask++) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double left = time_limit - ((double)(now.tv_sec - t0.tv_sec) + 1e-9 * (double)(now.tv_nsec - t0.tv_nsec));
        if (left <= 0 || explored >= node_limit) {   /* the rest unsearched: the general bound */
            gave_up = true;
            lower = dmin(lower, bound_lower(c, m));
            break;
        }
        memcpy(keep, c->target, (size_t)n);
        for (int i = 0; i < nr; i++)
            if (mask & (1u << i))
                keep[relays[i]] = 1;
        struct cluster *sub = cluster_subset(c, keep, map);
        if (!sub)
            continue;   /* a platform graph these relays cannot reach every target in */
        so.time_limit = left;
        so.node_limit = node_limit - explored;
        struct opt_plan sp;
        rc = optimal_solve(sub, m, &so, &sp, cause);
        if (rc == 0) {
            explored += sp.explored;
            gave_up = gave_up || sp.status == OPT_GAVE_UP;
            lower = dmin(lower, sp.lower);
            if (sp.makespan < best.makespan) {
                opt_plan_free(&best);
                best = sp;
                memcpy(best_map, map, (size_t)sub->n * sizeof *map);
            } else {
                opt_plan_free(&sp);
            }
        }
        cluster_free(sub);
    }
    free(keep);
    free(map);
    if (rc == 0 && !isfinite(best.makespan))
        rc = set_cause(cause, "optimal: no set of relays lets the source %s reach every target",
                       c->nodes[c->source].name);
    if (rc < 0) {
        opt_plan_free(&best);
        free(best_map);
        return -1;
    }
    double sub_best = best.makespan;
    for (int i = 0; i < best.len; i++) {
        best.from[i] = best_map[best.from[i]];
        best.to[i] = best_map[best.to[i]];
    }
    free(best_map);
    *out = best;
    if (opt_replay(c, m, out, cause) < 0) {   /* the targets' makespan, on c itself */
        opt_plan_free(out);
        return -1;
    }
    out->explored = explored;
    struct timespec end;
    clock_gettime(CLOCK_MONOTONIC, &end);
    out->seconds = (double)(end.tv_sec - t0.tv_sec) + 1e-9 * (double)(end.tv_nsec - t0.tv_nsec);
    if (!gave_up && fabs(out->makespan - sub_best) > 1e-9 * fmax(1, sub_best)) {   /* the argument above */
        opt_plan_free(out);
        return set_cause(cause, "optimal: internal error, the multicast's makespan %g is not the "
                         "broadcast's %g of its nodes", out->makespan, sub_best);
    }
    out->status = gave_up ? OPT_GAVE_UP : OPT_PROVEN;
    out->proof = gave_up ? OPT_PROOF_NONE : OPT_PROOF_RELAYS;   /* not the best set's own reason */
    out->lower = gave_up ? dmin(lower, out->makespan) : out->makespan;
    return 0;
}
