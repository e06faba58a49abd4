/*
 * fuzz_csv.c - libFuzzer harness for the CSV loader (src/model/cluster_csv.c): any
 * bytes, as a node table, latency matrix or platform graph with its
 * `# key: value` lines.  Promises checked on every input:
 *   - no crash, no leak, no undefined behaviour (ASan + UBSan builds);
 *   - a refused file gets at least one message, each one printable line;
 *   - a loaded cluster has nodes and a source among them;
 *   - cluster_write_csv + cluster_load_csv_buffer gives back the same model,
 *     and writing that again gives the same text;
 *   - every scheduler that accepts a small loaded cluster runs to a makespan
 *     >= 0 or refuses with a message;
 *   - with the fast paths off (support/fastpath.h) the file loads to the same model
 *     with the same messages, and the schedules are the same.
 * Built by tests/fuzz/run.sh (clang -fsanitize=fuzzer); replay.c replays
 * saved inputs through the same function in every build.
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_setup();
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
    fuzz_check_load(c, &d, "file");
    if (c) {
        fuzz_round_trip(c, true);
        fuzz_schedule(c, fuzz_sink);
        cluster_free(c);
    }
    diag_free(&d);
    return 0;
}
