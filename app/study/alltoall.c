/*
 * app/study/alltoall.c - hetcast experiment alltoall: Chen & Liu's four groups of
 * experiments (Table 7) -- all-to-all and all-to-some, synchronous and
 * asynchronous -- with the mean and the variance of the completion time of
 * every order over seeded runs (Figures 6-12, Table 8).
 *
 * Every run is deterministic for its seed (seed, seed+1, ...): the seed draws
 * the random orders and the random ties between senders (and, with
 * --receivers random, the receivers).  Fixed orders (caterpillar, matching,
 * greedy) are built once per point and reused by its runs.
 */
#include "app/study/experiment.h"
#include "model/generate.h"
#include "app/opts.h"

#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/exchange.h"
#include "support/numfmt.h"
#include "output/report.h"
#include "support/rng.h"

struct aopts {
    int csv;              /* --format: text (0) or csv (1) */
    unsigned long long seed;
    long runs;
    int nodes_lo, nodes_hi, step;  /* all-to-all sizes */
    int some_nodes;                /* all-to-some size */
    int random_recv;               /* --receivers: block (0, from P80) or random (1) */
    bool algo[XSCHED_COUNT];       /* the orders, by their place in xsched_at */
    bool group[4];
    bool algos_given, groups_given;   /* parsing: a list given replaces the default */
};

static const char *const a_receivers[] = {"block", "random", NULL};

static const struct {
    enum model model;
    enum xpattern pattern;
    const char *title;
} groups[4] = {
    {MODEL_SYNC, XPAT_ALL_TO_ALL, "synchronous all-to-all (Figures 6, 7)"},
    {MODEL_ASYNC, XPAT_ALL_TO_ALL, "asynchronous all-to-all (Figures 8, 9)"},
    {MODEL_SYNC, XPAT_ALL_TO_SOME, "synchronous all-to-some (Figures 10, 11)"},
    {MODEL_ASYNC, XPAT_ALL_TO_SOME, "asynchronous all-to-some (Table 8, Figure 12)"},
};

static const double percents[] = {10, 20, 30, 40, 50, 60};
#define NPERCENTS ((int)(sizeof percents / sizeof percents[0]))

/* Table 8 of the paper: random, RSPB, ORSPB, caterpillar at 10 %..60 %. */
static const double table8[NPERCENTS][4] = {
    {992.27, 992.21, 992.76, 994},   {993.5, 993.27, 993.14, 994}, {994.84, 994.83, 993.96, 996},
    {996.23, 996.05, 995.9, 996},    {997.93, 997.36, 996.41, 1001}, {999.2, 998.91, 997.78, 1001},
};

/* k of the n nodes at random, increasing. */
static int random_receivers(struct rng *r, int n, double pct, int *recv)
{
    int k = (int)floor(n * pct / 100 + 0.5);
    if (k < 1)
        k = 1;
    int *all = xmalloc((size_t)n * sizeof *all);
    for (int i = 0; i < n; i++)
        all[i] = i;
    for (int i = 0; i < k; i++) {
        int j = i + (int)rng_below(r, (uint64_t)(n - i)), t = all[i];
        all[i] = all[j];
        all[j] = t;
    }
    memcpy(recv, all, (size_t)k * sizeof *recv);
    free(all);
    for (int i = 1; i < k; i++)   /* insertion sort: k is small */
        for (int j = i; j > 0 && recv[j - 1] > recv[j]; j--) {
            int t = recv[j];
            recv[j] = recv[j - 1];
            recv[j - 1] = t;
        }
    return k;
}

static bool fixed_order(const struct xsched_ops *ops)
{
    return ops->build && !ops->randomized;
}

/* The place of the order called name in xsched_at, or -1. */
static int xsched_index(const char *name)
{
    for (int a = 0; a < XSCHED_COUNT; a++)
        if (strcmp(xsched_at(a)->name, name) == 0)
            return a;
    return -1;
}

struct stats {
    double sum, sumsq, min, max, lb;
    long n;
};

static void add(struct stats *s, double x)
{
    if (s->n == 0 || x < s->min)
        s->min = x;
    if (s->n == 0 || x > s->max)
        s->max = x;
    s->sum += x;
    s->sumsq += x * x;
    s->n++;
}

static double mean(const struct stats *s)
{
    return s->n ? s->sum / (double)s->n : NAN;
}

/* The sample variance (divided by runs - 1; 0 for one run). */
static double variance(const struct stats *s)
{
    if (s->n < 2)
        return 0;
    double m = mean(s), v = (s->sumsq - (double)s->n * m * m) / (double)(s->n - 1);
    return v < 0 ? 0 : v;
}

/* One point's setting: the model, the pattern, the runs and their seeds,
 * the receivers (all-to-some: a block from node `first`, from 0.8 n when
 * first < 0, or a random subset per run). */
struct point {
    enum model model;
    enum xpattern pattern;
    long runs;
    unsigned long long seed;
    bool random_recv;
    int first;
};

/* A block of k = pct % of the n nodes from node first, wrapping to node 0. */
static int block_from(int n, double pct, int first, int *recv)
{
    int k = generate_alltoall_receivers(n, pct, recv);   /* its k; the block from 0.8 n */
    if (first < 0)
        return k;
    for (int i = 0; i < k; i++)
        recv[i] = (first + i) % n;
    for (int i = 1; i < k; i++)   /* increasing, as generate_alltoall_receivers's */
        for (int j = i; j > 0 && recv[j - 1] > recv[j]; j--) {
            int t = recv[j];
            recv[j] = recv[j - 1];
            recv[j - 1] = t;
        }
    return k;
}

/* The runs of one point for one order. */
static int point_runs(const struct point *pt, const struct cluster *c, double pct,
                      const struct xsched_ops *ops, struct stats *st)
{
    int n = c->n, *recv = xmalloc((size_t)n * sizeof *recv), nrecv = n;
    if (pt->pattern == XPAT_ALL_TO_SOME && !pt->random_recv)
        nrecv = block_from(n, pct, pt->first, recv);
    int *order = NULL, rc = 0;
    memset(st, 0, sizeof *st);
    for (long k = 0; k < pt->runs && rc == 0; k++) {
        uint64_t seed = pt->seed + (unsigned long long)k;
        if (pt->pattern == XPAT_ALL_TO_SOME && pt->random_recv) {
            struct rng r;
            rng_seed(&r, seed ^ 0x616c6c746f736f6dULL);
            nrecv = random_receivers(&r, n, pct, recv);
        }
        struct exchange_opts xo = {.pattern = pt->pattern, .recv = recv, .nrecv = nrecv,
                                   .ops = ops, .seed = seed, .order = order, .lean = true};
        struct exchange x;
        char *cause = NULL;
        if (exchange_run(&x, c, pt->model, &xo, &cause) < 0) {
            opts_say(diag_who(), cause);
            free(cause);
            rc = -1;
            break;
        }
        add(st, x.completion);
        st->lb += x.lower_bound;
        /* a fixed order is the same for every run of the point: keep it */
        if (fixed_order(ops) && !order && !pt->random_recv && x.order) {
            order = xmalloc((size_t)n * nrecv * sizeof *order);
            memcpy(order, x.order, (size_t)n * nrecv * sizeof *order);
        }
        exchange_free(&x);
    }
    st->lb /= (double)(st->n ? st->n : 1);
    free(order);
    free(recv);
    return rc;
}

static int run_point(const struct aopts *o, int g, const struct cluster *c, double pct,
                     const struct xsched_ops *ops, struct stats *st)
{
    struct point pt = {groups[g].model, groups[g].pattern, o->runs, o->seed, o->random_recv != 0,
                       -1};
    return point_runs(&pt, c, pct, ops, st);
}

int exp_alltoall_point(enum model m, enum xpattern pattern, const struct cluster *c, double pct,
                       int first, long runs, unsigned long long seed,
                       const struct xsched_ops *ops, double *mean_out, double *variance_out)
{
    struct point pt = {m, pattern, runs, seed, false, first};
    struct stats st;
    if (point_runs(&pt, c, pct, ops, &st) < 0)
        return -1;
    *mean_out = mean(&st);
    *variance_out = variance(&st);
    return 0;
}

int exp_alltoall_random_sets(enum model m, const struct cluster *c, double pct, long runs,
                             unsigned long long seed, const struct xsched_ops *ops, double target,
                             double *lo, double *hi, long *near)
{
    *near = 0;
    for (long k = 0; k < runs; k++) {
        struct point pt = {m, XPAT_ALL_TO_SOME, 1, seed + (unsigned long long)k, true, -1};
        struct stats st;
        if (point_runs(&pt, c, pct, ops, &st) < 0)
            return -1;
        if (k == 0 || st.min < *lo)
            *lo = st.min;
        if (k == 0 || st.max > *hi)
            *hi = st.max;
        *near += fabs(st.min - target) <= 1;
    }
    return 0;
}

static void header(const struct aopts *o)
{
    printf("# Chen & Liu, Empirical Studies of Collective Communication in Heterogeneous Cluster\n"
           "# Systems (2002): the four groups of Table 7.  Nodes in thirds, send = receive overhead\n"
           "# 1 (fast), 5 (normal), 10 (slow); latency 1.  all-to-all: N = %d..%d; all-to-some:\n"
           "# N = %d, 10 %%..60 %% of the nodes receive (%s).\n"
           "# %ld run%s per point, seeds %llu..%llu (random orders, ties%s); mean and sample\n"
           "# variance of the completion time; lb: the lower bound (max over nodes of max(total\n"
           "# send time, total receive time)).\n",
           o->nodes_lo, o->nodes_hi, o->some_nodes,
           o->random_recv ? "a random subset per run" : "a block of nodes from P80, wrapping to P0",
           o->runs, o->runs == 1 ? "" : "s", o->seed, o->seed + (unsigned long long)o->runs - 1,
           o->random_recv ? ", receivers" : "");
}

static void table_head(const struct aopts *o, int g)
{
    printf("\ngroup %d: %s\n%5s %5s %9s", g + 1, groups[g].title, "N", "recv", "lb");
    for (int a = 0; a < XSCHED_COUNT; a++)
        if (o->algo[a])
            printf("  %21s", xsched_at(a)->name);
    printf("\n%5s %5s %9s", "", "", "");
    for (int a = 0; a < XSCHED_COUNT; a++)
        if (o->algo[a])
            printf("  %10s %10s", "mean", "variance");
    printf("\n");
}

static int run_group(const struct aopts *o, int g)
{
    bool some = groups[g].pattern == XPAT_ALL_TO_SOME;
    int npoints = some ? NPERCENTS : (o->nodes_hi - o->nodes_lo) / o->step + 1;
    if (!o->csv)
        table_head(o, g);
    for (int i = 0; i < npoints; i++) {
        int n = some ? o->some_nodes : o->nodes_lo + i * o->step;
        double pct = some ? percents[i] : 100;
        struct cluster *c = generate_alltoall(n);
        struct stats st[XSCHED_COUNT];
        double lb = NAN;
        for (int a = 0; a < XSCHED_COUNT; a++) {
            if (!o->algo[a])
                continue;
            if (run_point(o, g, c, pct, xsched_at(a), &st[a]) < 0) {
                cluster_free(c);
                return 1;
            }
            lb = st[a].lb;
        }
        char recv[16];
        snprintf(recv, sizeof recv, some ? "%g%%" : "all", pct);
        for (int a = 0; a < XSCHED_COUNT && o->csv; a++)
            if (o->algo[a]) {
                char m[40], lbs[40];
                numfmt_shortest(lbs, st[a].lb);
                snprintf(m, sizeof m, "%.4f", mean(&st[a]));
                printf("%d,%s,%s,%d,%s,%s,%ld,%s,%.4f,%g,%g,%s\n", g + 1,
                       model_name(groups[g].model), exchange_pattern_name(groups[g].pattern), n,
                       recv, xsched_at(a)->name, st[a].n, m, variance(&st[a]),
                       st[a].min, st[a].max, lbs);
            }
        if (!o->csv) {
            printf("%5d %5s %9.6g", n, recv, lb);
            for (int a = 0; a < XSCHED_COUNT; a++)
                if (o->algo[a])
                    printf("  %10.2f %10.2f", mean(&st[a]), variance(&st[a]));
            printf("\n");
        }
        cluster_free(c);
    }
    if (!o->csv && g == 3 && o->some_nodes == 100 && !o->random_recv) {
        printf("the paper's Table 8 (means):\n");
        for (int i = 0; i < NPERCENTS; i++)
            printf("%5d %4g%%  random %.2f  rspb %.2f  orspb %.2f  caterpillar %.2f\n", 100,
                   percents[i], table8[i][0], table8[i][1], table8[i][2], table8[i][3]);
    }
    return 0;
}

static void help(FILE *fp)
{
    char *names = xsched_names();
    fprintf(fp,
            "hetcast experiment alltoall [options]: Chen & Liu's personalized exchange study\n"
            "  --format text|csv     (default text)\n"
            "  --seed N              first seed; run k uses N + k (default 1)\n"
            "  --runs N              runs per point (default 100)\n"
            "  --nodes LO:HI         all-to-all sizes (default 30:80), every --step (default 10)\n"
            "  --some-nodes N        all-to-some size (default 100); 10 %%..60 %% receive\n"
            "  --receivers block|random  all-to-some receivers: a block from node 0.8 N (default,\n"
            "                        as the paper's P80..P89), or a random subset per run\n"
            "  --schedulers LIST     comma-separated (default random,caterpillar,rspb,orspb, the\n"
            "                        paper's four), or all (%s)\n"
            "  --groups LIST         of Table 7's groups 1-4 (default 1,2,3,4): 1 sync all-to-all,\n"
            "                        2 async all-to-all, 3 sync all-to-some, 4 async all-to-some\n",
            names);
    free(names);
}

/* --groups or --schedulers "a,b,c": sets them in o; returns 0 or an exit status. */
static int parse_list(const char *opt, const char *v, struct aopts *o, bool groups_list)
{
    char *copy = xstrdup(v);
    int rc = 0;
    for (char *tok = copy; tok && rc == 0;) {
        char *comma = strchr(tok, ',');
        if (comma)
            *comma = '\0';
        if (groups_list) {
            long g;
            if (opt_long(opt, tok, 1, 4, &g))
                rc = 2;
            else
                o->group[g - 1] = true;
        } else if (strcmp(tok, "all") == 0) {
            for (int a = 0; a < XSCHED_COUNT; a++)
                o->algo[a] = true;
        } else {
            int a = xsched_index(tok);
            if (a < 0) {
                char *names = xsched_names();
                char want[256];
                snprintf(want, sizeof want, "a list of: all, %s", names);
                free(names);
                rc = opt_fail(opt, v, want);
            } else {
                o->algo[a] = true;
            }
        }
        tok = comma ? comma + 1 : NULL;
    }
    free(copy);
    return rc;
}

enum { A_FORMAT = OPT_LONG, A_SEED, A_RUNS, A_NODES, A_STEP, A_SOME, A_RECEIVERS, A_SCHEDULERS,
       A_GROUPS };

#define AT(f) offsetof(struct aopts, f)
static const struct opt a_table[] = {
    {"format", A_FORMAT, "F", NULL, OPT_CHOICE, AT(csv), 0, 0, opts_text_csv},
    {"seed", A_SEED, "N", NULL, OPT_SEED, AT(seed), 0, 0, NULL},
    {"runs", A_RUNS, "N", NULL, OPT_LONGINT, AT(runs), 1, 1000000L, NULL},
    {"nodes", A_NODES, "LO:HI", NULL, OPT_CALL, 0, 0, 0, NULL},
    {"step", A_STEP, "N", NULL, OPT_INT, AT(step), 1, 2000, NULL},
    {"some-nodes", A_SOME, "N", NULL, OPT_INT, AT(some_nodes), 1, 2000, NULL},
    {"receivers", A_RECEIVERS, "R", NULL, OPT_CHOICE, AT(random_recv), 0, 0, a_receivers},
    {"schedulers", A_SCHEDULERS, "LIST", NULL, OPT_CALL, 0, 0, 0, NULL},
    {"groups", A_GROUPS, "LIST", NULL, OPT_CALL, 0, 0, 0, NULL},
    {NULL, 0, NULL, NULL, OPT_CALL, 0, 0, 0, NULL},
};
#undef AT

static int a_set(void *ctx, int key, const char *a, const char *v)
{
    struct aopts *o = ctx;
    long lo, hi;
    switch (key) {
    case A_NODES:
        if (opt_range(a, v, 1, 2000, &lo, &hi))
            return 2;
        o->nodes_lo = (int)lo;
        o->nodes_hi = (int)hi;
        return 0;
    case A_SCHEDULERS:   /* the first list replaces the default; more lists add to it */
        if (!o->algos_given)
            memset(o->algo, 0, sizeof o->algo);
        o->algos_given = true;
        return parse_list(a, v, o, false);
    case A_GROUPS:
        if (!o->groups_given)
            memset(o->group, 0, sizeof o->group);
        o->groups_given = true;
        return parse_list(a, v, o, true);
    }
    return 0;
}

/* Returns 0, OPTS_HELP, or an exit status. */
static int parse(int argc, char **argv, struct aopts *o)
{
    int n;
    int rc = opts_parse("hetcast experiment alltoall", a_table, argc, argv, a_set, o, NULL, 0, &n);
    if (rc)
        return rc;
    int biggest = o->nodes_hi > o->some_nodes ? o->nodes_hi : o->some_nodes;
    for (int a = 0; a < XSCHED_COUNT; a++) {
        const struct xsched_ops *ops = xsched_at(a);
        if (o->algo[a] && ops->max_nodes > 0 && biggest > ops->max_nodes)
            return opts_error(2, "%s takes %s time and is refused above %d nodes", ops->name,
                              ops->cost, ops->max_nodes);
    }
    return 0;
}

int exp_alltoall_main(int argc, char **argv)
{
    struct aopts o = {.seed = 1, .runs = 100, .nodes_lo = 30, .nodes_hi = 80, .step = 10,
                      .some_nodes = 100};
    o.algo[xsched_index("random")] = o.algo[xsched_index("caterpillar")] = true;
    o.algo[xsched_index("rspb")] = o.algo[xsched_index("orspb")] = true;
    for (int g = 0; g < 4; g++)
        o.group[g] = true;
    int rc = parse(argc, argv, &o);
    if (rc == OPTS_HELP) {
        help(stdout);
        return 0;   /* cli_main checks the output (cli_output_status) */
    }
    if (rc)
        return rc;
    if (o.csv) {
        exp_provenance_csv(argc, argv, o.seed);
        printf("group,model,pattern,nodes,receivers,scheduler,runs,mean,variance,min,max,lower_bound\n");
    } else {
        header(&o);
    }
    for (int g = 0; g < 4; g++)
        if (o.group[g] && run_group(&o, g))
            return 1;
    return 0;
}
