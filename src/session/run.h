/*
 * session/run.h - one scheduler run on one cluster with everything printed beside
 * it: the lower bound, the FNF guarantee and, when it is known, the optimum.
 * The command line, the experiments and the view all go through here.
 */
#ifndef HETCAST_RUN_H
#define HETCAST_RUN_H

#include <stdbool.h>

#include "model/cluster.h"
#include "engine/engine.h"
#include "sched/sched.h"
#include "engine/flow.h"

#define RUN_AUTO_OPTIMUM_NODES 16   /* optimum computed by default up to this size */

enum run_optimum {
    RUN_OPT_NEVER = 0,  /* do not compute the optimum */
    RUN_OPT_SMALL,      /* compute it for small clusters (n <= RUN_AUTO_OPTIMUM_NODES) */
    RUN_OPT_ALWAYS,     /* compute it whatever the size (may give up) */
};

struct run {
    const struct cluster *c;
    enum model model;
    struct sched sched;
    struct engine eng;
    double lower_bound;      /* bound_lower() */
    bool has_beta;           /* the 2T + beta guarantee applies to this model/kind */
    bool consistent;         /* speeds consistent (the guarantee's condition) */
    double beta;
    enum opt_status opt;     /* the optimum: OPT_NONE not computed, OPT_PROVEN, OPT_GAVE_UP */
    double optimum;          /* OPT_PROVEN: the optimum; OPT_GAVE_UP: best found */
    double opt_lower;        /* OPT_GAVE_UP: proven lower bound */
    char opt_note[256];      /* why it was not computed / how it was found */
    bool shared;             /* timed on the platform's shared links (engine/flow.h) */
    struct flow_log flows;   /* shared: every change of a flow's rate */
    struct flow_lanes lanes; /* shared: the links two flows' bytes cross at once (none in a
                                run that asked for a lean engine: --summary) */
    char sharing[512];       /* a platform whose links the schedule shares, timed without
                                sharing (a model with overheads): which links, by how many
                                routes at once; "" otherwise */
    bool measured;           /* a measured timeline (session/trace.h): eng holds what a real run
                                took, transfer i the measurement of the predicted run's
                                transfer i; sched is the predicted scheduler's, never run */
};

/* " (measured)" for a measured run, else "": what follows its scheduler's name where it is shown. */
static inline const char *run_tag(const struct run *r)
{
    return r->measured ? " (measured)" : "";
}

/* The model as the report's model line and the view's title say it: "one-port on shared
 * links" on a platform timed by engine/flow.h, else the model's name. */
const char *run_model_text(const struct run *r);

/*
 * On a platform of shared links under a model that shares them, the exact
 * searches (optimal, optimal-sum) know each route's cost alone: refused
 * (-1 with *cause, which may be NULL) unless no two routes that a schedule
 * may run at once cross one SHARED link (platform_shares), when those costs
 * are exact.  0 for every other scheduler, cluster or model.
 */
int run_refuse_unproven(const struct cluster *c, enum model m, const struct sched_ops *ops,
                        char **cause);

/* One sentence on event k of r's timeline (engine_narrate); on shared links, with how its
 * transfer's bytes share a link at that time (the latest change of its rate, flow.h). */
void run_narrate(const struct run *r, int k, char *buf, size_t size);

int run_schedule(struct run *r, const struct cluster *c, enum model m,
                 const struct sched_ops *ops, const struct sched_opts *o,
                 enum run_optimum want, char **cause);
void run_free(struct run *r);

/* The guarantee fnf <= 2T + beta with T the proven optimum. Returns false if
 * it does not apply or the optimum is not known (2 * lower bound + beta is
 * no upper bound on fnf, so it is never printed as one). */
bool run_guarantee(const struct run *r, double *limit);

#endif
