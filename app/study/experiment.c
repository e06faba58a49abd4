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
#include <stdarg.h>
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
#include "app/study/trials.h"
#include "sched/list.h"
#include "support/diag.h"
#include "config.h"

enum {
    X_FORMAT = OPT_LONG, X_SEED, X_RUNS, X_NODES, X_CLASSES, X_SEND_RANGE, X_RECV, X_LATENCY,
    X_NODE_LIMIT, X_PER_SIZE, X_OUT, X_MODELS, X_SHARD, X_JOBS, X_RESUME, X_QUIET,
};

static const char *const text_csv_json[] = {"text", "csv", "json", NULL};

/* The options every study of this file shares. */
#define AT(f) offsetof(struct xopts, f)
static const struct opt xopt_table[] = {
    {"format", X_FORMAT, "F", "text (default), csv or json (json: fnf-vs-optimal, fnf-vs-random, fnf-theorems, optima)",
     OPT_CHOICE, AT(csv), 0, 0, text_csv_json},
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
    {"node-limit", X_NODE_LIMIT, "N", "search nodes per exact search (default 50000000; no clock, "
     "so a study gives the same answer on any machine)", OPT_LONGINT, AT(node_limit), 1, 1e15,
     NULL},
    {"per-size", X_PER_SIZE, NULL, "fnf-vs-optimal: --runs clusters of every size, a row a size",
     OPT_FLAG, AT(per_size), 0, 0, NULL},
    {"out", X_OUT, "DIR", "optima: the folder the benchmark set is written to", OPT_STRING, AT(out),
     0, 0, NULL},
    {"models", X_MODELS, "M,M..", "optima: the port models solved (default: all; docs/optima.md)",
     OPT_CALL, 0, 0, 0, NULL},
    {"shard", X_SHARD, "I/N", "run part I of N and write it as a part file (merge: hetcast "
     "experiment merge)", OPT_CALL, 0, 0, 0, NULL},
    {"jobs", X_JOBS, "N", "local processes (default 1)", OPT_INT, AT(ctl.jobs), 1, 256, NULL},
    {"resume", X_RESUME, "DIR", "keep finished blocks of trials in DIR; run again to resume",
     OPT_STRING, AT(ctl.resume), 0, 0, NULL},
    {"quiet", X_QUIET, NULL, "no progress line on the terminal", OPT_FLAG, AT(ctl.quiet), 0, 0,
     NULL},
    {NULL, 0, NULL, NULL, OPT_CALL, 0, 0, 0, NULL},
};
#undef AT

int exp_parse_models(const char *opt, const char *v, unsigned *mask)
{
    char buf[256];
    *mask = 0;
    if (strcmp(v, "all") == 0) {
        *mask = MODEL_ALL;
        return 0;
    }
    snprintf(buf, sizeof buf, "%s", v);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        enum model m;
        if (model_parse(tok, &m) < 0) {
            char *names = model_names(), want[320];
            snprintf(want, sizeof want, "models separated by commas, or all (%s)", names);
            free(names);
            return opt_fail(opt, v, want);
        }
        *mask |= MODEL_BIT(m);
    }
    if (!*mask)
        return opt_fail(opt, v, "at least one model");
    return 0;
}

static int set_xopt(void *ctx, int key, const char *a, const char *v)
{
    static const char *const recvs[] = {"zero", "independent", "correlated", NULL};
    struct xopts *o = ctx;
    int k;
    if (key == X_SHARD) {
        int i, n, used = 0;
        if (sscanf(v, "%d/%d%n", &i, &n, &used) != 2 || v[used] != '\0' || n < 1 || n > 100000 ||
            i < 1 || i > n)
            return opt_fail(a, v, "I/N with 1 <= I <= N <= 100000");
        o->ctl.shard_i = i;
        o->ctl.shard_n = n;
    } else if (key == X_NODES) {
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
    } else if (key == X_MODELS) {
        return exp_parse_models(a, v, &o->models);
    }
    return 0;
}

/* Parse the options every study shares. Returns 0, OPTS_HELP or an exit status. */
static int parse_xopts(int argc, char **argv, struct xopts *o)
{
    int n;
    int rc = opts_parse(diag_who(), xopt_table, argc, argv, set_xopt, o, NULL, 0, &n);
    if (rc == 0 && o->latency > CLUSTER_MAX_TIME)
        return opts_error(2, "--latency: \"%g\" is out of range (times are at most %g)", o->latency,
                          CLUSTER_MAX_TIME);
    return rc;
}

void exp_provenance_csv(int argc, char **argv, unsigned long long seed)
{
    report_csv_version(stdout);   /* the two lines of every CSV (output/report.h) */
    printf("# study: %s\n# options:", argv[0]);
    for (int i = 1; i < argc; i++) {
        putchar(' ');
        text_put(argv[i], stdout);
    }
    printf("%s(the others at hetcast %s's defaults)\n# seed: %llu\n# shard: 1/1\n",
           argc > 1 ? " " : " ", HETCAST_VERSION, seed);
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

static void json_num(const char *key, double x, bool comma)
{
    char b[NUMFMT_SIZE];
    printf("\"%s\": %s%s", key, numfmt_shortest(b, x), comma ? ", " : "");
}

static int fvr_setup(const struct xopts *o, struct tctx *t, struct trial_head *h)
{
    t->lo = o->nodes_min ? o->nodes_min : 6;
    t->hi = o->nodes_max ? o->nodes_max : 100;
    t->runs = o->runs ? o->runs : 200;
    if (t->lo < 3)
        t->lo = 3;
    if (t->hi < t->lo)
        t->hi = t->lo;
    h->trials = (long)(t->hi - t->lo + 1) * t->runs;
    snprintf(h->options, sizeof h->options, "--nodes %d:%d --runs %ld", t->lo, t->hi, t->runs);
    return 0;
}

/* Trial k: run k % runs of size lo + k / runs; its seed is --seed + k % runs,
 * as Figure 6's runs have always been seeded. */
static int fvr_trial(const void *ctx, long k, struct rng *r, double *v)
{
    const struct tctx *t = ctx;
    (void)r;
    int n = t->lo + (int)(k / t->runs);
    unsigned long long seed = t->o.seed + (unsigned long long)(k % t->runs);
    struct cluster *c = exp_fig6_cluster(n);
    v[0] = exp_makespan(c, MODEL_ASYNC, &sched_random_pair, seed);
    v[1] = exp_makespan(c, MODEL_ASYNC, &sched_random_order, seed);
    cluster_free(c);
    return 0;
}

static void fvr_print(const void *ctx, const struct trial_head *h, const double *v,
                      enum trial_format f)
{
    const struct tctx *t = ctx;
    long runs = t->runs;
    if (f == TF_CSV) {
        trials_head_csv(stdout, h);
        printf("n,fnf,random_pair_mean,random_order_mean,lower_bound\n");
    } else if (f == TF_JSON) {
        printf("{");
        trials_head_json(stdout, h);
        printf(", \"rows\": [");
    } else {
        printf("# Liu, Wang & Guo, Figure 6: three classes (s,r) = (1,2), (5,6), (10,11),\n"
               "# a third fast, a third normal, the rest slow; latency 0; a fast node is the source.\n"
               "# random means over %ld runs, seeds %llu..%llu.  random-pair: a random holder sends\n"
               "# to a random waiting node; random-order: random receivers, fnf's sender.\n",
               runs, t->o.seed, t->o.seed + (unsigned long long)runs - 1);
        printf("%5s %8s %18s %18s %12s\n", "n", "fnf", "random_pair_mean", "random_order_mean",
               "lower_bound");
    }
    for (int n = t->lo; n <= t->hi; n++) {
        struct cluster *c = exp_fig6_cluster(n);
        double fnf = exp_makespan(c, MODEL_ASYNC, &sched_fnf, 0);
        double rp = 0, ro = 0;
        const double *row = v + (size_t)(n - t->lo) * (size_t)runs * 2;
        for (long k = 0; k < runs; k++) {
            rp += row[2 * k];
            ro += row[2 * k + 1];
        }
        rp /= (double)runs;
        ro /= (double)runs;
        double lb = bound_lower(c, MODEL_ASYNC);
        char a[40], b[40], d[40], e[40];
        numfmt_shortest(a, fnf);
        snprintf(b, sizeof b, "%.3f", rp);
        snprintf(d, sizeof d, "%.3f", ro);
        numfmt_shortest(e, lb);
        if (f == TF_CSV)
            printf("%d,%s,%s,%s,%s\n", n, a, b, d, e);
        else if (f == TF_JSON)
            printf("%s{\"n\": %d, \"fnf\": %s, \"random_pair_mean\": %s, \"random_order_mean\": %s, "
                   "\"lower_bound\": %s}", n > t->lo ? ", " : "", n, a, b, d, e);
        else
            printf("%5d %8s %18s %18s %12s\n", n, a, b, d, e);
        cluster_free(c);
    }
    if (f == TF_JSON)
        printf("]}\n");
}

static const char *const fvr_cols[] = {"random_pair", "random_order"};
static const struct trial_study fvr_study = {2, fvr_cols, fvr_trial, fvr_print};

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

int exp_exact(const struct cluster *c, long long node_limit, struct exact *x)
{
    struct sched_opts so;
    sched_opts_default(&so);
    so.time_limit = SCHED_NO_CLOCK;
    so.node_limit = node_limit;
    struct opt_plan plan;
    char *cause = NULL;
    x->fnf = exp_makespan(c, MODEL_ASYNC, &sched_fnf, 0);
    if (optimal_solve(c, MODEL_ASYNC, &so, &plan, &cause) < 0) {
        opts_say(diag_who(), cause);
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

static int fvo_setup(const struct xopts *o, struct tctx *t, struct trial_head *h)
{
    t->lo = o->nodes_min ? o->nodes_min : 7;
    t->hi = o->nodes_max ? o->nodes_max : t->lo;
    t->runs = o->runs ? o->runs : 500;
    h->trials = o->per_size ? (long)(t->hi - t->lo + 1) * t->runs : t->runs;
    char a[NUMFMT_SIZE], b[NUMFMT_SIZE], c[NUMFMT_SIZE];
    snprintf(h->options, sizeof h->options,
             "--nodes %d:%d --runs %ld --classes %d --send-range %s:%s --recv %s --latency %s "
             "--node-limit %ld%s", t->lo, t->hi, t->runs, o->classes, numfmt_shortest(a, o->lo),
             numfmt_shortest(b, o->hi), o->recv, numfmt_shortest(c, o->latency), o->node_limit,
             o->per_size ? " --per-size" : "");
    return 0;
}

/* The numbers of one trial of fnf-vs-optimal. */
enum { FVO_N, FVO_FNF, FVO_OPT, FVO_PROVEN, FVO_CONSISTENT, FVO_HELD, FVO_NV };

/* Trial k: a cluster of size lo + k / runs (--per-size) or of a size drawn
 * first, from trial k's own stream; FNF and the exact optimum on it. */
static int fvo_trial(const void *ctx, long k, struct rng *r, double *v)
{
    const struct tctx *t = ctx;
    int n = t->o.per_size ? t->lo + (int)(k / t->runs)
                          : t->lo + (int)rng_below(r, (uint64_t)(t->hi - t->lo + 1));
    struct cluster *c = random_cluster(r, n, &t->o);
    struct exact x;
    if (exp_exact(c, t->o.node_limit, &x) < 0) {
        cluster_free(c);
        return -1;
    }
    double beta;
    bool cons;
    v[FVO_N] = n;
    v[FVO_FNF] = x.fnf;
    v[FVO_OPT] = x.opt;
    v[FVO_PROVEN] = x.proven;
    v[FVO_CONSISTENT] = bound_fnf_beta(c, MODEL_ASYNC, &beta, &cons) && cons;
    v[FVO_HELD] = v[FVO_CONSISTENT] && x.fnf <= 2 * x.opt + beta + 1e-9;
    cluster_free(c);
    return 0;
}

/* What fnf-vs-optimal says of a set of trials, summed in trial order. */
struct fvo_sum {
    long total, optimal, within10, gave_up, consistent, held;
    double sum_ratio, worst;
};

static void fvo_add(struct fvo_sum *a, const double *v)
{
    if (!v[FVO_PROVEN]) {
        a->gave_up++;
        return;
    }
    a->total++;
    double fnf = v[FVO_FNF], opt = v[FVO_OPT];
    double ratio = opt > 0 ? fnf / opt : 1;
    a->sum_ratio += ratio;
    if (ratio > a->worst)
        a->worst = ratio;
    a->optimal += fnf <= opt * (1 + 1e-12);
    a->within10 += fnf <= 1.1 * opt * (1 + 1e-12);
    a->consistent += v[FVO_CONSISTENT] != 0;
    a->held += v[FVO_HELD] != 0;
}

static double pct(long a, long b)
{
    return b ? 100.0 * (double)a / (double)b : 0;
}

static void fvo_print(const void *ctx, const struct trial_head *h, const double *v,
                      enum trial_format f)
{
    const struct tctx *t = ctx;
    const struct xopts *o = &t->o;
    int nsizes = o->per_size ? t->hi - t->lo + 1 : 1;
    struct fvo_sum all = {0, 0, 0, 0, 0, 0, 0, 1};
    struct fvo_sum *by = xcalloc((size_t)nsizes, sizeof *by);
    for (int i = 0; i < nsizes; i++)
        by[i].worst = 1;
    for (long k = 0; k < h->trials; k++) {
        const double *row = v + (size_t)k * FVO_NV;
        fvo_add(&all, row);
        if (o->per_size)
            fvo_add(&by[k / t->runs], row);
    }
    struct fvo_sum *rows = o->per_size ? by : &all;
    if (f == TF_CSV) {
        trials_head_csv(stdout, h);
        printf("%sclusters,fnf_optimal,fnf_within_10pct,mean_ratio,worst_ratio,consistent,"
               "guarantee_held,gave_up\n", o->per_size ? "n," : "");
        for (int i = 0; i < nsizes; i++) {
            const struct fvo_sum *a = &rows[i];
            if (o->per_size)
                printf("%d,", t->lo + i);
            printf("%ld,%ld,%ld,%.6f,%.6f,%ld,%ld,%ld\n", a->total, a->optimal, a->within10,
                   a->total ? a->sum_ratio / (double)a->total : 0, a->worst, a->consistent,
                   a->held, a->gave_up);
        }
    } else if (f == TF_JSON) {
        printf("{");
        trials_head_json(stdout, h);
        printf(", \"rows\": [");
        for (int i = 0; i < nsizes; i++) {
            const struct fvo_sum *a = &rows[i];
            printf("%s{", i ? ", " : "");
            if (o->per_size)
                printf("\"n\": %d, ", t->lo + i);
            printf("\"clusters\": %ld, \"fnf_optimal\": %ld, \"fnf_within_10pct\": %ld, ",
                   a->total, a->optimal, a->within10);
            json_num("mean_ratio", a->total ? a->sum_ratio / (double)a->total : 0, true);
            json_num("worst_ratio", a->worst, true);
            printf("\"consistent\": %ld, \"guarantee_held\": %ld, \"gave_up\": %ld}", a->consistent,
                   a->held, a->gave_up);
        }
        printf("]}\n");
    } else {
        printf("# FNF against the exact optimum (async model), after the NSC report\n");
        describe_generator(o, t->lo, t->hi);
        if (o->per_size) {
            printf("# %ld clusters of each size; gave up: clusters where the exact search hit "
                   "--node-limit (left out)\n", t->runs);
            printf("%3s %8s %14s %16s %10s %10s %14s %8s\n", "n", "clusters", "fnf_optimal",
                   "fnf_within_10%", "mean", "worst", "2T+beta held", "gave_up");
            for (int i = 0; i < nsizes; i++) {
                const struct fvo_sum *a = &by[i];
                char p1[32], p2[32], held[48];
                snprintf(p1, sizeof p1, "%.1f %%", pct(a->optimal, a->total));
                snprintf(p2, sizeof p2, "%.1f %%", pct(a->within10, a->total));
                snprintf(held, sizeof held, "%ld/%ld", a->held, a->consistent);
                printf("%3d %8ld %14s %16s %10.4f %10.4f %14s %8ld\n", t->lo + i, a->total, p1, p2,
                       a->total ? a->sum_ratio / (double)a->total : 0, a->worst, held, a->gave_up);
            }
        } else {
            printf("clusters solved exactly   %ld", all.total);
            if (all.gave_up)
                printf("   (%ld more where the search gave up: left out)", all.gave_up);
            printf("\nFNF optimal               %ld (%.1f %%)\n", all.optimal,
                   pct(all.optimal, all.total));
            printf("FNF within 10 %%           %ld (%.1f %%)\n", all.within10,
                   pct(all.within10, all.total));
            printf("mean FNF / optimal        %.4f\n",
                   all.total ? all.sum_ratio / (double)all.total : 0);
            printf("worst FNF / optimal       %.4f\n", all.worst);
            printf("2T + beta held            %ld of %ld clusters with consistent speeds\n",
                   all.held, all.consistent);
        }
    }
    free(by);
}

static const char *const fvo_cols[] = {"n", "fnf", "optimal", "proven", "consistent",
                                       "guarantee_held"};
static const struct trial_study fvo_study = {FVO_NV, fvo_cols, fvo_trial, fvo_print};

/* The numbers of one cluster of fnf-theorems. */
enum { THM_SEQS, THM_PLAIN, THM_T3, THM_T3_RATIO, THM_P2, THM_T2, THM_T4_N, THM_T4, THM_LHH,
       THM_LHH_LOOSER, THM_T4_RATIO, THM_LHH_RATIO, THM_NV };

/* One random cluster drawn from r (its size first, in lo..hi) and the
 * theorems on it: its row v.  0, or -1 (said). */
static int theorem_trial(struct rng *r, int lo, int hi, const struct exp_gen *g,
                         long long node_limit, double *v)
{
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
    if (rc == 0 && exp_exact(c, node_limit, &x) < 0)
        rc = -2;   /* said already */
    if (rc < 0) {
        if (rc == -1)
            opts_say(diag_who(), cause);
        free(cause);
        cluster_free(p2);
        cluster_free(c);
        return -1;
    }
    memset(v, 0, THM_NV * sizeof *v);
    v[THM_SEQS] = (double)seqs;
    v[THM_PLAIN] = fnf <= opt;
    v[THM_T3] = fnf <= 2 * opt;
    v[THM_T3_RATIO] = opt > 0 ? fnf / opt : 0;
    v[THM_P2] = p2_ok;
    v[THM_T2] = p2_ok && fnf2 <= opt2;
    double beta, alpha, lbeta;
    bool cons;
    if (x.proven && bound_fnf_beta(c, MODEL_ASYNC, &beta, &cons) && cons &&
        bound_lhh(c, MODEL_ASYNC, &alpha, &lbeta)) {
        double b4 = 2 * x.opt + beta, bl = 2 * alpha * x.opt + lbeta;
        v[THM_T4_N] = 1;
        v[THM_T4] = x.fnf <= b4 + 1e-9;
        v[THM_LHH] = x.fnf <= bl + 1e-9;
        v[THM_LHH_LOOSER] = bl >= b4;
        v[THM_T4_RATIO] = x.fnf > 0 ? b4 / x.fnf : 1;
        v[THM_LHH_RATIO] = x.fnf > 0 ? bl / x.fnf : 1;
    }
    cluster_free(p2);
    cluster_free(c);
    return 0;
}

/* One cluster's row into the sums, in trial order. */
static void theorems_add(struct exp_theorems *t, const double *v)
{
    t->clusters++;
    t->sequences += (long)v[THM_SEQS];
    t->plain_held += v[THM_PLAIN] != 0;
    t->t3_held += v[THM_T3] != 0;
    if (v[THM_T3_RATIO] > t->t3_worst)
        t->t3_worst = v[THM_T3_RATIO];
    t->t2_n += v[THM_P2] != 0;
    t->t2_held += v[THM_T2] != 0;
    if (v[THM_T4_N] != 0) {
        t->t4_n++;
        t->t4_held += v[THM_T4] != 0;
        t->lhh_held += v[THM_LHH] != 0;
        t->lhh_looser += v[THM_LHH_LOOSER] != 0;
        t->t4_ratio += v[THM_T4_RATIO];
        t->lhh_ratio += v[THM_LHH_RATIO];
    }
}

int exp_theorems(unsigned long long seed, int lo, int hi, long runs, const struct exp_gen *g,
                 long long node_limit, struct exp_theorems *t)
{
    memset(t, 0, sizeof *t);
    for (long k = 0; k < runs; k++) {
        struct rng r;
        double v[THM_NV];
        rng_seed_trial(&r, seed, (uint64_t)k);
        if (theorem_trial(&r, lo, hi, g, node_limit, v) < 0)
            return -1;
        theorems_add(t, v);
    }
    return 0;
}

static int thm_setup(const struct xopts *o, struct tctx *t, struct trial_head *h)
{
    t->lo = o->nodes_min ? o->nodes_min : 3;
    t->hi = o->nodes_max ? o->nodes_max : 8;
    t->runs = o->runs ? o->runs : 300;
    if (t->hi > RR_MAX_NODES)
        return opts_error(2, "--nodes: at most %d (the smallest ready-to-receive time tries "
                          "every receiver sequence)", RR_MAX_NODES);
    h->trials = t->runs;
    char a[NUMFMT_SIZE], b[NUMFMT_SIZE], c[NUMFMT_SIZE];
    snprintf(h->options, sizeof h->options,
             "--nodes %d:%d --runs %ld --classes %d --send-range %s:%s --recv %s --latency %s "
             "--node-limit %ld", t->lo, t->hi, t->runs, o->classes, numfmt_shortest(a, o->lo),
             numfmt_shortest(b, o->hi), o->recv, numfmt_shortest(c, o->latency), o->node_limit);
    return 0;
}

static int thm_trial(const void *ctx, long k, struct rng *r, double *v)
{
    const struct tctx *t = ctx;
    struct exp_gen g = {t->o.classes, t->o.lo, t->o.hi, t->o.recv, t->o.latency};
    (void)k;
    return theorem_trial(r, t->lo, t->hi, &g, t->o.node_limit, v);
}

static void thm_print(const void *ctx, const struct trial_head *h, const double *v,
                      enum trial_format f)
{
    const struct tctx *tc = ctx;
    struct exp_theorems t;
    memset(&t, 0, sizeof t);
    for (long k = 0; k < h->trials; k++)
        theorems_add(&t, v + (size_t)k * THM_NV);
    double t4r = t.t4_n ? t.t4_ratio / (double)t.t4_n : 0;
    double lhr = t.t4_n ? t.lhh_ratio / (double)t.t4_n : 0;
    if (f == TF_CSV) {
        trials_head_csv(stdout, h);
        printf("clusters,power2_consistent,t2_held,tr_fnf_smallest,t3_held,t3_worst_ratio,"
               "sequences,consistent_exact,t4_held,lhh_held,lhh_at_least_t4,t4_bound_over_fnf,"
               "lhh_bound_over_fnf\n");
        printf("%ld,%ld,%ld,%ld,%ld,%.6f,%ld,%ld,%ld,%ld,%ld,%.6f,%.6f\n", t.clusters, t.t2_n,
               t.t2_held, t.plain_held, t.t3_held, t.t3_worst, t.sequences, t.t4_n, t.t4_held,
               t.lhh_held, t.lhh_looser, t4r, lhr);
        return;
    }
    if (f == TF_JSON) {
        printf("{");
        trials_head_json(stdout, h);
        printf(", \"rows\": [{\"clusters\": %ld, \"power2_consistent\": %ld, \"t2_held\": %ld, "
               "\"tr_fnf_smallest\": %ld, \"t3_held\": %ld, ", t.clusters, t.t2_n, t.t2_held,
               t.plain_held, t.t3_held);
        json_num("t3_worst_ratio", t.t3_worst, true);
        printf("\"sequences\": %ld, \"consistent_exact\": %ld, \"t4_held\": %ld, \"lhh_held\": %ld, "
               "\"lhh_at_least_t4\": %ld, ", t.sequences, t.t4_n, t.t4_held, t.lhh_held,
               t.lhh_looser);
        json_num("t4_bound_over_fnf", t4r, true);
        json_num("lhh_bound_over_fnf", lhr, false);
        printf("}]}\n");
        return;
    }
    printf("# Liu, Wang & Guo's theorems on random clusters (async; TR: the final ready-to-receive\n"
           "# time, the smallest over every receiver sequence with no idle sender)\n");
    describe_generator(&tc->o, tc->lo, tc->hi);
    printf("clusters                  %ld   (%ld receiver sequences tried)\n", t.clusters,
           t.sequences);
    printf("Theorem 2                 FNF's TR the smallest on %ld of %ld power-2 transforms with "
           "consistent speeds\n", t.t2_held, t.t2_n);
    printf("  without the transform   FNF's TR the smallest on %ld of %ld clusters\n",
           t.plain_held, t.clusters);
    printf("Theorem 3                 TR(fnf) <= 2 x the smallest TR on %ld of %ld (worst ratio "
           "%.4f)\n", t.t3_held, t.clusters, t.t3_worst);
    printf("Theorem 4                 fnf <= 2T + beta on %ld of %ld clusters with consistent "
           "speeds (bound / fnf %.4f on average)\n", t.t4_held, t.t4_n, t4r);
    printf("Libeskind-Hadas-Hartline  fnf <= 2 alpha T + beta on %ld of %ld (bound / fnf %.4f on "
           "average); at least 2T + beta on %ld\n", t.lhh_held, t.t4_n, lhr, t.lhh_looser);
}

static const char *const thm_cols[] = {"sequences", "tr_fnf_smallest", "t3_held", "tr_ratio",
                                       "power2_consistent", "t2_held", "consistent_exact",
                                       "t4_held", "lhh_held", "lhh_at_least_t4",
                                       "t4_bound_over_fnf", "lhh_bound_over_fnf"};
static const struct trial_study thm_study = {THM_NV, thm_cols, thm_trial, thm_print};

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
        if (exp_exact(c, o->node_limit, &x) < 0) {
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
        fprintf(stderr, "%s: no cluster could be solved exactly\n", diag_who());
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

struct study_row {
    const char *name;
    const char *summary;
    int (*fn)(struct xopts *o);
    int (*own)(int argc, char **argv);   /* a study that parses its own options */
    /* a study of numbered trials (app/study/trials.h): its setup and trials */
    int (*setup)(const struct xopts *o, struct tctx *t, struct trial_head *h);
    const struct trial_study *trials;
};

static const struct study_row studies[] = {
    {"fnf-vs-random", "Liu, Wang & Guo Fig. 6: FNF vs random selection, 3 classes, n = 6..100", NULL, NULL, fvr_setup, &fvr_study},
    {"fnf-vs-optimal", "NSC report: how often FNF is optimal on random small clusters", NULL, NULL, fvo_setup, &fvo_study},
    {"counterexample", "search random small clusters for the worst FNF/optimal; prints a CSV", counterexample, NULL, NULL, NULL},
    {"fnf-theorems", "Liu, Wang & Guo Theorems 2-4 and the LHH bound checked on random clusters", NULL, NULL, thm_setup, &thm_study},
    {"optima", "a benchmark set: random clusters with their proven optima, written to --out DIR (docs/optima.md)", NULL, NULL, exp_optima_setup, &exp_optima_study},
    {"optima-check", "optima-check DIR: reload a set, replay its schedules, search and certify again", NULL, exp_optima_check_main, NULL, NULL},
    {"algorithms", "every scheduler's stated guarantee beside its measured ratio to the optimum (own options: --help)", NULL, exp_algorithms_main, NULL, NULL},
    {"segments", "the best number of segments of a message on a node table with # segment: lines (own options: --help)", NULL, exp_segments_main, NULL, NULL},
    {"figueira", "Figueira Figs. 10-15: six broadcast trees on random LNOWs (own options: --help)", NULL, exp_figueira_main, NULL, NULL},
    {"pipeline", "Beaumont, Marchal & Robert Figs. 4-5, Table 3: pipelined trees vs the LP optimum (own options: --help)", NULL, exp_pipeline_main, NULL, NULL},
    {"alltoall", "Chen & Liu Table 7: personalized exchange orders, sync/async (own options: --help)", NULL, exp_alltoall_main, NULL, NULL},
    {"reproduce", "the five papers at their settings against their numbers, the papers since against their claims: docs/reproduction.md (-o FILE)", NULL, exp_reproduce_main, NULL, NULL},
};
#define NSTUDIES ((int)(sizeof studies / sizeof studies[0]))

static void list(FILE *fp)
{
    fprintf(fp, "studies (hetcast experiment NAME [options]):\n");
    for (int i = 0; i < NSTUDIES; i++)
        fprintf(fp, "  %-16s %s\n", studies[i].name, studies[i].summary);
    fprintf(fp, "  %-16s %s\n", "merge", "merge PARTS... [--format F]: the parts of a run made "
                                         "with --shard, printed as the whole run");
    fprintf(fp, "\noptions of the studies above without their own (--shard, --jobs, --resume, "
                "--quiet, json: fnf-vs-random, fnf-vs-optimal, fnf-theorems and optima, docs/studies.md):\n");
    opts_help(fp, xopt_table);
}

static void xopts_default(struct xopts *o)
{
    *o = (struct xopts){.csv = 0, .seed = 1, .classes = 3, .lo = 1, .hi = 10,
                        .recv = "correlated", .latency = 0, .node_limit = OPT_DEFAULT_NODE_LIMIT};
    o->ctl.jobs = 1;
}

/* The options of a study of trials: the setup, refusals of the rest. */
static int trials_setup(const struct study_row *st, struct xopts *o, struct tctx *t,
                        struct trial_head *h)
{
    memset(t, 0, sizeof *t);
    memset(h, 0, sizeof *h);
    t->o = *o;
    text_fit(h->study, sizeof h->study, "%s", st->name);
    h->seed = o->seed;
    int rc = st->setup(o, t, h);
    if (rc == 0 && o->per_size && st->setup != fvo_setup)
        return opts_error(2, "--per-size: only fnf-vs-optimal has it");
    if (rc == 0 && (o->out || o->models) && st->setup != exp_optima_setup)
        return opts_error(2, "%s: only optima has it", o->out ? "--out" : "--models");
    if (rc == 0 && h->trials > 2000000000L)
        return opts_error(2, "%ld trials: at most 2e9 (fewer --runs or sizes)", h->trials);
    return rc;
}

/* hetcast experiment merge [--format F] PARTS... */
static int merge(int argc, char **argv)
{
    static const struct opt tab[] = {
        {"format", X_FORMAT, "F", "text, csv or json (default: the parts' format)", OPT_CHOICE, offsetof(struct xopts, csv),
         0, 0, text_csv_json},
        {NULL, 0, NULL, NULL, OPT_CALL, 0, 0, 0, NULL},
    };
    struct xopts fo;
    xopts_default(&fo);
    fo.csv = -1;   /* no --format: the parts' */
    const char **files = xcalloc((size_t)argc + 1, sizeof *files);
    int nfiles = 0;
    int rc = opts_parse("hetcast experiment merge", tab, argc, argv, NULL, &fo, files, argc,
                        &nfiles);
    if (rc == OPTS_HELP) {
        printf("usage: hetcast experiment merge [--format text|csv|json] PARTS...\n"
               "  the part files of one run (hetcast experiment NAME --shard I/N, every I of one\n"
               "  N, once each), printed exactly as the whole run prints (docs/studies.md), in\n"
               "  the --format the parts were made with unless --format says otherwise\n");
        opts_help(stdout, tab);
        free(files);
        return 0;
    }
    if (rc == 0 && nfiles == 0)
        rc = opts_error(2, "no part files (hetcast experiment merge PARTS...)");
    struct trial_head h;
    int nv = 0, made_as = -1;
    char cols[TRIALS_MAXV][32];
    double *v = NULL;
    if (rc == 0)
        rc = trials_read_parts(nfiles, (char **)files, &h, &nv, cols, &v, &made_as);
    const struct study_row *st = NULL;
    for (int i = 0; rc == 0 && i < NSTUDIES; i++)
        if (studies[i].trials && strcmp(studies[i].name, h.study) == 0)
            st = &studies[i];
    if (rc == 0 && !st) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s: a part of study \"%s\", which has no parts",
                 files[0], h.study);
        opts_say(diag_who(), msg);
        rc = 2;
    }
    if (rc == 0) {
        /* the run's options, parsed as the run parsed them */
        char opts[sizeof h.options + 64];
        snprintf(opts, sizeof opts, "%s --seed %llu", h.options, h.seed);
        char *av[64];
        int ac = 0;
        av[ac++] = (char *)st->name;
        char *save = NULL;
        for (char *tok = strtok_r(opts, " ", &save); tok && ac < 63; tok = strtok_r(NULL, " ", &save))
            av[ac++] = tok;
        av[ac] = NULL;
        struct xopts o;
        xopts_default(&o);
        struct tctx t;
        struct trial_head h2;
        FILE *devnull = fopen("/dev/null", "w");
        rc = parse_xopts(ac, av, &o) == 0 && trials_setup(st, &o, &t, &h2) == 0 ? 0 : 2;
        if (devnull)
            fclose(devnull);
        bool same = rc == 0 && strcmp(h2.options, h.options) == 0 && h2.trials == h.trials &&
                    nv == st->trials->nv;
        for (int j = 0; same && j < nv; j++)
            same = strcmp(cols[j], st->trials->cols[j]) == 0;
        if (!same) {
            char msg[256];
            snprintf(msg, sizeof msg, "%s: its options or columns are not those this hetcast "
                                      "writes for %s", files[0], st->name);
            opts_say(diag_who(), msg);
            rc = 2;
        } else {
            int f = fo.csv >= 0 ? fo.csv : made_as >= 0 ? made_as : TF_TEXT;
            st->trials->print(&t, &h, v, (enum trial_format)f);
        }
    }
    free(v);
    free(files);
    return rc;
}

int experiment_main(int argc, char **argv)
{
    if (argc < 1 || strcmp(argv[0], "--list") == 0 || strcmp(argv[0], "--help") == 0) {
        list(stdout);
        return argc < 1 ? 2 : 0;
    }
    if (strcmp(argv[0], "merge") == 0 && !trials_farmed())
        return merge(argc, argv);
    for (int i = 0; i < NSTUDIES; i++) {
        const struct study_row *st = &studies[i];
        if (strcmp(argv[0], st->name) != 0)
            continue;
        static char who[64];   /* "hetcast experiment NAME": its messages start so */
        snprintf(who, sizeof who, "hetcast experiment %s", st->name);
        diag_set_who(who);
        if (trials_farmed() && !st->trials)
            return opts_error(2, "%s: not under MPI (hetcast-mpi experiment runs the studies of "
                              "numbered trials: fnf-vs-random, fnf-vs-optimal, fnf-theorems, optima)", st->name);
        if (st->own)
            return st->own(argc, argv);
        struct xopts o;
        xopts_default(&o);
        int rc = parse_xopts(argc, argv, &o);
        if (rc == OPTS_HELP) {
            list(stdout);
            return 0;
        }
        if (rc)
            return rc;
        if (trials_farmed() && (o.ctl.jobs > 1 || o.ctl.resume))
            return opts_error(2, "%s: not under MPI (the ranks are the processes; a killed job "
                              "is run again whole)", o.ctl.resume ? "--resume" : "--jobs");
        if (!st->trials) {
            if (o.csv == 2)
                return opts_error(2, "--format json: %s writes text or csv", st->name);
            if (o.ctl.shard_n || o.ctl.jobs > 1 || o.ctl.resume || o.per_size)
                return opts_error(2, "%s: %s runs in one process, whole (--shard, --jobs, "
                                  "--resume: fnf-vs-random, fnf-vs-optimal, fnf-theorems, optima)",
                                  o.per_size ? "--per-size" : o.ctl.shard_n ? "--shard"
                                  : o.ctl.resume ? "--resume" : "--jobs", st->name);
            return st->fn(&o);
        }
        struct tctx t;
        struct trial_head h;
        rc = trials_setup(st, &o, &t, &h);
        if (rc)
            return rc;
        o.ctl.format = (enum trial_format)o.csv;
        return trials_run(st->trials, &t, &h, &o.ctl);
    }
    fprintf(stderr, "%s: unknown study \"%s\"; valid studies:", diag_who(), argv[0]);
    for (int i = 0; i < NSTUDIES; i++)
        fprintf(stderr, "%s %s", i ? "," : "", studies[i].name);
    fprintf(stderr, ", merge\n");
    return 2;
}
