/*
 * app/study/reproduce_nsc.c - hetcast experiment reproduce, the part of
 * Liu's NSC report, FNF against the exhaustive optimum (runs D, E, S).
 * Its runs first, then its section (app/study/reproduce.h).
 */
#include "app/study/reproduce.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/opts.h"
#include "app/study/experiment.h"
#include "app/datadir.h"
#include "support/atomic.h"
#include "engine/bounds.h"
#include "model/cluster.h"
#include "engine/engine.h"
#include "model/generate.h"
#include "sched/optimal.h"
#include "sched/readyrecv.h"
#include "sched/sched.h"
#include "sched/trees.h"
#include "sched/list.h"
#include "sched/kkround.h"
#include "model/targets.h"
#include "sched/certify.h"
#include "sched/mpibcast.h"
#include "sched/optimal_sum.h"
#include "sched/relay.h"
#include "session/session.h"

struct fvo {
    long total, optimal, within10, held, consistent;
};

static int fnf_vs_optimal(int lo, int hi, int classes, double slo, double shi, long runs,
                          struct fvo *v)
{
    struct rng r;
    struct exp_gen g = {classes, slo, shi, "correlated", 0};
    memset(v, 0, sizeof *v);
    for (long k = 0; k < runs; k++) {
        rng_seed_trial(&r, 1, (uint64_t)k);   /* trial k's stream, as the study draws it */
        int n = lo + (int)rng_below(&r, (uint64_t)(hi - lo + 1));
        struct cluster *c = exp_random_cluster(&r, n, &g);
        struct exact x;
        if (exp_exact(c, OPT_DEFAULT_NODE_LIMIT, &x) < 0) {
            cluster_free(c);
            return -1;
        }
        if (x.proven) {
            v->total++;
            v->optimal += x.fnf <= x.opt * (1 + 1e-12);
            v->within10 += x.fnf <= 1.1 * x.opt * (1 + 1e-12);
            double beta;
            bool cons;
            if (bound_fnf_beta(c, MODEL_ASYNC, &beta, &cons) && cons) {
                v->consistent++;
                v->held += x.fnf <= 2 * x.opt + beta + 1e-9;
            }
        }
        cluster_free(c);
    }
    return 0;
}

/* Theorem 1's gain in hetcast's exact search: search nodes of the receiver-
 * order search and of the (sender, receiver) search on the same clusters
 * (run D's first `count`), both with all of hetcast's bounds.  0 or -1. */
static int search_gain(int count, long long *slot_nodes, long long *general_nodes, int *solved)
{
    struct rng r;
    struct exp_gen g = {3, 1, 10, "correlated", 0};
    *slot_nodes = *general_nodes = 0;
    *solved = 0;
    for (int k = 0; k < count; k++) {
        rng_seed_trial(&r, 1, (uint64_t)k);
        int n = 7 + (int)rng_below(&r, 1);   /* as fnf_vs_optimal draws: the same clusters */
        struct cluster *c = exp_random_cluster(&r, n, &g);
        struct opt_plan a, b;
        struct sched_opts so;
        sched_opts_default(&so);
        so.time_limit = SCHED_NO_CLOCK;
        char *cause = NULL;
        if (optimal_solve(c, MODEL_ASYNC, &so, &a, &cause) < 0) {
            cluster_free(c);
            return rep_fail("the exact search", cause);
        }
        so.opt_general = true;
        if (optimal_solve(c, MODEL_ASYNC, &so, &b, &cause) < 0) {
            opt_plan_free(&a);
            cluster_free(c);
            return rep_fail("the exact search", cause);
        }
        if (a.status == OPT_PROVEN && b.status == OPT_PROVEN) {
            if (a.makespan != b.makespan) {
                opt_plan_free(&a);
                opt_plan_free(&b);
                cluster_free(c);
                return rep_fail("the two exact searches disagree: a bug", NULL);
            }
            *slot_nodes += a.explored;
            *general_nodes += b.explored;
            ++*solved;
        }
        opt_plan_free(&a);
        opt_plan_free(&b);
        cluster_free(c);
    }
    return 0;
}

static double share(long a, long b)
{
    return b ? (double)a / (double)b : 0;
}

int rep_nsc_report(FILE *out)
{
    struct fvo d;
    if (fnf_vs_optimal(7, 7, 3, 1, 10, 500, &d) < 0)
        return -1;
    static const int sizes[][2] = {{3, 4}, {5, 5}, {7, 7}};
    static const int classes[] = {2, 3};
    static const double ranges[][2] = {{1, 3}, {1, 10}};
    struct fvo sweep[3][2][2];
    double best = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 2; k++) {
                if (fnf_vs_optimal(sizes[i][0], sizes[i][1], classes[j], ranges[k][0],
                                   ranges[k][1], 500, &sweep[i][j][k]) < 0)
                    return -1;
                best = fmax(best, share(sweep[i][j][k].optimal, sweep[i][j][k].total));
            }
    long long slot_nodes, general_nodes;
    int solved;
    if (search_gain(100, &slot_nodes, &general_nodes, &solved) < 0)
        return -1;
    double saved = general_nodes ? 1 - (double)slot_nodes / (double)general_nodes : 0;
    double orders = 1, pairs = 1;   /* 7 nodes: (n-1)! receiver orders; k holders x (n-k) waiting */
    for (int k = 1; k < 7; k++) {
        orders *= k;
        pairs *= (double)k * (7 - k);
    }
    double p = share(d.optimal, d.total), w = share(d.within10, d.total);
    char near[256] = "";
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 2; k++) {
                double q = share(sweep[i][j][k].optimal, sweep[i][j][k].total);
                if (fabs(q - 0.65) <= 0.05)
                    snprintf(near + strlen(near), sizeof near - strlen(near),
                             "%s%d..%d nodes, %d classes, s in %g..%g", *near ? "; " : "",
                             sizes[i][0], sizes[i][1], classes[j], ranges[k][0], ranges[k][1]);
            }
    fprintf(out, "## Liu's NSC report: FNF against the exhaustive optimum\n\n"
                 "`papers/liu-nsc-report-fnf-async-vs-optimal.txt`.  The text we have ends before "
                 "its experiments: only the abstract states the results, without the clusters "
                 "they were drawn from.  Runs: **D** `hetcast experiment fnf-vs-optimal` at its "
                 "defaults (500 clusters of 7 nodes, 3 classes, s in 1..10, r = s + 1, latency 0, "
                 "seed 1); **E** the same for 12 other settings (below); **S** run D's first 100 clusters "
                 "solved by hetcast's two exact searches, the receiver-order search that Theorem 1 "
                 "allows and the general (sender, receiver) search, both with hetcast's bounds "
                 "(`sched_opts.opt_general`).\n\n");
    struct rep_table tab = {0};
    rep_row(&tab, "FNF within 10 % of the optimum (abstract)", "\"most of the time\"",
        rep_fmt("%.1f %% of %ld clusters (run D)", 100 * w, d.total), rep_verdict(w > 0.5),
        "rule: more than half");
    bool up_to = fabs(best - 0.65) <= 0.05;
    rep_row(&tab, "FNF optimal (abstract)", "\"with a probability up to 0.65\"",
        rep_fmt("%.1f %% at run D's setting; at most %.1f %% over run E", 100 * p, 100 * best),
        up_to && p < 0.6 ? "only in part" : rep_verdict(up_to),
        up_to ? rep_fmt("0.60-0.70 only at: %s (run E); the report's clusters are not known", near)
              : "no setting of run E gives 0.60-0.70");
    rep_row(&tab, "2T + beta (Theorem 7)", "FNF <= 2T + beta",
        rep_fmt("held on %ld of %ld consistent clusters (run D)", d.held, d.consistent),
        rep_verdict(d.held == d.consistent), "");
    rep_row(&tab, "speed-up of the exhaustive search by the theory (abstract)", "33 %",
        rep_fmt("Theorem 1's receiver orders: %lld search nodes against %lld for the (sender, receiver) "
            "search on the same %d clusters (run S), %.1f %% %s; unpruned, %.0f receiver "
            "orders of 7 nodes against %.0f orders of (sender, receiver) decisions",
            slot_nodes, general_nodes, solved, 100 * fabs(saved), saved < 0 ? "more" : "fewer", orders,
            pairs),
        rep_verdict(fabs(saved - 0.33) <= 0.1),
        saved > 0.43 ? "rule: 23-43 % fewer.  The report does not say which search it sped up nor how; in "
                       "hetcast the gain is larger, with the bounds (run S) and in the unpruned counts"
                     : "rule: 23-43 % fewer.  The report does not say which search it sped up nor how; in "
                       "hetcast the unpruned counts show a larger gain, while with the bounds (run S) "
                       "the two searches differ in more than Theorem 1: each prunes with bounds of "
                       "its own");
    rep_table_print(out, &tab);
    fprintf(out, "\nRun E: FNF optimal (%% of 500 clusters, seed 1; r = s + 1, latency 0):\n\n"
                 "| nodes | classes | s in 1..3 | s in 1..10 |\n| --- | --- | --- | --- |\n");
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++)
            fprintf(out, "| %d..%d | %d | %.1f | %.1f |\n", sizes[i][0], sizes[i][1], classes[j],
                    100 * share(sweep[i][j][0].optimal, sweep[i][j][0].total),
                    100 * share(sweep[i][j][1].optimal, sweep[i][j][1].total));
    fprintf(out, "\n");
    return 0;
}
