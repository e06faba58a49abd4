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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <xbt/dynar.h>

#include "model/cluster_simgrid.h"

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
    if (!row)
        _exit(SIMGRID_EXIT_WRITE);
    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        for (size_t j = 0; j < n; j++) {
            if (i == j)
                continue;
            xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
            sg_host_get_route(hosts[i], hosts[j], links);
            row[k].links = (int32_t)xbt_dynar_length(links);
            xbt_dynar_free(&links);
            row[k].latency = sg_host_get_route_latency(hosts[i], hosts[j]);
            row[k].bandwidth = sg_host_get_route_bandwidth(hosts[i], hosts[j]);
            k++;
        }
        if (write_all(out, row, k * sizeof *row) < 0)
            _exit(SIMGRID_EXIT_WRITE);
    }
    free(row);
    fflush(NULL);
    _exit(0);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: hetcast-simgrid PLATFORM.xml (run by hetcast, which reads its output)\n",
              stderr);
        return 2;
    }
    /* tracing off: a platform's <config> may turn it on, and it would write a trace file
       in the current folder (the command line wins over the file) */
    static char a0[] = "hetcast", a1[] = "--log=root.thresh:error", a2[] = "--log=root.fmt:%m%n",
                a3[] = "--cfg=tracing:no";
    char *sargv[] = {a0, a1, a2, a3, NULL};
    int sargc = 4;
    simgrid_init(&sargc, sargv);
    simgrid_load_platform(argv[1]);
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
