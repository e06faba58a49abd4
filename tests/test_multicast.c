/*
 * test_multicast.c - a multicast to some of the nodes (TAP): the targets as
 * the loaders read them, the engine that ends with the last target, fnf on
 * the targets, relay-fnf, the exact search over relays, the bounds.
 *
 * The hand-worked case (clusters/multicast.csv), async, latency L = 1:
 * S (s=4, r=4) the source, R (s=1, r=1) no target, T1..T3 (s=4, r=4) the
 * targets.  A target served by a send that completes at time x holds the
 * message at x + L + r = x + 5.  S's sends complete at 4, 8, 12; a target's
 * own sends complete at 9 + 4 = 13 at the earliest.
 *  - Without R, three targets need three send completions: S's 4, 8, 12
 *    (a target's 13 is later than S's 12), so the last holds it at 17;
 *    fnf on the targets does just that: 9, 13, 17.
 *  - R served by S's first send holds it at 4 + 1 + 1 = 6; R's sends then
 *    complete at 7, 8, 9 and S's at 8, 12: the best three are 7, 8, 8, so
 *    the targets hold it at 12, 13, 13.
 *  - R served by S's second send holds it at 10; completions 4 (S),
 *    11, 12 (R): 17 again.  R served later helps no more.
 * So the optimum is 13, through the relay R.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/bounds.h"
#include "engine/engine.h"
#include "model/cluster_lua.h"
#include "model/targets.h"
#include "sched/fef.h"
#include "sched/exercise.h"
#include "sched/list.h"
#include "sched/optimal.h"
#include "sched/registry.h"
#include "sched/relay.h"
#include "support/rng.h"
#include "tap.h"
#include "random_cluster.h"

static const char hand[] = "# latency: 1\n# source: S\n# targets: T1, T2,T3\n"
                           "name,send,recv\nS,4,4\nR,1,1\nT1,4,4\nT2,4,4\nT3,4,4\n";

static struct cluster *load(const char *text, char **msg)
{
    struct diag d;
    diag_init(&d);
    struct cluster *c = cluster_load_csv_buffer("m.csv", text, strlen(text), &d);
    *msg = diag_join(&d);
    diag_free(&d);
    return c;
}

/* ops on c under m: the makespan, or NAN; *relays counts non-targets served. */
static double run(const struct cluster *c, enum model m, const struct sched_ops *ops, int *relays)
{
    struct engine e;
    struct sched s;
    char *cause = NULL;
    double ms = NAN;
    if (engine_init(&e, c, m, &cause) < 0) {
        diag("engine_init: %s", cause);
        free(cause);
        return NAN;
    }
    sched_init(&s, ops, NULL);
    if (sched_run(&e, &s, &cause) == 0 && e.nwaiting == 0)
        ms = e.makespan;
    else
        diag("%s: %s", ops->name, cause ? cause : "targets still waiting");
    if (relays) {
        *relays = 0;
        for (int i = 0; i < e.ntr; i++)
            *relays += !cluster_is_target(c, e.tr[i].to);
    }
    free(cause);
    sched_free(&s);
    engine_free(&e);
    return ms;
}

static void the_hand_worked_case(void)
{
    char *msg;
    struct cluster *c = load(hand, &msg);
    ok(c && c->target && c->ntargets == 3 && !c->target[0] && !c->target[1] && c->target[4],
       "# targets: T1, T2,T3 makes T1..T3 the targets (%s)", msg ? msg : "no message");
    free(msg);
    if (!c)
        return;
    int relays;
    is_double(run(c, MODEL_ASYNC, &sched_fnf, &relays), 17, 0, "fnf on the targets: 17");
    is_int(relays, 0, "fnf serves no relay");
    is_double(run(c, MODEL_ASYNC, &sched_relay_fnf, &relays), 13, 0, "relay-fnf: 13, through R");
    is_int(relays, 1, "relay-fnf serves R, one relay");
    struct opt_plan plan;
    char *cause = NULL;
    int rc = optimal_solve(c, MODEL_ASYNC, NULL, &plan, &cause);
    ok(rc == 0 && plan.status == OPT_PROVEN && plan.makespan == 13 && plan.len == 4 && plan.to[0] == 1,
       "optimal: 13 proven, R served first (%s)", rc == 0 ? "solved" : cause);
    if (rc == 0)
        opt_plan_free(&plan);
    free(cause);
    is_double(bound_lower(c, MODEL_ASYNC), 9, 0, "the lower bound is the targets' s + L + r = 9");
    double beta;
    bool consistent;
    ok(!bound_fnf_beta(c, MODEL_ASYNC, &beta, &consistent), "no 2T + beta guarantee for a multicast");

    struct engine e;
    engine_init(&e, c, MODEL_ASYNC, NULL);
    is_int(e.nwaiting, 3, "the engine waits for the 3 targets, not for R");
    engine_book(&e, 0, 1, 0, NULL, NULL);
    ok(e.nwaiting == 3 && e.makespan == 0, "serving the relay R ends nothing (waiting %d, makespan %g)",
       e.nwaiting, e.makespan);
    engine_book(&e, 1, 2, 0, NULL, NULL);
    ok(e.nwaiting == 2 && e.makespan == 12, "R -> T1: T1 holds it at 12 (waiting %d, makespan %g)",
       e.nwaiting, e.makespan);
    engine_timeline(&e);
    char said[200];
    engine_narrate(&e, e.nev - 1, said, sizeof said);
    ok(strstr(said, "(a target; 1 of 3 targets hold it)") != NULL, "the narration counts targets: %s", said);
    engine_narrate(&e, 3, said, sizeof said);
    ok(strstr(said, "R holds") && strstr(said, "(a relay; 0 of 3 targets hold it)"), "and names a relay: %s", said);
    engine_reset(&e);
    is_int(e.nwaiting, 3, "engine_reset waits for the 3 targets again");
    engine_free(&e);

    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    cluster_write_csv(c, fp);
    fclose(fp);
    struct cluster *back = load(text, &msg);
    char *t1 = cluster_targets_text(c), *t2 = back ? cluster_targets_text(back) : NULL;
    ok(back && t2 && strcmp(t1, t2) == 0, "the CSV writer's # targets: reads back (%s, %s)", t1,
       t2 ? t2 : "none");
    free(t1);
    free(t2);
    free(msg);
    free(text);
    cluster_free(back);

    bool refused = sched_check(&sched_fef, c, MODEL_ASYNC, &cause) < 0 && strstr(cause, "relay-fnf");
    ok(refused, "fef is refused for a multicast, naming what works: %s", cause ? cause : "accepted");
    free(cause);
    cluster_free(c);
}

/* The view's exercise search from the start: a slow node Z that is no target
 * (s = r = 100) must not count in its bound; the best is 13 as above. */
static void exercise(void)
{
    char *msg;
    char text[256];
    snprintf(text, sizeof text, "%sZ,100,100\n", hand);
    struct cluster *c = load(text, &msg);
    free(msg);
    struct engine e;
    struct best_result best;
    char *cause = NULL;
    int rc = c ? engine_init(&e, c, MODEL_ASYNC, &cause) : -1;
    if (rc == 0) {
        rc = exercise_best_completion(&e, 0, NULL, &best, &cause);
        engine_free(&e);
    }
    ok(rc == 0 && best.status == BEST_EXACT && best.makespan == 13,
       "exercise: the best completion from the start is 13, the slow relay Z unserved (%s %g)",
       rc == 0 ? "got" : cause, rc == 0 ? best.makespan : NAN);
    free(cause);
    cluster_free(c);
}

static void refusals(void)
{
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"# targets: T1,X\nname,send,recv\nS,1,1\nT1,1,1\n", "m.csv:1: targets: \"X\" is not a node"},
        {"name,send,recv\n# targets: , ,\nS,1,1\nT1,1,1\n", "m.csv:2: targets: no target named"},
        {"# targets: T1\n# targets: S\nname,send,recv\nS,1,1\nT1,1,1\n", "m.csv:2: targets: given twice"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *msg;
        struct cluster *c = load(bad[i].text, &msg);
        ok(!c && msg && strstr(msg, bad[i].want), "refused: %s (got: %s)", bad[i].want, msg ? msg : "loaded");
        free(msg);
        cluster_free(c);
    }
    struct cluster *c = load("name,send,recv\nS,1,1\nA,1,1\n", &(char *){NULL});
    char *cause = NULL;
    bool named = c && cluster_set_targets(c, "A,B", &cause) < 0 && !c->target && strstr(cause, "\"B\"");
    ok(named, "cluster_set_targets names the unknown B and leaves a broadcast (%s)", cause ? cause : "set");
    free(cause);
    cluster_free(c);
}

static void lua_targets(void)
{
    char path[] = "/tmp/hetcast-multicast-XXXXXX";
    int fd = mkstemp(path);
    FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!fp) {
        ok(0, "a temporary script");
        return;
    }
    fputs("latency(1)\nnode('S', 4, 4)\nnode('R', 1, 1)\nfor i = 1, 3 do node('T' .. i, 4, 4) end\n"
          "targets('T1', 'T2', 5)\n", fp);
    fclose(fp);
    struct sandbox_limits lim = {0};
    struct diag d;
    diag_init(&d);
    struct cluster *c = cluster_load_lua(path, NULL, 0, &lim, 1, &d);
    char *t = c ? cluster_targets_text(c) : NULL;
    ok(t && strcmp(t, "T1,T2,T3") == 0, "Lua targets('T1', 'T2', 5): T1,T2,T3 (%s)", t ? t : "none");
    free(t);
    is_double(c ? run(c, MODEL_ASYNC, &sched_relay_fnf, NULL) : NAN, 13, 0, "the script's multicast: 13");
    cluster_free(c);
    diag_free(&d);
    unlink(path);
}

/* relay-fnf never ends later than fnf on the targets (its run without relays is
 * one it compares), nor earlier than the proven optimum. */
static void random_multicasts(void)
{
    struct rng r;
    rng_seed(&r, 32);
    int tried = 0, later = 0, below = 0, better = 0, ratios = 0, exact_f = 0, exact_g = 0;
    double sum_f = 0, sum_g = 0, worst_f = 1, worst_g = 1;
    for (int i = 0; i < 400; i++) {
        enum cluster_kind kind = i % 2 ? CLUSTER_MATRIX : CLUSTER_NODES;
        thirds = i % 4 == 3;
        struct cluster *c = random_cluster(&r, kind, 3 + (int)rng_below(&r, 5));
        if (!c)
            continue;
        random_targets(&r, c);
        for (int m = 0; m < MODEL_COUNT; m++) {
            if (!(model_mask_for(kind) & MODEL_BIT(m)))
                continue;
            double f = run(c, (enum model)m, &sched_fnf, NULL);
            double g = run(c, (enum model)m, &sched_relay_fnf, NULL);
            struct opt_plan plan;
            if (optimal_solve(c, (enum model)m, NULL, &plan, NULL) < 0)
                continue;
            tried++;
            later += !(g <= f);
            better += g < f;
            if (plan.status == OPT_PROVEN && plan.makespan > 0) {   /* docs/models.md quotes these */
                double rf = f / plan.makespan, rg = g / plan.makespan;
                sum_f += rf;
                sum_g += rg;
                worst_f = fmax(worst_f, rf);
                worst_g = fmax(worst_g, rg);
                ratios++;
                exact_f += rf <= 1 + 1e-9;
                exact_g += rg <= 1 + 1e-9;
            }
            double eps = 1e-9 * fmax(1, plan.makespan);   /* equal sums added in other orders */
            if ((plan.status == OPT_PROVEN && g < plan.makespan - eps) ||
                bound_lower(c, (enum model)m) > plan.makespan + eps) {
                if (!below++)
                    diag("cluster %d (%s, %s): fnf %g, relay-fnf %g, optimal %g (%s), bound %g", i,
                         cluster_kind_name(kind), model_name((enum model)m), f, g, plan.makespan,
                         plan.status == OPT_PROVEN ? "proven" : "gave up", bound_lower(c, (enum model)m));
            }
            opt_plan_free(&plan);
        }
        cluster_free(c);
    }
    ok(tried > 400 && later == 0, "relay-fnf never ends later than fnf on %d random multicasts (%d later)",
       tried, later);
    ok(better > 0, "relay-fnf ends earlier than fnf on %d of them", better);
    diag("against %d proven optima: fnf optimal %d times, mean ratio %.3f, worst %.3f; relay-fnf optimal "
         "%d times, mean %.3f, worst %.3f", ratios, exact_f, sum_f / ratios, worst_f, exact_g,
         sum_g / ratios, worst_g);
    ok(below == 0, "no heuristic below the proven optimum, no lower bound above it (%d)", below);
}

int main(void)
{
    the_hand_worked_case();
    exercise();
    refusals();
    lua_targets();
    random_multicasts();
    return tap_exit();
}
