/*
 * test_nameidx.c - model/nameidx.h, the one name -> node index: every name found,
 * misses not, the first node of a name kept, growth keeping every entry;
 * and cluster_find through it answers as a scan of the nodes does, before
 * and after nodes are added and a name changed.  TAP.
 */
#include <stdlib.h>
#include <string.h>

#include "model/cluster.h"
#include "model/nameidx.h"
#include "support/rng.h"
#include "tap.h"

/* What cluster_find promises: the first node with that name, or -1. */
static int scan(const struct cluster *c, const char *name)
{
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->nodes[i].name, name) == 0)
            return i;
    return -1;
}

static void random_name(struct rng *r, char *buf, size_t size)
{
    static const char *const parts[] = {"node", "-", "a", "b", " ", "\xc3\xa9", "x", "0", "12", "#"};
    size_t n = 0;
    int k = (int)rng_below(r, 5);
    for (int i = 0; i <= k && n + 8 < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s", parts[rng_below(r, 10)]);
    n += (size_t)snprintf(buf + n, size - n, "%d", (int)rng_below(r, 3000));
}

static void test_index(void)
{
    struct rng r;
    rng_seed(&r, 21);
    struct cluster *c = cluster_new(CLUSTER_NODES);
    struct nameidx ix = {0};
    int twins = 0;
    for (int i = 0; i < 5000; i++) {
        char name[64];
        random_name(&r, name, sizeof name);
        twins += scan(c, name) >= 0;
        int k = cluster_add_node(c, name, 0, 0);
        nameidx_add(&ix, c->nodes, k);
    }
    ok(twins > 10, "some names come twice (%d)", twins);
    is_int(ix.len, c->n - twins, "one entry a distinct name");
    ok(4 * ix.len <= 3 * ix.cap, "at most three quarters full (%zu of %zu)", ix.len, ix.cap);
    int same = 0;
    for (int i = 0; i < c->n; i++)
        same += nameidx_find(&ix, c->nodes, c->nodes[i].name) == scan(c, c->nodes[i].name);
    is_int(same, c->n, "every name: the first node with it");
    int misses = 0;
    for (int i = 0; i < 2000; i++) {
        char name[80];
        snprintf(name, sizeof name, "missing %d", i);
        misses += nameidx_find(&ix, c->nodes, name) == -1;
    }
    is_int(misses, 2000, "names not there: -1");
    is_int(nameidx_find(&ix, c->nodes, ""), -1, "the empty name: -1");
    struct nameidx empty = {0};
    is_int(nameidx_find(&empty, c->nodes, "node1"), -1, "an empty index: -1");

    /* reserve with a guess, then probe and set as the CSV loader does */
    struct nameidx big = {0};
    nameidx_reserve(&big, 100000);
    ok(big.cap >= 200000, "a reserve for 100000 names takes room for them at once");
    size_t cap = big.cap;
    for (int i = 0; i < c->n; i++) {
        const char *nm = c->nodes[i].name;
        uint32_t h = nameidx_hash(nm, strlen(nm));
        nameidx_reserve(&big, 0);
        size_t at = nameidx_probe(&big, c->nodes, nm, h);
        if (big.slot[at].node < 0)
            nameidx_set(&big, at, i, h);
    }
    is_int(big.cap, cap, "and does not grow again");
    same = 0;
    for (int i = 0; i < c->n; i++)
        same += nameidx_find(&big, c->nodes, c->nodes[i].name) == scan(c, c->nodes[i].name);
    is_int(same, c->n, "probe and set: every name found");
    nameidx_free(&big);
    nameidx_free(&ix);
    cluster_free(c);
}

static void test_cluster_find(void)
{
    struct cluster *c = cluster_new(CLUSTER_NODES);
    char name[32];
    for (int i = 0; i < 5; i++) {
        snprintf(name, sizeof name, "p%d", i);
        cluster_add_node(c, name, 0, 0);
    }
    is_int(cluster_find(c, "p3"), 3, "a small cluster: found by a scan");
    ok(c->index == NULL, "a small cluster has no index");
    for (int i = 5; i < 100; i++) {
        snprintf(name, sizeof name, "p%d", i);
        cluster_add_node(c, name, 0, 0);
    }
    is_int(cluster_find(c, "p77"), 77, "a larger cluster: found");
    ok(c->index == NULL, "by a scan the first time (one lookup is cheaper so)");
    is_int(cluster_find(c, "p78"), 78, "a second lookup: found");
    ok(c->index != NULL, "through the index made on the second call");
    cluster_add_node(c, "late", 0, 0);
    cluster_add_node(c, "p77", 0, 0);
    is_int(cluster_find(c, "late"), 100, "a node added afterwards is found (the index follows)");
    is_int(cluster_find(c, "p77"), 77, "a second node of a name: the first is found");
    cluster_set_node_name(c, 3, "renamed");
    is_int(cluster_find(c, "renamed"), 3, "a renamed node is found under its new name");
    is_int(cluster_find(c, "p3"), -1, "and not under its old one");
    is_int(cluster_find(c, "nobody"), -1, "an unknown name: -1");
    cluster_free(c);

    struct diag d;
    diag_init(&d);
    const char *text = "# source: n 40\nname,send,recv\n";
    size_t len = strlen(text);
    char *buf = xmalloc(len + 64 * 50);
    memcpy(buf, text, len);
    for (int i = 0; i < 50; i++)
        len += (size_t)sprintf(buf + len, "n %d,1,2\n", i);
    c = cluster_load_csv_buffer("t.csv", buf, len, &d);
    ok(c && c->source == 40, "a loaded cluster: its source resolved by name");
    int same = 0;
    for (int i = 0; c && i < c->n; i++)
        same += cluster_find(c, c->nodes[i].name) == i;
    is_int(same, 50, "every loaded name is found");
    cluster_free(c);
    diag_free(&d);
    free(buf);
}

int main(void)
{
    test_index();
    test_cluster_find();
    return tap_exit();
}
