/*
 * fuzz_platform.c - libFuzzer harness for platform graphs, the two ways
 * they come in.  The input's first byte says which:
 *   - even: the rest is the rows of a platform graph file (the CSV loader,
 *     after the header "from,to,time,send,bidirectional" the harness puts
 *     in front; `# key: value` lines may follow it);
 *   - odd: the rest is what SimGrid's helper (hetcast-simgrid) answers the
 *     parent on its pipe, read by simgrid_reply_cluster (src/model/cluster_simgrid.c):
 *     a host count, the hosts' names, one record per route.  The parent must
 *     trust nothing in it (a helper that dies half way, a platform of odd
 *     names).  Only in builds with SimGrid (the odd inputs are skipped
 *     otherwise).
 * Promises checked on every input:
 *   - no crash, no hang, no leak, no undefined behaviour (ASan + UBSan);
 *   - a refused input gets a message, each one line of printable text;
 *   - a loaded cluster has nodes and a source among them, and goes through
 *     CSV and back unchanged;
 *   - the same load with the fast paths off gives the same model (graphs);
 *   - every scheduler that accepts a small one (the pipelined heuristics
 *     and their throughput LP among them) runs to a finite makespan >= 0
 *     with valid outputs, or refuses with a message (fuzz_schedule).
 * Built by tests/fuzz/run.sh; replay.c replays saved inputs through the
 * same function in every build.
 */
#include "config.h"
#include "fuzz_common.h"
#if HETCAST_HAVE_SIMGRID
#include "model/cluster_simgrid.h"
#endif

static const char graph_header[] = "from,to,time,send,bidirectional\n";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_setup();
    return 0;
}

static void check_cluster(struct cluster *c, const struct diag *d)
{
    fuzz_check_diag_lines(d);
    fuzz_show(d, c);
    fuzz_check_load(c, d, "platform");
    if (!c)
        return;
    fuzz_round_trip(c, true);
    fuzz_schedule(c, fuzz_sink);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    struct diag d;
    diag_init(&d);
    struct cluster *c = NULL;
    if ((data[0] & 1) == 0) {
        size_t hl = sizeof graph_header - 1;
        char *text = xmalloc(hl + size);
        memcpy(text, graph_header, hl);
        memcpy(text + hl, data + 1, size - 1);
        c = cluster_load_csv_buffer("fuzz.csv", text, hl + size - 1, &d);
        struct diag d2;   /* the same file on the readable paths */
        diag_init(&d2);
        fastpath_set(false);
        struct cluster *c2 = cluster_load_csv_buffer("fuzz.csv", text, hl + size - 1, &d2);
        fastpath_set(true);
        fuzz_same_load(c, &d, c2, &d2);
        cluster_free(c2);
        diag_free(&d2);
        free(text);
        check_cluster(c, &d);
    } else {
#if HETCAST_HAVE_SIMGRID
        double sizes[] = {0, 1e6};
        for (int k = 0; k < 2; k++) {   /* latencies alone, and with the bandwidth */
            c = simgrid_reply_cluster("fuzz.xml", sizes[k], (const char *)data + 1, size - 1, &d);
            check_cluster(c, &d);
            cluster_free(c);
            c = NULL;
            diag_free(&d);
            diag_init(&d);
        }
#endif
    }
    cluster_free(c);
    diag_free(&d);
    return 0;
}
