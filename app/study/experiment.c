/*
 * app/study/experiment.c - the studies of the papers (hetcast experiment NAME).
 *
 *   fnf-vs-random   Liu, Wang & Guo, Figure 6: FNF against random selection
 *   fnf-vs-optimal  the NSC report's question: how far is FNF from optimal?
 *   counterexample  search small random clusters for the worst FNF/optimal
 *   alltoall        Chen & Liu, Table 7: personalized exchange (app/study/alltoall.c)
 *
 * Each study is deterministic for a given --seed and prints it.
 */
#include "app/study/experiment.h"

#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bounds.h"
#include "model/cluster.h"
#include "engine/engine.h"
#include "model/generate.h"
#include "sched/optimal.h"
#include "support/numfmt.h"
#include "output/report.h"
#include "sched/readyrecv.h"
#include "support/rng.h"
#include "sched/sched.h"
#include "app/opts.h"
#include "sched/list.h"

struct xopts {
    int csv;              /* --format: text (0) or csv (1) */
    unsigned long long seed;
    long runs;            /* random runs per size / clusters per study */
    int nodes_min, nodes_max;
    int classes;          /* 0: continuous */
    double lo, hi;        /* send-time range */
    const char *recv;     /* zero | independent | correlated */
    double latency;
    double time_limit;    /* per exact search */
};

enum {
    X_FORMAT = OPT_LONG, X_SEED, X_RUNS, X_NODES, X_CLASSES, X_SEND_RANGE, X_RECV, X_LATENCY,
    X_TIME_LIMIT,
};

/* The options every study of this file shares. */
#define AT(f) offsetof(struct xopts, f)
static const struct opt xopt_table[] = {
    {"format", X_FORMAT, "F", "text (default) or csv", OPT_CHOICE, AT(csv), 0, 0, opts_text_csv},
    {"seed", X_SEED, "N", "the first seed (default 1)", OPT_SEED, AT(seed), 0, 0, NULL},
    {"runs", X_RUNS, "N", "random runs per size, or clusters per study", OPT_LONGINT, AT(runs), 1,
     100000000L, NULL},
    {"nodes", X_NODES, "N|LO:HI", "cluster sizes", OPT_CALL, 0, 0, 0, NULL},
    {"classes", X_CLASSES, "K", "classes of nodes (0: continuous times; default 3)", OPT_INT,
     AT(classes), 0, 1000, NULL},
    {"send-range", X_SEND_RANGE, "LO:HI", "send times drawn from [LO, HI] (default 1:10)", OPT_CALL,
     0, 0, 0, NULL},
    {"recv", X_RECV, "R", "receive times: zero, independent or correlated (default)", OPT_CALL, 0,
     0, 0, NULL},
    {"latency", X_LATENCY, "L", "the latency (default 0)", OPT_NUMBER, AT(latency), 0, 0, NULL},
    {"time-limit", X_TIME_LIMIT, "S", "seconds per exact search (default 10)", OPT_SECONDS,
     AT(time_limit), 0, 0, NULL},
    {NULL, 0, NULL, NULL, OPT_CALL, 0, 0, 0, NULL},
};
#undef AT

static int set_xopt(void *ctx, int key, const char *a, const char *v)
{
    static const char *const recvs[] = {"zero", "independent", "correlated", NULL};
    struct xopts *o = ctx;
    int k;
    if (key == X_NODES) {
        long lo, hi;
        if (opt_range(a, v, 1, 100000, &lo, &hi))
            return 2;
        o->nodes_min = (int)lo;
        o->nodes_max = (int)hi;
    } else if (key == X_SEND_RANGE) {
        char buf[64];
        snprintf(buf, sizeof buf, "%s", v);
        char *colon = strchr(buf, ':');
        if (!colon)
            return opt_fail(a, v, "of the form LO:HI");
        *colon = '\0';
        if (opt_double(a, buf, 0, &o->lo) || opt_double(a, colon + 1, 0, &o->hi))
            return 2;
        if (o->hi < o->lo)
            return opt_fail(a, v, "a range with LO <= HI");
        if (o->hi > CLUSTER_MAX_TIME / 2)   /* correlated receive times add 1 */
            return opt_fail(a, v, "a range within 0:5e99 (times are at most 1e100, so that the "
                                  "cluster printed can be read back)");
    } else if (key == X_RECV) {
        if (opt_choice(a, v, recvs, &k))
            return 2;
        o->recv = recvs[k];
    }
    return 0;
}

/* Parse the options every study shares. Returns 0, OPTS_HELP or an exit status. */
static int parse_xopts(int argc, char **argv, struct xopts *o)
{
    int n;
    int rc = opts_parse("hetcast experiment", xopt_table, argc, argv, set_xopt, o, NULL, 0, &n);
    if (rc == 0 && o->latency > CLUSTER_MAX_TIME)
        return opts_error(2, "--latency: \"%g\" is out of range (times are at most %g)", o->latency,
                          CLUSTER_MAX_TIME);
    return rc;
}

static bool csv_out(const struct xopts *o)
{
    return o->csv == 1;
}

double exp_makespan(const struct cluster *c, enum model m, const struct sched_ops *ops,
                          unsigned long long seed)
{
    struct engine e;
    struct sched s;
    struct sched_opts so;
    sched_opts_default(&so);
    so.seed = seed;
    if (engine_init(&e, c, m, NULL) < 0)
        return NAN;
    sched_init(&s, ops, &so);
    double ms = sched_run(&e, &s, NULL) < 0 ? NAN : e.makespan;
    sched_free(&s);
    engine_free(&e);
    return ms;
}

/* ---- fnf-vs-random: Liu, Wang & Guo, Figure 6 ---- */

struct cluster *exp_fig6_cluster(int n)
{
    static const double cls[3][2] = {{1, 2}, {5, 6}, {10, 11}};
    struct cluster *c = cluster_new(CLUSTER_NODES);
    int third = n / 3;
    for (int i = 0; i < n; i++) {
        int k = i < third ? 0 : i < 2 * third ? 1 : 2;   /* the rest are slow */
        char name[32];
        snprintf(name, sizeof name, "%s-%d", k == 0 ? "fast" : k == 1 ? "normal" : "slow", i + 1);
        int id = cluster_add_node(c, name, cls[k][0], cls[k][1]);
        cluster_set_class(c, id, k == 0 ? "fast" : k == 1 ? "normal" : "slow");
    }
    c->latency = 0;
    cluster_set_str(&c->name, "fig6");
    struct diag d;
    diag_init(&d);
    cluster_finish(c, &d);   /* consistent by construction: no messages */
    diag_free(&d);
    return c;
}

static int fnf_vs_random(struct xopts *o)
{
    int lo = o->nodes_min ? o->nodes_min : 6, hi = o->nodes_max ? o->nodes_max : 100;
    long runs = o->runs ? o->runs : 200;
    if (lo < 3)
        lo = 3;
    if (csv_out(o))
        printf("n,fnf,random_pair_mean,random_order_mean,lower_bound\n");
    else {
        printf("# Liu, Wang & Guo, Figure 6: three classes (s,r) = (1,2), (5,6), (10,11),\n"
               "# a third fast, a third normal, the rest slow; latency 0; a fast node is the source.\n"
               "# random means over %ld runs, seeds %llu..%llu.  random-pair: a random holder sends\n"
               "# to a random waiting node; random-order: random receivers, fnf's sender.\n",
               runs, o->seed, o->seed + (unsigned long long)runs - 1);
        printf("%5s %8s %18s %18s %12s\n", "n", "fnf", "random_pair_mean", "random_order_mean",
               "lower_bound");
    }
    for (int n = lo; n <= hi; n++) {
        struct cluster *c = exp_fig6_cluster(n);
        double f = exp_makespan(c, MODEL_ASYNC, &sched_fnf, 0);
        double rp = 0, ro = 0;
        for (long k = 0; k < runs; k++) {
            rp += exp_makespan(c, MODEL_ASYNC, &sched_random_pair, o->seed + (unsigned long long)k);
            ro += exp_makespan(c, MODEL_ASYNC, &sched_random_order, o->seed + (unsigned long long)k);
        }
        rp /= (double)runs;
        ro /= (double)runs;
        double lb = bound_lower(c, MODEL_ASYNC);
        char a[40], b[40], d[40], e[40];
        numfmt_shortest(a, f);
        snprintf(b, sizeof b, "%.3f", rp);
        snprintf(d, sizeof d, "%.3f", ro);
        numfmt_shortest(e, lb);
        if (csv_out(o))
            printf("%d,%s,%s,%s,%s\n", n, a, b, d, e);
        else
            printf("%5d %8s %18s %18s %12s\n", n, a, b, d, e);
        cluster_free(c);
    }
    return 0;
}

/* ---- random clusters for the exact studies ---- */

static double draw_time(struct rng *r, const struct exp_gen *o, bool integral)
{
    double x = rng_range(r, o->lo, o->hi);
    return integral ? floor(x + 0.5) : floor(x * 10 + 0.5) / 10;
}

struct cluster *exp_random_cluster(struct rng *r, int n, const struct exp_gen *o)
{
    struct cluster *c = cluster_new(CLUSTER_NODES);
    int k = o->classes;
    double cls[64][2];
    bool integral = k > 0;
    int nclass = k > 0 ? (k < 64 ? k : 64) : 0;
    for (int i = 0; i < nclass; i++) {
        double s = draw_time(r, o, true);
        double rv = strcmp(o->recv, "zero") == 0        ? 0
                    : strcmp(o->recv, "independent") == 0 ? draw_time(r, o, true)
                                                           : s + 1;
        cls[i][0] = s;
        cls[i][1] = rv;
    }
    for (int i = 0; i < n; i++) {
        double s, rv;
        if (nclass) {
            int j = (int)rng_below(r, (uint64_t)nclass);
            s = cls[j][0];
            rv = cls[j][1];
        } else {
            s = draw_time(r, o, integral);
            rv = strcmp(o->recv, "zero") == 0        ? 0
                 : strcmp(o->recv, "independent") == 0 ? draw_time(r, o, integral)
                                                        : s + 1;
        }
        char name[16];
        snprintf(name, sizeof name, "p%d", i);
        cluster_add_node(c, name, s, rv);
    }
    c->latency = o->latency;
    struct diag d;
    diag_init(&d);
    cluster_finish(c, &d);   /* inconsistent speeds only warn: counted by the caller */
    diag_free(&d);
    return c;
}

static struct cluster *random_cluster(struct rng *r, int n, const struct xopts *o)
{
    struct exp_gen g = {o->classes, o->lo, o->hi, o->recv, o->latency};
    return exp_random_cluster(r, n, &g);
}

int exp_exact(const struct cluster *c, double time_limit, struct exact *x)
{
    struct sched_opts so;
    sched_opts_default(&so);
    so.time_limit = time_limit;
    struct opt_plan plan;
    char *cause = NULL;
    x->fnf = exp_makespan(c, MODEL_ASYNC, &sched_fnf, 0);
    if (optimal_solve(c, MODEL_ASYNC, &so, &plan, &cause) < 0) {
        opts_say("hetcast experiment", cause);
        free(cause);
        return -1;
    }
    x->opt = plan.makespan;
    x->proven = plan.status == OPT_PROVEN;
    opt_plan_free(&plan);
    return 0;
}

static void describe_generator(const struct xopts *o, int lo, int hi)
{
    printf("# %d..%d nodes; ", lo, hi);
    if (o->classes)
        printf("%d classes drawn per cluster, ", o->classes);
    else
        printf("every node drawn independently (continuous, 0.1 steps), ");
    printf("send times in [%g, %g], receive times %s%s, latency %g; seed %llu\n", o->lo, o->hi,
           o->recv, strcmp(o->recv, "correlated") == 0 ? " (r = s + 1)" : "", o->latency, o->seed);
}

static int fnf_vs_optimal(struct xopts *o)
{
    int lo = o->nodes_min ? o->nodes_min : 7, hi = o->nodes_max ? o->nodes_max : lo;
    long runs = o->runs ? o->runs : 500;
    struct rng r;
    rng_seed(&r, o->seed);
    long total = 0, optimal = 0, within10 = 0, gave_up = 0, consistent = 0, held = 0;
    double sum_ratio = 0, worst = 1;
    for (long k = 0; k < runs; k++) {
        int n = lo + (int)rng_below(&r, (uint64_t)(hi - lo + 1));
        struct cluster *c = random_cluster(&r, n, o);
        struct exact x;
        if (exp_exact(c, o->time_limit, &x) < 0) {
            cluster_free(c);
            return 1;
        }
        if (!x.proven) {
            gave_up++;
            cluster_free(c);
            continue;
        }
        total++;
        double ratio = x.opt > 0 ? x.fnf / x.opt : 1;
        sum_ratio += ratio;
        if (ratio > worst)
            worst = ratio;
        if (x.fnf <= x.opt * (1 + 1e-12))
            optimal++;
        if (x.fnf <= 1.1 * x.opt * (1 + 1e-12))
            within10++;
        double beta;
        bool cons;
        if (bound_fnf_beta(c, MODEL_ASYNC, &beta, &cons) && cons) {
            consistent++;
            if (x.fnf <= 2 * x.opt + beta + 1e-9)
                held++;
        }
        cluster_free(c);
    }
    double mean = total ? sum_ratio / (double)total : 0;
    if (csv_out(o)) {
        printf("clusters,fnf_optimal,fnf_within_10pct,mean_ratio,worst_ratio,consistent,"
               "guarantee_held,gave_up\n");
        printf("%ld,%ld,%ld,%.6f,%.6f,%ld,%ld,%ld\n", total, optimal, within10, mean, worst,
               consistent, held, gave_up);
        return 0;
    }
    printf("# FNF against the exact optimum (async model), after the NSC report\n");
    describe_generator(o, lo, hi);
    printf("clusters solved exactly   %ld", total);
    if (gave_up)
        printf("   (%ld more where the search gave up: left out)", gave_up);
    printf("\nFNF optimal               %ld (%.1f %%)\n", optimal, total ? 100.0 * (double)optimal / (double)total : 0);
    printf("FNF within 10 %%           %ld (%.1f %%)\n", within10, total ? 100.0 * (double)within10 / (double)total : 0);
    printf("mean FNF / optimal        %.4f\n", mean);
    printf("worst FNF / optimal       %.4f\n", worst);
    printf("2T + beta held            %ld of %ld clusters with consistent speeds\n", held, consistent);
    return 0;
}

int exp_theorems(struct rng *r, int lo, int hi, long runs, const struct exp_gen *g,
                 double time_limit, struct exp_theorems *t)
{
    memset(t, 0, sizeof *t);
    for (long k = 0; k < runs; k++) {
        int n = lo + (int)rng_below(r, (uint64_t)(hi - lo + 1));
        struct cluster *c = exp_random_cluster(r, n, g), *p2 = rr_power2(c);
        char *cause = NULL;
        double fnf, opt, fnf2, opt2;
        long seqs;
        int rc = rr_fnf(c, &fnf, &cause) < 0 || rr_optimal(c, &opt, &seqs, &cause) < 0 ? -1 : 0;
        bool p2_ok = rc == 0 && cluster_speeds_consistent(p2, NULL, NULL);
        if (p2_ok && (rr_fnf(p2, &fnf2, &cause) < 0 || rr_optimal(p2, &opt2, NULL, &cause) < 0))
            rc = -1;
        struct exact x;
        if (rc == 0 && exp_exact(c, time_limit, &x) < 0)
            rc = -2;   /* said already */
        if (rc < 0) {
            if (rc == -1)
                opts_say("hetcast experiment", cause);
            free(cause);
            cluster_free(p2);
            cluster_free(c);
            return -1;
        }
        t->clusters++;
        t->sequences += seqs;
        t->plain_held += fnf <= opt;
        t->t3_held += fnf <= 2 * opt;
        if (opt > 0 && fnf / opt > t->t3_worst)
            t->t3_worst = fnf / opt;
        if (p2_ok) {
            t->t2_n++;
            t->t2_held += fnf2 <= opt2;
        }
        double beta, alpha, lbeta;
        bool cons;
        if (x.proven && bound_fnf_beta(c, MODEL_ASYNC, &beta, &cons) && cons &&
            bound_lhh(c, MODEL_ASYNC, &alpha, &lbeta)) {
            double b4 = 2 * x.opt + beta, bl = 2 * alpha * x.opt + lbeta;
            t->t4_n++;
            t->t4_held += x.fnf <= b4 + 1e-9;
            t->lhh_held += x.fnf <= bl + 1e-9;
            t->lhh_looser += bl >= b4;
            t->t4_ratio += x.fnf > 0 ? b4 / x.fnf : 1;
            t->lhh_ratio += x.fnf > 0 ? bl / x.fnf : 1;
        }
        cluster_free(p2);
        cluster_free(c);
    }
    return 0;
}

static int fnf_theorems(struct xopts *o)
{
    int lo = o->nodes_min ? o->nodes_min : 3, hi = o->nodes_max ? o->nodes_max : 8;
    long runs = o->runs ? o->runs : 300;
    if (hi > RR_MAX_NODES)
        return opts_error(2, "--nodes: at most %d (the smallest ready-to-receive time tries "
                          "every receiver sequence)", RR_MAX_NODES);
    struct rng r;
    rng_seed(&r, o->seed);
    struct exp_gen g = {o->classes, o->lo, o->hi, o->recv, o->latency};
    struct exp_theorems t;
    if (exp_theorems(&r, lo, hi, runs, &g, o->time_limit, &t) < 0)
        return 1;
    if (csv_out(o)) {
        printf("clusters,power2_consistent,t2_held,tr_fnf_smallest,t3_held,t3_worst_ratio,"
               "sequences,consistent_exact,t4_held,lhh_held,lhh_at_least_t4,t4_bound_over_fnf,"
               "lhh_bound_over_fnf\n");
        printf("%ld,%ld,%ld,%ld,%ld,%.6f,%ld,%ld,%ld,%ld,%ld,%.6f,%.6f\n", t.clusters, t.t2_n,
               t.t2_held, t.plain_held, t.t3_held, t.t3_worst, t.sequences, t.t4_n, t.t4_held,
               t.lhh_held, t.lhh_looser, t.t4_n ? t.t4_ratio / t.t4_n : 0,
               t.t4_n ? t.lhh_ratio / t.t4_n : 0);
        return 0;
    }
    printf("# Liu, Wang & Guo's theorems on random clusters (async; TR: the final ready-to-receive\n"
           "# time, the smallest over every receiver sequence with no idle sender)\n");
    describe_generator(o, lo, hi);
    printf("clusters                  %ld   (%ld receiver sequences tried)\n", t.clusters,
           t.sequences);
    printf("Theorem 2                 FNF's TR the smallest on %ld of %ld power-2 transforms with "
           "consistent speeds\n", t.t2_held, t.t2_n);
    printf("  without the transform   FNF's TR the smallest on %ld of %ld clusters\n",
           t.plain_held, t.clusters);
    printf("Theorem 3                 TR(fnf) <= 2 x the smallest TR on %ld of %ld (worst ratio "
           "%.4f)\n", t.t3_held, t.clusters, t.t3_worst);
    printf("Theorem 4                 fnf <= 2T + beta on %ld of %ld clusters with consistent "
           "speeds (bound / fnf %.4f on average)\n", t.t4_held, t.t4_n,
           t.t4_n ? t.t4_ratio / t.t4_n : 0);
    printf("Libeskind-Hadas-Hartline  fnf <= 2 alpha T + beta on %ld of %ld (bound / fnf %.4f on "
           "average); at least 2T + beta on %ld\n", t.lhh_held, t.t4_n,
           t.t4_n ? t.lhh_ratio / t.t4_n : 0, t.lhh_looser);
    return 0;
}

static int counterexample(struct xopts *o)
{
    int lo = o->nodes_min ? o->nodes_min : 3, hi = o->nodes_max ? o->nodes_max : 7;
    long runs = o->runs ? o->runs : 5000;
    struct rng r;
    rng_seed(&r, o->seed);
    struct cluster *worst = NULL;
    struct exact wx = {0, 0, false};
    double wratio = 0;
    long tried = 0;
    for (long k = 0; k < runs; k++) {
        int n = lo + (int)rng_below(&r, (uint64_t)(hi - lo + 1));
        struct cluster *c = random_cluster(&r, n, o);
        struct exact x;
        if (exp_exact(c, o->time_limit, &x) < 0) {
            cluster_free(c);
            cluster_free(worst);
            return 1;
        }
        tried++;
        double ratio = x.opt > 0 ? x.fnf / x.opt : 1;
        if (x.proven && (ratio > wratio + 1e-12 || (fabs(ratio - wratio) <= 1e-12 && worst && c->n < worst->n))) {
            cluster_free(worst);
            worst = c;
            wx = x;
            wratio = ratio;
        } else {
            cluster_free(c);
        }
    }
    if (!worst) {
        fprintf(stderr, "hetcast experiment: no cluster could be solved exactly\n");
        return 1;
    }
    char desc[512], a[40], b[40];
    numfmt_shortest(a, wx.fnf);
    numfmt_shortest(b, wx.opt);
    snprintf(desc, sizeof desc,
             "worst of %ld random clusters (hetcast experiment counterexample --seed %llu): "
             "fnf %s, optimal %s, ratio %.4f",
             tried, o->seed, a, b, wratio);
    cluster_set_str(&worst->name, "counterexample-search");
    cluster_set_str(&worst->description, desc);
    if (!csv_out(o))
        fprintf(stderr, "%s\n", desc);
    int rc = cluster_write_csv(worst, stdout) < 0 ? 1 : 0;   /* cli_main says why */
    cluster_free(worst);
    return rc;
}

static const struct {
    const char *name;
    const char *summary;
    int (*fn)(struct xopts *o);
    int (*own)(int argc, char **argv);   /* a study that parses its own options */
} studies[] = {
    {"fnf-vs-random", "Liu, Wang & Guo Fig. 6: FNF vs random selection, 3 classes, n = 6..100", fnf_vs_random, NULL},
    {"fnf-vs-optimal", "NSC report: how often FNF is optimal on random small clusters", fnf_vs_optimal, NULL},
    {"counterexample", "search random small clusters for the worst FNF/optimal; prints a CSV", counterexample, NULL},
    {"fnf-theorems", "Liu, Wang & Guo Theorems 2-4 and the LHH bound checked on random clusters", fnf_theorems, NULL},
    {"figueira", "Figueira Figs. 10-15: six broadcast trees on random LNOWs (own options: --help)", NULL, exp_figueira_main},
    {"pipeline", "Beaumont, Marchal & Robert Figs. 4-5, Table 3: pipelined trees vs the LP optimum (own options: --help)", NULL, exp_pipeline_main},
    {"alltoall", "Chen & Liu Table 7: personalized exchange orders, sync/async (own options: --help)", NULL, exp_alltoall_main},
    {"reproduce", "all five papers at their settings against their numbers: docs/reproduction.md (-o FILE)", NULL, exp_reproduce_main},
};
#define NSTUDIES ((int)(sizeof studies / sizeof studies[0]))

static void list(FILE *fp)
{
    fprintf(fp, "studies (hetcast experiment NAME [options]):\n");
    for (int i = 0; i < NSTUDIES; i++)
        fprintf(fp, "  %-16s %s\n", studies[i].name, studies[i].summary);
    fprintf(fp, "\noptions of the studies above without their own:\n");
    opts_help(fp, xopt_table);
}

int experiment_main(int argc, char **argv)
{
    if (argc < 1 || strcmp(argv[0], "--list") == 0 || strcmp(argv[0], "--help") == 0) {
        list(stdout);
        return argc < 1 ? 2 : 0;
    }
    for (int i = 0; i < NSTUDIES; i++) {
        if (strcmp(argv[0], studies[i].name) != 0)
            continue;
        if (studies[i].own)
            return studies[i].own(argc, argv);
        struct xopts o = {.csv = 0, .seed = 1, .classes = 3, .lo = 1, .hi = 10,
                          .recv = "correlated", .latency = 0, .time_limit = 10};
        int rc = parse_xopts(argc, argv, &o);
        if (rc == OPTS_HELP) {
            list(stdout);
            return 0;
        }
        if (rc)
            return rc;
        return studies[i].fn(&o);
    }
    fprintf(stderr, "hetcast experiment: unknown study \"%s\"; valid studies:", argv[0]);
    for (int i = 0; i < NSTUDIES; i++)
        fprintf(stderr, "%s %s", i ? "," : "", studies[i].name);
    fprintf(stderr, "\n");
    return 2;
}
