/*
 * fuzz_simgrid.c - libFuzzer harness for the SimGrid platform files hetcast
 * reads itself (src/model/cluster_simgrid_native.c: one <cluster>, its
 * attributes, units, radicals and fat trees, by hand): the input is a
 * platform file, loaded as `hetcast run FILE.xml` loads it
 * (cluster_load_simgrid, a 1 MB message).  A file that reader does not take
 * goes to the helper, which here is a script that refuses every file: SimGrid
 * is the referee of what is read (tests/simgrid_native.sh compares both
 * readers' bytes); this harness looks for what no input may do.
 *
 * Promises checked on every input:
 *   - no crash, no hang, no leak, no undefined behaviour (ASan + UBSan);
 *   - a refused file gets a message, each one line of printable text;
 *   - a file read gives a cluster with nodes and a source among them, which
 *     goes through CSV and back unchanged;
 *   - fnf and binomial run on its shared links, one-port and multi-port
 *     (engine/flow.c), and every scheduler that accepts it under async, to
 *     finite makespans with valid outputs (fuzz_schedule).
 * An input naming a number above FUZZ_SIMGRID_MAX in its radical or
 * topo_parameters is skipped: thousands of hosts are n^2 routes, which is
 * the size limit's business (SIMGRID_MAX_HOSTS), not a bug, and would only
 * time the fuzzer out.
 */
#include "config.h"
#include "fuzz_common.h"

#include <sys/stat.h>

#if HETCAST_HAVE_SIMGRID
#include "model/cluster_simgrid.h"
#endif

#define FUZZ_SIMGRID_MAX 120

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_setup();
    return 0;
}

#if HETCAST_HAVE_SIMGRID
/* Does an attribute `name` of the input hold a number above FUZZ_SIMGRID_MAX? */
static bool too_big(const char *text, size_t size, const char *name)
{
    size_t nl = strlen(name);
    for (size_t i = 0; i + nl + 1 < size; i++) {
        if (memcmp(text + i, name, nl) != 0)
            continue;
        size_t j = i + nl;
        while (j < size && text[j] != '"' && text[j] != '\'' && text[j] != '>')
            j++;
        if (j >= size || text[j] == '>')
            continue;
        char q = text[j++];
        long v = 0;
        for (; j < size && text[j] != q; j++) {
            if (text[j] >= '0' && text[j] <= '9') {
                v = v * 10 + (text[j] - '0');
                if (v > FUZZ_SIMGRID_MAX)
                    return true;
            } else {
                v = 0;
            }
        }
    }
    return false;
}

/* fnf and binomial on the shared links, one-port and multi-port. */
static void run_shared(const struct cluster *c)
{
    if (c->n > FUZZ_RUN_NODES)
        return;
    const char *names[] = {"fnf", "binomial"};
    enum model models[] = {MODEL_ONE_PORT, MODEL_MULTI_PORT};
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < 2; k++) {
            const struct sched_ops *ops = sched_find(names[s]);
            char *cause = NULL;
            struct sched_opts o;
            sched_opts_default(&o);
            struct run r;
            memset(&r, 0, sizeof r);
            if (ops && run_schedule(&r, c, models[k], ops, &o, RUN_OPT_NEVER, &cause) == 0) {
                report_run_text(fuzz_sink, &r, false);
                fuzz_check_json(&r);
                fuzz_check_outputs(&r);
                if (!(r.eng.makespan >= 0) || !isfinite(r.eng.makespan))
                    fuzz_fail("a run on shared links has a makespan that is not a finite number >= 0",
                              names[s]);
                run_free(&r);
            }
            free(cause);
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    if (too_big(text, size, "radical") || too_big(text, size, "topo_parameters"))
        return 0;
    /* refuses as SimGrid does: a line, then SIGABRT (cluster_simgrid.c: "SimGrid refused it") */
    static const char refuse[] = "#!/bin/sh\necho 'not a file of one <cluster>' >&2\nkill -ABRT $$\n";
    static const char *helper;
    if (!helper) {
        helper = fuzz_file("refuse.sh", (const uint8_t *)refuse, sizeof refuse - 1);
        chmod(helper, 0755);
        simgrid_set_helper(helper);
    }
    const char *path = fuzz_file("fuzz.xml", data, size);
    struct diag d;
    diag_init(&d);
    struct cluster *c = cluster_load_simgrid(path, 1e6, &d);
    fuzz_check_diag_lines(&d);
    fuzz_show(&d, c);
    fuzz_check_load(c, &d, "platform");
    if (c) {
        fuzz_round_trip(c, true);
        run_shared(c);
        fuzz_schedule(c, fuzz_sink);
    }
    cluster_free(c);
    diag_free(&d);
    return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    (void)data;   /* without SimGrid, hetcast reads no platform file */
    (void)size;
    return 0;
}
#endif
