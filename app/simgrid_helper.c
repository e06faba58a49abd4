/*
 * simgrid_helper.c - hetcast-simgrid PLATFORM.xml: the one program that
 * links libsimgrid.  It loads the platform and writes its hosts and routes
 * on stdout in the format of src/model/cluster_simgrid.h, which hetcast reads from a
 * pipe (cluster_load_simgrid).  Kept apart so that hetcast itself starts
 * without SimGrid's C++ runtime (40 ms and 30 MB a process when linked in;
 * docs/performance.md).  SimGrid's messages go to stderr, which hetcast
 * turns into one message naming the file.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <simgrid/mailbox.h>

#include "model/cluster_simgrid.h"

/* The links of the route from -> to into *links (grown, *cap entries) and its latency into
 * *latency, from one SimGrid computation (app/simgrid_route.cpp, part of this program).
 * Returns the number of links. */
unsigned helper_route(sg_host_t from, sg_host_t to, sg_link_t **links, unsigned *cap, double *latency);

static int write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

/* The links met on the routes, numbered in the order first met (a table of
 * pointers by open addressing: a platform of thousands of links asks it
 * millions of times). */
struct link_ids {
    sg_link_t *key;
    uint32_t *id;
    size_t cap;
    sg_link_t *list;   /* by id */
    double *bw;        /* by id: each link's bandwidth, asked once */
    uint32_t n, listcap;
};

static uint32_t link_id(struct link_ids *t, sg_link_t l)
{
    if (2 * ((size_t)t->n + 1) > t->cap) {
        struct link_ids g = {0};
        g.cap = t->cap ? 2 * t->cap : 1024;
        g.key = calloc(g.cap, sizeof *g.key);
        g.id = calloc(g.cap, sizeof *g.id);
        if (!g.key || !g.id)
            _exit(SIMGRID_EXIT_WRITE);
        for (size_t i = 0; i < t->cap; i++)
            if (t->key[i]) {
                size_t h = ((uintptr_t)t->key[i] >> 4) * 0x9E3779B97F4A7C15ull & (g.cap - 1);
                while (g.key[h])
                    h = (h + 1) & (g.cap - 1);
                g.key[h] = t->key[i];
                g.id[h] = t->id[i];
            }
        free(t->key);
        free(t->id);
        t->key = g.key;
        t->id = g.id;
        t->cap = g.cap;
    }
    size_t h = ((uintptr_t)l >> 4) * 0x9E3779B97F4A7C15ull & (t->cap - 1);
    while (t->key[h] && t->key[h] != l)
        h = (h + 1) & (t->cap - 1);
    if (t->key[h])
        return t->id[h];
    if (t->n == t->listcap) {
        t->listcap = t->listcap ? 2 * t->listcap : 256;
        t->list = realloc(t->list, t->listcap * sizeof *t->list);
        t->bw = realloc(t->bw, t->listcap * sizeof *t->bw);
        if (!t->list || !t->bw)
            _exit(SIMGRID_EXIT_WRITE);
    }
    t->key[h] = l;
    t->id[h] = t->n;
    t->list[t->n] = l;
    t->bw[t->n] = sg_link_get_bandwidth(l);
    return t->n++;
}

/* A growing array of u32 (every route's link ids, written after the rows). */
struct u32s {
    uint32_t *v;
    size_t n, cap;
};

static void u32_add(struct u32s *a, uint32_t x)
{
    if (a->n == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 65536;
        a->v = realloc(a->v, a->cap * sizeof *a->v);
        if (!a->v)
            _exit(SIMGRID_EXIT_WRITE);
    }
    a->v[a->n++] = x;
}

/* The links section (model/cluster_simgrid.h): the links, then each route's ids. */
static void write_links(int out, const struct link_ids *t, const struct u32s *routes)
{
    uint32_t magic = SIMGRID_LINKS_MAGIC;
    if (write_all(out, &magic, sizeof magic) < 0 || write_all(out, &t->n, sizeof t->n) < 0)
        _exit(SIMGRID_EXIT_WRITE);
    for (uint32_t i = 0; i < t->n; i++) {
        const char *name = sg_link_get_name(t->list[i]);
        struct link_rec rec = {t->bw[i], sg_link_get_latency(t->list[i]),
                               sg_link_is_shared(t->list[i]) ? 1 : 0, (uint32_t)strlen(name)};
        if (write_all(out, &rec, sizeof rec) < 0 || write_all(out, name, rec.namelen) < 0)
            _exit(SIMGRID_EXIT_WRITE);
    }
    if (write_all(out, routes->v, routes->n * sizeof *routes->v) < 0)
        _exit(SIMGRID_EXIT_WRITE);
}

/*
 * Write the hosts and routes (the wire format of model/cluster_simgrid.h).
 * Run as an actor, so from inside the simulation: SimGrid seals the platform
 * before the first actor runs, and only a sealed platform resolves every
 * route (zone routes between nested zones, <cluster> and Cluster zones,
 * Vivaldi coordinates, bypass routes); asked right after loading, SimGrid
 * 3.32 refuses or misroutes them.  Ends the process: _exit, so that
 * SimGrid's teardown (which may complain) never runs.
 */
static void write_platform(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    size_t n = sg_host_count();
    sg_host_t *hosts = sg_host_list();
    uint32_t n32 = (uint32_t)n;
    int out = STDOUT_FILENO;
    if (n > SIMGRID_MAX_HOSTS)
        _exit(SIMGRID_EXIT_TOO_MANY);
    if (write_all(out, &n32, sizeof n32) < 0)
        _exit(SIMGRID_EXIT_WRITE);
    for (size_t i = 0; i < n; i++) {
        const char *name = sg_host_get_name(hosts[i]);
        uint32_t len = (uint32_t)strlen(name);
        if (write_all(out, &len, sizeof len) < 0 || write_all(out, name, len) < 0)
            _exit(SIMGRID_EXIT_WRITE);
    }
    struct route_rec *row = calloc(n ? n : 1, sizeof *row);
    struct link_ids ids = {0};
    struct u32s routes = {0};
    unsigned cap = 64;
    sg_link_t *links = malloc(cap * sizeof *links);
    if (!row || !links)
        _exit(SIMGRID_EXIT_WRITE);
    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        for (size_t j = 0; j < n; j++) {
            if (i == j)
                continue;
            double latency;   /* SimGrid's, with the links from the same query */
            unsigned len = helper_route(hosts[i], hosts[j], &links, &cap, &latency);
            double bw = -1;   /* the route's bandwidth: its slowest link's */
            u32_add(&routes, len);
            for (unsigned x = 0; x < len; x++) {
                uint32_t id = link_id(&ids, links[x]);
                bw = bw < 0 || ids.bw[id] < bw ? ids.bw[id] : bw;
                u32_add(&routes, id);
            }
            row[k].links = (int32_t)len;
            row[k].latency = latency;
            row[k].bandwidth = len ? bw : sg_host_get_route_bandwidth(hosts[i], hosts[j]);
            k++;
        }
        if (write_all(out, row, k * sizeof *row) < 0)
            _exit(SIMGRID_EXIT_WRITE);
    }
    write_links(out, &ids, &routes);
    free(links);
    free(row);
    fflush(NULL);
    _exit(0);
}

/* ---- replay: a broadcast's schedule in SimGrid itself ---- */

struct replay {
    size_t n;
    sg_host_t *hosts;
    int *nchild, **child;   /* each host's sends, in the schedule's order */
    bool *receives;         /* a host that waits for the message */
    double *hold;           /* when it held it (-1: never) */
    double size;
    bool multi;             /* every send at once; else one at a time */
    size_t left;            /* actors still running */
};
static struct replay rp;

/* One host: wait for the message (unless it is the source), then send it on. */
static void replay_host(int argc, char **argv)
{
    (void)argc;
    size_t p = (size_t)strtoul(argv[0], NULL, 10);
    static char payload = 'm';
    if (rp.receives[p])
        sg_mailbox_get(sg_mailbox_by_name(sg_host_get_name(rp.hosts[p])));
    rp.hold[p] = simgrid_get_clock();
    int k = rp.nchild[p];
    if (rp.multi && k > 0) {
        sg_comm_t *comms = malloc((size_t)k * sizeof *comms);
        for (int i = 0; i < k; i++)
            comms[i] = sg_mailbox_put_async(sg_mailbox_by_name(sg_host_get_name(rp.hosts[rp.child[p][i]])),
                                            &payload, (long)rp.size);
        sg_comm_wait_all(comms, (size_t)k);
        free(comms);
    } else {
        for (int i = 0; i < k; i++)
            sg_mailbox_put(sg_mailbox_by_name(sg_host_get_name(rp.hosts[rp.child[p][i]])), &payload,
                           (long)rp.size);
    }
    if (--rp.left == 0) {
        for (size_t q = 0; q < rp.n; q++)
            if (rp.hold[q] >= 0)
                printf("%s\t%.17g\n", sg_host_get_name(rp.hosts[q]), rp.hold[q]);
        fflush(NULL);
        _exit(0);
    }
}

/* The host named name (a line of the schedule), or exits: the parent wrote a name it read. */
static size_t host_named(const char *name)
{
    for (size_t i = 0; i < rp.n; i++)
        if (strcmp(sg_host_get_name(rp.hosts[i]), name) == 0)
            return i;
    fprintf(stderr, "no host named %s\n", name);
    _exit(SIMGRID_EXIT_WRITE);
}

/* Read the schedule (lines FROM<TAB>TO, in booking order) and start an actor per host in it. */
static void replay_start(FILE *in)
{
    rp.n = sg_host_count();
    rp.hosts = sg_host_list();
    rp.nchild = calloc(rp.n, sizeof *rp.nchild);
    rp.child = calloc(rp.n, sizeof *rp.child);
    rp.receives = calloc(rp.n, sizeof *rp.receives);
    rp.hold = malloc(rp.n * sizeof *rp.hold);
    bool *in_tree = calloc(rp.n, sizeof *in_tree);
    char line[4096];
    for (size_t i = 0; i < rp.n; i++)
        rp.hold[i] = -1;
    while (fgets(line, sizeof line, in)) {
        line[strcspn(line, "\n")] = '\0';
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        size_t q = host_named(line), p = host_named(tab + 1);
        rp.child[q] = realloc(rp.child[q], (size_t)(rp.nchild[q] + 1) * sizeof **rp.child);
        rp.child[q][rp.nchild[q]++] = (int)p;
        rp.receives[p] = true;
        in_tree[p] = in_tree[q] = true;
    }
    for (size_t i = 0; i < rp.n; i++)
        if (in_tree[i]) {
            char num[32];
            snprintf(num, sizeof num, "%zu", i);
            char *argv[] = {num, NULL};
            rp.left++;
            sg_actor_create("replay", rp.hosts[i], replay_host, 1, argv);
        }
    free(in_tree);
}

int main(int argc, char **argv)
{
    static const char usage[] =
        "usage: hetcast-simgrid PLATFORM.xml (run by hetcast, which reads its output)\n"
        "       hetcast-simgrid --replay PLATFORM.xml one-port|multi-port SIZE\n"
        "         (the schedule on stdin, FROM<TAB>TO a line; each host's hold time out)\n";
    bool replay = argc == 5 && strcmp(argv[1], "--replay") == 0;
    char *end = NULL;
    if (replay) {
        strtod(argv[4], &end);
        if (strcmp(argv[3], "one-port") != 0 && strcmp(argv[3], "multi-port") != 0)
            replay = false;
    }
    if (argc == 2 && strcmp(argv[1], "--help") == 0) {
        fputs(usage, stdout);
        return 0;
    }
    if ((argc != 2 && !replay) || (argc == 2 && argv[1][0] == '-') ||
        (replay && (end == argv[4] || *end))) {
        fputs(usage, stderr);
        return 2;
    }
    const char *platform = argv[replay ? 2 : 1];
    if (access(platform, R_OK) != 0) {   /* SimGrid would throw, with a backtrace */
        fprintf(stderr, "hetcast-simgrid: cannot read %s: %s\n", platform, strerror(errno));
        return 2;
    }
    /* tracing off: a platform's <config> may turn it on, and it would write a trace file
       in the current folder (the command line wins over the file).  CM02 without the
       TCP window (gamma 0) or cross-traffic: the shared-link model hetcast computes
       (docs/models.md) */
    static char a0[] = "hetcast", a1[] = "--log=root.thresh:error", a2[] = "--log=root.fmt:%m%n",
                a3[] = "--cfg=tracing:no", a4[] = "--cfg=network/model:CM02",
                a5[] = "--cfg=network/TCP-gamma:0", a6[] = "--cfg=network/crosstraffic:0";
    char *sargv[] = {a0, a1, a2, a3, a4, a5, a6, NULL};
    int sargc = 7;
    simgrid_init(&sargc, sargv);
    simgrid_load_platform(platform);
    if (replay) {
        rp.multi = strcmp(argv[3], "multi-port") == 0;
        rp.size = strtod(argv[4], NULL);
        replay_start(stdin);
        if (rp.left == 0)
            return 0;
        simgrid_run();
        return SIMGRID_EXIT_WRITE;   /* the last actor ends the process */
    }
    if (sg_host_count() == 0) {   /* no host to run the actor on: the empty answer */
        uint32_t zero = 0;
        return write_all(STDOUT_FILENO, &zero, sizeof zero) < 0 ? SIMGRID_EXIT_WRITE : 0;
    }
    sg_host_t *hosts = sg_host_list();
    sg_actor_create("hetcast", hosts[0], write_platform, 0, NULL);
    free(hosts);
    simgrid_run();
    return SIMGRID_EXIT_WRITE;   /* write_platform ends the process */
}
