/*
 * app/study/pipeline.c - hetcast experiment pipeline (see exp_pipeline.h): Beaumont,
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
#include "app/study/experiment.h"
#include "model/generate.h"
#include "app/opts.h"

#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/lp.h"
#include "sched/pipeline.h"

#define MAX_SIZES 64
#define MAX_DENSITIES 32
#define MAX_PLATFORM_NODES 400

/* The paper's column order, then the multi-port heuristics. */
static const enum pipe_heur shown[PIPE_NHEUR] = {
    PIPE_PRUNE_SIMPLE, PIPE_PRUNE_DEGREE, PIPE_GROW_TREE,      PIPE_LP_PRUNE,
    PIPE_LP_GROW,      PIPE_BINOMIAL,     PIPE_MULTIPORT_GROW, PIPE_MULTIPORT_PRUNE_DEGREE,
};

/* ---- the study ---- */

struct xp_opts {
    int csv;              /* --format: text (0) or csv (1) */
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
    double sum[EXP_PIPE_MODELS][PIPE_NHEUR], sq[EXP_PIPE_MODELS][PIPE_NHEUR];
    double uni_share;           /* sum of the one-port-uni LP bound / one-port LP optimum */
};

static void acc_add(struct acc *a, double density, double ratio[EXP_PIPE_MODELS][PIPE_NHEUR],
                    double uni_share)
{
    a->count++;
    a->density += density;
    a->uni_share += uni_share;
    for (int m = 0; m < EXP_PIPE_MODELS; m++)
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

/* One platform: every heuristic's one-port and multi-port throughput / LP
 * optimum, and its one-port-uni throughput / the one-port-uni LP bound. */
int exp_pipeline_measure(const struct cluster *c, double ratio[EXP_PIPE_MODELS][PIPE_NHEUR],
                         double *uni_share, double *worst)
{
    struct lp_result lp[2];   /* bidirectional, unidirectional */
    char *cause = NULL;
    for (int u = 0; u < 2; u++) {
        struct lp_limits lim = {.unidirectional = u == 1};
        if (lp_solve_broadcast_limited(c, &lim, &lp[u], &cause) < 0) {
            opts_say(diag_who(), cause);
            free(cause);
            if (u)
                lp_result_free(&lp[0]);
            return -1;
        }
    }
    *uni_share = lp[1].throughput / lp[0].throughput;
    for (int u = 0; u < 2; u++)
        for (int h = 0; h < PIPE_NHEUR; h++) {
            if (u && !pipe_heur_uses_lp((enum pipe_heur)h)) {   /* the same tree as u = 0 */
                continue;
            }
            struct pipe_tree t;
            if (pipe_build(c, (enum pipe_heur)h, &lp[u], &t, &cause) < 0) {
                opts_say(diag_who(), cause);
                free(cause);
                pipe_tree_free(&t);
                lp_result_free(&lp[0]);
                lp_result_free(&lp[1]);
                return -1;
            }
            double uni = pipe_throughput(c, &t, MODEL_ONE_PORT_UNI) / lp[1].throughput;
            if (u == 0) {
                ratio[0][h] = pipe_throughput(c, &t, MODEL_ONE_PORT) / lp[0].throughput;
                ratio[1][h] = pipe_throughput(c, &t, MODEL_MULTI_PORT) / lp[0].throughput;
                *worst = fmax(*worst, ratio[0][h]);
            }
            if (u == 1 || !pipe_heur_uses_lp((enum pipe_heur)h)) {
                ratio[2][h] = uni;
                *worst = fmax(*worst, uni);
            }
            pipe_tree_free(&t);
        }
    lp_result_free(&lp[0]);
    lp_result_free(&lp[1]);
    return 0;
}

static double density_of(const struct cluster *c)
{
    return c->n > 1 ? (double)c->nedges / ((double)c->n * (c->n - 1)) : 0;
}

/* A column is 14 wide, or its heuristic's name. */
static int col_width(int i)
{
    int w = (int)strlen(pipe_heur_name(shown[i]));
    return w > 14 ? w : 14;
}

static void text_header(const char *axis)
{
    printf("%-8s %7s", axis, "configs");
    for (int i = 0; i < PIPE_NHEUR; i++)
        printf(" %*s", col_width(i), pipe_heur_name(shown[i]));
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
        printf(" %*s%s", width < col_width(i) ? col_width(i) - width : 0, "", cell);
    }
    printf("\n");
}

static void csv_rows(const char *study, const char *platforms, int m, const char *axis,
                     const char *value, const struct acc *a)
{
    for (int i = 0; i < PIPE_NHEUR; i++)
        printf("%s,%s,%s,%s,%s,%s,%d,%.6f,%.6f\n", study, platforms,
               m == 2 ? "one-port-uni" : m ? "multi-port" : "one-port", axis, value, pipe_heur_name(shown[i]), a->count,
               acc_mean(a, m, shown[i]), acc_sd(a, m, shown[i]));
}

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

enum { P_FORMAT = OPT_LONG, P_SEED, P_RUNS, P_TIERS_RUNS, P_NODES, P_DENSITIES, P_SEND_RATIO,
       P_TIERS };

#define AT(f) offsetof(struct xp_opts, f)
static const struct opt xp_table[] = {
    {"format", P_FORMAT, "F", NULL, OPT_CHOICE, AT(csv), 0, 0, opts_text_csv},
    {"seed", P_SEED, "N", NULL, OPT_SEED, AT(seed), 0, 0, NULL},
    {"runs", P_RUNS, "N", NULL, OPT_LONGINT, AT(runs), 0, 100000, NULL},
    {"nodes", P_NODES, "LO:HI[:S]", NULL, OPT_CALL, 0, 0, 0, NULL},
    {"densities", P_DENSITIES, "LIST", NULL, OPT_CALL, 0, 0, 0, NULL},
    {"send-ratio", P_SEND_RATIO, "R", NULL, OPT_CALL, 0, 0, 0, NULL},
    {"tiers", P_TIERS, "LIST", NULL, OPT_CALL, 0, 0, 0, NULL},
    {"tiers-runs", P_TIERS_RUNS, "N", NULL, OPT_LONGINT, AT(tiers_runs), 0, 100000, NULL},
    {NULL, 0, NULL, NULL, OPT_CALL, 0, 0, 0, NULL},
};
#undef AT

static int xp_set(void *ctx, int key, const char *a, const char *v)
{
    struct xp_opts *o = ctx;
    int k;
    switch (key) {
    case P_NODES: {
        double f[3];
        char buf[64];
        snprintf(buf, sizeof buf, "%s", v);
        for (char *p = buf; *p; p++)
            if (*p == ':')
                *p = ',';
        k = get_list(buf, 2, MAX_PLATFORM_NODES, f, 3);
        if (k < 0 || f[0] != floor(f[0]) || (k > 1 && (f[1] != floor(f[1]) || f[1] < f[0])) ||
            (k > 2 && (f[2] != floor(f[2]) || f[2] < 1)))
            return opt_fail(a, v, "N or LO:HI or LO:HI:STEP, integers from 2 to 400");
        o->nodes_lo = (int)f[0];
        o->nodes_hi = k > 1 ? (int)f[1] : (int)f[0];
        o->nodes_step = k > 2 ? (int)f[2] : 10;
        if ((o->nodes_hi - o->nodes_lo) / o->nodes_step + 1 > MAX_SIZES)
            return opt_fail(a, v, "a range of at most 64 sizes");
        return 0;
    }
    case P_DENSITIES:
        k = get_list(v, 0, 1, o->dens, MAX_DENSITIES);
        if (k < 0)
            return opt_fail(a, v, "a list of at most 32 numbers from 0 to 1");
        o->ndens = k;
        return 0;
    case P_SEND_RATIO: {
        double f;
        if (get_list(v, 0, 1e6, &f, 1) != 1 || !(f > 0))
            return opt_fail(a, v, "a number > 0");
        o->send_ratio = f;
        return 0;
    }
    case P_TIERS: {
        double f[8];
        k = get_list(v, 0, MAX_PLATFORM_NODES, f, 8);
        if (k < 0)
            return opt_fail(a, v, "a list of at most 8 sizes from 2 to 400, or 0");
        o->ntiers = 0;
        for (int i = 0; i < k; i++) {
            if (f[i] == 0 && k == 1)
                break;
            if (f[i] != floor(f[i]) || f[i] < 2)
                return opt_fail(a, v, "a list of at most 8 sizes from 2 to 400, or 0");
            o->tiers[o->ntiers++] = (int)f[i];
        }
        return 0;
    }
    }
    return 0;
}

/* Returns 0, OPTS_HELP, or an exit status. */
static int xp_parse(int argc, char **argv, struct xp_opts *o)
{
    int n;
    return opts_parse("hetcast experiment pipeline", xp_table, argc, argv, xp_set, o, NULL, 0, &n);
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

/* What a run measured: the means by size, by density and on the tiers platforms. */
struct xp_result {
    int nsizes;
    struct acc *by_size, *by_dens, tiers[8];
    double worst;   /* the largest tree / LP optimum (one-port-uni: / its bound) */
};

/* The platforms of o, each measured.  0, or 1 (said). */
static int xp_run(const struct xp_opts *o, struct xp_result *x)
{
    x->nsizes = (o->nodes_hi - o->nodes_lo) / o->nodes_step + 1;
    x->by_size = xcalloc((size_t)x->nsizes, sizeof *x->by_size);
    x->by_dens = xcalloc((size_t)o->ndens, sizeof *x->by_dens);
    memset(x->tiers, 0, sizeof x->tiers);
    x->worst = 0;
    struct rng r;
    rng_seed(&r, o->seed);
    double ratio[EXP_PIPE_MODELS][PIPE_NHEUR], share = 0;
    for (int si = 0; si < x->nsizes; si++)
        for (int di = 0; di < o->ndens; di++)
            for (long run = 0; run < o->runs; run++) {
                struct cluster *c = generate_platform_random(&r, o->nodes_lo + si * o->nodes_step,
                                                             o->dens[di], o->send_ratio);
                int bad = exp_pipeline_measure(c, ratio, &share, &x->worst);
                if (!bad) {
                    acc_add(&x->by_size[si], density_of(c), ratio, share);
                    acc_add(&x->by_dens[di], density_of(c), ratio, share);
                }
                cluster_free(c);
                if (bad)
                    return 1;
            }
    for (int ti = 0; ti < o->ntiers; ti++)
        for (long run = 0; run < o->tiers_runs; run++) {
            struct cluster *c = generate_platform_tiers(&r, o->tiers[ti], o->send_ratio);
            int bad = exp_pipeline_measure(c, ratio, &share, &x->worst);
            if (!bad)
                acc_add(&x->tiers[ti], density_of(c), ratio, share);
            cluster_free(c);
            if (bad)
                return 1;
        }
    return 0;
}

static void xp_print_csv(int argc, char **argv, const struct xp_opts *o, const struct xp_result *x)
{
    char label[32];
    exp_provenance_csv(argc, argv, o->seed);
    printf("study,platforms,model,axis,value,heuristic,configs,mean,sd\n");
    static const char *const by_size_studies[3] = {"fig4a", "fig5", "uni"};
    for (int si = 0; o->runs && si < x->nsizes; si++) {
        snprintf(label, sizeof label, "%d", o->nodes_lo + si * o->nodes_step);
        csv_rows(by_size_studies[0], "random", 0, "nodes", label, &x->by_size[si]);
    }
    for (int di = 0; o->runs && di < o->ndens; di++) {
        snprintf(label, sizeof label, "%g", o->dens[di]);
        csv_rows("fig4b", "random", 0, "density", label, &x->by_dens[di]);
    }
    for (int m = 1; m < 3; m++)
        for (int si = 0; o->runs && si < x->nsizes; si++) {
            snprintf(label, sizeof label, "%d", o->nodes_lo + si * o->nodes_step);
            csv_rows(by_size_studies[m], "random", m, "nodes", label, &x->by_size[si]);
        }
    for (int ti = 0; o->tiers_runs && ti < o->ntiers; ti++) {
        snprintf(label, sizeof label, "%d", o->tiers[ti]);
        csv_rows("table3", "wan-man-lan", 0, "nodes", label, &x->tiers[ti]);
        csv_rows("table3-multiport", "wan-man-lan", 1, "nodes", label, &x->tiers[ti]);
    }
}

/* Text: the means by size under model m (one of Figure 4(a), 5, one-port-uni). */
static void xp_by_size(const struct xp_opts *o, const struct xp_result *x, int m)
{
    char label[32];
    text_header("nodes");
    for (int si = 0; si < x->nsizes; si++) {
        snprintf(label, sizeof label, "%d", o->nodes_lo + si * o->nodes_step);
        text_row(label, &x->by_size[si], m, false);
    }
}

static void xp_print_text(const struct xp_opts *o, const struct xp_result *x)
{
    char label[32];
    describe(o);
    if (o->runs) {
        printf("\nFigure 4(a): one-port, by number of nodes (all densities)\n");
        xp_by_size(o, x, 0);
        printf("\nFigure 4(b): one-port, by link probability (all sizes; mean edge density)\n");
        text_header("density");
        for (int di = 0; di < o->ndens; di++) {
            snprintf(label, sizeof label, "%g", o->dens[di]);
            text_row(label, &x->by_dens[di], 0, false);
        }
        printf("\nFigure 5: multi-port tree throughput / one-port LP optimum, by number of nodes\n"
               "(above 100 %% is possible: the multi-port model lets sends overlap)\n");
        xp_by_size(o, x, 1);
        printf("\nOne-port-uni (the paper's §2.3; it runs none): tree throughput / one-port-uni LP\n"
               "bound (an upper bound, not always reached), by number of nodes\n");
        xp_by_size(o, x, 2);
        printf("one-port-uni LP bound / one-port LP optimum:");
        for (int si = 0; si < x->nsizes; si++)
            printf(" %.1f%s", 100 * x->by_size[si].uni_share / x->by_size[si].count,
                   si + 1 < x->nsizes ? "," : " % (by number of nodes)\n");
    }
    if (o->ntiers && o->tiers_runs) {
        printf("\nTable 3: one-port on WAN/MAN/LAN platforms (a stand-in for TIERS), mean ±deviation\n");
        text_header("nodes");
        for (int ti = 0; ti < o->ntiers; ti++) {
            snprintf(label, sizeof label, "%d", o->tiers[ti]);
            text_row(label, &x->tiers[ti], 0, true);
        }
        printf("mean edge density:");
        for (int ti = 0; ti < o->ntiers; ti++)
            printf(" %.3f (%d nodes)", x->tiers[ti].density / x->tiers[ti].count, o->tiers[ti]);
        printf("\n");
    }
    printf("\n# largest one-port tree / LP optimum (one-port-uni: / its LP bound) over all "
           "platforms: %.6f (never above 1)\n", x->worst);
}

int exp_pipeline_main(int argc, char **argv)
{
    struct xp_opts o = {.csv = false, .seed = 1, .runs = 10, .tiers_runs = 100, .nodes_lo = 10,
                        .nodes_hi = 50, .nodes_step = 10, .ndens = 5,
                        .dens = {0.04, 0.08, 0.12, 0.16, 0.20}, .send_ratio = 0.8, .ntiers = 2,
                        .tiers = {30, 65}};
    int rc = xp_parse(argc, argv, &o);
    if (rc == OPTS_HELP) {
        xp_help(stdout);
        return 0;
    }
    if (rc)
        return rc;
    struct xp_result x;
    rc = xp_run(&o, &x);
    if (rc == 0 && o.csv)
        xp_print_csv(argc, argv, &o, &x);
    else if (rc == 0)
        xp_print_text(&o, &x);
    free(x.by_size);
    free(x.by_dens);
    if (rc == 0 && x.worst > 1 + 1e-9) {
        fprintf(stderr, "%s: a tree beat the LP optimum (%.9f): a bug\n", diag_who(), x.worst);
        return 1;
    }
    return rc;
}
