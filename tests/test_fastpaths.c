/*
 * test_fastpaths.c - every fast path (support/fastpath.h) gives exactly what the
 * readable path beside it gives, on random inputs, with the switch on and
 * off: model/cluster_fast.c against model/cluster.c's qsort (orders, consistency verdicts
 * and the pair named), model/cluster_csv_fast.c against libcsv and strtod (the same
 * cluster and the same messages for random files).  And, as before, the
 * CSV loader's and the cluster check's fast paths against plain references: numbers read without strtod are
 * strtod's doubles to the last bit; a line without quotes, split without
 * libcsv, loads as the same line with every field quoted (which only libcsv
 * reads); and the consistency check (grouped by send time when there are
 * few, radix-sorted when there are many) names the same pair of nodes (the
 * first bad one) as a plain stable sort by (send, recv); and on large
 * files, where the name table is prefetched, duplicates are still found.
 * sched/fef_fast.c books, transfer for transfer, what fef's readable scan books.
 * sched/exchange_openshop_fast.c makes open-shop's choices, and so its orders and every
 * transfer, what sched/exchange.c's readable scan makes; sched/exchange_greedy_fast.c picks
 * what greedy's list scan picks.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/cluster.h"
#include "engine/engine.h"
#include "sched/exchange.h"
#include "support/fastpath.h"
#include "sched/exchange_greedy_fast.h"
#include "support/rng.h"
#include "sched/sched.h"
#include "tap.h"
#include "sched/fef.h"
#include "output/export_interop.h"
#include "output/export_line.h"
#include "output/report.h"
#include "sched/registry.h"
#include "session/run.h"

static struct cluster *load(const char *text, struct diag *d)
{
    diag_init(d);
    return cluster_load_csv_buffer("t.csv", text, strlen(text), d);
}

/* A random decimal in the SPEC's syntax: leading zeros, long fractions,
 * exponents, many digits (beyond the fast path's 15) now and then. */
static void random_number(struct rng *r, char *buf, size_t size)
{
    size_t n = 0;
    int intd = (int)rng_below(r, 4) == 0 ? 0 : 1 + (int)rng_below(r, rng_below(r, 4) ? 6 : 19);
    if (rng_below(r, 8) == 0)
        buf[n++] = '+';
    if (rng_below(r, 6) == 0)
        buf[n++] = '0';   /* a leading zero */
    for (int i = 0; i < intd; i++)
        buf[n++] = (char)('0' + rng_below(r, 10));
    int frac = rng_below(r, 3) ? (int)rng_below(r, rng_below(r, 4) ? 4 : 25) : 0;
    if (frac > 0 || intd == 0) {
        buf[n++] = '.';
        if (frac == 0)
            frac = 1;
        for (int i = 0; i < frac; i++)
            buf[n++] = (char)('0' + rng_below(r, 10));
    }
    if (rng_below(r, 5) == 0)
        n += (size_t)snprintf(buf + n, size - n, "%se%s%d", "", rng_below(r, 2) ? "-" : "",
                              (int)rng_below(r, 30));
    buf[n] = '\0';
}

static void test_numbers(void)
{
    struct rng r;
    rng_seed(&r, 11);
    enum { N = 4000 };
    char *text = xmalloc((size_t)N * 120 + 64), (*nums)[48] = xmalloc(N * sizeof *nums);
    size_t len = (size_t)sprintf(text, "name,send,recv\n");
    for (int i = 0; i < N; i++) {
        random_number(&r, nums[i], sizeof nums[i]);
        len += (size_t)sprintf(text + len, "n%d,%s,0\n", i, nums[i]);
    }
    struct diag d;
    struct cluster *c = load(text, &d);
    ok(c != NULL, "4000 random decimals load");
    int same = 0, fast_shaped = 0;
    for (int i = 0; c && i < N; i++) {
        double want = strtod(nums[i], NULL);
        if (want < 2.2250738585072014e-308)
            want = 0;   /* the loader reads what a double cannot hold as 0 */
        same += memcmp(&want, &c->nodes[i].send, sizeof want) == 0;
        fast_shaped += strlen(nums[i]) < 12 && !strchr(nums[i], 'e');
    }
    is_int(same, N, "every one is strtod's double, to the last bit");
    ok(fast_shaped > N / 4, "a good share of them (%d) are the short decimals of the fast path",
       fast_shaped);
    cluster_free(c);
    diag_free(&d);
    free(text);
    free(nums);

    /* Values where a wrong rounding would show. */
    const char *hard[] = {"0.1", "0.3", "2.675", "1.005", "9007199254740993", "123456789012345",
                          "1234567890123456", "0.000000000000000000001", "1e22", "1e23",
                          "8.5e-22", "4.35", "0.29", "3.0000000000000004"};
    for (size_t i = 0; i < sizeof hard / sizeof hard[0]; i++) {
        char t[128];
        snprintf(t, sizeof t, "name,send,recv\np,%s,0\n", hard[i]);
        c = load(t, &d);
        double want = strtod(hard[i], NULL);
        ok(c && memcmp(&c->nodes[0].send, &want, sizeof want) == 0, "%s reads as strtod reads it",
           hard[i]);
        cluster_free(c);
        diag_free(&d);
    }
}

/* Blanks and tabs around fields, empty fields, CR LF, no final line end. */
static void test_splitting(void)
{
    struct rng r;
    rng_seed(&r, 5);
    static const char *const pad[] = {"", " ", "\t", "  \t ", "\t\t"};
    int same = 0, files = 200;
    for (int f = 0; f < files; f++) {
        char plain[4096], quoted[4096];
        size_t a = (size_t)sprintf(plain, "name , send,\trecv ,class\n");
        size_t b = (size_t)sprintf(quoted, "\"name\",\"send\",\"recv\",\"class\"\n");
        int rows = 1 + (int)rng_below(&r, 12);
        for (int i = 0; i < rows; i++) {
            char name[32], send[16], recv[16], klass[16];
            snprintf(name, sizeof name, "node %d#x", i);   /* inner blank and '#': kept */
            snprintf(send, sizeof send, "%d.%d", (int)rng_below(&r, 9), (int)rng_below(&r, 9));
            snprintf(recv, sizeof recv, "%d", (int)rng_below(&r, 20));
            snprintf(klass, sizeof klass, "%s", rng_below(&r, 3) ? "fast" : "");
            const char *cells[4] = {name, send, recv, klass};
            for (int k = 0; k < 4; k++) {
                a += (size_t)sprintf(plain + a, "%s%s%s%s", pad[rng_below(&r, 5)], cells[k],
                                     pad[rng_below(&r, 5)], k < 3 ? "," : "");
                b += (size_t)sprintf(quoted + b, "\"%s\"%s", cells[k], k < 3 ? "," : "");
            }
            bool last = i == rows - 1 && rng_below(&r, 3) == 0;   /* no final line end */
            const char *end = last ? "" : rng_below(&r, 2) ? "\r\n" : "\n";
            a += (size_t)sprintf(plain + a, "%s", end);
            b += (size_t)sprintf(quoted + b, "%s", end);
        }
        struct diag d1, d2;
        struct cluster *c1 = load(plain, &d1), *c2 = load(quoted, &d2);
        bool eq = c1 && c2 && c1->n == c2->n;
        for (int i = 0; eq && i < c1->n; i++)
            eq = strcmp(c1->nodes[i].name, c2->nodes[i].name) == 0 &&
                 c1->nodes[i].send == c2->nodes[i].send &&
                 c1->nodes[i].recv == c2->nodes[i].recv &&
                 (cluster_class(c1, i) == NULL) == (cluster_class(c2, i) == NULL) &&
                 (!cluster_class(c1, i) ||
                  strcmp(cluster_class(c1, i), cluster_class(c2, i)) == 0) &&
                 cluster_line(c1, i) == cluster_line(c2, i);
        if (!eq && same == f)
            diag("differ:\n%s\n--\n%s", plain, quoted);
        same += eq;
        cluster_free(c1);
        cluster_free(c2);
        diag_free(&d1);
        diag_free(&d2);
    }
    is_int(same, files, "unquoted lines load as their quoted twins (libcsv's reading)");

    /* A quote or a bare CR still goes to libcsv, and its messages. */
    struct diag d;
    struct cluster *c = load("name,send,recv\na\"b,1,2\n", &d);
    ok(!c && d.nlines == 1 && strstr(d.lines[0], "t.csv:2:") && strstr(d.lines[0], "quoting"),
       "a stray quote: libcsv's refusal, on its line");
    cluster_free(c);
    diag_free(&d);
    c = load("name,send,recv\na,1,2\rb,3,4\n", &d);
    ok(c && c->n == 2 && strcmp(c->nodes[1].name, "b") == 0 && cluster_line(c, 1) == 2,
       "a bare CR ends a record inside the line, as libcsv reads it");
    cluster_free(c);
    diag_free(&d);
    c = load("name,send,recv,class\nm,1,2,\"multi\nline\"\nz,3,4,\n", &d);
    ok(c && c->n == 2 && strcmp(cluster_class(c, 0), "multi\nline") == 0 &&
       strcmp(c->nodes[1].name, "z") == 0 && cluster_line(c, 1) == 4,
       "a line after a quoted line break is read as the record goes on");
    cluster_free(c);
    diag_free(&d);
    c = load("name,send,recv\na,1\n", &d);
    ok(!c && d.nlines == 1 && strstr(d.lines[0], "t.csv:2:") && strstr(d.lines[0], "found 2"),
       "a short row: the same message with or without libcsv");
    cluster_free(c);
    diag_free(&d);
}

/* The first pair of neighbours in idx[] (nodes sorted by send, recv, index)
 * that breaks consistency, or -1, -1. */
static void first_bad_pair(const struct cluster *c, const int *idx, int n, int *wp, int *wq)
{
    *wp = *wq = -1;
    for (int i = 1; i < n && *wp < 0; i++) {
        const struct node *x = &c->nodes[idx[i - 1]], *y = &c->nodes[idx[i]];
        if (x->recv > y->recv || (x->send == y->send && x->recv != y->recv) ||
            (x->send != y->send && x->recv == y->recv)) {   /* s(p) <= s(q) iff r(p) <= r(q) */
            *wp = idx[i - 1];
            *wq = idx[i];
        }
    }
}

/* The consistency check against a plain stable sort by (send, recv). */
static void test_consistency(void)
{
    struct rng r;
    rng_seed(&r, 9);
    int same = 0, cases = 300, inconsistent = 0;
    for (int k = 0; k < cases; k++) {
        int n = 2 + (int)rng_below(&r, 40);
        struct cluster *c = cluster_new(CLUSTER_NODES);
        for (int i = 0; i < n; i++) {
            char name[16];
            snprintf(name, sizeof name, "p%d", i);
            double s = (double)rng_below(&r, 4) * 0.5, v = s + (rng_below(&r, 6) == 0 ? -0.5 : 0.5);
            if (k % 3 == 0)
                v = s + 1;   /* consistent */
            cluster_add_node(c, name, s, k % 7 == 0 ? -0.0 * v : v);
        }
        /* reference: insertion sort, stable, by (send, recv) */
        int *idx = xmalloc((size_t)n * sizeof *idx);
        for (int i = 0; i < n; i++) {
            int j = i;
            for (; j > 0; j--) {
                const struct node *x = &c->nodes[idx[j - 1]], *y = &c->nodes[i];
                if (x->send < y->send || (x->send == y->send && x->recv <= y->recv))
                    break;
                idx[j] = idx[j - 1];
            }
            idx[j] = i;
        }
        int wp, wq;
        first_bad_pair(c, idx, n, &wp, &wq);
        int p = -1, q = -1;
        bool okc = cluster_speeds_consistent(c, &p, &q);
        inconsistent += !okc;
        same += okc == (wp < 0) && (okc || (p == wp && q == wq));   /* the first bad pair */
        free(idx);
        cluster_free(c);
    }
    is_int(same, cases, "the consistency check agrees with a stable sort (%d inconsistent)",
           inconsistent);
}

/* The paper's "iff": equal receive times with unequal send times are not
 * consistent, on the grouping path (few pairs) and the sorting path (many),
 * nor within CLUSTER_SPEED_RTOL of each other; noise in both stays consistent. */
static void test_consistency_iff(void)
{
    static const struct {
        double s1, r1, s2, r2;
        bool ok;
    } cases[] = {
        {1, 2, 2, 2, false}, {1, 2, 2, 2.0001, false}, {1, 2, 1, 2, true},
        {1, 2, 2, 3, true},  {1, 2, 1.0001, 2.0001, true}, {1, 2, 1, 3, false},
    };
    int good = 0, total = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (int many = 0; many < 2; many++)
            for (int fast = 0; fast < 2; fast++) {
                struct cluster *c = cluster_new(CLUSTER_NODES);
                int n = many ? 9000 : 2;   /* more pairs than the grouping takes */
                for (int i = 0; i < n; i++) {
                    char name[16];
                    snprintf(name, sizeof name, "p%d", i);
                    double off = many && i >= 2 ? 10 + i : 0;   /* consistent others, far away */
                    cluster_add_node(c, name, i % 2 ? cases[k].s2 + off : cases[k].s1 + off,
                                     i % 2 ? cases[k].r2 + 2 * off : cases[k].r1 + 2 * off);
                }
                if (many)   /* the pair under test, and every other node far from it */
                    for (int i = 2; i < n; i++) {
                        c->nodes[i].send = 10 + i;
                        c->nodes[i].recv = 20 + 2 * i;
                    }
                int p = -1, q = -1;
                fastpath_set(fast);
                bool okc = cluster_speeds_consistent(c, &p, &q);
                fastpath_set(true);
                bool named = okc || ((p == 0 && q == 1) || (p == 1 && q == 0));
                if (okc != cases[k].ok || !named)
                    diag("case %zu (many %d, fast %d): consistent %d, pair %d %d", k, many, fast,
                         okc, p, q);
                good += okc == cases[k].ok && named;
                total++;
                cluster_free(c);
            }
    is_int(good, total, "consistent speeds: s(p) <= s(q) iff r(p) <= r(q), equal r with unequal "
                        "s refused, fast or readable");
}

static const struct node *g_nodes;

static int cmp_stable(const void *a, const void *b)
{
    const struct node *x = &g_nodes[*(const int *)a], *y = &g_nodes[*(const int *)b];
    if (x->send != y->send)
        return x->send < y->send ? -1 : 1;
    if (x->recv != y->recv)
        return x->recv < y->recv ? -1 : 1;
    return *(const int *)a - *(const int *)b;
}

/* More send times than the grouping takes (the radix sort decides), and few
 * (the grouping decides), each consistent and then with one or two nodes
 * changed: the verdict and the first bad pair as qsort by (send, recv, index). */
static void test_consistency_large(void)
{
    struct rng r;
    rng_seed(&r, 11);
    int same = 0, cases = 0;
    for (int k = 0; k < 12; k++, cases++) {
        int n = 20000, distinct = k % 2 ? 300 : 20000;
        struct cluster *c = cluster_new(CLUSTER_NODES);
        for (int i = 0; i < n; i++) {
            char name[16];
            snprintf(name, sizeof name, "p%d", i);
            double s = 1 + (double)rng_below(&r, (uint64_t)distinct) / 100;
            cluster_add_node(c, name, s, 2 * s);
        }
        if (k >= 4) {   /* one receive time changed (by 1 %: beyond CLUSTER_SPEED_RTOL) */
            struct node *nd = &c->nodes[rng_below(&r, (uint64_t)n)];
            nd->recv = k >= 8 ? nd->recv * 1.01 : nd->recv - 0.5;
        }
        if (k >= 8)   /* and a second one */
            c->nodes[rng_below(&r, (uint64_t)n)].recv -= 0.5;
        int *idx = xmalloc((size_t)n * sizeof *idx);
        for (int i = 0; i < n; i++)
            idx[i] = i;
        g_nodes = c->nodes;
        qsort(idx, (size_t)n, sizeof *idx, cmp_stable);
        int wp, wq;
        first_bad_pair(c, idx, n, &wp, &wq);
        int p = -1, q = -1;
        bool okc = cluster_speeds_consistent(c, &p, &q);
        same += okc == (wp < 0) && (okc || (p == wp && q == wq)) && (okc == (k < 4));
        free(idx);
        cluster_free(c);
    }
    is_int(same, cases, "the consistency check on 20000 nodes, 300 and 20000 send times");
}

/*
 * Large files, where the name table is prefetched and sized from the file:
 * duplicates are still found with their first line, whichever column holds
 * the names and whether some names are quoted (libcsv) or not.
 */
static void test_large_names(void)
{
    enum { N = 60000 };
    static const char *const headers[] = {"name,send,recv", "send,recv,name", "recv,name,send"};
    for (int h = 0; h < 3; h++) {
        char *text = xmalloc((size_t)N * 48 + 256);
        size_t len = (size_t)sprintf(text, "# latency: 1\n%s\n", headers[h]);
        for (int i = 0; i < N; i++) {
            int id = i == N - 1 ? 12345 : i == 40000 ? 777 : i;   /* two names given twice */
            char name[32];
            snprintf(name, sizeof name, i % 97 == 0 ? "\"n %d\"" : "n %d", id);
            const char *f[3] = {name, "1.5", "2.5"};
            if (h == 1)
                f[0] = "1.5", f[1] = "2.5", f[2] = name;
            else if (h == 2)
                f[0] = "2.5", f[1] = name, f[2] = "1.5";
            len += (size_t)sprintf(text + len, "%s,%s,%s\n", f[0], f[1], f[2]);
        }
        struct diag d;
        diag_init(&d);
        struct cluster *c = cluster_load_csv_buffer("big.csv", text, len, &d);
        bool good = !c && d.errors == 2 && d.nlines == 2 &&
               strcmp(d.lines[0], "big.csv:40003: name: duplicate node name \"n 777\" "
                                  "(first on line 780)") == 0 &&
               strcmp(d.lines[1], "big.csv:60002: name: duplicate node name \"n 12345\" "
                                  "(first on line 12348)") == 0;
        ok(good, "60000 rows, names in column %d: both duplicates, with their first lines", h + 1);
        for (int i = 0; !good && i < d.nlines && i < 3; i++)
            diag("%s", d.lines[i]);
        cluster_free(c);
        diag_free(&d);
        free(text);
    }
}

/* ---- fast against readable, with the switch ---- */

/* Random node times of one kind: 0 few pairs (classes), 1 two decimals,
 * 2 all distinct, 3 few sends with distinct receives, 4 -0 and +0 among
 * few values, 5 one node repeated. */
static void random_times(struct rng *r, struct node *nodes, int n, int kind)
{
    static const double few[] = {0.0, -0.0, 1, 2.5, 10};
    for (int i = 0; i < n; i++) {
        double s, v;
        switch (kind) {
        case 0: s = few[2 + rng_below(r, 3)]; v = s + 1; break;
        case 1: s = 1 + (double)rng_below(r, 901) / 100; v = (double)rng_below(r, 1101) / 100; break;
        case 2: s = rng_unit(r) * 100; v = rng_unit(r) * 100; break;
        case 3: s = few[rng_below(r, 5)]; v = rng_unit(r); break;
        case 4: s = few[rng_below(r, 5)]; v = few[rng_below(r, 5)]; break;
        default: s = 2; v = 3; break;
        }
        nodes[i].send = s;
        nodes[i].recv = v;
    }
}

static void test_sort_switch(void)
{
    static const int sizes[] = {0, 1, 2, 3, 17, 300, 5000, 70000};
    int same = 0, cases = 0, same_ok = 0;
    for (int kind = 0; kind < 6; kind++)
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            int n = sizes[si];
            struct rng r;
            rng_seed(&r, (uint64_t)(1000 + kind * 10 + (int)si));
            struct cluster *c = cluster_new(CLUSTER_NODES);
            for (int i = 0; i < n; i++) {
                char name[16];
                snprintf(name, sizeof name, "p%d", i);
                cluster_add_node(c, name, 0, 0);
            }
            random_times(&r, c->nodes, n, kind);
            for (int how = 0; how < 4; how++) {   /* fnf, slowest-first, and the other two */
                bool by_recv = how & 1, desc = how & 2;
                int *fast = xmalloc((size_t)(n + 1) * sizeof *fast);
                int *slow = xmalloc((size_t)(n + 1) * sizeof *slow);
                for (int i = 0; i < n; i++)
                    fast[i] = slow[i] = i;
                fastpath_set(true);
                cluster_sort_nodes(c->nodes, fast, n, by_recv, desc);
                fastpath_set(false);
                cluster_sort_nodes(c->nodes, slow, n, by_recv, desc);
                bool eq = memcmp(fast, slow, (size_t)n * sizeof *fast) == 0;
                if (!eq)
                    diag("kind %d n=%d by_recv %d desc %d: the orders differ", kind, n, by_recv,
                         desc);
                same += eq;
                cases++;
                free(fast);
                free(slow);
            }
            /* the consistency check: the verdict and the pair named */
            if (kind == 1 && n > 2)   /* make one consistent too */
                for (int i = 0; i < n; i++)
                    c->nodes[i].recv = c->nodes[i].send * 2;
            int p1 = -1, q1 = -1, p2 = -1, q2 = -1;
            fastpath_set(true);
            bool ok1 = cluster_speeds_consistent(c, &p1, &q1);
            fastpath_set(false);
            bool ok2 = cluster_speeds_consistent(c, &p2, &q2);
            same_ok += ok1 == ok2 && (ok1 || (p1 == p2 && q1 == q2));
            cluster_free(c);
        }
    fastpath_set(true);
    is_int(same, cases, "the fast sort and qsort give one order (%d cases, n up to 70000)", cases);
    is_int(same_ok, 6 * (int)(sizeof sizes / sizeof sizes[0]),
           "the consistency check: one verdict and one pair, fast or readable");
}

/* Few distinct (send, recv) pairs among many nodes, where the grouped check walks the pairs
 * alone: times within CLUSTER_SPEED_RTOL of each other and beyond it, equal sends with
 * receives apart, -0, a node or two moved; the verdict and the pair named, fast or readable. */
static void test_consistency_grouped_switch(void)
{
    static const double sends[] = {1, 1.0005, 1.002, 2, 2.0019, 3, 0, -0.0};
    static const double gaps[] = {1, 1.0004, 0.9996, 1.01, 0.5, 2};
    int same = 0, cases = 0, bad = 0;
    for (int seed = 0; seed < 400; seed++) {
        struct rng r;
        rng_seed(&r, (uint64_t)(7000 + seed));
        int n = 2 + (int)rng_below(&r, seed % 4 ? 60 : 3000);
        int groups = 1 + (int)rng_below(&r, 8);
        struct cluster *c = cluster_new(CLUSTER_NODES);
        for (int i = 0; i < n; i++) {
            char name[16];
            snprintf(name, sizeof name, "p%d", i);
            int g = (int)rng_below(&r, (uint64_t)groups);
            double sv = sends[g % 8] + (g >= 8 ? 5 : 0);
            double rv = sv + 1 + (seed % 3 == 0 ? 0 : gaps[rng_below(&r, 6)] - 1) * (rng_below(&r, 4) == 0);
            cluster_add_node(c, name, sv, rv);
        }
        int p1 = -1, q1 = -1, p2 = -1, q2 = -1;
        fastpath_set(true);
        bool ok1 = cluster_speeds_consistent(c, &p1, &q1);
        fastpath_set(false);
        bool ok2 = cluster_speeds_consistent(c, &p2, &q2);
        fastpath_set(true);
        bool eq = ok1 == ok2 && (ok1 || (p1 == p2 && q1 == q2));
        if (!eq)
            diag("seed %d, n %d: fast %d (%d, %d), readable %d (%d, %d)", seed, n, ok1, p1, q1, ok2,
                 p2, q2);
        same += eq;
        bad += !ok2;
        cases++;
        cluster_free(c);
    }
    is_int(same, cases, "the grouped consistency check: one verdict and one pair on few pairs, "
                        "fast or readable (%d inconsistent)", bad);
    ok(bad > cases / 4 && bad < cases, "both verdicts met (%d of %d inconsistent)", bad, cases);
}

/* A random CSV file of the shapes the loader meets: blanks, tabs, empty
 * and quoted fields, quotes inside, CR LF and bare CR, comments, blank
 * lines, short rows, numbers of every syntax, a `count`. */
static char *random_csv(struct rng *r, size_t *len)
{
    static const char *const names[] = {"a", "b b", " c", "d\t", "\"e\"", "\"f,g\"", "\"h\"\"i\"",
                                        "#j", "k#", "\"l\nm\"", "", "n", "o", "p", "q"};
    static const char *const nums[] = {"1", "2.5", " 3 ", "\t0.25", "1e3", "1E-2", "+4", "1.",
                                       "0.1", "007", "-1", "", "\"5\"", "1.", ".5", "123456789012345678"};
    static const char *const ends[] = {"\n", "\r\n", "\r", "\n\n", "\n# a comment\n", "\n  \n",
                                       "\n# latency: 2\n"};
    static const char *const headers[] = {"name,send,recv\n", "name , send,\trecv,class\n",
                                          "recv,name,send,count\n", "\"name\",\"send\",\"recv\"\n",
                                          "from,to,time\n"};
    int h = (int)rng_below(r, 5);
    size_t cap = 8192, n = 0;
    char *t = xmalloc(cap);
    n += (size_t)snprintf(t + n, cap - n, "%s", headers[h]);
    int rows = 1 + (int)rng_below(r, 30), cols = h == 1 || h == 2 ? 4 : 3;
    for (int i = 0; i < rows && n < cap - 200; i++) {
        int k = cols + (rng_below(r, 60) == 0 ? (int)rng_below(r, 3) - 1 : 0);
        for (int j = 0; j < k; j++) {
            bool name_col = (h == 2 ? j == 1 : j == 0) || (h == 4 && j < 2);
            const char *f = name_col ? names[rng_below(r, 15)] :
                            (h == 2 && j == 3) ? (rng_below(r, 2) ? "" : "2") :
                            nums[rng_below(r, rng_below(r, 30) ? 10 : 16)];
            char buf[40];
            if (name_col && rng_below(r, 8)) {
                snprintf(buf, sizeof buf, "n%d", (int)rng_below(r, 1000));
                f = buf;
            }
            n += (size_t)snprintf(t + n, cap - n, "%s%s", j ? "," : "", f);
        }
        n += (size_t)snprintf(t + n, cap - n, "%s", ends[rng_below(r, 8) ? 0 : rng_below(r, 7)]);
    }
    if (rng_below(r, 4) == 0 && n > 0 && t[n - 1] == '\n')
        n--;   /* no final line end */
    *len = n;
    return t;
}

/* NULL if a and b are the same loaded cluster, else what differs. */
static const char *cluster_diff(const struct cluster *a, const struct cluster *b)
{
    if (!a || !b)
        return a == b ? NULL : "one loaded, one not";
    if (a->kind != b->kind || a->n != b->n || a->nedges != b->nedges || a->source != b->source)
        return "kind, size or source";
    if (memcmp(&a->latency, &b->latency, sizeof a->latency) != 0)
        return "latency";
    for (int i = 0; i < a->n; i++) {
        const struct node *x = &a->nodes[i], *y = &b->nodes[i];
        if (strcmp(x->name, y->name) != 0 || memcmp(&x->send, &y->send, sizeof x->send) != 0 ||
            memcmp(&x->recv, &y->recv, sizeof x->recv) != 0 || cluster_line(a, i) != cluster_line(b, i))
            return "a node";
        const char *kx = cluster_class(a, i), *ky = cluster_class(b, i);
        if ((kx == NULL) != (ky == NULL) || (kx && strcmp(kx, ky)))
            return "a class";
    }
    for (int k = 0; k < a->nedges; k++)
        if (a->edges[k].from != b->edges[k].from || a->edges[k].to != b->edges[k].to ||
            a->edges[k].time != b->edges[k].time || a->edges[k].line != b->edges[k].line)
            return "an edge";
    return NULL;
}

static void test_csv_switch(void)
{
    struct rng r;
    rng_seed(&r, 77);
    int files = 3000, same = 0, loaded = 0, refused = 0;
    for (int f = 0; f < files; f++) {
        size_t len;
        char *text = random_csv(&r, &len);
        struct diag d1, d2;
        diag_init(&d1);
        diag_init(&d2);
        fastpath_set(true);
        struct cluster *c1 = cluster_load_csv_buffer("r.csv", text, len, &d1);
        fastpath_set(false);
        struct cluster *c2 = cluster_load_csv_buffer("r.csv", text, len, &d2);
        fastpath_set(true);
        const char *why = cluster_diff(c1, c2);
        bool eq = !why && d1.nlines == d2.nlines && d1.errors == d2.errors &&
                  d1.warnings == d2.warnings;
        for (int i = 0; eq && i < d1.nlines; i++)
            eq = strcmp(d1.lines[i], d2.lines[i]) == 0;
        if (!eq && same == f) {
            diag("fast and readable differ (%s) on:\n%.*s", why ? why : "messages", (int)len, text);
            for (int i = 0; i < d1.nlines || i < d2.nlines; i++)
                diag("  %s | %s", i < d1.nlines ? d1.lines[i] : "", i < d2.nlines ? d2.lines[i] : "");
        }
        same += eq;
        loaded += c1 != NULL;
        refused += c1 == NULL;
        cluster_free(c1);
        cluster_free(c2);
        diag_free(&d1);
        diag_free(&d2);
        free(text);
    }
    is_int(same, files, "random files: the same cluster and messages with and without the fast "
           "path (%d loaded, %d refused)", loaded, refused);
    ok(loaded > files / 20 && refused > files / 20, "both kinds of file are common enough");
}

/* ---- fef: sched/fef_fast.c against the readable scan, event by event ---- */

/* c finished (its warnings dropped). */
static struct cluster *cluster_done(struct cluster *c)
{
    struct diag d;
    diag_init(&d);
    cluster_finish(c, &d);
    diag_free(&d);
    return c;
}

/* A node table of n nodes; kind 0: two-decimal times, 1: small integers
 * (many ties), 2: times whose sums round together (1 and 1 + 2^-52 plus 4
 * make the same double), 3: zero costs. */
static struct cluster *fef_cluster(int n, int kind, uint64_t seed)
{
    static const double close[4] = {1.0, 1.0 + 0x1p-52, 1.0 + 0x1p-51, 3.0};
    static const double far[4] = {4.0, 4.0 + 0x1p-50, 8.0, 0.5};
    struct cluster *c = cluster_new(CLUSTER_NODES);
    struct rng r;
    rng_seed(&r, seed);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "p%d", i);
        double sv = 0, rv = 0;
        if (kind == 0) {
            sv = (double)rng_below(&r, 1001) / 100;
            rv = (double)rng_below(&r, 1001) / 100;
        } else if (kind == 1) {
            sv = (double)rng_below(&r, 4);
            rv = (double)rng_below(&r, 4);
        } else if (kind == 2) {
            sv = close[rng_below(&r, 4)];
            rv = far[rng_below(&r, 4)];
        }
        cluster_add_node(c, name, sv, rv);
    }
    c->latency = kind == 1 ? 0 : (double)rng_below(&r, 3);
    c->source = (int)rng_below(&r, (uint64_t)n);
    return cluster_done(c);
}

static int fef_run(const struct cluster *c, enum model m, struct engine *e)
{
    struct sched s;
    struct sched_opts o;
    sched_opts_default(&o);
    char *cause = NULL;
    int rc = engine_init(e, c, m, &cause);
    if (rc == 0) {
        sched_init(&s, &sched_fef, &o);
        rc = sched_run(e, &s, &cause);
        sched_free(&s);
    }
    if (rc < 0)
        diag("fef: %s", cause ? cause : "?");
    free(cause);
    return rc;
}

static void test_fef_switch(void)
{
    static const int sizes[] = {1, 2, 3, 17, 200, 1500};
    int runs = 0, same = 0;
    for (int kind = 0; kind < 4; kind++)
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
            for (int seed = 1; seed <= 4; seed++) {
                struct cluster *c = fef_cluster(sizes[si], kind, (uint64_t)(seed * 31 + kind));
                for (int m = 0; m < MODEL_COUNT; m++) {
                    struct engine fast, plain;
                    fastpath_set(true);
                    int rf = fef_run(c, (enum model)m, &fast);
                    fastpath_set(false);
                    int rp = fef_run(c, (enum model)m, &plain);
                    fastpath_set(true);
                    bool eq = rf == rp && fast.ntr == plain.ntr;
                    for (int i = 0; eq && i < fast.ntr; i++) {
                        const struct transfer *a = &fast.tr[i], *b = &plain.tr[i];
                        eq = a->from == b->from && a->to == b->to && a->start == b->start &&
                             a->hold == b->hold && strcmp(a->reason, b->reason) == 0;
                        if (!eq)
                            diag("kind %d, n %d, seed %d, %s: transfer %d: %d->%d at %g, "
                                 "readable %d->%d at %g", kind, sizes[si], seed,
                                 model_name((enum model)m), i, a->from, a->to, a->start,
                                 b->from, b->to, b->start);
                    }
                    runs++;
                    same += eq;
                    engine_free(&fast);
                    engine_free(&plain);
                }
                cluster_free(c);
            }
    is_int(same, runs, "fef: sched/fef_fast.c books what the readable scan books, transfer for "
                       "transfer (random, tied and rounding-tied node tables, every model)");
}

/* ---- open-shop and greedy: sched/exchange_openshop_fast.c and sched/exchange_greedy_fast.c against the readable scans ---- */

static int oshop_run(const struct xsched_ops *ops, const struct cluster *c, enum model m,
                     enum xpattern pat, const int *recv, int nrecv, uint64_t seed,
                     struct exchange *x)
{
    struct exchange_opts o = {.pattern = pat, .recv = recv, .nrecv = nrecv,
                              .ops = ops, .seed = seed};
    char *cause = NULL;
    int rc = exchange_run(x, c, m, &o, &cause);
    if (rc < 0)
        diag("%s: %s", ops->name, cause ? cause : "?");
    free(cause);
    return rc;
}

/* sched/exchange.c's pair cost, as greedy's lists have it: s + l + r, 0 to oneself. */
static double greedy_cost(const struct cluster *c, int q, int p)
{
    struct cost k;
    if (q == p || !timing_cost(c, q, p, &k))
        return 0;
    return k.T;
}

/* The same orders and transfers both ways; *shared counts the clusters
 * whose lists sched/exchange_greedy_fast.c takes as one order (greedy only). */
static void exchange_switch(const struct xsched_ops *ops, const int *sizes, size_t nsizes,
                            int *runs_out, int *same_out, int *shared, int *clusters)
{
    int runs = 0, same = 0;
    for (int kind = 0; kind < 4; kind++)
        for (size_t si = 0; si < nsizes; si++)
            for (int seed = 1; seed <= 2; seed++)
                for (int m = 0; m < 2; m++)
                    for (int pat = 0; pat < 2; pat++) {
                        int n = sizes[si];
                        struct cluster *c = fef_cluster(n, kind, (uint64_t)(seed * 37 + kind));
                        enum model model = m ? MODEL_SYNC : MODEL_ASYNC;
                        /* all-to-some: every third node from a seeded start */
                        int *recv = malloc((size_t)n * sizeof *recv), nrecv = 0;
                        for (int i = seed % 3; i < n; i += 3)
                            recv[nrecv++] = i;
                        if (nrecv == 0)
                            recv[nrecv++] = 0;
                        struct exchange fast, plain;
                        fastpath_set(true);
                        int rf = oshop_run(ops, c, model, (enum xpattern)pat, recv, nrecv,
                                           (uint64_t)seed, &fast);
                        fastpath_set(false);
                        int rp = oshop_run(ops, c, model, (enum xpattern)pat, recv, nrecv,
                                           (uint64_t)seed, &plain);
                        fastpath_set(true);
                        bool eq = rf == 0 && rp == 0 && fast.eng.ntr == plain.eng.ntr &&
                                  fast.nrecv == plain.nrecv &&
                                  memcmp(fast.order, plain.order, (size_t)n * (size_t)fast.nrecv *
                                                                      sizeof *fast.order) == 0 &&
                                  fast.completion == plain.completion &&
                                  fast.nwaits == plain.nwaits && fast.idle == plain.idle;
                        for (int i = 0; eq && i < fast.eng.ntr; i++) {
                            const struct transfer *a = &fast.eng.tr[i], *b = &plain.eng.tr[i];
                            eq = a->from == b->from && a->to == b->to && a->start == b->start &&
                                 a->wait_start == b->wait_start && a->recv_end == b->recv_end &&
                                 fast.row[i] == plain.row[i];
                        }
                        if (!eq)
                            diag("%s differs: kind %d, n %d, seed %d, %s, %s", ops->name, kind, n,
                                 seed, model_name(model), exchange_pattern_name((enum xpattern)pat));
                        if (shared && m == 0) {
                            bool all = pat == XPAT_ALL_TO_ALL;
                            const int *rv = recv;
                            int *every = NULL;
                            if (all) {
                                every = malloc((size_t)n * sizeof *every);
                                for (int i = 0; i < n; i++)
                                    every[i] = i;
                                rv = every;
                            }
                            struct gfast *g = gfast_new(c, rv, all ? n : nrecv, greedy_cost);
                            *shared += g != NULL;
                            ++*clusters;
                            gfast_free(g);
                            free(every);
                        }
                        runs++;
                        same += eq;
                        if (rf == 0)
                            exchange_free(&fast);
                        if (rp == 0)
                            exchange_free(&plain);
                        free(recv);
                        cluster_free(c);
                    }
    *runs_out = runs;
    *same_out = same;
}

static void test_open_shop_switch(void)
{
    static const int sizes[] = {1, 2, 3, 17, 64, 65, 130};
    int runs, same;
    exchange_switch(&xsched_open_shop, sizes, sizeof sizes / sizeof *sizes, &runs, &same, NULL, NULL);
    is_int(same, runs, "open-shop: sched/exchange_openshop_fast.c chooses what the readable scan chooses: the "
                       "same orders and transfers (random, tied and rounding-tied node tables, "
                       "sync and async, all-to-all and all-to-some, 1 to 130 nodes)");
}

static void test_greedy_switch(void)
{
    static const int sizes[] = {1, 2, 3, 17, 64, 65, 100};
    int runs, same, shared = 0, clusters = 0;
    exchange_switch(&xsched_greedy, sizes, sizeof sizes / sizeof *sizes, &runs, &same, &shared,
                    &clusters);
    is_int(same, runs, "greedy: sched/exchange_greedy_fast.c picks what the readable list scan picks: the same "
                       "orders and transfers (random, tied and rounding-tied node tables, sync "
                       "and async, all-to-all and all-to-some, 1 to 100 nodes)");
    ok(shared > clusters / 2 && shared < clusters,
       "greedy: both paths ran (%d of %d clusters' lists are one order, the rest the readable "
       "scan's)", shared, clusters);
}

/* ---- exports: lines built by hand (output/export_line.h) against the writers' fprintf ---- */

/* What fn writes of runs[0..k), with the fast paths on or off. */
static char *export_bytes(int (*fn)(FILE *, const struct run *, int), const struct run *runs, int k,
                          bool fast, size_t *len)
{
    char *buf = NULL;
    FILE *fp = open_memstream(&buf, len);
    fastpath_set(fast);
    int rc = fn(fp, runs, k);
    fastpath_set(true);
    fclose(fp);
    if (rc != 0)
        diag("an export failed");
    return buf;
}

static int chrome_at_ms(FILE *fp, const struct run *runs, int k)
{
    return export_chrome(fp, runs, k, 1000);
}

/* run's JSON of the last of the k runs (the second: MPI's segments, or fef's). */
static int json_last(FILE *fp, const struct run *runs, int k)
{
    report_run_json(fp, &runs[k - 1], false);
    return ferror(fp) ? -1 : 0;
}

static void test_export_switch(void)
{
    static const struct {
        const char *name;
        int (*fn)(FILE *, const struct run *, int);
    } writers[] = {{"paje", export_paje}, {"chrome", chrome_at_ms}, {"json", json_last}};
    static const int sizes[] = {1, 2, 5, 40, 700};
    static const char *const odd[] = {"say \"hi\"", "back\\slash", "two\nlines", "tab\there",
                                      "bell\a", "ünï <&>", "% not a definition"};
    int cases = 0, same = 0;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (int kind = 0; kind < 4; kind++) {
            struct cluster *c = fef_cluster(sizes[si], kind, (uint64_t)(si * 7 + (size_t)kind));
            if (kind == 1)   /* names to escape, among plain ones */
                for (int p = 0; p < c->n; p += 3)
                    cluster_set_node_name(c, p, odd[p % (int)(sizeof odd / sizeof odd[0])]);
            struct sched_opts so;
            sched_opts_default(&so);
            struct run runs[2];
            enum model m = (enum model)((si + (size_t)kind) % MODEL_ONE_PORT_UNI);   /* a table's */
            int rc = run_schedule(&runs[0], c, m, sched_find("fnf"), &so, RUN_OPT_NEVER, NULL);
            if (kind % 2)   /* MPI's binomial tree in 3 segments: events name their segment */
                so.slices = 3;
            rc |= run_schedule(&runs[1], c, m, sched_find(kind % 2 ? "binomial" : "fef"), &so,
                               RUN_OPT_NEVER, NULL);
            for (size_t w = 0; rc == 0 && w < sizeof writers / sizeof writers[0]; w++)
                for (int k = 1; k <= 2; k++) {
                    size_t lf = 0, lp = 0;
                    char *f = export_bytes(writers[w].fn, runs, k, true, &lf);
                    char *p = export_bytes(writers[w].fn, runs, k, false, &lp);
                    bool eq = lf == lp && memcmp(f, p, lf) == 0;
                    if (!eq)
                        diag("%s, n %d, kind %d, %d runs: %zu bytes fast, %zu readable",
                             writers[w].name, sizes[si], kind, k, lf, lp);
                    cases++;
                    same += eq;
                    free(f);
                    free(p);
                }
            for (int pass = 0; rc == 0 && pass < 2; pass++) {
                /* the transfers reversed (each sender's sends out of start order), then back:
                 * Chrome's slots placed by port, then sorted where they are not in order */
                struct transfer *tr = runs[0].eng.tr;
                for (int i = 0, j = runs[0].eng.ntr - 1; i < j; i++, j--) {
                    struct transfer x = tr[i];
                    tr[i] = tr[j];
                    tr[j] = x;
                }
                if (pass == 1)
                    break;
                for (size_t w = 0; w < 2; w++) {   /* Paje's events out of booking order too */
                    size_t lf = 0, lp = 0;
                    char *f = export_bytes(writers[w].fn, runs, 2, true, &lf);
                    char *p = export_bytes(writers[w].fn, runs, 2, false, &lp);
                    bool eq = lf == lp && memcmp(f, p, lf) == 0;
                    if (!eq)
                        diag("%s, transfers reversed, n %d, kind %d: %zu bytes fast, %zu readable",
                             writers[w].name, sizes[si], kind, lf, lp);
                    cases++;
                    same += eq;
                    free(f);
                    free(p);
                }
            }
            if (rc == 0) {
                run_free(&runs[0]);
                run_free(&runs[1]);
            } else {
                diag("n %d, kind %d: a run failed", sizes[si], kind);
                cases++;
            }
            cluster_free(c);
        }
    is_int(same, cases, "exports: Paje, Chrome and JSON lines built by hand (and Chrome's slots "
                        "placed by port, Paje's events carried in pairs) are the readable writers' "
                        "bytes (one run and two, segments, names to escape, every kind of table, "
                        "bookings out of order)");
}

/* Paje's events by time on the fast path (export_paje.c's lists) against the readable queues:
 * times that repeat (two decimals: the lists all along) and times that seldom do (random
 * doubles: the lists move their events to the queues part way), fnf and random-order. */
static void test_paje_times(void)
{
    int cases = 0, same = 0;
    for (int shape = 0; shape < 2; shape++)
        for (int si = 0; si < 2; si++) {
            int n = shape == 0 ? tap_scale(20000, 8000) : tap_scale(6000, 3000);
            struct cluster *c = shape == 0 ? fef_cluster(n, 0, 77) : cluster_new(CLUSTER_NODES);
            if (shape == 1) {
                struct rng r;
                rng_seed(&r, 78);
                for (int i = 0; i < n; i++) {
                    char name[16];
                    snprintf(name, sizeof name, "q%d", i);
                    double sv = 0.1 + 9 * rng_unit(&r);
                    cluster_add_node(c, name, sv, sv + 3 * rng_unit(&r));
                }
                c->latency = 1;
                cluster_done(c);
            }
            struct sched_opts so;
            sched_opts_default(&so);
            struct run run;
            enum model m = si == 0 ? MODEL_ASYNC : MODEL_SYNC;
            if (run_schedule(&run, c, m, sched_find(si == 0 ? "fnf" : "random-order"), &so,
                             RUN_OPT_NEVER, NULL) == 0) {
                size_t lf = 0, lp = 0;
                char *f = export_bytes(export_paje, &run, 1, true, &lf);
                char *p = export_bytes(export_paje, &run, 1, false, &lp);
                bool eq = lf == lp && memcmp(f, p, lf) == 0;
                if (!eq)
                    diag("paje, shape %d, run %d: %zu bytes fast, %zu readable", shape, si, lf, lp);
                same += eq;
                free(f);
                free(p);
                run_free(&run);
            } else {
                diag("paje, shape %d, run %d: the run failed", shape, si);
            }
            cases++;
            cluster_free(c);
        }
    is_int(same, cases, "Paje's events listed by time are the readable queues' bytes (times that "
                        "repeat, times that seldom do; fnf and random-order, %d runs)", cases);
}

/* The list policies' reasons (sched/list.c: list_say_fast against its xasprintf): every
 * transfer's, written at booking and written when read, fnf and slowest-first, on tables whose
 * times %g rounds (1 + 2^-52), async, sync (a port busy past the overhead) and sender-only. */
static void test_list_say(void)
{
    static const enum model models[] = {MODEL_ASYNC, MODEL_SYNC, MODEL_SENDER_ONLY};
    int reasons = 0, same = 0;
    for (int kind = 0; kind < 4; kind++)
        for (size_t mi = 0; mi < sizeof models / sizeof models[0]; mi++)
            for (int later = 0; later < 2; later++) {
                struct cluster *c = fef_cluster(kind == 3 ? tap_scale(700, 200) : 60, kind, (uint64_t)(91 + kind));
                struct sched_opts so;
                sched_opts_default(&so);
                so.reasons_later = later;
                struct run run[2];
                int rc = 0;
                for (int fast = 0; fast < 2; fast++) {
                    fastpath_set(fast);
                    rc |= run_schedule(&run[fast], c, models[mi],
                                       sched_find(kind % 2 ? "slowest-first" : "fnf"), &so,
                                       RUN_OPT_NEVER, NULL);
                }
                for (int i = 0; rc == 0 && i < run[0].eng.ntr && i < run[1].eng.ntr; i++) {
                    char *t0 = NULL, *t1 = NULL;
                    fastpath_set(false);
                    const char *r0 = engine_reason(&run[0].eng, &run[0].eng.tr[i], &t0);
                    fastpath_set(true);
                    const char *r1 = engine_reason(&run[1].eng, &run[1].eng.tr[i], &t1);
                    bool eq = r0 && r1 && strcmp(r0, r1) == 0;
                    if (!eq && reasons - same < 3)
                        diag("reason %d: \"%s\" readable, \"%s\" fast", i, r0 ? r0 : "",
                             r1 ? r1 : "");
                    reasons++;
                    same += eq;
                    free(t0);
                    free(t1);
                }
                fastpath_set(true);
                if (rc == 0) {
                    run_free(&run[0]);
                    run_free(&run[1]);
                } else {
                    diag("kind %d: a run failed", kind);
                    reasons++;
                }
                cluster_free(c);
            }
    ok(reasons > 1000 && same == reasons,
       "the list policies' reasons built by hand are xasprintf's (%d of %d alike)", same, reasons);
}

/* output/export_line.h's integers: %lld's text, on the edges and a million random values of
 * every width (the exporters' node numbers, sequence numbers, ids). */
static void test_line_int(void)
{
    static const long long edges[] = {0, 1, 9, 10, 99, 100, 101, 999, 1000, -1, -9, -10, -100,
                                      2147483647LL, -2147483647LL - 1, 9223372036854775807LL,
                                      -9223372036854775807LL - 1, 999999999999999999LL,
                                      1000000000000000000LL, 99999999999LL, 100000000000LL};
    struct rng r;
    rng_seed(&r, 41);
    int bad = 0, n = 0;
    int nedges = (int)(sizeof edges / sizeof edges[0]);
    for (int i = 0; i < 1000000 + nedges; i++, n++) {
        long long v = i < nedges ? edges[i] : (long long)(rng_next(&r) >> rng_below(&r, 64));
        if (i % 3 == 0)
            v = -v;
        char fast[32], slow[32];
        *line_int(fast, v) = '\0';
        snprintf(slow, sizeof slow, "%lld", v);
        if (strcmp(fast, slow) != 0 && bad++ < 5)
            diag("line_int(%s) wrote %s", slow, fast);
    }
    is_int(bad, 0, "line_int writes what %%lld writes (%d values: the edges, every width, both signs)", n);
}

/* HETCAST_NO_FASTPATH is read at the first use only, then fastpath_set decides. */
static void test_switch(void)
{
    fastpath_set(false);
    ok(!fastpath_on(), "fastpath_set(false) turns the fast paths off");
    fastpath_set(true);
    ok(fastpath_on(), "fastpath_set(true) turns them on");
}

int main(void)
{
    test_numbers();
    test_splitting();
    test_consistency();
    test_consistency_iff();
    test_consistency_large();
    test_large_names();
    test_switch();
    test_sort_switch();
    test_consistency_grouped_switch();
    test_csv_switch();
    test_fef_switch();
    test_open_shop_switch();
    test_greedy_switch();
    test_export_switch();
    test_paje_times();
    test_list_say();
    test_line_int();
    return tap_exit();
}
