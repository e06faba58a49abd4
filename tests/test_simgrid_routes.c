/*
 * test_simgrid_routes.c - every route of a SimGrid <cluster> as the native reader
 * gives it (model/cluster_simgrid_native.c: a route rule, the times filled by node)
 * against SimGrid's own (the helper hetcast-simgrid beside this test's directory,
 * HETCAST_NO_FASTPATH's path): the same links in the same order (names, bandwidths,
 * latencies, policies), for every pair of hosts the same links and the same latency
 * to the bit, and the same time matrix, on flat clusters (backbones, limiters, each
 * policy, radical lists) and fat trees (one to three levels, parallel links,
 * limiters).  Skipped in a build without SimGrid or without the helper.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

#if HETCAST_HAVE_SIMGRID
#include "engine/bounds.h"
#include "model/cluster_simgrid.h"
#include "support/fastpath.h"

static const char *const platforms[][2] = {
    {"0-40", "bb_bw=\"2.25GBps\" bb_lat=\"500us\""},
    {"0-12", "sharing_policy=\"SPLITDUPLEX\" limiter_link=\"50MBps\" bb_bw=\"10Gbps\" bb_lat=\"1ms\""},
    {"0-9,20-24,100,7000-7004", "bb_bw=\"1GBps\" bb_lat=\"100us\" bb_sharing_policy=\"FATPIPE\""},
    {"0-29", "sharing_policy=\"FATPIPE\" limiter_link=\"20MBps\""},
    {"0-20", "loopback_bw=\"10GBps\" loopback_lat=\"1ns\" sharing_policy=\"FULLDUPLEX\""},
    {"0", ""},
    {"0-1", "sharing_policy=\"SHARED\""},
    {"0-15", "topology=\"FAT_TREE\" topo_parameters=\"2;4,4;1,2;1,2\""},
    {"0-15", "topology=\"FAT_TREE\" topo_parameters=\"2;4,4;1,2;1,2\" sharing_policy=\"SHARED\" "
             "limiter_link=\"60MBps\""},
    {"0-19", "topology=\"FAT_TREE\" topo_parameters=\"2;4,4;2,2;2,1\""},
    {"0-63", "topology=\"FAT_TREE\" topo_parameters=\"3;4,4,4;1,2,2;1,2,1\""},
    {"0-63", "topology=\"FAT_TREE\" topo_parameters=\"3;4,4,4;1,4,2;1,1,1\" limiter_link=\"1GBps\""},
    {"0-63", "topology=\"FAT_TREE\" topo_parameters=\"2;8,8;1,4;2,2\""},
    {"0-7", "topology=\"FAT_TREE\" topo_parameters=\"3;2,2,2;1,1,2;1,2,1\""},
    {"0-7", "topology=\"FAT_TREE\" topo_parameters=\"3;2,2,2;2,2,2;2,2,2\" sharing_policy=\"FATPIPE\""},
    {"0-26", "topology=\"FAT_TREE\" topo_parameters=\"3;3,3,3;1,3,3;1,2,1\""},
    {"0-7", "topology=\"FAT_TREE\" topo_parameters=\"1;8;2;3\" limiter_link=\"2GBps\""},
};

static struct cluster *load(const char *path, bool fast)
{
    struct diag d = {0};
    fastpath_set(fast);
    struct cluster *c = cluster_load_simgrid(path, 1e6, &d);
    diag_free(&d);
    return c;
}

static bool same_links(const struct platform *a, const struct platform *b)
{
    if (a->nlinks != b->nlinks)
        return false;
    for (int l = 0; l < a->nlinks; l++)
        if (strcmp(a->link[l].name, b->link[l].name) != 0 ||
            a->link[l].bandwidth != b->link[l].bandwidth ||
            a->link[l].latency != b->link[l].latency || a->link[l].shared != b->link[l].shared)
            return false;
    return true;
}

/* Every route's links and latency alike; *lat_ok for the latencies. */
static bool same_routes(const struct platform *a, const struct platform *b, bool *lat_ok)
{
    uint32_t *ba = platform_route_buf(a), *bb = platform_route_buf(b);
    bool ok = a->n == b->n;
    *lat_ok = ok;
    for (int q = 0; ok && q < a->n; q++)
        for (int p = 0; ok && p < a->n; p++) {
            int la, lb;
            const uint32_t *ia = platform_route(a, q, p, ba, &la), *ib = platform_route(b, q, p, bb, &lb);
            ok = la == lb && la <= a->route_max && (la == 0 || memcmp(ia, ib, (size_t)la * sizeof *ia) == 0);
            double xa = platform_route_latency(a, q, p), xb = platform_route_latency(b, q, p);
            *lat_ok = *lat_ok && memcmp(&xa, &xb, sizeof xa) == 0;
        }
    free(ba);
    free(bb);
    return ok;
}

static void check(const char *dir, int k, const char *radical, const char *attrs)
{
    char path[512];
    snprintf(path, sizeof path, "%s/p%d.xml", dir, k);
    FILE *f = fopen(path, "w");
    fprintf(f, "<?xml version=\"1.0\"?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
               "<platform version=\"4.1\">\n  <cluster id=\"c\" prefix=\"node-\" suffix=\"\" "
               "radical=\"%s\" speed=\"1Gf\" bw=\"125MBps\" lat=\"50us\" %s/>\n</platform>\n",
            radical, attrs);
    fclose(f);
    struct cluster *fast = load(path, true), *slow = load(path, false);
    if (!ok(fast && slow && fast->plat && slow->plat && fast->plat->rule && !slow->plat->rule,
            "%s %s: read natively and by SimGrid", radical, attrs)) {
        cluster_free(fast);
        cluster_free(slow);
        return;
    }
    ok(same_links(fast->plat, slow->plat), "%s %s: the same links, in the same order", radical, attrs);
    bool lat_ok;
    ok(same_routes(fast->plat, slow->plat, &lat_ok), "%s %s: every route's links alike", radical, attrs);
    ok(lat_ok, "%s %s: every route's latency alike, to the bit", radical, attrs);
    bool same = fast->n == slow->n && (fast->dist || fast->dist_of) && slow->dist;
    for (int q = 0; same && q < fast->n; q++)
        for (int p = 0; same && p < fast->n; p++) {
            double a = cluster_dist(fast, q, p), b = cluster_dist(slow, q, p);
            same = memcmp(&a, &b, sizeof a) == 0;
        }
    ok(same, "%s %s: the same times, to the bit", radical, attrs);
    if (!strstr(attrs, "FAT_TREE") && fast->n > 1)
        ok(!fast->dist && fast->dist_of && fast->direct_shortest,
           "%s %s: the times by rule, no n*n of them; no chain beats a direct route", radical, attrs);
    /* The lower bound from the direct routes alone (direct_shortest) or shortest
     * paths, against shortest paths on SimGrid's matrix: for every model, from
     * the first, a middle and the last node. */
    bool bound_same = true;
    int from[3] = {0, fast->n / 2, fast->n - 1};
    for (int k = 0; k < 3; k++)
        for (int m = 0; m < MODEL_COUNT; m++) {
            if (!(model_mask_for(fast->kind) & MODEL_BIT(m)))
                continue;
            fast->source = slow->source = from[k];
            double a = bound_lower(fast, (enum model)m), b = bound_lower(slow, (enum model)m);
            bound_same = bound_same && memcmp(&a, &b, sizeof a) == 0;
        }
    fast->source = slow->source = 0;
    ok(bound_same, "%s %s: the same lower bound, to the bit, for every model and source", radical, attrs);
    cluster_free(fast);
    cluster_free(slow);
    unlink(path);
}
#endif

int main(int argc, char **argv)
{
    (void)argc;
#if HETCAST_HAVE_SIMGRID
    char helper[4096], dir[] = "/tmp/hetcast-routes-XXXXXX";
    const char *slash = strrchr(argv[0], '/');
    snprintf(helper, sizeof helper, "%.*s../hetcast-simgrid", slash ? (int)(slash - argv[0] + 1) : 0,
             argv[0]);
    if (access(helper, X_OK) != 0 || !mkdtemp(dir)) {
        printf("1..0 # SKIP no helper hetcast-simgrid at %s\n", helper);
        return 0;
    }
    simgrid_set_helper(helper);
    for (size_t k = 0; k < sizeof platforms / sizeof platforms[0]; k++)
        check(dir, (int)k, platforms[k][0], platforms[k][1]);
    rmdir(dir);
    simgrid_set_helper(NULL);
    return tap_exit();
#else
    (void)argv;
    printf("1..0 # SKIP built without SimGrid\n");
    return 0;
#endif
}
