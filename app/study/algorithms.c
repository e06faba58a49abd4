/*
 * app/study/algorithms.c - hetcast experiment algorithms: every scheduler of
 * the registry (sched/registry.h; one added there appears here by itself)
 * on the bundled families, its stated guarantee (struct sched_claim, from
 * its ops table) beside its measured ratio to the proven optimum, worst and
 * mean, in every model.  A measured ratio above a stated guarantee is a
 * bug in the scheduler or in the claim: it is named on stderr and the run
 * ends with status 1.  --claim adds a conjecture to check.
 *
 * The families: the bundled clusters (DATADIR/clusters) of at most
 * --max-nodes nodes; random node tables, every node drawn on its own
 * (send times 1..10 in steps of 0.1, r = s + 1: the NSC report's ranges)
 * and of three classes; Liu, Wang & Guo's Figure 6 cluster; Figueira's
 * random LNOWs (latency matrices).  Deterministic for a given --seed.
 */
#include "app/study/experiment.h"

#include <dirent.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/datadir.h"
#include "app/opts.h"
#include "engine/engine.h"
#include "model/cluster.h"
#include "model/targets.h"
#include "model/generate.h"
#include "sched/certify.h"
#include "sched/optimal.h"
#include "sched/optimal_sum.h"
#include "sched/registry.h"
#include "session/session.h"
#include "output/report.h"
#include "support/csvfield.h"
#include "support/diag.h"
#include "support/numfmt.h"

#define ALG_MAX_CLAIMS 8        /* --claim given at most this often */
#define ALG_NOBJ 2

struct alg_opts {
    int format;                 /* text, csv, json */
    unsigned long long seed;
    long runs;                  /* random clusters per family and size */
    int lo, hi;                 /* sizes of the generated families */
    int max_nodes;              /* bundled clusters of at most this many nodes */
    int sum_max;                /* the sum measured on clusters of at most this many nodes */
    unsigned models;
    long node_limit;            /* search nodes per exact search (no clock) */
    bool no_bundled;
    int nclaims;
    char claim_name[ALG_MAX_CLAIMS][64];
    struct sched_claim claims[ALG_MAX_CLAIMS];
};

/* One scheduler's measurements under one model and objective. */
struct cell {
    long measured, gave_up, refused;
    double worst, sum;
    const struct sched_claim *claim;   /* the first that applies to this model, or NULL */
    long checked, held;
    char worst_on[96];          /* the cluster of the worst ratio */
};

static const char *const objective_names[] = {"makespan", "sum", NULL};

enum { A_FORMAT = OPT_LONG, A_SEED, A_RUNS, A_NODES, A_MAXN, A_SUMMAX, A_MODELS, A_NODES_LIMIT, A_CLAIM,
       A_NOBUNDLED };

static int alg_set(void *ctx, int key, const char *a, const char *v)
{
    struct alg_opts *o = ctx;
    if (key == A_NODES) {
        long lo, hi;
        if (opt_range(a, v, 2, OPT_DEFAULT_MAX_NODES, &lo, &hi))
            return 2;
        o->lo = (int)lo;
        o->hi = (int)hi;
    } else if (key == A_MODELS) {
        return exp_parse_models(a, v, &o->models);
    } else if (key == A_CLAIM) {
        /* NAME:OBJECTIVE:MODELS:FACTOR */
        char buf[256], *f[4], *save = NULL;
        int nf = 0;
        snprintf(buf, sizeof buf, "%s", v);
        for (char *tok = strtok_r(buf, ":", &save); tok && nf < 4; tok = strtok_r(NULL, ":", &save))
            f[nf++] = tok;
        const char *want = "NAME:OBJECTIVE:MODELS:FACTOR (fnf:makespan:sender-only:1.5; "
                           "objective makespan or sum; models as --models)";
        int obj;
        double factor;
        if (nf != 4 || strtok_r(NULL, ":", &save))
            return opt_fail(a, v, want);
        if (!sched_find(f[0])) {
            char *names = sched_names(), w[1024];
            snprintf(w, sizeof w, "a scheduler (%s) first", names);
            free(names);
            return opt_fail(a, v, w);
        }
        if (opt_choice(a, f[1], objective_names, &obj) || opt_double(a, f[3], 1, &factor))
            return 2;
        if (o->nclaims == ALG_MAX_CLAIMS)
            return opt_fail(a, v, "at most 8 claims");
        struct sched_claim *cl = &o->claims[o->nclaims];
        if (exp_parse_models(a, f[2], &cl->models))
            return 2;
        snprintf(o->claim_name[o->nclaims], sizeof o->claim_name[0], "%s", f[0]);
        cl->kinds = ~0u;
        cl->objective = (enum sched_objective)obj;
        cl->factor = factor;
        cl->source = "--claim";
        o->nclaims++;
    }
    return 0;
}

static void alg_help(FILE *fp)
{
    fprintf(fp,
            "hetcast experiment algorithms [options] [CLUSTER...]: every scheduler's stated\n"
            "guarantee beside its measured ratio to the proven optimum (docs/models.md).\n"
            "Families: the bundled clusters of at most --max-nodes nodes, random node tables\n"
            "(every node drawn on its own, and 3 classes), Liu, Wang & Guo's Figure 6 cluster,\n"
            "Figueira's random LNOWs; and any CLUSTER files given.  A ratio above a stated\n"
            "guarantee is named on stderr and the status is 1.\n"
            "\n"
            "  --nodes LO:HI       sizes of the generated clusters (default 3:5)\n"
            "  --runs R            random clusters per family and size (default 3)\n"
            "  --max-nodes N       bundled clusters of at most N nodes (default 8)\n"
            "  --no-bundled        only the generated families and the files given\n"
            "  --models M,M..      port models (default all)\n"
            "  --sum-max N         the sum of completion times measured against GLPK's least\n"
            "                      sum on clusters of at most N nodes (default 5; at most %d)\n"
            "  --claim NAME:OBJECTIVE:MODELS:FACTOR  also check a conjectured guarantee, e.g.\n"
            "                      fnf:makespan:async:1.2 (objective makespan or sum)\n"
            "  --node-limit N      search nodes per exact search (default %lld; no clock)\n"
            "  --seed N            seed (default 1)\n"
            "  --format F          text (default), csv or json\n", CERTIFY_MAX_NODES,
            OPT_DEFAULT_NODE_LIMIT);
}

/* ---- the families ---- */

struct family {
    struct cluster **c;
    int n, cap;
};

static void add(struct family *f, struct cluster *c)
{
    if (f->n == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 32;
        f->c = xrealloc(f->c, (size_t)f->cap * sizeof *f->c);
    }
    f->c[f->n++] = c;
}

static int load_file(struct family *f, const char *path, int max_nodes, bool must)
{
    struct session_opts so;
    session_opts_init(&so);
    so.file = path;
    char *cause = NULL;
    struct cluster *c = session_load(&so, NULL, &cause);
    if (!c) {
        if (must)
            fprintf(stderr, "hetcast experiment algorithms: %s\n", cause);
        free(cause);
        return must ? -1 : 0;
    }
    if (must && cluster_multicast(c)) {
        char nm[140];
        fprintf(stderr, "hetcast experiment algorithms: %s: a multicast (its # targets:); the guarantees "
                "measured here are a broadcast's\n", SHOWN(path, nm));
        cluster_free(c);
        return -1;
    }
    if (!must && (c->n > max_nodes || cluster_multicast(c))) {
        cluster_free(c);
        return 0;
    }
    add(f, c);
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The bundled clusters, in name order. */
static void load_bundled(struct family *f, int max_nodes)
{
    const char *dd = app_datadir();
    if (!dd)
        return;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/clusters", dd);
    DIR *d = opendir(dir);
    if (!d)
        return;
    char **names = NULL;
    int nn = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len > 4 && (strcmp(de->d_name + len - 4, ".csv") == 0 || strcmp(de->d_name + len - 4, ".lua") == 0)) {
            names = xrealloc(names, (size_t)(nn + 1) * sizeof *names);
            names[nn++] = xstrdup(de->d_name);
        }
    }
    closedir(d);
    qsort(names, (size_t)nn, sizeof *names, cmp_str);
    for (int i = 0; i < nn; i++) {
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        load_file(f, path, max_nodes, false);
        free(names[i]);
    }
    free(names);
}

static void name_it(struct cluster *c, const char *fmt, int n, long run)
{
    char name[64];
    snprintf(name, sizeof name, fmt, n, run);
    cluster_set_str(&c->name, name);
}

static void generate(struct family *f, const struct alg_opts *o)
{
    struct exp_gen own = {0, 1, 10, "correlated", 0}, three = {3, 1, 10, "correlated", 0};
    for (int n = o->lo; n <= o->hi; n++) {
        for (long run = 1; run <= o->runs; run++) {
            struct rng r;
            rng_seed_trial(&r, o->seed, (uint64_t)(n * 1000 + run));
            struct cluster *c = exp_random_cluster(&r, n, &own);
            name_it(c, "random-n%d-%ld", n, run);
            add(f, c);
            c = exp_random_cluster(&r, n, &three);
            name_it(c, "3-classes-n%d-%ld", n, run);
            add(f, c);
            int groups;
            struct cluster *hops = generate_lnow(&r, n, n, 3, &groups);
            c = exp_figueira_latencies(hops, 1, 1);
            cluster_free(hops);
            name_it(c, "lnow-n%d-%ld", n, run);
            add(f, c);
        }
        if (n >= 3) {
            struct cluster *c = exp_fig6_cluster(n);
            name_it(c, "fig6-n%d%.0ld", n, 0L);
            add(f, c);
        }
    }
}

/* ---- measuring ---- */

static const struct sched_claim *claim_for(const struct alg_opts *o, const struct sched_ops *ops,
                                           enum model m, enum sched_objective obj, unsigned kindbit,
                                           bool any_kind)
{
    for (int i = 0; i < o->nclaims; i++)
        if (strcmp(o->claim_name[i], ops->name) == 0 && (o->claims[i].models & MODEL_BIT(m)) &&
            o->claims[i].objective == obj && (any_kind || (o->claims[i].kinds & kindbit)))
            return &o->claims[i];
    for (const struct sched_claim *cl = ops->claims; cl && cl->factor > 0; cl++)
        if ((cl->models & MODEL_BIT(m)) && cl->objective == obj && (any_kind || (cl->kinds & kindbit)))
            return cl;
    return NULL;
}

/* One run: 0 with its makespan and sum, 1 when it gave up (optimal kinds), -1 refused. */
static int run_one(const struct cluster *c, enum model m, const struct sched_ops *ops,
                   const struct alg_opts *o, double *ms, double *sum)
{
    struct engine e;
    struct sched s;
    struct sched_opts so;
    sched_opts_default(&so);
    so.seed = o->seed;
    so.time_limit = SCHED_NO_CLOCK;
    so.node_limit = o->node_limit;
    if (sched_check(ops, c, m, NULL) < 0 || engine_init(&e, c, m, NULL) < 0)
        return -1;
    sched_init(&s, ops, &so);
    int rc = sched_run(&e, &s, NULL) < 0 ? -1 : s.status == OPT_GAVE_UP ? 1 : 0;
    *ms = e.makespan;
    *sum = sched_sum_of_holds(&e);
    sched_free(&s);
    engine_free(&e);
    return rc;
}

static bool above(double ratio, double factor)
{
    return ratio > factor * (1 + 1e-9);
}

static void measure(struct cell *cl, double ratio, const char *cluster, const struct sched_claim *claim,
                    const struct sched_ops *ops, enum model m, const char *obj, int *violations)
{
    cl->measured++;
    cl->sum += ratio;
    if (ratio > cl->worst) {
        cl->worst = ratio;
        snprintf(cl->worst_on, sizeof cl->worst_on, "%s", cluster);
    }
    if (!claim)
        return;
    cl->checked++;
    if (!above(ratio, claim->factor)) {
        cl->held++;
        return;
    }
    (*violations)++;
    char nm[140];
    fprintf(stderr, "hetcast experiment algorithms: %s's %s under %s on %s is %.6g x the least, "
            "above its guarantee %g (%s)\n", ops->name, obj, model_name(m), SHOWN(cluster, nm), ratio,
            claim->factor, claim->source);
}

/* Every scheduler on c under m: the cells [scheduler][model][objective]. */
static void measure_cluster(const struct cluster *c, enum model m, const struct alg_opts *o,
                            struct cell *cells, int *violations)
{
    int ns = sched_count();
    struct sched_opts so;
    sched_opts_default(&so);
    so.time_limit = SCHED_NO_CLOCK;
    so.node_limit = o->node_limit;
    struct opt_plan plan;
    if (sched_check(&sched_optimal, c, m, NULL) < 0 || optimal_solve(c, m, &so, &plan, NULL) < 0)
        return;
    bool proven = plan.status == OPT_PROVEN;
    double opt = plan.makespan;
    opt_plan_free(&plan);
    /* the least sum, for the schedulers that claim something of it */
    double least_sum = NAN;
    bool sum_wanted = false;
    for (int i = 0; i < ns; i++)
        sum_wanted |= claim_for(o, sched_at(i), m, SCHED_SUM, CLUSTER_KIND_BIT(c->kind), false) != NULL;
    if (sum_wanted && c->n <= o->sum_max) {
        struct certify_plan cp;
        char *cause = NULL;
        if (certify_solve(c, m, CERTIFY_SUM, 0, NULL, &cp, &cause) == 0 && cp.proven)
            least_sum = cp.sum;
        free(cause);
    }
    const char *name = c->name ? c->name : "cluster";
    for (int i = 0; i < ns; i++) {
        const struct sched_ops *ops = sched_at(i);
        struct cell *mk = &cells[((size_t)i * MODEL_COUNT + m) * ALG_NOBJ + SCHED_MAKESPAN];
        struct cell *sm = &cells[((size_t)i * MODEL_COUNT + m) * ALG_NOBJ + SCHED_SUM];
        double ms, sum;
        if (ops == &sched_optimal_sum && c->n > o->sum_max) {
            mk->refused++;   /* GLPK's sum program grows too fast: not run */
            continue;
        }
        int rc = run_one(c, m, ops, o, &ms, &sum);
        if (rc < 0) {
            mk->refused++;
            continue;
        }
        unsigned kb = CLUSTER_KIND_BIT(c->kind);
        if (rc == 1 || !proven)
            mk->gave_up++;
        else
            measure(mk, opt > 0 ? ms / opt : 1, name, claim_for(o, ops, m, SCHED_MAKESPAN, kb, false),
                    ops, m, "makespan", violations);
        const struct sched_claim *sc = claim_for(o, ops, m, SCHED_SUM, kb, false);
        if (sc && rc == 0 && !isnan(least_sum))
            measure(sm, least_sum > 0 ? sum / least_sum : 1, name, sc, ops, m, "sum", violations);
        else if (sc && c->n > o->sum_max)
            sm->refused++;
        else if (sc)
            sm->gave_up++;
    }
}

/* ---- printing ---- */

static void guarantee_text(const struct cell *cl, char *buf, size_t size)
{
    if (!cl->claim)
        snprintf(buf, size, "none");
    else
        snprintf(buf, size, "%g (%s)", cl->claim->factor, cl->claim->source);
}

static void print(const struct alg_opts *o, int nclusters, struct cell *cells)
{
    int ns = sched_count();
    if (o->format == 1)
        printf("# hetcast experiment algorithms: %d clusters, seed %llu\n"
               "scheduler,model,objective,guarantee,source,clusters,worst,mean,worst_on,"
               "guarantee_held,gave_up,not_applicable\n", nclusters, o->seed);
    else if (o->format == 2)
        printf("{\"study\": \"algorithms\", \"seed\": %llu, \"clusters\": %d, \"rows\": [",
               o->seed, nclusters);
    else
        printf("# every scheduler's makespan (and, where it claims something of it, its sum of\n"
               "# completion times) over the least, on %d clusters (docs/models.md); guarantee:\n"
               "# the scheduler's proven factor where its source gives one; held: clusters within\n"
               "# it; gave up: the exact search (or the scheduler's own) stopped at its limit;\n"
               "# n/a: not run (the scheduler does not take the cluster or model; the sum: a\n"
               "# cluster above --sum-max)\n"
               "%-24s %-12s %-8s %-26s %6s %8s %8s %8s %7s %5s\n", nclusters, "scheduler", "model",
               "of", "guarantee", "runs", "worst", "mean", "held", "gaveup", "n/a");
    bool first = true;
    for (int i = 0; i < ns; i++)
        for (int m = 0; m < MODEL_COUNT; m++)
            for (int ob = 0; ob < ALG_NOBJ; ob++) {
                const struct sched_ops *ops = sched_at(i);
                struct cell *cl = &cells[((size_t)i * MODEL_COUNT + (size_t)m) * ALG_NOBJ + (size_t)ob];
                if (!(o->models & MODEL_BIT(m)) || (ob == SCHED_SUM && !cl->claim))
                    continue;
                if (!cl->measured && !cl->gave_up && !cl->refused)
                    continue;
                char g[160], worst[32], mean[32], held[32];
                guarantee_text(cl, g, sizeof g);
                snprintf(worst, sizeof worst, cl->measured ? "%.4f" : "-", cl->worst);
                snprintf(mean, sizeof mean, cl->measured ? "%.4f" : "-",
                         cl->measured ? cl->sum / (double)cl->measured : 0);
                if (cl->claim)
                    snprintf(held, sizeof held, "%ld/%ld", cl->held, cl->checked);
                else
                    snprintf(held, sizeof held, "-");
                const char *obj = objective_names[ob], *model = model_name((enum model)m);
                if (o->format == 1) {
                    printf("%s,%s,%s,", ops->name, model, obj);
                    if (cl->claim)
                        printf("%g,\"%s\",", cl->claim->factor, cl->claim->source);
                    else
                        printf("none,,");
                    printf("%ld,%s,%s,", cl->measured, cl->measured ? worst : "",
                           cl->measured ? mean : "");
                    csvfield_put(stdout, cl->worst_on);
                    printf(",%s,%ld,%ld\n", cl->claim ? held : "", cl->gave_up, cl->refused);
                } else if (o->format == 2) {
                    printf("%s{\"scheduler\": \"%s\", \"model\": \"%s\", \"objective\": \"%s\", ",
                           first ? "" : ", ", ops->name, model, obj);
                    if (cl->claim)
                        printf("\"guarantee\": %g, \"source\": \"%s\", \"guarantee_held\": %ld, "
                               "\"guarantee_checked\": %ld, ", cl->claim->factor, cl->claim->source,
                               cl->held, cl->checked);
                    else
                        printf("\"guarantee\": null, ");
                    printf("\"clusters\": %ld, \"worst\": %s, \"mean\": %s, \"worst_on\": ",
                           cl->measured, cl->measured ? worst : "null", cl->measured ? mean : "null");
                    report_json_string(stdout, cl->worst_on);
                    printf(", \"gave_up\": %ld, \"not_applicable\": %ld}", cl->gave_up, cl->refused);
                } else {
                    printf("%-24s %-12s %-8s %-26.26s %6ld %8s %8s %8s %7ld %5ld\n", ops->name, model,
                           obj, g, cl->measured, worst, mean, held, cl->gave_up, cl->refused);
                }
                first = false;
            }
    if (o->format == 2)
        printf("]}\n");
}

int exp_algorithms_main(int argc, char **argv)
{
    struct alg_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    o.runs = 3;
    o.lo = 3;
    o.hi = 5;
    o.max_nodes = 8;
    o.sum_max = 5;
    o.node_limit = OPT_DEFAULT_NODE_LIMIT;
#define AT(f) offsetof(struct alg_opts, f)
    static const char *const formats[] = {"text", "csv", "json", NULL};
    const struct opt tab[] = {
        {"format", A_FORMAT, "F", NULL, OPT_CHOICE, AT(format), 0, 0, formats},
        {"seed", A_SEED, "N", NULL, OPT_SEED, AT(seed), 0, 0, NULL},
        {"runs", A_RUNS, "R", NULL, OPT_LONGINT, AT(runs), 0, 10000, NULL},
        {"nodes", A_NODES, "LO:HI", NULL, OPT_CALL, 0, 0, 0, NULL},
        {"max-nodes", A_MAXN, "N", NULL, OPT_INT, AT(max_nodes), 0, OPT_DEFAULT_MAX_NODES, NULL},
        {"sum-max", A_SUMMAX, "N", NULL, OPT_INT, AT(sum_max), 0, CERTIFY_MAX_NODES, NULL},
        {"models", A_MODELS, "M,M..", NULL, OPT_CALL, 0, 0, 0, NULL},
        {"node-limit", A_NODES_LIMIT, "N", NULL, OPT_LONGINT, AT(node_limit), 1, 1e15, NULL},
        {"claim", A_CLAIM, "C", NULL, OPT_CALL, 0, 0, 0, NULL},
        {"no-bundled", A_NOBUNDLED, NULL, NULL, OPT_FLAG, AT(no_bundled), 0, 0, NULL},
        {NULL, 0, NULL, NULL, OPT_CALL, 0, 0, 0, NULL},
    };
#undef AT
    const char **files = xcalloc((size_t)argc + 1, sizeof *files);
    int nfiles = 0;
    int rc = opts_parse("hetcast experiment algorithms", tab, argc, argv, alg_set, &o, files, argc,
                        &nfiles);
    if (rc == OPTS_HELP) {
        alg_help(stdout);
        free(files);
        return 0;
    }
    if (rc) {
        free(files);
        return rc;
    }
    if (!o.models)
        o.models = MODEL_ALL;
    struct family f = {NULL, 0, 0};
    if (!o.no_bundled)
        load_bundled(&f, o.max_nodes);
    for (int i = 0; i < nfiles && rc == 0; i++)
        if (load_file(&f, files[i], o.max_nodes, true) < 0)
            rc = 2;
    free(files);
    if (rc == 0)
        generate(&f, &o);
    int ns = sched_count(), violations = 0;
    struct cell *cells = xcalloc((size_t)ns * MODEL_COUNT * ALG_NOBJ, sizeof *cells);
    for (int i = 0; i < ns; i++)
        for (int m = 0; m < MODEL_COUNT; m++)
            for (int ob = 0; ob < ALG_NOBJ; ob++) {
                struct cell *cl = &cells[((size_t)i * MODEL_COUNT + (size_t)m) * ALG_NOBJ + (size_t)ob];
                cl->worst = 0;
                /* the row's guarantee: its claim on node tables, else on any kind */
                cl->claim = claim_for(&o, sched_at(i), (enum model)m, (enum sched_objective)ob,
                                      CLUSTER_KIND_BIT(CLUSTER_NODES), false);
                if (!cl->claim)
                    cl->claim = claim_for(&o, sched_at(i), (enum model)m, (enum sched_objective)ob, 0, true);
            }
    for (int k = 0; rc == 0 && k < f.n; k++)
        for (int m = 0; m < MODEL_COUNT; m++)
            if (o.models & MODEL_BIT(m))
                measure_cluster(f.c[k], (enum model)m, &o, cells, &violations);
    if (rc == 0)
        print(&o, f.n, cells);
    for (int k = 0; k < f.n; k++)
        cluster_free(f.c[k]);
    free(f.c);
    free(cells);
    if (rc == 0 && violations)
        fprintf(stderr, "hetcast experiment algorithms: %d measured ratio%s above a stated guarantee\n",
                violations, violations == 1 ? "" : "s");
    return rc ? rc : violations ? 1 : 0;
}
