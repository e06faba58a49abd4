/*
 * test_engine.c - the event engine: every port model on hand-worked cases,
 * ties, one- and two-node clusters, zero costs, booking refusals, the event
 * order, and exact replay.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bounds.h"
#include "model/cluster.h"
#include "engine/engine.h"
#include "sched/sched.h"
#include "tap.h"
#include "sched/list.h"
#include "sched/fef.h"

static struct cluster *nodes(int n, const double (*sr)[2], double latency)
{
    struct cluster *c = cluster_new(CLUSTER_NODES);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "p%d", i);
        cluster_add_node(c, name, sr[i][0], sr[i][1]);
    }
    c->latency = latency;
    struct diag d;
    diag_init(&d);
    if (cluster_finish(c, &d) < 0)
        diag_print(&d, stdout);
    diag_free(&d);
    return c;
}

static const double counter[3][2] = {{1, 2}, {1, 2}, {2, 3}};

static double run_policy(const struct cluster *c, enum model m, const struct sched_ops *ops,
                         struct engine *e, uint64_t seed)
{
    struct sched s;
    struct sched_opts o;
    sched_opts_default(&o);
    o.seed = seed;
    char *cause = NULL;
    engine_init(e, c, m, &cause);
    sched_init(&s, ops, &o);
    int rc = sched_run(e, &s, &cause);
    if (rc < 0)
        diag("sched_run: %s", cause);
    free(cause);
    sched_free(&s);
    return rc < 0 ? NAN : e->makespan;
}

static void test_counterexample(void)
{
    struct cluster *c = nodes(3, counter, 1);
    struct engine e;
    is_double(run_policy(c, MODEL_ASYNC, &sched_fnf, &e, 1), 6, 0, "counterexample: fnf makespan 6");
    is_int(e.tr[0].to, 1, "fnf serves p1 first");
    is_int(e.tr[1].to, 2, "then p2");
    is_double(e.tr[0].send_end, 1, 0, "p0 -> p1: send [0,1)");
    is_double(e.tr[0].link_end, 2, 0, "p0 -> p1: link [1,2)");
    is_double(e.tr[0].recv_end, 4, 0, "p0 -> p1: recv [2,4)");
    is_double(e.tr[1].start, 1, 0, "p0 -> p2 starts at 1");
    is_double(e.tr[1].recv_start, 3, 0, "p0 -> p2: recv from 3");
    is_double(e.tr[1].hold, 6, 0, "p2 holds at 6");
    is_double(bound_lower(c, MODEL_ASYNC), 5, 0, "lower bound s(src)+L+max r = 5");
    engine_free(&e);

    /* The optimum: p2 first. */
    engine_init(&e, c, MODEL_ASYNC, NULL);
    ok(engine_book(&e, 0, 2, 0, "slow one first", NULL) == 0, "book p0 -> p2");
    ok(engine_book(&e, 0, 1, 0, NULL, NULL) == 0, "book p0 -> p1");
    is_double(e.makespan, 5, 0, "p2 first: makespan 5");
    is_double(e.tr[1].hold, 5, 0, "p1 holds at 2 + 1 + 2 = 5");

    /* A reason the caller lends (engine_book, engine_record: a measured trace's, in a buffer of
     * its own) is the engine's copy: the caller's buffer may change or go. */
    struct engine m;
    engine_init(&m, c, MODEL_ASYNC, NULL);
    char lent[64];
    snprintf(lent, sizeof lent, "%s", "lent to book");
    ok(engine_book(&m, 0, 2, 0, lent, NULL) == 0, "book with a lent reason");
    struct transfer t = e.tr[1];
    snprintf(lent, sizeof lent, "%s", "lent to record");
    t.reason = lent;
    ok(engine_record(&m, &t, NULL) == 0, "record p0 -> p1 with a lent reason");
    memset(lent, 'x', sizeof lent - 1);
    char *tmp;
    ok(strcmp(engine_reason(&m, &m.tr[0], &tmp), "lent to book") == 0, "engine_book kept its copy");
    free(tmp);
    ok(strcmp(engine_reason(&m, &m.tr[1], &tmp), "lent to record") == 0,
       "engine_record kept its copy");
    free(tmp);
    is_double(m.makespan, 5, 0, "recorded: makespan 5");
    engine_free(&m);
    engine_free(&e);
    cluster_free(c);
}

static void test_models(void)
{
    struct cluster *c = nodes(3, counter, 1);
    struct engine e;
    is_double(run_policy(c, MODEL_SENDER_ONLY, &sched_fnf, &e, 1), 2, 0, "sender-only: makespan 2");
    is_double(e.tr[0].hold, 1, 0, "sender-only: p1 holds after s(p0)");
    ok(e.tr[0].link_end == e.tr[0].link_start && e.tr[0].recv_end == e.tr[0].recv_start,
       "sender-only: no link or receive bars");
    is_int(e.tr[1].from, 0, "sender-only: tie p0/p1 goes to the lower index");
    engine_free(&e);

    is_double(run_policy(c, MODEL_SYNC, &sched_fnf, &e, 1), 9, 0, "sync: makespan 9");
    is_double(e.tr[0].send_end, 4, 0, "sync: sender busy until the receive ends");
    is_double(e.tr[0].link_start, 1, 0, "sync: link after s");
    is_double(e.tr[1].start, 4, 0, "sync: next send at 4");
    engine_free(&e);

    is_double(run_policy(c, MODEL_ONE_PORT, &sched_fnf, &e, 1), 9, 0, "one-port: makespan 9");
    ok(e.tr[0].start == 0 && e.tr[0].send_end == 4 && e.tr[0].link_start == 0 &&
       e.tr[0].recv_start == 0 && e.tr[0].recv_end == 4, "one-port: all three busy [0, T)");
    engine_free(&e);

    is_double(run_policy(c, MODEL_MULTI_PORT, &sched_fnf, &e, 1), 6, 0, "multi-port: makespan 6");
    is_double(e.tr[0].free, 1, 0, "multi-port: port free after send_q = s");
    is_double(e.tr[1].start, 1, 0, "multi-port: second send at 1");
    is_double(e.tr[1].hold, 6, 0, "multi-port: p2 holds at 1 + T = 6");
    engine_free(&e);

    /* sync: a receiver busy receiving delays the sender (rendezvous). */
    const double two[3][2] = {{1, 1}, {1, 1}, {1, 4}};
    struct cluster *x = nodes(3, two, 0);
    engine_init_messages(&e, x, MODEL_SYNC, 2, NULL);
    engine_give(&e, 0, 0, 0);
    engine_give(&e, 1, 1, 0);
    ok(engine_book(&e, 0, 2, 0, NULL, NULL) == 0, "sync: p0 -> p2 (message 0)");
    ok(engine_book(&e, 1, 2, 1, NULL, NULL) == 0, "sync: p1 -> p2 (message 1)");
    is_double(e.tr[1].start, 5, 0, "sync: p1 waits until p2's receive port is free at 5");
    engine_free(&e);
    /* async: messages queue at the receive port in arrival order. */
    engine_init_messages(&e, x, MODEL_ASYNC, 2, NULL);
    engine_give(&e, 0, 0, 0);
    engine_give(&e, 1, 1, 0);
    engine_book(&e, 0, 2, 0, NULL, NULL);
    engine_book(&e, 1, 2, 1, NULL, NULL);
    is_double(e.tr[1].start, 0, 0, "async: p1 sends at once");
    is_double(e.tr[1].recv_start, 5, 0, "async: its message waits for p2's port until 5");
    is_double(e.tr[1].hold, 9, 0, "async: p2 holds message 1 at 9");
    engine_free(&e);
    cluster_free(x);
    cluster_free(c);
}

static void test_ties_and_edges(void)
{
    const double same[4][2] = {{1, 1}, {1, 1}, {1, 1}, {1, 1}};
    struct cluster *c = nodes(4, same, 0);
    struct engine e;
    is_double(run_policy(c, MODEL_ASYNC, &sched_fnf, &e, 1), 4, 0, "identical nodes: makespan 4");
    is_int(e.tr[0].to, 1, "ties: receivers by lowest index (p1)");
    is_int(e.tr[1].to, 2, "ties: then p2");
    is_int(e.tr[2].from, 0, "ties: senders p0 and p1 both done at 3: lowest index p0");
    is_int(e.tr[2].to, 3, "ties: p3 last");
    engine_free(&e);
    cluster_free(c);

    const double one[1][2] = {{1, 1}};
    c = nodes(1, one, 0);
    is_double(run_policy(c, MODEL_ASYNC, &sched_fnf, &e, 1), 0, 0, "one node: makespan 0");
    is_int(e.ntr, 0, "one node: no transfers");
    is_int(e.nev, 0, "one node: no events");
    is_double(bound_lower(c, MODEL_ASYNC), 0, 0, "one node: lower bound 0");
    engine_free(&e);
    cluster_free(c);

    const double pair[2][2] = {{2, 3}, {1, 1}};
    c = nodes(2, pair, 0.5);
    is_double(run_policy(c, MODEL_ASYNC, &sched_fnf, &e, 1), 3.5, 0, "two nodes: 2 + 0.5 + 1");
    is_int(e.nev, 4, "two nodes: send start, send end, arrival, hold");
    engine_free(&e);
    cluster_free(c);

    const double zero[4][2] = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
    c = nodes(4, zero, 0);
    is_double(run_policy(c, MODEL_ASYNC, &sched_fnf, &e, 1), 0, 0, "zero costs: makespan 0");
    is_int(e.ntr, 3, "zero costs: still three transfers");
    bool ordered = true;
    for (int i = 1; i < e.nev; i++)
        ordered = ordered && e.ev[i].seq > e.ev[i - 1].seq;
    ok(ordered, "zero costs: equal-time events come out in insertion order");
    ok(e.ev[0].kind == EV_SEND_START && e.ev[e.nev - 1].kind == EV_HOLD,
       "zero costs: starts with a send, ends with a hold");
    engine_free(&e);
    cluster_free(c);
}

static void test_refusals(void)
{
    struct cluster *c = nodes(3, counter, 1);
    struct engine e;
    char *cause = NULL;
    engine_init(&e, c, MODEL_ASYNC, NULL);
    /* Book first, then look at the message: argument order is unspecified. */
    static const struct {
        int from, to;
        const char *want;
    } refused[] = {
        {1, 2, "p1 does not hold"}, {0, 0, "itself"}, {0, 7, "not a node"}, {-1, 1, "not a node"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        int rc = engine_book(&e, refused[i].from, refused[i].to, 0, NULL, &cause);
        ok(rc < 0 && strstr(cause, refused[i].want), "refused %d -> %d: %s", refused[i].from,
           refused[i].to, cause);
    }
    engine_book(&e, 0, 1, 0, NULL, NULL);
    int rc = engine_book(&e, 0, 1, 0, NULL, &cause);
    ok(rc < 0 && strstr(cause, "already has"), "refused: a receiver that has it (%s)", cause);
    ok(engine_book(&e, 1, 2, 0, NULL, &cause) == 0, "accepted: p1 sends once booked to hold it");
    is_double(e.tr[1].start, 4, 0, "p1 starts when it holds the message");
    engine_reset(&e);
    ok(e.ntr == 0 && e.nwaiting == 2 && engine_holds(&e, 0, 0) && !engine_holds(&e, 1, 0),
       "engine_reset: bookings undone, the source still holds the message");
    engine_reset(&e);
    ok(engine_holds(&e, 0, 0) && e.nwaiting == 2, "engine_reset twice: the same");
    ok(engine_book(&e, 0, 2, 0, NULL, NULL) == 0 && e.makespan == 5, "booking after a reset");
    free(cause);
    engine_free(&e);
    cluster_free(c);
}

static bool same_snapshot(const struct snapshot *a, const struct snapshot *b, int ntr, int n)
{
    return a->step == b->step && a->now == b->now && a->nholding == b->nholding &&
           memcmp(a->phase, b->phase, (size_t)ntr) == 0 && memcmp(a->holds, b->holds, (size_t)n) == 0;
}

static void test_replay(void)
{
    struct cluster *c = cluster_new(CLUSTER_NODES);
    struct rng r;
    rng_seed(&r, 7);
    for (int i = 0; i < 40; i++) {
        char name[16];
        snprintf(name, sizeof name, "n%d", i);
        double s = (double)(1 + rng_below(&r, 5));
        cluster_add_node(c, name, s, s + (double)rng_below(&r, 3));
    }
    c->latency = 1;
    struct diag d;
    diag_init(&d);
    cluster_finish(c, &d);
    diag_free(&d);
    struct engine e;
    run_policy(c, MODEL_ASYNC, &sched_fnf, &e, 1);
    bool sorted = true;
    for (int i = 1; i < e.nev; i++)
        sorted = sorted && (e.ev[i].time > e.ev[i - 1].time ||
                            (e.ev[i].time == e.ev[i - 1].time && e.ev[i].seq > e.ev[i - 1].seq));
    ok(sorted, "events ordered by (time, sequence)");
    struct snapshot fwd, a, b;
    snapshot_init(&fwd, &e);
    snapshot_init(&a, &e);
    snapshot_init(&b, &e);
    bool all = true;
    for (int k = 1; k <= e.nev; k++) {
        engine_snapshot_step(&e, &fwd);
        engine_snapshot(&e, k, &a);
        engine_snapshot(&e, k - 1, &b);   /* back ... */
        engine_snapshot(&e, k, &b);       /* ... then forward */
        all = all && same_snapshot(&fwd, &a, e.ntr, e.n) && same_snapshot(&a, &b, e.ntr, e.n);
    }
    ok(all, "replay: back then forward gives identical states at all %d steps", e.nev);
    is_int(fwd.nholding, 40, "at the end all 40 nodes hold the message");
    char text[512];
    engine_narrate(&e, 0, text, sizeof text);
    ok(strstr(text, "starts sending") && strstr(text, "fastest waiting node"),
       "narration says what and why: %s", text);
    snapshot_free(&fwd);
    snapshot_free(&a);
    snapshot_free(&b);
    engine_free(&e);
    cluster_free(c);
}

static void test_random_and_fef(void)
{
    const double cls[6][2] = {{1, 2}, {5, 6}, {10, 11}, {1, 2}, {5, 6}, {10, 11}};
    struct cluster *c = nodes(6, cls, 0);
    struct engine a, b;
    const struct sched_ops *rnd[2] = {&sched_random_pair, &sched_random_order};
    for (int k = 0; k < 2; k++) {
        run_policy(c, MODEL_ASYNC, rnd[k], &a, 42);
        run_policy(c, MODEL_ASYNC, rnd[k], &b, 42);
        bool same = a.ntr == b.ntr;
        for (int i = 0; same && i < a.ntr; i++)
            same = a.tr[i].from == b.tr[i].from && a.tr[i].to == b.tr[i].to;
        ok(same, "%s: the same seed gives the same schedule", rnd[k]->name);
        bool differs = false;
        for (uint64_t s = 1; s < 20 && !differs; s++) {
            engine_free(&b);
            run_policy(c, MODEL_ASYNC, rnd[k], &b, s);
            for (int i = 0; i < a.ntr; i++)
                differs = differs || a.tr[i].from != b.tr[i].from || a.tr[i].to != b.tr[i].to;
        }
        ok(differs, "%s: other seeds give other schedules", rnd[k]->name);
        engine_free(&a);
        engine_free(&b);
    }
    struct engine e;
    run_policy(c, MODEL_ASYNC, &sched_slowest_first, &e, 1);
    is_int(e.tr[0].to, 2, "slowest-first: the slowest (r=11, lowest index) first");
    engine_free(&e);
    cluster_free(c);

    /* fef on a matrix: source a; b is 1 away, c is 5 away from a but 1 from b. */
    c = cluster_new(CLUSTER_MATRIX);
    cluster_add_node(c, "a", 0, 0);
    cluster_add_node(c, "b", 0, 0);
    cluster_add_node(c, "c", 0, 0);
    const double dist[9] = {0, 1, 5, 1, 0, 1, 5, 1, 0};
    c->dist = malloc(sizeof dist);
    memcpy(c->dist, dist, sizeof dist);
    struct diag d;
    diag_init(&d);
    cluster_finish(c, &d);
    diag_free(&d);
    is_double(run_policy(c, MODEL_ASYNC, &sched_fef, &e, 1), 2, 0, "fef: a -> b -> c, makespan 2");
    is_int(e.tr[1].from, 1, "fef: c is served by b (the cheaper edge)");
    is_double(bound_lower(c, MODEL_ASYNC), 2, 0, "matrix lower bound: shortest chain a-b-c = 2");
    engine_free(&e);
    cluster_free(c);
}

int main(void)
{
    test_counterexample();
    test_models();
    test_ties_and_edges();
    test_refusals();
    test_replay();
    test_random_and_fef();
    return tap_exit();
}
