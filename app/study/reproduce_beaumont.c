/*
 * app/study/reproduce_beaumont.c - hetcast experiment reproduce, the part of
 * Beaumont, Marchal & Robert, pipelined broadcast trees: Figures 4
 * and 5, Table 3 (run H).
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

/* The why of a Figure 4-5 row that misses its rule: what the independent
 * check (tests/pipeline_check.py, docs/pipeline.md) shows, and where it does
 * not run.  It runs on run H's 50 platforms of 10 nodes (every density,
 * one-port and multi-port) only: its own simplex is slow beyond (5 platforms
 * of 50 nodes took more than 2 minutes at load 14).  larger: the row reads platforms of more than 10 nodes (then the
 * check says nothing about them); lp: the row names lp-prune or lp-grow,
 * whose trees the check cannot match. */
static const char *pipe_why(bool ok, const char *rule, bool lp, const char *larger)
{
    if (ok)
        return rule;
    const char *lps = lp ? " for every heuristic but lp-prune and lp-grow, whose trees follow "
                           "per-edge counts that an optimum does not fix"
                         : "";
    if (!larger)
        return rep_fmt("%s.  Not hetcast's code: on run H's 50 platforms of 10 nodes, an "
                       "implementation that shares none of it (`tests/pipeline_check.py`: the "
                       "generator, the heuristics and linear program (2)) gives the same figures "
                       "to 0.0005 points%s ([pipeline.md](pipeline.md#an-independent-check)); no "
                       "run here shows which of the paper's settings makes the gap",
                       rule, lps);
    return rep_fmt("%s.  The implementation that shares no code with hetcast "
                   "(`tests/pipeline_check.py`) gives the same figures to 0.0005 points%s on run "
                   "H's 50 platforms of 10 nodes only "
                   "([pipeline.md](pipeline.md#an-independent-check)); it is not run on %s, so "
                   "nothing here checks hetcast's figures there, and no run here shows which of "
                   "the paper's settings makes the gap",
                   rule, lps, larger);
}

struct pacc {
    int n;
    double sum[EXP_PIPE_MODELS][PIPE_NHEUR], sq[EXP_PIPE_MODELS][PIPE_NHEUR];
    double uni_share;   /* one-port-uni LP bound / one-port LP optimum, summed */
};

static void pacc_add(struct pacc *a, double ratio[EXP_PIPE_MODELS][PIPE_NHEUR], double uni_share)
{
    a->n++;
    a->uni_share += uni_share;
    for (int m = 0; m < EXP_PIPE_MODELS; m++)
        for (int h = 0; h < PIPE_NHEUR; h++) {
            a->sum[m][h] += ratio[m][h];
            a->sq[m][h] += ratio[m][h] * ratio[m][h];
        }
}

static double pmean(const struct pacc *a, int m, int h)
{
    return a->n ? 100 * a->sum[m][h] / a->n : NAN;
}

/*
 * One of Run H's tables: a row of five, the heuristics' mean % (model m) in
 * the order of pipe_cols; rows labelled 10, 20, ... 50 nodes, or by the
 * densities dens when given.
 */
static const int pipe_cols[PIPE_NHEUR] = {PIPE_PRUNE_SIMPLE, PIPE_PRUNE_DEGREE, PIPE_GROW_TREE,
                                          PIPE_LP_PRUNE,     PIPE_LP_GROW,      PIPE_BINOMIAL,
                                          PIPE_MULTIPORT_GROW, PIPE_MULTIPORT_PRUNE_DEGREE};

static void pipe_table(FILE *out, const char *title, const char *label, const struct pacc *rows, int m,
                       const double *dens)
{
    fprintf(out, "\n%s:\n\n| %s |", title, label);
    for (int i = 0; i < PIPE_NHEUR; i++)
        fprintf(out, " %s |", pipe_heur_name((enum pipe_heur)pipe_cols[i]));
    fprintf(out, "\n| --- |");
    for (int i = 0; i < PIPE_NHEUR; i++)
        fprintf(out, " --- |");
    fprintf(out, "\n");
    for (int r = 0; r < 5; r++) {
        if (dens)
            fprintf(out, "| %g |", dens[r]);
        else
            fprintf(out, "| %d |", 10 + 10 * r);
        for (int i = 0; i < PIPE_NHEUR; i++)
            fprintf(out, " %.1f |", pmean(&rows[r], m, pipe_cols[i]));
        fprintf(out, "\n");
    }
}

static double psd(const struct pacc *a, int m, int h)
{
    if (a->n < 2)
        return 0;
    double mu = a->sum[m][h] / a->n, v = (a->sq[m][h] - a->n * mu * mu) / (a->n - 1);
    return v > 0 ? 100 * sqrt(v) : 0;
}

/* Run H's settings: link probabilities of Figure 4(b), the sizes of the
 * stand-in for TIERS, and the paper's Table 3 in its column order. */
static const double dens[] = {0.04, 0.08, 0.12, 0.16, 0.20};
static const int tn[2] = {30, 65};
static const int t3h[6] = {PIPE_PRUNE_SIMPLE, PIPE_PRUNE_DEGREE, PIPE_GROW_TREE, PIPE_LP_GROW,
                          PIPE_LP_PRUNE, PIPE_BINOMIAL};
static const double t3[2][6] = {{46, 82, 75, 82, 82, 11}, {30, 73, 71, 73, 74, 5}};

/* Run H: the means by size, by link probability, and on the tiers platforms. */
struct hrun {
    struct pacc size[5], den[5], tiers[2];
};

static int run_h(struct hrun *h)
{
    memset(h, 0, sizeof *h);
    struct rng r;
    rng_seed(&r, 1);
    double worst = 0, ratio[EXP_PIPE_MODELS][PIPE_NHEUR], share = 0;
    for (int si = 0; si < 5; si++)
        for (int di = 0; di < 5; di++)
            for (int k = 0; k < 10; k++) {
                struct cluster *c = generate_platform_random(&r, 10 + 10 * si, dens[di], 0.8);
                int bad = exp_pipeline_measure(c, ratio, &share, &worst);
                cluster_free(c);
                if (bad)
                    return -1;
                pacc_add(&h->size[si], ratio, share);
                pacc_add(&h->den[di], ratio, share);
            }
    for (int ti = 0; ti < 2; ti++)
        for (int k = 0; k < 100; k++) {
            struct cluster *c = generate_platform_tiers(&r, tn[ti], 0.8);
            int bad = exp_pipeline_measure(c, ratio, &share, &worst);
            cluster_free(c);
            if (bad)
                return -1;
            pacc_add(&h->tiers[ti], ratio, share);
        }
    if (worst > 1 + 1e-9)
        return rep_fail("a tree beat the LP optimum (or, one-port-uni, its LP bound)", NULL);
    return 0;
}

/* Run H's tables under the rows. */
static void h_tables(FILE *out, const struct hrun *h)
{
    pipe_table(out, "Run H, Figure 4(a) (one-port, mean %)", "nodes", h->size, 0, NULL);
    pipe_table(out, "Run H, Figure 4(b) (one-port, mean % by link probability)", "density", h->den, 0,
               dens);
    pipe_table(out, "Run H, Figure 5 (multi-port tree / one-port LP optimum, mean %)", "nodes", h->size,
               1, NULL);
    fprintf(out, "\nRun H, Table 3 (one-port, mean ± deviation %%; the paper's in brackets):\n\n"
                 "| nodes |");
    for (int j = 0; j < 6; j++)
        fprintf(out, " %s |", pipe_heur_name((enum pipe_heur)t3h[j]));
    fprintf(out, "\n| --- | --- | --- | --- | --- | --- | --- |\n");
    for (int ti = 0; ti < 2; ti++) {
        fprintf(out, "| %d |", tn[ti]);
        for (int j = 0; j < 6; j++)
            fprintf(out, " %.0f ± %.0f (%g) |", pmean(&h->tiers[ti], 0, t3h[j]),
                    psd(&h->tiers[ti], 0, t3h[j]), t3[ti][j]);
        fprintf(out, "\n");
    }
    fprintf(out, "\nRun H under the unidirectional one-port model (`-m one-port-uni`; the paper "
                 "defines it in §2.3 and runs none, so there is nothing to reproduce): tree "
                 "throughput / the one-port-uni LP bound, mean %%.  The bound is linear program (2) "
                 "with one port row per node, an upper bound that is not always reached "
                 "([pipeline.md](pipeline.md#the-unidirectional-one-port-model--m-one-port-uni)); "
                 "the last column is the bound / the one-port LP optimum.\n\n| nodes |");
    for (int i = 0; i < PIPE_NHEUR; i++)
        fprintf(out, " %s |", pipe_heur_name((enum pipe_heur)pipe_cols[i]));
    fprintf(out, " bound / one-port optimum |\n| --- |");
    for (int i = 0; i <= PIPE_NHEUR; i++)
        fprintf(out, " --- |");
    fprintf(out, "\n");
    for (int si = 0; si < 5; si++) {
        fprintf(out, "| %d |", 10 + 10 * si);
        for (int i = 0; i < PIPE_NHEUR; i++)
            fprintf(out, " %.1f |", pmean(&h->size[si], 2, pipe_cols[i]));
        fprintf(out, " %.1f |\n", 100 * h->size[si].uni_share / h->size[si].n);
    }
    fprintf(out, "\n");
}

int rep_beaumont(FILE *out)
{
    static struct hrun h;
    if (run_h(&h) < 0)
        return -1;
    const struct pacc *size = h.size, *den = h.den, *tiers = h.tiers;
    const struct pacc *n10 = &size[0], *n50 = &size[4];
    double adv50 = fmin(fmin(pmean(n50, 0, PIPE_PRUNE_DEGREE), pmean(n50, 0, PIPE_GROW_TREE)),
                        fmin(pmean(n50, 0, PIPE_LP_PRUNE), pmean(n50, 0, PIPE_LP_GROW)));
    double adv50hi = fmax(fmax(pmean(n50, 0, PIPE_PRUNE_DEGREE), pmean(n50, 0, PIPE_GROW_TREE)),
                          fmax(pmean(n50, 0, PIPE_LP_PRUNE), pmean(n50, 0, PIPE_LP_GROW)));
    double pg50 = fmin(pmean(n50, 0, PIPE_PRUNE_DEGREE), pmean(n50, 0, PIPE_GROW_TREE));
    double small = INFINITY;
    for (int h = 0; h < PIPE_NHEUR; h++)
        if (h == PIPE_PRUNE_DEGREE || h == PIPE_GROW_TREE || h == PIPE_LP_PRUNE || h == PIPE_LP_GROW)
            small = fmin(small, pmean(n10, 0, h));
    double ps50 = pmean(n50, 0, PIPE_PRUNE_SIMPLE), bin50 = pmean(n50, 0, PIPE_BINOMIAL);
    bool bin_last = true;
    for (int h = 0; h < PIPE_NHEUR; h++)
        if (h != PIPE_BINOMIAL && pmean(n50, 0, h) <= bin50)
            bin_last = false;
    double dmin = INFINITY, adv[5];
    for (int di = 0; di < 5; di++) {
        double refined = fmax(pmean(&den[di], 0, PIPE_PRUNE_DEGREE), pmean(&den[di], 0, PIPE_GROW_TREE));
        dmin = fmin(dmin, refined);
        adv[di] = (pmean(&den[di], 0, PIPE_PRUNE_DEGREE) + pmean(&den[di], 0, PIPE_GROW_TREE) +
                   pmean(&den[di], 0, PIPE_LP_PRUNE) + pmean(&den[di], 0, PIPE_LP_GROW)) / 4;
    }
    bool falls = adv[4] <= adv[0] - 5;
    bool mp_better = true;
    double lp_gap = 0, mpd_gap = 0, mpd_gain = INFINITY;
    for (int si = 0; si < 5; si++) {
        mp_better = mp_better && pmean(&size[si], 1, PIPE_MULTIPORT_GROW) > pmean(&size[si], 1, PIPE_BINOMIAL) + 10;
        lp_gap = fmax(lp_gap, fabs(pmean(&size[si], 1, PIPE_LP_GROW) - pmean(&size[si], 1, PIPE_MULTIPORT_GROW)));
        lp_gap = fmax(lp_gap, fabs(pmean(&size[si], 1, PIPE_LP_PRUNE) - pmean(&size[si], 1, PIPE_MULTIPORT_GROW)));
        mpd_gap = fmax(mpd_gap, pmean(&size[si], 1, PIPE_MULTIPORT_GROW) - pmean(&size[si], 1, PIPE_MULTIPORT_PRUNE_DEGREE));
        mpd_gain = fmin(mpd_gain, pmean(&size[si], 1, PIPE_MULTIPORT_PRUNE_DEGREE) - pmean(&size[si], 1, PIPE_PRUNE_DEGREE));
    }
    /* Table 3: the paper's cells, in its column order */
    double t3gap = 0;
    for (int ti = 0; ti < 2; ti++)
        for (int j = 0; j < 6; j++)
            t3gap = fmax(t3gap, fabs(pmean(&tiers[ti], 0, t3h[j]) - t3[ti][j]));

    fprintf(out, "## Beaumont, Marchal & Robert: pipelined broadcast trees\n\n"
                 "`papers/beaumont-marchal-robert-pipelined-broadcast-trees.txt`.  Run **H**: "
                 "`hetcast experiment pipeline` at its defaults (the paper's §5.1: 10 random "
                 "platforms per size 10..50 and link probability 0.04..0.20; 100 WAN/MAN/LAN "
                 "platforms of 30 and of 65 nodes standing in for TIERS; seed 1).  Throughputs in "
                 "%% of the one-port LP optimum (linear program (2)).\n\n");
    struct rep_table tab = {0};
    rep_row(&tab, "Figure 4(a), small platforms", "heuristics \"very close to the optimal\"",
        rep_fmt("at 10 nodes the refined and LP heuristics reach %.1f %% or more", small),
        rep_verdict(small >= 90), pipe_why(small >= 90, "rule: 90 % or more", true, NULL));
    rep_row(&tab, "Figure 4(a), larger platforms", "the advanced heuristics reach 60 %",
        rep_fmt("%.1f-%.1f %% at 50 nodes", adv50, adv50hi), rep_verdict(adv50 >= 57.5),
        pipe_why(adv50 >= 57.5, "rule: all four at 57.5 % or more", true, "the 50-node platforms"));
    rep_row(&tab, "Figure 4(a)", "prune-degree and grow-tree \"even within 70 %\"",
        rep_fmt("%.1f %% or more at 50 nodes", pg50), rep_verdict(pg50 >= 67.5),
        pipe_why(pg50 >= 67.5, "rule: 67.5 % or more", false, "the 50-node platforms"));
    rep_row(&tab, "Figure 4(a)", "prune-simple \"falls down to 20 %\"",
        rep_fmt("%.1f %% at 50 nodes", ps50), rep_verdict(fabs(ps50 - 20) <= 5),
        pipe_why(fabs(ps50 - 20) <= 5, "rule: 15-25 %", false, "the 50-node platforms"));
    rep_row(&tab, "Figure 4(a)", "binomial \"very poor\"",
        rep_fmt("%.1f %% at 50 nodes, the lowest", bin50), rep_verdict(bin_last), "");
    rep_row(&tab, "Figure 4(b)", "refined heuristics still within 70 % at every density",
        rep_fmt("the better of prune-degree and grow-tree: %.1f %% or more", dmin),
        rep_verdict(dmin >= 67.5), pipe_why(dmin >= 67.5, "rule: 67.5 % or more", false,
                 "the platforms of 20 to 50 nodes that Figure 4(b) also averages"));
    rep_row(&tab, "Figure 4(b)", "denser platforms leave more to gain with several trees",
        rep_fmt("the four advanced heuristics' mean share: %.1f %% at link probability 0.04, %.1f %% "
            "at 0.2",
            adv[0], adv[4]),
        rep_verdict(falls), rep_rule_why(falls, "rule: 5 points lower or more"));
    rep_row(&tab, "Figure 5 (multi-port)", "multiport-grow much better than binomial",
        mp_better ? "ahead by more than 10 points at every size" : "not ahead by 10 points at "
                                                                   "every size",
        rep_verdict(mp_better), "");
    rep_row(&tab, "Figure 5", "LP heuristics close to multiport-grow",
        rep_fmt("within %.1f points at every size", lp_gap), rep_verdict(lp_gap <= 10),
        pipe_why(lp_gap <= 10, "rule: within 10 points", true,
                 "the platforms of 20 to 50 nodes of Figure 5"));
    rep_row(&tab, "Figure 5", "Multiport-Prune-Degree \"give[s] good results too\"",
        rep_fmt("`multiport-prune-degree` at most %.1f points behind multiport-grow at any size; "
            "%+.1f points or more against the one-port prune-degree tree",
            mpd_gap, mpd_gain),
        rep_verdict(mpd_gap <= 10), "rule: within 10 points of multiport-grow");
    int bin_mp = 0;   /* sizes where binomial does better under multi-port */
    for (int si = 0; si < 5; si++)
        bin_mp += pmean(&size[si], 1, PIPE_BINOMIAL) > pmean(&size[si], 0, PIPE_BINOMIAL);
    rep_row(&tab, "Figure 5", "binomial \"better than previously\" (than under one-port, Figure 4(a))",
        rep_fmt("better at %d of 5 sizes", bin_mp), rep_verdict(bin_mp == 5), "");
    /* Table 3: the LP heuristics "slightly better" on the large platforms */
    const struct pacc *t65 = &tiers[1];
    double lp65 = fmax(pmean(t65, 0, PIPE_LP_PRUNE), pmean(t65, 0, PIPE_LP_GROW));
    double other65 = fmax(fmax(pmean(t65, 0, PIPE_PRUNE_SIMPLE), pmean(t65, 0, PIPE_PRUNE_DEGREE)),
                          fmax(pmean(t65, 0, PIPE_GROW_TREE), pmean(t65, 0, PIPE_BINOMIAL)));
    rep_row(&tab, "Table 3 (TIERS)", "the LP heuristics give \"slightly better\" results on large platforms",
        rep_fmt("at 65 nodes the better LP heuristic %.1f %%, the best other %.1f %%", lp65, other65),
        rep_verdict(lp65 > other65),
        lp65 > other65 ? "rule: the better LP heuristic ahead"
                       : "rule: the better LP heuristic ahead.  On the stand-in for TIERS (see "
                         "the next row) it is not");
    rep_row(&tab, "Table 3 (TIERS)", "the six cells below", rep_fmt("largest difference %.0f points", t3gap),
        rep_verdict(t3gap <= 10),
        t3gap <= 10 ? "" : "TIERS is not available: hetcast's WAN/MAN/LAN stand-in leaves single "
                           "trees much closer to the optimum (table below); no run here shows "
                           "what TIERS platforms would give");
    rep_table_print(out, &tab);
    h_tables(out, &h);
    return 0;
}
