/*
 * test_kkround.c - kk-round (sched/kkround.h), Khuller & Kim's rounding
 * with the exact search on the rounded table (TAP):
 * - the rounding goes up, within 1 + eps, keeps zeros and equal times equal,
 *   and keeps the latency, the source and the targets;
 * - the hand-worked case, clusters/khuller-kim.csv under sender-only with
 *   eps = 1 (below), where the rounding changes the schedule;
 * - on hundreds of random node tables and multicasts, in every model of a
 *   node table, for several eps: the real run never ends after the rounded
 *   table's (the replay is monotone in the costs), and where the rounded
 *   search proves, kk-round is within 1 + eps of the proven optimum;
 * - a rounded search that gives up: the run says so, and its bound is at
 *   most the least makespan;
 * - refusals: latency matrices, an eps out of range.
 * HETCAST_KKROUND_CLUSTERS=N for a longer sweep; fewer at the small scale (tap_scale).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "sched/kkround.h"
#include "sched/optimal.h"
#include "sched/registry.h"
#include "support/rng.h"
#include "tap.h"
#include "random_cluster.h"

static struct cluster *load(const char *path)
{
    struct diag d;
    diag_init(&d);
    struct cluster *c = cluster_load_csv(path, &d);
    diag_free(&d);
    return c;
}

static int quiet;

/* kk-round on c under m with eps: 0 and the run's makespan, status and note. */
static int run_kk(const struct cluster *c, enum model m, double eps, const struct sched_opts *base,
                  double *ms, enum opt_status *status, double *bound, char *note, size_t size)
{
    struct sched_opts so;
    if (base)
        so = *base;
    else
        sched_opts_default(&so);
    so.epsilon = eps;
    struct engine e;
    struct sched s;
    char *cause = NULL;
    if (engine_init(&e, c, m, &cause) < 0) {
        diag("%s", cause);
        free(cause);
        return -1;
    }
    sched_init(&s, &sched_kk_round, &so);
    int rc = sched_run(&e, &s, &cause);
    if (rc < 0) {
        if (!quiet++)   /* the first only: a broken build fails every run */
            diag("kk-round: %s", cause);
        free(cause);
    }
    *ms = e.makespan;
    *status = s.status;
    *bound = s.bound;
    if (note)
        snprintf(note, size, "%s", s.note);
    sched_free(&s);
    engine_free(&e);
    return rc;
}

/* The rounding itself, on random tables with the papers' range of times. */
static void rounding(struct rng *r)
{
    static const double eps_list[] = {0.001, 0.1, 0.25, 1, 4};
    int bad = 0, checked = 0, fewer = 0;
    char first[200] = "";
    for (int i = 0; i < 200; i++) {
        struct cluster *c = cluster_new(CLUSTER_NODES);
        int n = 2 + (int)rng_below(r, 30);
        for (int p = 0; p < n; p++) {
            char name[16];
            snprintf(name, sizeof name, "p%d", p);
            /* 0, or 0.1 .. 100 in steps of 0.1, or a third */
            double s = rng_below(r, 8) == 0 ? 0 : (double)(1 + rng_below(r, 1000)) / 10;
            double t = rng_below(r, 8) == 0 ? 1.0 / 3 : (double)(1 + rng_below(r, 1000)) / 10;
            cluster_add_node(c, name, s, t);
        }
        c->latency = 0.5;
        c->source = (int)rng_below(r, (uint64_t)n);
        if (!(c = cluster_finished(c)))
            continue;
        double eps = eps_list[i % 5];
        struct cluster *k = kk_round_cluster(c, eps);
        if (!k) {
            bad++;
            continue;
        }
        bool ok_here = k->n == c->n && k->source == c->source && k->latency == c->latency;
        for (int p = 0; p < n && ok_here; p++) {
            double a[2] = {c->nodes[p].send, c->nodes[p].recv}, b[2] = {k->nodes[p].send, k->nodes[p].recv};
            for (int j = 0; j < 2; j++) {
                checked++;
                if (!(b[j] >= a[j] && b[j] <= a[j] * (1 + eps) * (1 + 1e-12)) || ((a[j] == 0) != (b[j] == 0)))
                    ok_here = false;
            }
            for (int q = 0; q < p && ok_here; q++)
                if ((c->nodes[p].send == c->nodes[q].send) != (k->nodes[p].send == k->nodes[q].send) &&
                    c->nodes[p].send == c->nodes[q].send)
                    ok_here = false;
        }
        if (!ok_here && !bad++)
            snprintf(first, sizeof first, "table %d (%d nodes, eps %g)", i, n, eps);
        fewer += kk_classes(k, false) < kk_classes(c, false);
        cluster_free(k);
        cluster_free(c);
    }
    ok(bad == 0 && checked > 0, "rounding: %d times each rounded up within 1 + eps, zero kept, equal kept "
       "equal; %d bad%s%s", checked, bad, first[0] ? ", first " : "", first);
    ok(fewer > 100, "rounding leaves fewer classes on %d of 200 tables", fewer);
    struct cluster *m = cluster_new(CLUSTER_MATRIX);
    ok(kk_round_cluster(m, 0.25) == NULL, "rounding: a latency matrix is refused");
    cluster_free(m);
}

/*
 * The hand-worked case: clusters/khuller-kim.csv (sender-only: node i holds
 * the message t_i after its sender starts; source p0, t = 2; p1..p5 with t =
 * 3, 5, 6, 8, 10), eps = 1.  The grid from the smallest time 2 is 2, 4, 8,
 * 16, so the sends become p0 2, p1 4, p2..p4 8, p5 16: 3 classes among the
 * receivers, where there were 5.  The rounded optimum is 8: p0 serves four
 * nodes, holding at 2, 4, 6, 8, and a fifth must come from one of them; by
 * any time below 8 only p1 (4, served at 2, done at 6) finishes a send, so
 * at most 4 nodes hold the message before 8.  Every rounded schedule of
 * makespan 8 has p0 send four times back to back, and p0's real time is its
 * rounded one (2): with the real times it still ends at 8.  The real
 * optimum is 7 (the file's description; p0 -> p1 -> ...: fnf's 8 beaten),
 * so kk-round makes 8 = 8/7 x the least, within its 1 + eps = 2.  With the
 * default eps = 0.25 the grid (in tenths) is 2, 2.5, 3.1, 3.8, 4.7, 5.8,
 * 7.2, 9, 11.2, and kk-round finds the optimum, 7.
 */
static void the_hand_worked_case(void)
{
    struct cluster *c = load("clusters/khuller-kim.csv");
    ok(c != NULL, "clusters/khuller-kim.csv loads");
    if (!c)
        return;
    struct cluster *k = kk_round_cluster(c, 1);
    static const double want[] = {2, 4, 8, 8, 8, 16};
    bool same = k && k->n == 6;
    for (int p = 0; same && p < 6; p++)
        same = k->nodes[p].send == want[p];
    ok(same, "eps 1: the sends rounded to 2 4 8 8 8 16");
    is_int(kk_classes(c, true), 5, "5 classes of receivers before");
    is_int(k ? kk_classes(k, true) : -1, 3, "3 after");
    struct sched_opts so;
    sched_opts_default(&so);
    struct opt_plan rp, op;
    char *cause = NULL;
    if (k && optimal_solve(k, MODEL_SENDER_ONLY, &so, &rp, &cause) == 0) {
        ok(rp.status == OPT_PROVEN && rp.makespan == 8, "the rounded optimum is 8 (got %g)", rp.makespan);
        opt_plan_free(&rp);
    }
    if (optimal_solve(c, MODEL_SENDER_ONLY, &so, &op, &cause) == 0) {
        ok(op.status == OPT_PROVEN && op.makespan == 7, "the real optimum is 7 (got %g)", op.makespan);
        opt_plan_free(&op);
    }
    free(cause);
    cluster_free(k);
    double ms, bound;
    enum opt_status st;
    char note[1024];
    if (run_kk(c, MODEL_SENDER_ONLY, 1, NULL, &ms, &st, &bound, note, sizeof note) == 0) {
        is_double(ms, 8, 1e-12, "eps 1: kk-round makes 8 (8/7 of the least, within 2)");
        ok(st == OPT_NONE, "eps 1: not called optimal, no search gave up");
        ok(strstr(note, "within 2 of the least makespan") && strstr(note, "leave 3 classes (of 5)") &&
           strstr(note, "optimum 8") && strstr(note, "real times 8"), "eps 1: the note: %s", note);
    }
    if (run_kk(c, MODEL_SENDER_ONLY, 0, NULL, &ms, &st, &bound, note, sizeof note) == 0)
        is_double(ms, 7, 1e-12, "default eps 0.25: kk-round makes the optimum, 7 (%s)", note);
    cluster_free(c);
}

/* A table of the papers' range: send 1..10 in steps of 0.1, receive 1..10. */
static struct cluster *papers_table(struct rng *r, int n)
{
    struct cluster *c = cluster_new(CLUSTER_NODES);
    for (int p = 0; p < n; p++) {
        char name[16];
        snprintf(name, sizeof name, "p%d", p);
        cluster_add_node(c, name, (double)(10 + rng_below(r, 91)) / 10, (double)(10 + rng_below(r, 91)) / 10);
    }
    c->latency = rng_below(r, 2) ? 0 : 1;
    c->source = (int)rng_below(r, (uint64_t)n);
    return cluster_finished(c);
}

/* Random node tables (half the papers' range, half random_cluster.h's
 * zeros and ties, a fifth with thirds; a quarter multicasts), every model,
 * eps from a list: against the exact search on the real and the rounded table. */
static void sweep(struct rng *r, int clusters)
{
    static const double eps_list[] = {0.05, 0.1, 0.25, 0.5, 1};
    long runs = 0, mruns = 0, failed = 0, within = 0, above = 0, later = 0, gave_up = 0, worse = 0, status_wrong = 0;
    double worst = 1;
    char first[256] = "";
    for (int i = 0; i < clusters; i++) {
        thirds = i % 5 == 4;
        int n = 3 + (int)rng_below(r, 5);
        struct cluster *c = i % 2 ? papers_table(r, n) : random_cluster(r, CLUSTER_NODES, n);
        if (!c)
            continue;
        bool multicast = i % 4 == 3;
        if (multicast)
            random_targets(r, c);
        double eps = eps_list[i % 5];
        for (int m = 0; m < MODEL_COUNT; m++) {
            if (!(model_mask_for(CLUSTER_NODES) & MODEL_BIT(m)))
                continue;
            struct sched_opts so;
            sched_opts_default(&so);
            struct opt_plan op, rp;
            char *cause = NULL;
            struct cluster *k = kk_round_cluster(c, eps);
            if (optimal_solve(c, (enum model)m, &so, &op, &cause) < 0) {
                free(cause);
                cluster_free(k);
                continue;
            }
            if (optimal_solve(k, (enum model)m, &so, &rp, &cause) < 0) {
                free(cause);
                opt_plan_free(&op);
                cluster_free(k);
                continue;
            }
            double ms, bound;
            enum opt_status st;
            if (run_kk(c, (enum model)m, eps, NULL, &ms, &st, &bound, NULL, 0) < 0) {
                failed++;
            } else {
                runs++;
                mruns += multicast;
                if (ms > rp.makespan && !later++)   /* the replay with the real times */
                    snprintf(first, sizeof first, "cluster %d (%d nodes, %s, eps %g): real %g after the "
                             "rounded %g", i, n, model_name((enum model)m), eps, ms, rp.makespan);
                if ((st == OPT_GAVE_UP) != (rp.status == OPT_GAVE_UP))
                    status_wrong++;
                if (rp.status != OPT_PROVEN || op.status != OPT_PROVEN) {
                    gave_up++;
                } else {
                    double ratio = op.makespan > 0 ? ms / op.makespan : ms > 0 ? INFINITY : 1;
                    worst = fmax(worst, ratio);
                    worse += ratio > 1 + 1e-9;
                    if (ratio <= (1 + eps) * (1 + 1e-9))
                        within++;
                    else if (!above++ && !first[0])
                        snprintf(first, sizeof first, "cluster %d (%d nodes, %s, eps %g): %g over the "
                                 "least %g", i, n, model_name((enum model)m), eps, ms, op.makespan);
                }
            }
            opt_plan_free(&op);
            opt_plan_free(&rp);
            cluster_free(k);
        }
        cluster_free(c);
    }
    thirds = false;
    ok(failed == 0, "random tables: kk-round ran every time (%ld failed)", failed);
    ok(later == 0, "random tables: the real times never end after the rounded run's (%ld runs, %ld of "
       "them multicasts)%s%s", runs, mruns, first[0] ? "; first: " : "", first);
    ok(above == 0 && within > 0, "random tables: within 1 + eps of the proven optimum on %ld of %ld runs "
       "(%ld gave up), worst ratio %.4f", within, within + above, gave_up, worst);
    ok(worse > 0, "random tables: the rounding costs something on %ld runs (the test can see a ratio)",
       worse);
    ok(status_wrong == 0, "random tables: kk-round gives up exactly when the rounded search does");
}

/* A rounded search stopped by a node limit: the run says it gave up, and
 * its bound is at most the least makespan (the real search's proof). */
static void giving_up(struct rng *r)
{
    int seen = 0, wrong = 0;
    for (int i = 0; i < 200 && seen < 5; i++) {
        struct cluster *c = papers_table(r, 9);
        if (!c)
            continue;
        struct sched_opts lim;
        sched_opts_default(&lim);
        lim.node_limit = 2;
        double ms, bound;
        enum opt_status st;
        char note[1024];
        if (run_kk(c, MODEL_ASYNC, 0.05, &lim, &ms, &st, &bound, note, sizeof note) == 0 &&
            st == OPT_GAVE_UP) {
            struct sched_opts so;
            sched_opts_default(&so);
            struct opt_plan op;
            char *cause = NULL;
            if (optimal_solve(c, MODEL_ASYNC, &so, &op, &cause) == 0 && op.status == OPT_PROVEN) {
                seen++;
                if (!(bound <= op.makespan + 1e-9 && bound > 0 && ms >= op.makespan - 1e-9 &&
                      strstr(note, "within") && strstr(note, "gave up")))
                    wrong++;
                if (seen == 1)
                    diag("%s", note);
                opt_plan_free(&op);
            }
            free(cause);
        }
        cluster_free(c);
    }
    ok(seen > 0 && wrong == 0, "a rounded search that gives up: %d runs, each bound at most the least, "
       "the note says so (%d wrong)", seen, wrong);
}

static void refusals(struct rng *r)
{
    struct cluster *c = random_cluster(r, CLUSTER_MATRIX, 3);
    char *cause = NULL;
    ok(c && sched_check(&sched_kk_round, c, MODEL_ASYNC, &cause) < 0 && strstr(cause, "does not work on"),
       "a latency matrix is refused: %s", cause ? cause : "");
    free(cause);
    cluster_free(c);
    ok(sched_find("kk-round") == &sched_kk_round, "kk-round is in the registry");
    struct cluster *k = load("clusters/khuller-kim.csv");
    double ms, bound;
    enum opt_status st;
    ok(k && run_kk(k, MODEL_ASYNC, 5, NULL, &ms, &st, &bound, NULL, 0) < 0, "eps 5 is refused");
    cluster_free(k);
}

int main(void)
{
    struct rng r;
    rng_seed(&r, 32);
    const char *env = getenv("HETCAST_KKROUND_CLUSTERS");
    int clusters = env ? atoi(env) : tap_scale(600, 150);
    rounding(&r);
    the_hand_worked_case();
    sweep(&r, clusters);
    giving_up(&r);
    refusals(&r);
    return tap_exit();
}
