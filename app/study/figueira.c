/*
 * app/study/figueira.c - hetcast experiment figueira: the comparison of Figueira's
 * Figures 10-15.  For each setting (nodes, maximum number of groups) a few
 * random LNOWs from the paper's emulator (section 4); on each, the six
 * strategies -- blind binomial, depth-first, breadth-first, balanced-path,
 * flat and magpie -- build their tree on the hop distances, the engine
 * simulates it on the latencies, and the table gives the time of 10,000
 * broadcasts, as the paper's bars do.
 *
 * The simulated network (SPEC §2): a link of h hops takes h basic latencies
 * (35 us, fast Ethernet) and a 0-hop link one; every send costs the sender
 * one basic latency (--overhead); the port model is async (--model).  The
 * 10,000 broadcasts run one after the other, so their time is 10,000 times
 * one broadcast's makespan.  Deterministic for a given --seed.
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

#include "engine/engine.h"
#include "sched/trees.h"

#define FIG_HOPS 10          /* to node 0: two nodes are at most 20 hops apart */
#define FIG_MAX_NODES 1024

struct fig_opts {
    int csv;              /* --format: text (0) or csv (1) */
    unsigned long long seed;
    long runs;            /* topologies per setting */
    int nodes, groups;    /* 0: not given */
    int hops;             /* largest distance to node 0 */
    double overhead;      /* send overhead, in basic latencies */
    double basic;         /* basic latency, microseconds */
    long broadcasts;
    enum model model;
};

static const struct {
    int nodes, groups, figure;
} paper[] = {
    {32, 8, 10}, {64, 32, 11}, {128, 8, 12}, {128, 32, 13}, {128, 64, 14}, {128, 128, 15},
};
#define NPAPER ((int)(sizeof paper / sizeof paper[0]))

static void fig_help(FILE *fp)
{
    fprintf(fp,
            "hetcast experiment figueira [options]: Figueira, Figures 10-15 -- blind binomial,\n"
            "depth-first, breadth-first, balanced-path, flat and magpie trees on random LNOWs.\n"
            "\n"
            "  --nodes N           only the settings with N nodes (default: the paper's six:\n"
            "                      32/8, 64/32, 128/8, 128/32, 128/64, 128/128 nodes/groups)\n"
            "  --groups G          only the settings with a maximum of G groups; with both, or\n"
            "                      when no setting of the paper matches, the one setting N/G\n"
            "                      (N defaults to 32, G to 8); N is at most %d\n"
            "  --runs R            random topologies per setting (default 4, as in the paper)\n"
            "  --hops H            largest distance to node 0 in hops (default %d: two nodes are\n"
            "                      at most %d hops apart; at most H + 1 groups can exist)\n"
            "  --overhead K        send overhead in basic latencies (default 1)\n"
            "  --basic-latency US  the basic latency in microseconds (default 35)\n"
            "  --broadcasts B      broadcasts timed (default 10000)\n"
            "  --model M           port model of the simulation (default async)\n"
            "  --seed N            seed (default 1)\n"
            "  --format text|csv   a table for people, or one CSV row per strategy and topology\n",
            FIG_MAX_NODES, FIG_HOPS, 2 * FIG_HOPS);
}

enum { F_FORMAT = OPT_LONG, F_SEED, F_RUNS, F_NODES, F_GROUPS, F_HOPS, F_OVERHEAD, F_BASIC,
       F_BROADCASTS, F_MODEL };

#define AT(f) offsetof(struct fig_opts, f)
static const struct opt fig_table[] = {
    {"format", F_FORMAT, "F", NULL, OPT_CHOICE, AT(csv), 0, 0, opts_text_csv},
    {"seed", F_SEED, "N", NULL, OPT_SEED, AT(seed), 0, 0, NULL},
    {"runs", F_RUNS, "R", NULL, OPT_LONGINT, AT(runs), 1, 10000, NULL},
    {"nodes", F_NODES, "N", NULL, OPT_INT, AT(nodes), 1, FIG_MAX_NODES, NULL},
    {"groups", F_GROUPS, "G", NULL, OPT_INT, AT(groups), 1, FIG_MAX_NODES, NULL},
    {"hops", F_HOPS, "H", NULL, OPT_INT, AT(hops), 1, 1000, NULL},
    {"overhead", F_OVERHEAD, "K", NULL, OPT_NUMBER, AT(overhead), 0, 0, NULL},
    {"basic-latency", F_BASIC, "US", NULL, OPT_NUMBER, AT(basic), 0, 0, NULL},
    {"broadcasts", F_BROADCASTS, "B", NULL, OPT_LONGINT, AT(broadcasts), 1, 1000000000L, NULL},
    {"model", F_MODEL, "M", NULL, OPT_CALL, 0, 0, 0, NULL},
    {NULL, 0, NULL, NULL, OPT_CALL, 0, 0, 0, NULL},
};
#undef AT

static int fig_set(void *ctx, int key, const char *a, const char *v)
{
    struct fig_opts *o = ctx;
    if (key == F_MODEL && model_parse(v, &o->model) < 0) {
        char *names = model_names(), want[256];
        snprintf(want, sizeof want, "a model (%s)", names);
        free(names);
        return opt_fail(a, v, want);
    }
    return 0;
}

/* Returns 0, OPTS_HELP, or an exit status. */
static int fig_parse(int argc, char **argv, struct fig_opts *o)
{
    int n;
    int rc = opts_parse("hetcast experiment figueira", fig_table, argc, argv, fig_set, o, NULL, 0,
                        &n);
    /* Times are at most CLUSTER_MAX_TIME (a link is up to 2 * hops basic
     * latencies), so no result is inf. */
    if (rc == 0 && (o->basic > CLUSTER_MAX_TIME / 1e3 || o->overhead * o->basic > CLUSTER_MAX_TIME / 1e3))
        return opts_error(2, "--basic-latency %g, --overhead %g: out of range (a send or a "
                          "basic latency of at most 1e97 us)", o->basic, o->overhead);
    return rc;
}

void exp_figueira_seed(struct rng *r, unsigned long long seed, int nodes, int groups)
{
    rng_seed(r, seed);
    uint64_t mix = rng_next(r) ^ ((uint64_t)(unsigned)nodes << 32) ^ (uint64_t)(unsigned)groups;
    rng_seed(r, mix);
}

/* The simulated network of a hop matrix: max(h, 1) basic latencies per link,
 * the send overhead on every node. */
struct cluster *exp_figueira_latencies(const struct cluster *hops, double overhead, double basic)
{
    int n = hops->n;
    struct cluster *c = cluster_new(CLUSTER_MATRIX);
    for (int i = 0; i < n; i++)
        cluster_add_node(c, hops->nodes[i].name, overhead * basic, 0);
    c->unit = basic;
    c->dist = xmalloc((size_t)n * (size_t)n * sizeof *c->dist);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double h = hops->dist[(size_t)i * (size_t)n + (size_t)j];
            c->dist[(size_t)i * (size_t)n + (size_t)j] = i == j ? 0 : h > 1 ? h : 1;
        }
    cluster_set_str(&c->name, hops->name);
    struct diag d;
    diag_init(&d);
    cluster_finish(c, &d);
    diag_free(&d);
    return c;
}

/* ---- the study ---- */

struct outcome {
    double cost;       /* tree cost in hops */
    double makespan;   /* one broadcast, microseconds */
};

int exp_figueira_simulate(const struct cluster *hops, const struct cluster *lat, enum model m,
                          double *makespan, double *cost)
{
    for (int k = 0; k < TREE_FIGUEIRA_COUNT; k++) {
        struct tree t;
        struct engine e;
        char *cause = NULL;
        int rc = tree_build(&t, hops, (enum tree_kind)k, &cause);
        if (rc == 0 && engine_init(&e, lat, m, &cause) == 0) {
            rc = tree_run(&t, &e, &cause);
            makespan[k] = e.makespan;
            engine_free(&e);
        } else {
            rc = -1;
        }
        cost[k] = t.cost;
        tree_free(&t);
        if (rc < 0) {
            opts_say(diag_who(), cause ? cause : "failed");
            free(cause);
            return -1;
        }
    }
    return 0;
}

struct setting {
    int nodes, groups, figure;   /* figure 0: not one of the paper's */
};

static int pick_settings(const struct fig_opts *o, struct setting *out)
{
    int k = 0;
    if (!(o->nodes && o->groups))
        for (int i = 0; i < NPAPER; i++)
            if ((!o->nodes || paper[i].nodes == o->nodes) && (!o->groups || paper[i].groups == o->groups))
                out[k++] = (struct setting){paper[i].nodes, paper[i].groups, paper[i].figure};
    if (k == 0) {
        out[0] = (struct setting){o->nodes ? o->nodes : 32, o->groups ? o->groups : 8, 0};
        for (int i = 0; i < NPAPER; i++)
            if (paper[i].nodes == out[0].nodes && paper[i].groups == out[0].groups)
                out[0].figure = paper[i].figure;
        k = 1;
    }
    return k;
}

static void describe(const struct fig_opts *o)
{
    printf("# Figueira, Figures 10-15: broadcast trees on random LNOWs (section 4's emulator).\n"
           "# Each node is 0..%d hops from node 0; nodes at the same distance form a group (0 hops\n"
           "# apart); two groups are the sum of their distances apart (at most %d hops), so at\n"
           "# most %d groups exist whatever the maximum: a larger maximum allows no other LNOWs,\n"
           "# but each setting draws its own from the seed.  Trees are built on the hops; the\n"
           "# engine simulates them (model %s) with a link of h hops taking max(h, 1) basic\n"
           "# latencies of %g us and every send costing %g basic latenc%s.  Seconds for %ld\n"
           "# broadcasts (%ld x one broadcast's makespan); seed %llu, %ld topolog%s per setting.\n",
           o->hops, 2 * o->hops, o->hops + 1, model_name(o->model), o->basic,
           o->overhead, o->overhead == 1 ? "y" : "ies", o->broadcasts, o->broadcasts, o->seed,
           o->runs, o->runs == 1 ? "y" : "ies");
}

int exp_figueira_main(int argc, char **argv)
{
    struct fig_opts o = {.csv = false, .seed = 1, .runs = 4, .overhead = 1, .basic = 35,
                         .hops = FIG_HOPS, .broadcasts = 10000, .model = MODEL_ASYNC};
    int rc = fig_parse(argc, argv, &o);
    if (rc == OPTS_HELP) {
        fig_help(stdout);
        return 0;
    }
    if (rc)
        return rc;
    struct setting set[NPAPER];
    int nset = pick_settings(&o, set);
    struct rng r;
    if (o.csv) {
        exp_provenance_csv(argc, argv, o.seed);
        printf("nodes,max_groups,topology,groups,strategy,tree_cost_hops,makespan_us,time_s\n");
    } else {
        describe(&o);
        printf("\n%5s %6s %4s %6s", "nodes", "max_gr", "topo", "groups");
        for (int k = 0; k < TREE_FIGUEIRA_COUNT; k++)
            printf(" %13s", tree_kind_name((enum tree_kind)k));
        printf("  %s\n", "best");
    }
    for (int si = 0; si < nset; si++) {
        const struct setting *st = &set[si];
        double sum[TREE_FIGUEIRA_COUNT] = {0};
        int wins[TREE_FIGUEIRA_COUNT] = {0}, bp_beats_blind = 0;
        if (!o.csv && st->figure)
            printf("# Figure %d: %d nodes, at most %d groups\n", st->figure, st->nodes, st->groups);
        else if (!o.csv)
            printf("# %d nodes, at most %d groups\n", st->nodes, st->groups);
        exp_figueira_seed(&r, o.seed, st->nodes, st->groups);
        for (long run = 1; run <= o.runs; run++) {
            int groups;
            struct cluster *hops = generate_lnow(&r, st->nodes, st->groups, o.hops, &groups);
            struct cluster *lat = exp_figueira_latencies(hops, o.overhead, o.basic);
            struct outcome out[TREE_FIGUEIRA_COUNT];
            double ms[TREE_FIGUEIRA_COUNT], cost[TREE_FIGUEIRA_COUNT];
            int bad = exp_figueira_simulate(hops, lat, o.model, ms, cost);
            for (int k = 0; k < TREE_FIGUEIRA_COUNT; k++)
                out[k] = (struct outcome){cost[k], ms[k]};
            cluster_free(hops);
            cluster_free(lat);
            if (bad)
                return 1;
            int best = 0;
            for (int k = 0; k < TREE_FIGUEIRA_COUNT; k++) {
                double secs = out[k].makespan * (double)o.broadcasts * 1e-6;
                sum[k] += secs;
                if (out[k].makespan < out[best].makespan)
                    best = k;
                if (o.csv)
                    printf("%d,%d,%ld,%d,%s,%g,%g,%.6f\n", st->nodes, st->groups, run, groups,
                           tree_kind_name((enum tree_kind)k), out[k].cost, out[k].makespan, secs);
            }
            wins[best]++;
            bp_beats_blind += out[TREE_BALANCED_PATH].makespan < out[TREE_BINOMIAL].makespan;
            if (o.csv)
                continue;
            printf("%5d %6d %4ld %6d", st->nodes, st->groups, run, groups);
            for (int k = 0; k < TREE_FIGUEIRA_COUNT; k++)
                printf(" %13.3f", out[k].makespan * (double)o.broadcasts * 1e-6);
            printf("  %s\n", tree_kind_name((enum tree_kind)best));
        }
        if (o.csv)
            continue;
        printf("%5s %6s %4s %6s", "", "", "mean", "");
        for (int k = 0; k < TREE_FIGUEIRA_COUNT; k++)
            printf(" %13.3f", sum[k] / (double)o.runs);
        printf("\n#   fastest:");
        for (int k = 0, first = 1; k < TREE_FIGUEIRA_COUNT; k++)
            if (wins[k]) {
                printf("%s %s %d of %ld", first ? "" : ",", tree_kind_name((enum tree_kind)k),
                       wins[k], o.runs);
                first = 0;
            }
        printf("; balanced-path beat the blind binomial tree in %d of %ld\n", bp_beats_blind,
               o.runs);
    }
    return 0;
}
