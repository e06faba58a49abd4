/*
 * fuzz_csv.c - libFuzzer harness for the CSV loader (src/csvload.c): any
 * bytes, as a node table, latency matrix or platform graph with its
 * `# key: value` lines.  Promises checked on every input:
 *   - no crash, no leak, no undefined behaviour (ASan + UBSan builds);
 *   - a refused file gets at least one message, each one printable line;
 *   - a loaded cluster has nodes and a source among them;
 *   - cluster_write_csv + cluster_load_csv_buffer gives back the same model,
 *     and writing that again gives the same text;
 *   - every scheduler that accepts a small loaded cluster runs to a makespan
 *     >= 0 or refuses with a message;
 *   - with the fast paths off (fastpath.h) the file loads to the same model
 *     with the same messages, and the schedules are the same.
 * Built by tests/fuzz/run.sh (clang -fsanitize=fuzzer); replay.c replays
 * saved inputs through the same function in every build.
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink;   /* reports go nowhere, but through the real code */

/* Every diagnostic line is one line of printable text (SPEC §5: one line per problem). */
static void fuzz_check_diag_lines(const struct diag *d)
{
    for (int i = 0; i < d->nlines; i++)
        for (const char *s = d->lines[i]; *s; s++)
            if ((unsigned char)*s < 0x20 || *s == 0x7f)
                fuzz_fail("a diagnostic holds a control character", d->lines[i]);
}

static void cleanup(void)
{
    if (sink)
        fclose(sink);
    sink = NULL;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    sink = fopen("/dev/null", "w");
    if (!sink)
        fuzz_fail("cannot open /dev/null", NULL);
    atexit(cleanup);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct diag d;
    diag_init(&d);
    struct cluster *c = cluster_load_csv_buffer("fuzz.csv", (const char *)data, size, &d);
    fuzz_check_diag_lines(&d);
    fuzz_show(&d, c);
    struct diag d2;   /* the same file on the readable paths: libcsv, strtod, qsort */
    diag_init(&d2);
    fastpath_set(false);
    struct cluster *c2 = cluster_load_csv_buffer("fuzz.csv", (const char *)data, size, &d2);
    fastpath_set(true);
    fuzz_same_load(c, &d, c2, &d2);
    cluster_free(c2);
    diag_free(&d2);
    if (!c) {
        if (d.errors == 0)
            fuzz_fail("a refused file has no error message", NULL);
    } else {
        if (d.errors != 0)
            fuzz_fail("a cluster was returned with errors", NULL);
        if (c->n < 1 || c->source < 0 || c->source >= c->n)
            fuzz_fail("a loaded cluster has no nodes or a source out of range", NULL);
        fuzz_round_trip(c, true);
        fuzz_schedule(c, sink);
        cluster_free(c);
    }
    diag_free(&d);
    return 0;
}
