/*
 * test_certify.c - every optimum the exact search proves, proved again by the
 * integer program (sched/certify.c) on random small clusters of every kind in
 * every model; a wrong claim is caught; the CPLEX LP file reads back (TAP).
 */
#include <glpk.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sched/certify.h"
#include "sched/optimal.h"
#include "sched/sched.h"
#include "support/diag.h"
#include "support/rng.h"
#include "tap.h"
#include "random_cluster.h"

static struct cluster *counterexample(void)
{
    struct cluster *c = cluster_new(CLUSTER_NODES);
    cluster_add_node(c, "p0", 1, 2);
    cluster_add_node(c, "p1", 1, 2);
    cluster_add_node(c, "p2", 2, 3);
    c->latency = 1;
    struct diag d;
    diag_init(&d);
    cluster_finish(c, &d);
    diag_free(&d);
    return c;
}

/* The paper's counterexample: 5 is certified, 4.9 and fnf's 6 are not. */
static void the_counterexample(void)
{
    struct cluster *c = counterexample();
    struct certify ct;
    char *cause = NULL;
    int rc = certify_optimum(c, MODEL_ASYNC, 5, 10, &ct, &cause);
    ok(rc == 0 && ct.status == CERTIFY_SAME && ct.value == 5,
       "the counterexample: the integer program's optimum is 5, the search's (%g)", ct.value);
    rc = certify_optimum(c, MODEL_ASYNC, 4.9, 10, &ct, &cause);
    ok(rc == 0 && ct.status == CERTIFY_DIFFERENT && ct.value == 5, "a claimed 4.9 is caught (the program finds %g)",
       ct.value);
    rc = certify_optimum(c, MODEL_ASYNC, 6, 10, &ct, &cause);
    ok(rc == 0 && ct.status == CERTIFY_DIFFERENT, "fnf's 6 claimed as the optimum is caught");
    rc = certify_optimum(c, MODEL_SYNC, 9, 10, &ct, &cause);
    ok(rc == 0 && ct.status == CERTIFY_SAME && ct.value == 9,
       "sync: the sender is held until the receive ends: 9 (got %g)", ct.value);

    char path[] = "/tmp/hetcast-certify-XXXXXX";
    int fd = mkstemp(path);
    if (fd >= 0)
        close(fd);
    rc = certify_write_lp(c, MODEL_ASYNC, path, &cause);
    ok(rc == 0, "the integer program written as a CPLEX LP file: %s", cause ? cause : "ok");
    glp_prob *P = glp_create_prob();
    glp_term_out(GLP_OFF);
    bool read = glp_read_lp(P, NULL, path) == 0;
    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.presolve = GLP_ON;
    parm.msg_lev = GLP_MSG_OFF;
    ok(read && glp_intopt(P, &parm) == 0 && fabs(glp_mip_obj_val(P) - 5) < 1e-9,
       "GLPK reads the file back and finds 5 (%g)", read ? glp_mip_obj_val(P) : NAN);
    glp_delete_prob(P);
    glp_free_env();
    unlink(path);
    free(cause);
    cluster_free(c);
}

static void refusals(void)
{
    struct cluster *c = cluster_new(CLUSTER_GRAPH);
    cluster_add_node(c, "a", 0, 0);
    cluster_add_node(c, "b", 0, 0);
    cluster_add_node(c, "island", 0, 0);
    cluster_add_edge(c, 0, 1, 1, -1);
    cluster_add_edge(c, 2, 1, 1, -1);
    struct diag d;
    diag_init(&d);
    cluster_finish(c, &d);
    diag_free(&d);
    struct certify ct;
    char *cause = NULL;
    int rc = certify_optimum(c, MODEL_ONE_PORT, 1, 10, &ct, &cause);
    ok(rc < 0 && cause && strstr(cause, "the source cannot reach island"), "a node the source cannot reach: %s",
       cause ? cause : "certified");
    free(cause);
    cause = NULL;
    rc = certify_optimum(c, MODEL_ASYNC, 1, 10, &ct, &cause);
    ok(rc < 0 && cause && strstr(cause, "does not apply"), "a model the kind has not: %s",
       cause ? cause : "certified");
    free(cause);
    cause = NULL;
    cluster_free(c);
    c = cluster_new(CLUSTER_NODES);
    for (int i = 0; i <= CERTIFY_MAX_NODES; i++) {
        char name[16];
        snprintf(name, sizeof name, "n%d", i);
        cluster_add_node(c, name, 1, 1);
    }
    diag_init(&d);
    cluster_finish(c, &d);
    diag_free(&d);
    rc = certify_optimum(c, MODEL_ASYNC, 1, 10, &ct, &cause);
    ok(rc < 0 && cause && strstr(cause, "up to 10 nodes"), "too many nodes: %s", cause ? cause : "certified");
    free(cause);
    cluster_free(c);
}

int main(void)
{
    the_counterexample();
    refusals();
    struct rng r;
    /* HETCAST_CERTIFY_CLUSTERS=N for a longer sweep; fewer under valgrind */
    const char *env = getenv("HETCAST_CERTIFY_CLUSTERS"), *pre = getenv("LD_PRELOAD");
    int clusters = env ? atoi(env) : pre && strstr(pre, "vgpreload") ? 30 : 300;
    rng_seed(&r, 20261127);
    static const enum cluster_kind kinds[] = {CLUSTER_NODES, CLUSTER_MATRIX, CLUSTER_GRAPH};
    int proven = 0, same = 0, different = 0, gave_up = 0, per_model[MODEL_COUNT] = {0};
    char first[256] = "";
    for (int i = 0; i < clusters; i++) {
        enum cluster_kind kind = kinds[i % 3];
        thirds = i % 4 == 3;
        int n = 2 + (int)rng_below(&r, 4);   /* 2..5 nodes, and every twentieth 6 */
        if (i % 20 == 0)
            n = 6;
        struct cluster *c = random_cluster(&r, kind, n);
        if (!c)
            continue;
        for (int m = 0; m < MODEL_COUNT; m++) {
            if (!(model_mask_for(kind) & MODEL_BIT(m)))
                continue;
            struct sched_opts so;
            sched_opts_default(&so);
            struct opt_plan plan;
            char *cause = NULL;
            if (optimal_solve(c, (enum model)m, &so, &plan, &cause) < 0) {
                free(cause);
                continue;
            }
            if (plan.status == OPT_PROVEN) {
                proven++;
                struct certify ct;
                if (certify_optimum(c, (enum model)m, plan.makespan, 20, &ct, &cause) == 0) {
                    if (ct.status == CERTIFY_SAME) {
                        same++;
                        per_model[m]++;
                    } else if (ct.status == CERTIFY_GAVE_UP) {
                        gave_up++;
                    } else if (!different++) {
                        snprintf(first, sizeof first, "cluster %d (%s, %d nodes, source p%d, %s): search %g, "
                                 "integer program %g", i, cluster_kind_name(kind), n, c->source,
                                 model_name((enum model)m), plan.makespan, ct.value);
                    }
                }
                free(cause);
            }
            opt_plan_free(&plan);
        }
        cluster_free(c);
    }
    ok(proven > clusters, "%d optima proven by the search", proven);
    ok(different == 0, "every one equals the integer program's (%d different)%s%s", different,
       different ? ": first " : "", first);
    ok(gave_up == 0 && same == proven, "every one certified (%d of %d; GLPK gave up on %d)", same, proven, gave_up);
    for (int m = 0; m < MODEL_COUNT; m++)
        ok(per_model[m] > 0, "%s: %d certified", model_name((enum model)m), per_model[m]);
    return tap_exit();
}
