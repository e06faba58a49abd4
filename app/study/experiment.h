/*
 * app/study/experiment.h - the studies of the papers, rerun by one command
 * (hetcast experiment NAME).  Every study is seeded and prints its seed.
 * The clusters they draw come from the core's generators (model/generate.h).
 */
#ifndef HETCAST_EXPERIMENT_H
#define HETCAST_EXPERIMENT_H

/* argv[0] is NAME (or --list); returns an exit status. */
int experiment_main(int argc, char **argv);

/* The studies of their own files; argv[0] is the study's name. */
int exp_alltoall_main(int argc, char **argv);   /* Chen & Liu, Table 7's four groups */
int exp_figueira_main(int argc, char **argv);   /* Figueira, Figures 10-15 */
int exp_pipeline_main(int argc, char **argv);   /* Beaumont, Marchal & Robert, §5 */

/* int exp_reproduce_main(int argc, char **argv): app/study/reproduce.c, every study at
 * the papers' settings against the papers' numbers (docs/reproduction.md). */
int exp_reproduce_main(int argc, char **argv);

/* ---- the studies of numbered trials (app/study/trials.h) ---- */
#include <stdbool.h>
#include "app/study/trials.h"

/* The options every study without its own shares (experiment.c's table). */
struct xopts {
    int csv;              /* --format: text (0), csv (1) or json (2) */
    unsigned long long seed;
    long runs;            /* random runs per size / clusters per study */
    int nodes_min, nodes_max;
    int classes;          /* 0: continuous */
    double lo, hi;        /* send-time range */
    const char *recv;     /* zero | independent | correlated */
    double latency;
    long node_limit;      /* search nodes per exact search (no clock: a study gives the
                             same answer on any machine) */
    bool per_size;        /* fnf-vs-optimal: --runs clusters of each size */
    const char *out;      /* optima: the folder of the set */
    unsigned models;      /* optima: MODEL_BIT mask (0: all) */
    struct trial_ctl ctl; /* --shard, --jobs, --resume, --quiet */
};

/* Parse --models M,M.. (or "all") into a MODEL_BIT mask: 0, or 2 (said). */
int exp_parse_models(const char *opt, const char *v, unsigned *mask);

/* A trial study's setup: its sizes and runs from the options, its trials,
 * and every parameter as options (the provenance). */
struct tctx {
    struct xopts o;
    int lo, hi;
    long runs;
};

/* hetcast experiment optima (app/study/optima.c): the benchmark set of
 * proven optima, a study of trials; optima-check reads a set back. */
int exp_optima_setup(const struct xopts *o, struct tctx *t, struct trial_head *h);
extern const struct trial_study exp_optima_study;
int exp_optima_check_main(int argc, char **argv);
/* hetcast experiment segments FILE --size S (app/study/segments.c): the best
 * number of segments of a message on a node table with size segments. */
int exp_segments_main(int argc, char **argv);
/* hetcast experiment algorithms (app/study/algorithms.c): every scheduler's
 * guarantee beside its measured ratio to the proven optimum. */
int exp_algorithms_main(int argc, char **argv);

/* The provenance lines of a study's CSV (`# hetcast:`, `# study:`, `# options:`
 * as given, `# seed:`, `# shard: 1/1`); argv[0] is the study's name. */
void exp_provenance_csv(int argc, char **argv, unsigned long long seed);

/* ---- pieces the studies share with app/study/reproduce.c ---- */
#include <stdbool.h>
#include "engine/engine.h"
#include "sched/exchange.h"
#include "sched/pipeline.h"
#include "support/rng.h"
#include "sched/sched.h"

/* The makespan of one policy on c under m, or NAN on failure. */
double exp_makespan(const struct cluster *c, enum model m, const struct sched_ops *ops,
                    unsigned long long seed);

/* Liu, Wang & Guo's Figure 6 cluster of n nodes: (s, r) = (1, 2), (5, 6),
 * (10, 11) by thirds (the rest slow), latency 0, source a fast node. */
struct cluster *exp_fig6_cluster(int n);

/* The random node tables of fnf-vs-optimal and counterexample. */
struct exp_gen {
    int classes;          /* 0: every node drawn on its own (0.1 steps) */
    double lo, hi;        /* send times in [lo, hi] */
    const char *recv;     /* "zero", "independent" or "correlated" (r = s + 1) */
    double latency;
};
struct cluster *exp_random_cluster(struct rng *r, int n, const struct exp_gen *g);

/* FNF and the exact optimum (async); -1 (said on stderr) if the search refused. */
struct exact {
    double fnf, opt;
    bool proven;
};
int exp_exact(const struct cluster *c, long long node_limit, struct exact *x);   /* no clock */

/* Liu, Wang & Guo's theorems on random clusters (hetcast experiment
 * fnf-theorems): on each cluster c, Theorem 3 (FNF's final ready-to-receive
 * time TR at most twice the smallest), Theorem 2 on c's power-2 transform
 * when that is consistent (FNF's TR the smallest), whether FNF's TR is the
 * smallest on c itself, and with the exact optimum T Theorem 4 (fnf <= 2T +
 * beta) beside Libeskind-Hadas & Hartline's 2 alpha T + beta. */
struct exp_theorems {
    long clusters;
    long t2_n, t2_held;        /* consistent power-2 transforms; FNF's TR smallest */
    long plain_held;           /* FNF's TR the smallest on c itself */
    long t3_held;
    double t3_worst;           /* largest TR(fnf) / smallest TR */
    long sequences;            /* receiver sequences tried in all */
    long t4_n, t4_held, lhh_held, lhh_looser;   /* consistent, exact T */
    double t4_ratio, lhh_ratio;                 /* sums of bound / fnf */
};
int exp_theorems(unsigned long long seed, int lo, int hi, long runs, const struct exp_gen *g,
                 long long node_limit, struct exp_theorems *t);   /* cluster k drawn from
                 rng_seed_trial(seed, k), as `experiment fnf-theorems` draws it */

/* Figueira: the simulated latencies of a hop matrix (max(h, 1) basic
 * latencies a link, overhead x basic a send); every tree kind's makespan
 * (us) and cost (hops) on it.  0 or -1 (said on stderr). */
struct cluster *exp_figueira_latencies(const struct cluster *hops, double overhead, double basic);
/* The stream a setting (nodes, maximum groups) of seed draws its LNOWs from:
 * its own, so that settings never share draws and a setting draws the same
 * LNOWs alone or among the six. */
void exp_figueira_seed(struct rng *r, unsigned long long seed, int nodes, int groups);
int exp_figueira_simulate(const struct cluster *hops, const struct cluster *lat, enum model m,
                          double *makespan, double *cost);

/* Beaumont, Marchal & Robert: every heuristic's one-port (ratio[0]) and
 * multi-port (ratio[1]) throughput / the one-port LP optimum, and its
 * one-port-uni throughput / the one-port-uni LP bound (ratio[2]; lp-prune
 * and lp-grow built from that program), by enum pipe_heur; *uni_share is
 * the one-port-uni bound / the one-port optimum; *worst keeps the largest
 * ratio[0] or ratio[2] (never above 1).  0 or -1 (said). */
#define EXP_PIPE_MODELS 3
int exp_pipeline_measure(const struct cluster *c, double ratio[EXP_PIPE_MODELS][PIPE_NHEUR],
                         double *uni_share, double *worst);

/* Chen & Liu: runs of one point (model, pattern, n-node Table 7 cluster,
 * receivers a block of pct % from node 0.8 n, or from node `first` when
 * first >= 0) for one order: mean and sample variance of the completion. */
int exp_alltoall_point(enum model m, enum xpattern pattern, const struct cluster *c, double pct,
                       int first, long runs, unsigned long long seed,
                       const struct xsched_ops *ops, double *mean, double *variance);
/* Chen & Liu: `runs` all-to-some runs of one order, each on its own random
 * set of pct % receivers (run k: seed + k, as `--random-receivers` draws):
 * the smallest and largest completion and how many came within 1 of target. */
int exp_alltoall_random_sets(enum model m, const struct cluster *c, double pct, long runs,
                             unsigned long long seed, const struct xsched_ops *ops, double target,
                             double *lo, double *hi, long *near);

#endif
