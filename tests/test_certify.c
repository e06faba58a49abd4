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
#include "sched/list.h"
#include "sched/optimal_sum.h"
#include "sched/optimal.h"
#include "sched/sched.h"
#include "support/diag.h"
#include "support/rng.h"
#include "tap.h"
#include "random_cluster.h"

/* The bundled counterexample (test_csv checks what the file holds). */
static struct cluster *counterexample(void)
{
    struct diag d;
    diag_init(&d);
    struct cluster *c = cluster_load_csv("clusters/counterexample.csv", &d);
    diag_free(&d);
    return c;
}

/* The paper's counterexample: 5 is certified, 4.9 and fnf's 6 are not. */
static void the_counterexample(void)
{
    struct cluster *c = counterexample();
    if (!ok(c != NULL, "clusters/counterexample.csv loads"))
        return;
    struct certify ct;
    char *cause = NULL;
    int rc = certify_optimum(c, MODEL_ASYNC, 5, 0, &ct, &cause);
    ok(rc == 0 && ct.status == CERTIFY_SAME && ct.value == 5,
       "the counterexample: the integer program's optimum is 5, the search's (%g)", ct.value);
    rc = certify_optimum(c, MODEL_ASYNC, 4.9, 0, &ct, &cause);
    ok(rc == 0 && ct.status == CERTIFY_DIFFERENT && ct.value == 5, "a claimed 4.9 is caught (the program finds %g)",
       ct.value);
    rc = certify_optimum(c, MODEL_ASYNC, 6, 0, &ct, &cause);
    ok(rc == 0 && ct.status == CERTIFY_DIFFERENT, "fnf's 6 claimed as the optimum is caught");
    rc = certify_optimum(c, MODEL_SYNC, 9, 0, &ct, &cause);
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
    double back = read && glp_intopt(P, &parm) == 0 ? glp_mip_obj_val(P) : NAN;
    ok(fabs(back - 5) < 1e-9, "GLPK reads the file back and finds 5 (%g)", back);
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
    int rc = certify_optimum(c, MODEL_ONE_PORT, 1, 0, &ct, &cause);
    ok(rc < 0 && cause && strstr(cause, "the source cannot reach island"), "a node the source cannot reach: %s",
       cause ? cause : "certified");
    free(cause);
    cause = NULL;
    rc = certify_optimum(c, MODEL_ASYNC, 1, 0, &ct, &cause);
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
    rc = certify_optimum(c, MODEL_ASYNC, 1, 0, &ct, &cause);
    ok(rc < 0 && cause && strstr(cause, "up to 10 nodes"), "too many nodes: %s", cause ? cause : "certified");
    free(cause);
    cluster_free(c);
}

/* The makespan and the sum of holds of scheduler ops on c under m, booked on the engine. */
static bool run_of(const struct cluster *c, enum model m, const struct sched_ops *ops, double *makespan,
                   double *sum)
{
    struct engine e;
    struct sched s;
    struct sched_opts so;
    char *cause = NULL;
    sched_opts_default(&so);
    if (engine_init(&e, c, m, &cause) < 0) {
        free(cause);
        return false;
    }
    sched_init(&s, ops, &so);
    bool good = sched_run(&e, &s, &cause) == 0;
    *makespan = e.makespan;
    *sum = sched_sum_of_holds(&e);
    sched_free(&s);
    engine_free(&e);
    free(cause);
    return good;
}

/*
 * Khuller & Kim: in the sender-only model fastest-node-first gives the
 * least sum of completion times, and a makespan within 1.5 of the least
 * (not always the least).  Random node tables, every node drawn on its own.
 * The optimum is the search's, the least sum the integer program's.
 */
static void khuller_kim(void)
{
    struct rng r;
    rng_seed(&r, 7);
    int tried = 0, sum_same = 0, within = 0, ms_worse = 0, largest = 0;
    double worst = 1;
    char first[200] = "";
    int clusters = tap_scale(100, 12);
    for (int i = 0; i < clusters; i++) {
        struct cluster *c = cluster_new(CLUSTER_NODES);
        int n = i % 25 == 24 ? 6 : 3 + (int)rng_below(&r, 3);   /* 3..5, a few 6: the sum's program grows fast */
        largest = n > largest ? n : largest;
        for (int j = 0; j < n; j++) {
            char name[16];
            snprintf(name, sizeof name, "p%d", j);
            cluster_add_node(c, name, 1 + (double)rng_below(&r, 90) / 10, 0);
        }
        struct diag d;
        diag_init(&d);
        cluster_finish(c, &d);
        diag_free(&d);
        double fms, fsum, oms, osum;
        struct certify_plan plan;
        char *cause = NULL;
        if (run_of(c, MODEL_SENDER_ONLY, &sched_fnf, &fms, &fsum) &&
            run_of(c, MODEL_SENDER_ONLY, &sched_optimal, &oms, &osum) &&
            certify_solve(c, MODEL_SENDER_ONLY, CERTIFY_SUM, 0, NULL, &plan, &cause) == 0 && plan.proven) {
            tried++;
            if (fabs(fsum - plan.sum) <= 1e-9 * fmax(1, plan.sum))
                sum_same++;
            else if (!first[0])
                snprintf(first, sizeof first, "cluster %d (%d nodes): fnf's sum %g, the least %g", i, n, fsum,
                         plan.sum);
            if (fms <= 1.5 * oms + 1e-9)
                within++;
            if (fms > oms + 1e-9)
                ms_worse++;
            worst = fmax(worst, fms / oms);
        }
        free(cause);
        cluster_free(c);
    }
    ok(tried == clusters, "Khuller & Kim: %d random sender-only node tables of 3 to %d nodes solved", tried, largest);
    ok(sum_same == tried, "fnf's sum of completion times is the least on %d of %d%s%s", sum_same, tried,
       first[0] ? ": first miss " : "", first);
    ok(within == tried, "fnf's makespan is within 1.5 of the optimum on %d of %d (worst ratio %.3f)", within,
       tried, worst);
    (void)ms_worse;
    /* Rare among random tables (1 of 200 of 4 to 12 nodes with times from
     * {1, 2, 3, 5, 8, 9, 10}): this one, where fnf's makespan is not the least. */
    static const double t[] = {5, 2, 5, 3, 10, 10, 8, 1};
    struct cluster *c = cluster_new(CLUSTER_NODES);
    for (int j = 0; j < 8; j++) {
        char name[16];
        snprintf(name, sizeof name, "p%d", j);
        cluster_add_node(c, name, t[j], 0);
    }
    struct diag d;
    diag_init(&d);
    cluster_finish(c, &d);
    diag_free(&d);
    double fms = NAN, fsum, oms = NAN, osum;
    bool ran = run_of(c, MODEL_SENDER_ONLY, &sched_fnf, &fms, &fsum) &&
               run_of(c, MODEL_SENDER_ONLY, &sched_optimal, &oms, &osum);
    ok(ran && fms == 10 && oms == 9, "but not always the least makespan: 8 nodes where fnf makes %g, the optimum %g",
       fms, oms);
    cluster_free(c);

    /* In the async model the sum is another matter: fnf 30, the least 29. */
    static const double sr[4][2] = {{3, 5}, {2, 2}, {1, 5}, {3, 2}};
    c = cluster_new(CLUSTER_NODES);
    for (int j = 0; j < 4; j++) {
        char name[16];
        snprintf(name, sizeof name, "p%d", j);
        cluster_add_node(c, name, sr[j][0], sr[j][1]);
    }
    c->latency = 1;
    diag_init(&d);
    cluster_finish(c, &d);
    diag_free(&d);
    struct certify_plan plan;
    char *cause = NULL;
    ran = run_of(c, MODEL_ASYNC, &sched_fnf, &fms, &fsum) &&
          certify_solve(c, MODEL_ASYNC, CERTIFY_SUM, 0, NULL, &plan, &cause) == 0 && plan.proven;
    ok(ran && fsum == 30 && plan.sum == 29, "async: fnf's sum %g is not the least %g", fsum, ran ? plan.sum : NAN);
    free(cause);
    cluster_free(c);
}

/* Certify every optimum the search proves on random clusters (multicast:
 * with random targets, random_cluster.h). */
static void sweep(struct rng *rp, int clusters, bool multicast)
{
    struct rng r = *rp;
    const char *what = multicast ? "multicast: " : "";
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
        if (multicast)
            random_targets(&r, c);
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
                if (certify_optimum(c, (enum model)m, plan.makespan, 0, &ct, &cause) == 0) {
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
    ok(proven > clusters, "%s%d optima proven by the search", what, proven);
    ok(different == 0, "%severy one equals the integer program's (%d different)%s%s", what, different,
       different ? ": first " : "", first);
    ok(gave_up == 0 && same == proven, "%severy one certified (%d of %d; GLPK gave up on %d)", what, same,
       proven, gave_up);
    for (int m = 0; m < MODEL_COUNT; m++)
        ok(per_model[m] > 0, "%s%s: %d certified", what, model_name((enum model)m), per_model[m]);
    *rp = r;
}

#define MULTICAST_SEED 1   /* the multicast sweep's own seed */

int main(void)
{
    the_counterexample();
    khuller_kim();
    refusals();
    struct rng r;
    /* HETCAST_CERTIFY_CLUSTERS=N for a longer sweep; fewer at the small scale */
    const char *env = getenv("HETCAST_CERTIFY_CLUSTERS");
    int clusters = env ? atoi(env) : tap_scale(300, 30);
    rng_seed(&r, 20261127);
    sweep(&r, clusters, false);
    /* the multicasts from a seed of their own, whatever the first sweep's
       length: the short run's 12 reach a certified optimum in every model */
    rng_seed(&r, MULTICAST_SEED);
    sweep(&r, env ? atoi(env) : tap_scale(60, 12), true);
    return tap_exit();
}
