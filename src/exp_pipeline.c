/*
 * exp_pipeline.c - hetcast experiment pipeline (see exp_pipeline.h): Beaumont,
 * Marchal & Robert's comparison of single pipelined trees with the optimal
 * throughput of several trees, the linear program (2).
 *
 * For every platform: the LP optimum (one-port), then every heuristic's tree
 * and its throughput by the one-port and the multi-port formula, each
 * divided by the one-port LP optimum (as the paper does for Figure 5 too:
 * no multi-port optimum is known).  Means and deviations are over the
 * platforms of a setting.  Deterministic for a --seed: the platforms are
 * drawn one after the other from one generator.  The default run (250
 * random platforms of 10 to 50 nodes, 200 WAN/MAN/LAN platforms of 30 and
 * 65 nodes) takes a few seconds.
 */
#include "exp_pipeline.h"
#include "xarg.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lp.h"
#include "pipeline.h"

#define MAX_SIZES 64
#define MAX_DENSITIES 32
#define MAX_PLATFORM_NODES 400

/* The paper's column order, then multiport-grow. */
static const enum pipe_heur shown[PIPE_NHEUR] = {
    PIPE_PRUNE_SIMPLE, PIPE_PRUNE_DEGREE, PIPE_GROW_TREE, PIPE_LP_PRUNE,
    PIPE_LP_GROW,      PIPE_BINOMIAL,     PIPE_MULTIPORT_GROW,
};

/* ---- the generators ---- */

/* Gaussian by Box-Muller, redrawn below 1 so that every time is positive. */
static double link_time(struct rng *r)
{
    for (;;) {
        double u = rng_unit(r), v = rng_unit(r);
        double z = sqrt(-2.0 * log(1.0 - u)) * cos(6.283185307179586 * v);
        double t = 100.0 + 20.0 * z;
        if (t >= 1.0)
            return t;
    }
}

struct builder {
    struct cluster *c;
    unsigned char *linked;   /* n * n: a link between the two already */
};

static void builder_init(struct builder *b, int n, const char *(*prefix)(int i, int n), int n_arg)
{
    b->c = cluster_new(CLUSTER_GRAPH);
    b->linked = xcalloc((size_t)n * (size_t)n, 1);
    for (int i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "%s%d", prefix(i, n_arg), i);
        cluster_add_node(b->c, name, 0, 0);
    }
}

/* A link both ways, each direction with its own time; false if already there. */
static bool link_pair(struct builder *b, struct rng *r, int u, int v)
{
    int n = b->c->n;
    if (u == v || b->linked[(size_t)u * (size_t)n + (size_t)v])
        return false;
    b->linked[(size_t)u * (size_t)n + (size_t)v] = b->linked[(size_t)v * (size_t)n + (size_t)u] = 1;
    cluster_add_edge(b->c, u, v, link_time(r), -1);
    cluster_add_edge(b->c, v, u, link_time(r), -1);
    return true;
}

/* send_u = ratio * fastest outgoing T, on every edge of u; then cluster_finish. */
static struct cluster *builder_finish(struct builder *b, double send_ratio, const char *name)
{
    struct cluster *c = b->c;
    double *fastest = xmalloc((size_t)c->n * sizeof *fastest);
    for (int u = 0; u < c->n; u++)
        fastest[u] = INFINITY;
    for (int k = 0; k < c->nedges; k++)
        fastest[c->edges[k].from] = fmin(fastest[c->edges[k].from], c->edges[k].time);
    for (int k = 0; k < c->nedges; k++)
        c->edges[k].send = send_ratio * fastest[c->edges[k].from];
    free(fastest);
    free(b->linked);
    cluster_set_str(&c->name, name);
    struct diag d;
    diag_init(&d);
    cluster_finish(c, &d);   /* connected by construction: nothing to report */
    diag_free(&d);
    return c;
}

static const char *plain_prefix(int i, int n)
{
    (void)i;
    (void)n;
    return "P";
}

struct cluster *exp_pipeline_random(struct rng *r, int n, double density, double send_ratio)
{
    struct builder b;
    builder_init(&b, n, plain_prefix, n);
    /* A random spanning tree: each node after P0, in a random order, links to an earlier one. */
    int *perm = xmalloc((size_t)n * sizeof *perm);
    for (int i = 0; i < n; i++)
        perm[i] = i;
    for (int i = n - 1; i > 1; i--) {
        int j = 1 + (int)rng_below(r, (uint64_t)i);
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (int i = 1; i < n; i++)
        link_pair(&b, r, perm[i], perm[rng_below(r, (uint64_t)i)]);
    free(perm);
    for (int u = 0; u < n; u++)
        for (int v = u + 1; v < n; v++)
            if (rng_unit(r) < density)
                link_pair(&b, r, u, v);
    return builder_finish(&b, send_ratio, "random-platform");
}

/* The three levels: W (WAN) for the first w nodes, M (MAN) for the next, L (LAN) after. */
struct tiers_shape {
    int w, m;
};

static struct tiers_shape tiers_shape(int n)
{
    struct tiers_shape s;
    s.w = n / 10 > 1 ? n / 10 : 1;
    s.m = 3 * n / 10 > 1 ? 3 * n / 10 : 1;
    if (s.w + s.m > n)
        s.m = n - s.w;
    return s;
}

static const char *tiers_prefix(int i, int n)
{
    struct tiers_shape s = tiers_shape(n);
    return i < s.w ? "W" : i < s.w + s.m ? "M" : "L";
}

/* Minimum spanning tree (Prim, Euclidean) over the given nodes, then redundancy. */
static void mst_with_redundancy(struct builder *b, struct rng *r, const int *ids, int k,
                                const double *x, const double *y, double redundancy)
{
    if (k < 2)
        return;
    unsigned char *in = xcalloc((size_t)k, 1);
    double *best = xmalloc((size_t)k * sizeof *best);
    int *from = xmalloc((size_t)k * sizeof *from);
    for (int i = 0; i < k; i++) {
        best[i] = INFINITY;
        from[i] = -1;
    }
    best[0] = 0;
    for (int step = 0; step < k; step++) {
        int u = -1;
        for (int i = 0; i < k; i++)
            if (!in[i] && (u < 0 || best[i] < best[u]))
                u = i;
        in[u] = 1;
        if (from[u] >= 0)
            link_pair(b, r, ids[from[u]], ids[u]);
        for (int i = 0; i < k; i++) {
            double d = hypot(x[ids[i]] - x[ids[u]], y[ids[i]] - y[ids[u]]);
            if (!in[i] && d < best[i]) {
                best[i] = d;
                from[i] = u;
            }
        }
    }
    int n = b->c->n;
    for (int i = 0; i < k; i++) {
        if (rng_unit(r) >= redundancy)
            continue;
        int near = -1;
        for (int j = 0; j < k; j++) {
            if (j == i || b->linked[(size_t)ids[i] * (size_t)n + (size_t)ids[j]])
                continue;
            double dj = hypot(x[ids[j]] - x[ids[i]], y[ids[j]] - y[ids[i]]);
            if (near < 0 || dj < hypot(x[ids[near]] - x[ids[i]], y[ids[near]] - y[ids[i]]))
                near = j;
        }
        if (near >= 0)
            link_pair(b, r, ids[i], ids[near]);
    }
    free(in);
    free(best);
    free(from);
}

struct cluster *exp_pipeline_tiers(struct rng *r, int n, double send_ratio)
{
    struct tiers_shape s = tiers_shape(n);
    struct builder b;
    builder_init(&b, n, tiers_prefix, n);
    double *x = xmalloc((size_t)n * sizeof *x), *y = xmalloc((size_t)n * sizeof *y);
    for (int i = 0; i < n; i++) {
        x[i] = rng_unit(r);
        y[i] = rng_unit(r);
    }
    int *ids = xmalloc((size_t)n * sizeof *ids);
    for (int i = 0; i < s.w; i++)
        ids[i] = i;
    mst_with_redundancy(&b, r, ids, s.w, x, y, 0.5);
    for (int wan = 0; wan < s.w; wan++) {   /* the MAN of each WAN node, with it */
        int k = 0;
        ids[k++] = wan;
        for (int j = 0; j < s.m; j++)
            if (j % s.w == wan)
                ids[k++] = s.w + j;
        mst_with_redundancy(&b, r, ids, k, x, y, 0.3);
    }
    for (int h = s.w + s.m; h < n; h++)   /* LAN hosts: stars around MAN nodes */
        link_pair(&b, r, h, s.w + (h - s.w - s.m) % s.m);
    free(x);
    free(y);
    free(ids);
    cluster_set_str(&b.c->source_name, b.c->nodes[rng_below(r, (uint64_t)n)].name);
    return builder_finish(&b, send_ratio, "wan-man-lan-platform");
}

/* ---- the study ---- */

struct xp_opts {
    bool csv;
    unsigned long long seed;
    long runs;              /* random platforms per (size, density) */
    long tiers_runs;        /* WAN/MAN/LAN platforms per size */
    int nodes_lo, nodes_hi, nodes_step;
    int ndens;
    double dens[MAX_DENSITIES];
    double send_ratio;
    int ntiers;
    int tiers[8];
};

/* Running sums of one setting: per heuristic, one-port and multi-port ratios. */
struct acc {
    int count;
    double density;             /* sum of the platforms' edge densities */
    double sum[2][PIPE_NHEUR], sq[2][PIPE_NHEUR];
};

static void acc_add(struct acc *a, double density, double ratio[2][PIPE_NHEUR])
{
    a->count++;
    a->density += density;
    for (int m = 0; m < 2; m++)
        for (int h = 0; h < PIPE_NHEUR; h++) {
            a->sum[m][h] += ratio[m][h];
            a->sq[m][h] += ratio[m][h] * ratio[m][h];
        }
}

static double acc_mean(const struct acc *a, int m, int h)
{
    return a->count ? a->sum[m][h] / a->count : NAN;
}

static double acc_sd(const struct acc *a, int m, int h)
{
    if (a->count < 2)
        return 0;
    double mean = acc_mean(a, m, h);
    double var = (a->sq[m][h] - a->count * mean * mean) / (a->count - 1);
    return var > 0 ? sqrt(var) : 0;
}

/* One platform: every heuristic's one-port and multi-port throughput / LP optimum. */
static int measure(const struct cluster *c, double ratio[2][PIPE_NHEUR], double *worst_one_port)
{
    struct lp_result lp;
    char *cause = NULL;
    if (lp_solve_broadcast(c, &lp, &cause) < 0) {
        fprintf(stderr, "hetcast experiment pipeline: %s\n", cause);
        free(cause);
        return -1;
    }
    for (int h = 0; h < PIPE_NHEUR; h++) {
        struct pipe_tree t;
        if (pipe_build(c, (enum pipe_heur)h, &lp, &t, &cause) < 0) {
            fprintf(stderr, "hetcast experiment pipeline: %s\n", cause);
            free(cause);
            pipe_tree_free(&t);
            lp_result_free(&lp);
            return -1;
        }
        ratio[0][h] = pipe_throughput(c, &t, MODEL_ONE_PORT) / lp.throughput;
        ratio[1][h] = pipe_throughput(c, &t, MODEL_MULTI_PORT) / lp.throughput;
        if (ratio[0][h] > *worst_one_port)
            *worst_one_port = ratio[0][h];
        pipe_tree_free(&t);
    }
    lp_result_free(&lp);
    return 0;
}

static double density_of(const struct cluster *c)
{
    return c->n > 1 ? (double)c->nedges / ((double)c->n * (c->n - 1)) : 0;
}

static void text_header(const char *axis)
{
    printf("%-8s %7s", axis, "configs");
    for (int i = 0; i < PIPE_NHEUR; i++)
        printf(" %14s", pipe_heur_name(shown[i]));
    printf("\n");
}

static void text_row(const char *label, const struct acc *a, int m, bool deviation)
{
    printf("%-8s %7d", label, a->count);
    for (int i = 0; i < PIPE_NHEUR; i++) {
        char cell[32];
        if (deviation)
            snprintf(cell, sizeof cell, "%.1f ±%.1f", 100 * acc_mean(a, m, shown[i]),
                     100 * acc_sd(a, m, shown[i]));
        else
            snprintf(cell, sizeof cell, "%.1f", 100 * acc_mean(a, m, shown[i]));
        /* "±" is two bytes and one column: pad by hand */
        int width = (int)strlen(cell) - (deviation ? 1 : 0);
        printf(" %*s%s", width < 14 ? 14 - width : 0, "", cell);
    }
    printf("\n");
}

static void csv_rows(const char *study, const char *platforms, int m, const char *axis,
                     const char *value, const struct acc *a)
{
    for (int i = 0; i < PIPE_NHEUR; i++)
        printf("%s,%s,%s,%s,%s,%s,%d,%.6f,%.6f\n", study, platforms,
               m ? "multi-port" : "one-port", axis, value, pipe_heur_name(shown[i]), a->count,
               acc_mean(a, m, shown[i]), acc_sd(a, m, shown[i]));
}

static const char xp_valid[] =
    "--format, --seed, --runs, --nodes, --densities, --send-ratio, --tiers, --tiers-runs";

static void xp_help(FILE *fp)
{
    fprintf(fp,
            "hetcast experiment pipeline [options]: Beaumont, Marchal & Robert (LIP RR-2004-46) §5,\n"
            "single pipelined trees against the LP optimum of several trees.\n"
            "\n"
            "  --runs N            random platforms per (size, density) (default 10, as Table 2)\n"
            "  --nodes LO:HI[:S]   platform sizes LO, LO+S, ... HI (default 10:50:10); or N\n"
            "  --densities LIST    link probabilities, comma-separated (default 0.04,0.08,0.12,0.16,0.2)\n"
            "  --send-ratio R      multi-port send time / fastest outgoing T (default 0.8)\n"
            "  --tiers LIST        WAN/MAN/LAN platform sizes, comma-separated (default 30,65; 0: none)\n"
            "  --tiers-runs N      WAN/MAN/LAN platforms per size (default 100, as the paper)\n"
            "  --seed N            seed (default 1)\n"
            "  --format text|csv   tables for people, or rows\n"
            "                      study,platforms,model,axis,value,heuristic,configs,mean,sd\n");
}

static bool get_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (!*s || *end || errno || x < lo || x > hi)
        return false;
    *out = x;
    return true;
}

/* A comma-separated list of numbers in [lo, hi]; returns the count or -1. */
static int get_list(const char *s, double lo, double hi, double *out, int max)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    int k = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *end;
        errno = 0;
        double x = strtod(tok, &end);
        if (!*tok || *end || errno || !isfinite(x) || x < lo || x > hi || k == max)
            return -1;
        out[k++] = x;
    }
    return k ? k : -1;
}

/* Returns 0, -1 for --help, or an exit status. */
static int xp_parse(int argc, char **argv, struct xp_opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0)
            return -1;
        if (!v || a[0] != '-') {
            fprintf(stderr, "hetcast experiment: %s %s; valid options: %s\n", a,
                    a[0] == '-' ? "needs a value" : "is not an option", xp_valid);
            return 2;
        }
        i++;
        long x;
        if (strcmp(a, "--format") == 0) {
            if (xarg_format(a, v, &o->csv))
                return 2;
        } else if (strcmp(a, "--seed") == 0) {
            if (!get_long(v, 0, 2147483647L, &x))
                return xarg_fail(a, v, "an integer from 0 to 2147483647");
            o->seed = (unsigned long long)x;
        } else if (strcmp(a, "--runs") == 0) {
            if (!get_long(v, 0, 100000, &x))
                return xarg_fail(a, v, "an integer from 0 to 100000");
            o->runs = x;
        } else if (strcmp(a, "--tiers-runs") == 0) {
            if (!get_long(v, 0, 100000, &x))
                return xarg_fail(a, v, "an integer from 0 to 100000");
            o->tiers_runs = x;
        } else if (strcmp(a, "--nodes") == 0) {
            double f[3];
            char buf[64];
            snprintf(buf, sizeof buf, "%s", v);
            for (char *p = buf; *p; p++)
                if (*p == ':')
                    *p = ',';
            int k = get_list(buf, 2, MAX_PLATFORM_NODES, f, 3);
            if (k < 0 || f[0] != floor(f[0]) || (k > 1 && (f[1] != floor(f[1]) || f[1] < f[0])) ||
                (k > 2 && (f[2] != floor(f[2]) || f[2] < 1)))
                return xarg_fail(a, v, "N or LO:HI or LO:HI:STEP, integers from 2 to 400");
            o->nodes_lo = (int)f[0];
            o->nodes_hi = k > 1 ? (int)f[1] : (int)f[0];
            o->nodes_step = k > 2 ? (int)f[2] : 10;
            if ((o->nodes_hi - o->nodes_lo) / o->nodes_step + 1 > MAX_SIZES)
                return xarg_fail(a, v, "a range of at most 64 sizes");
        } else if (strcmp(a, "--densities") == 0) {
            int k = get_list(v, 0, 1, o->dens, MAX_DENSITIES);
            if (k < 0)
                return xarg_fail(a, v, "a list of at most 32 numbers from 0 to 1");
            o->ndens = k;
        } else if (strcmp(a, "--send-ratio") == 0) {
            double f;
            if (get_list(v, 0, 1e6, &f, 1) != 1 || !(f > 0))
                return xarg_fail(a, v, "a number > 0");
            o->send_ratio = f;
        } else if (strcmp(a, "--tiers") == 0) {
            double f[8];
            int k = get_list(v, 0, MAX_PLATFORM_NODES, f, 8);
            if (k < 0)
                return xarg_fail(a, v, "a list of at most 8 sizes from 2 to 400, or 0");
            o->ntiers = 0;
            for (int i = 0; i < k; i++) {
                if (f[i] == 0 && k == 1)
                    break;
                if (f[i] != floor(f[i]) || f[i] < 2)
                    return xarg_fail(a, v, "a list of at most 8 sizes from 2 to 400, or 0");
                o->tiers[o->ntiers++] = (int)f[i];
            }
        } else {
            fprintf(stderr, "hetcast experiment: unknown option %s; valid options: %s\n", a, xp_valid);
            return 2;
        }
    }
    return 0;
}

static void describe(const struct xp_opts *o)
{
    printf("# Beaumont, Marchal & Robert (LIP RR-2004-46) §5: single pipelined broadcast trees\n"
           "# against the optimal throughput of several trees, linear program (2) solved with GLPK.\n"
           "# Random platforms as in Table 2: n = %d..%d step %d, link probability",
           o->nodes_lo, o->nodes_hi, o->nodes_step);
    for (int i = 0; i < o->ndens; i++)
        printf("%s%g", i ? "," : " ", o->dens[i]);
    printf(",\n# %ld per (n, density), each link both ways plus a random spanning tree so that every\n"
           "# node is reachable; T ~ Gaussian(100, 20); multi-port send_u = %g x fastest T(u,.).\n"
           "# Seed %llu.  Entries: mean tree throughput / LP optimum, in %%.\n",
           o->runs, o->send_ratio, o->seed);
}

int exp_pipeline_main(int argc, char **argv)
{
    struct xp_opts o = {.csv = false, .seed = 1, .runs = 10, .tiers_runs = 100, .nodes_lo = 10,
                        .nodes_hi = 50, .nodes_step = 10, .ndens = 5,
                        .dens = {0.04, 0.08, 0.12, 0.16, 0.20}, .send_ratio = 0.8, .ntiers = 2,
                        .tiers = {30, 65}};
    int rc = xp_parse(argc, argv, &o);
    if (rc < 0) {
        xp_help(stdout);
        return 0;
    }
    if (rc)
        return rc;
    int nsizes = (o.nodes_hi - o.nodes_lo) / o.nodes_step + 1;
    struct acc *by_size = xcalloc((size_t)nsizes, sizeof *by_size);
    struct acc *by_dens = xcalloc((size_t)o.ndens, sizeof *by_dens);
    struct acc tiers[8];
    memset(tiers, 0, sizeof tiers);
    struct rng r;
    rng_seed(&r, o.seed);
    double worst = 0, ratio[2][PIPE_NHEUR];
    rc = 0;
    for (int si = 0; si < nsizes && !rc; si++)
        for (int di = 0; di < o.ndens && !rc; di++)
            for (long run = 0; run < o.runs && !rc; run++) {
                struct cluster *c = exp_pipeline_random(&r, o.nodes_lo + si * o.nodes_step,
                                                        o.dens[di], o.send_ratio);
                if (measure(c, ratio, &worst) < 0)
                    rc = 1;
                else {
                    acc_add(&by_size[si], density_of(c), ratio);
                    acc_add(&by_dens[di], density_of(c), ratio);
                }
                cluster_free(c);
            }
    for (int ti = 0; ti < o.ntiers && !rc; ti++)
        for (long run = 0; run < o.tiers_runs && !rc; run++) {
            struct cluster *c = exp_pipeline_tiers(&r, o.tiers[ti], o.send_ratio);
            if (measure(c, ratio, &worst) < 0)
                rc = 1;
            else
                acc_add(&tiers[ti], density_of(c), ratio);
            cluster_free(c);
        }
    if (rc) {
        free(by_size);
        free(by_dens);
        return rc;
    }
    char label[32];
    if (o.csv) {
        printf("study,platforms,model,axis,value,heuristic,configs,mean,sd\n");
        for (int si = 0; o.runs && si < nsizes; si++) {
            snprintf(label, sizeof label, "%d", o.nodes_lo + si * o.nodes_step);
            csv_rows("fig4a", "random", 0, "nodes", label, &by_size[si]);
        }
        for (int di = 0; o.runs && di < o.ndens; di++) {
            snprintf(label, sizeof label, "%g", o.dens[di]);
            csv_rows("fig4b", "random", 0, "density", label, &by_dens[di]);
        }
        for (int si = 0; o.runs && si < nsizes; si++) {
            snprintf(label, sizeof label, "%d", o.nodes_lo + si * o.nodes_step);
            csv_rows("fig5", "random", 1, "nodes", label, &by_size[si]);
        }
        for (int ti = 0; o.tiers_runs && ti < o.ntiers; ti++) {
            snprintf(label, sizeof label, "%d", o.tiers[ti]);
            csv_rows("table3", "wan-man-lan", 0, "nodes", label, &tiers[ti]);
            csv_rows("table3-multiport", "wan-man-lan", 1, "nodes", label, &tiers[ti]);
        }
    } else {
        describe(&o);
        if (o.runs) {
            printf("\nFigure 4(a): one-port, by number of nodes (all densities)\n");
            text_header("nodes");
            for (int si = 0; si < nsizes; si++) {
                snprintf(label, sizeof label, "%d", o.nodes_lo + si * o.nodes_step);
                text_row(label, &by_size[si], 0, false);
            }
            printf("\nFigure 4(b): one-port, by link probability (all sizes; mean edge density)\n");
            text_header("density");
            for (int di = 0; di < o.ndens; di++) {
                snprintf(label, sizeof label, "%g", o.dens[di]);
                text_row(label, &by_dens[di], 0, false);
            }
            printf("\nFigure 5: multi-port tree throughput / one-port LP optimum, by number of nodes\n"
                   "(above 100 %% is possible: the multi-port model lets sends overlap)\n");
            text_header("nodes");
            for (int si = 0; si < nsizes; si++) {
                snprintf(label, sizeof label, "%d", o.nodes_lo + si * o.nodes_step);
                text_row(label, &by_size[si], 1, false);
            }
        }
        if (o.ntiers && o.tiers_runs) {
            printf("\nTable 3: one-port on WAN/MAN/LAN platforms (a stand-in for TIERS), mean ±deviation\n");
            text_header("nodes");
            for (int ti = 0; ti < o.ntiers; ti++) {
                snprintf(label, sizeof label, "%d", o.tiers[ti]);
                text_row(label, &tiers[ti], 0, true);
            }
            printf("mean edge density:");
            for (int ti = 0; ti < o.ntiers; ti++)
                printf(" %.3f (%d nodes)", tiers[ti].density / tiers[ti].count, o.tiers[ti]);
            printf("\n");
        }
        printf("\n# largest one-port tree / LP optimum over all platforms: %.6f (never above 1)\n",
               worst);
    }
    free(by_size);
    free(by_dens);
    if (worst > 1 + 1e-9) {
        fprintf(stderr, "hetcast experiment pipeline: a tree beat the LP optimum (%.9f): a bug\n", worst);
        return 1;
    }
    return 0;
}
