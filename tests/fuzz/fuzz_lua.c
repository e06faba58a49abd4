/*
 * fuzz_lua.c - libFuzzer harness for cluster scripts (src/model/cluster_lua.c in
 * the sandbox of src/support/lua_sandbox.c): any bytes, run as a .lua cluster script
 * with small instruction and memory limits.  Promises checked on every input:
 *   - no crash, no hang, no leak, no undefined behaviour (ASan + UBSan);
 *   - a refused script gets at least one message;
 *   - a built cluster has nodes and a source among them, and when the CSV
 *     format can say it, it is written and loaded back as the same model;
 *   - every scheduler that accepts a small built cluster runs or refuses;
 *   - with the fast paths off (support/fastpath.h) the script builds the same model
 *     with the same messages, and the schedules are the same.
 * The loader reads a path, so each input is written to a file in a private
 * temporary directory first.  Built by tests/fuzz/run.sh; replay.c replays
 * saved inputs through the same function in every build.
 */
#include "fuzz_common.h"
#include "model/cluster_lua.h"

#define FUZZ_LUA_INSTRUCTIONS 200000LL   /* per call; the CLI default is 10^7 */
#define FUZZ_LUA_MEMORY (4LL << 20)      /* bytes; the CLI default is 64 MiB */
/* per node, edge or distance (the CLI's is 100): a script making nodes
 * forever stops at the budget, not at 10^7 nodes past the fuzzer's timeout */
#define FUZZ_LUA_GRANT 1LL

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_setup();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *script = fuzz_file("fuzz.lua", data, size);
    static const char *const params[] = {"n=5", "k=2", "switches=2", "per=2", "floors=1"};
    struct sandbox_limits lim = {.instructions = FUZZ_LUA_INSTRUCTIONS, .memory = FUZZ_LUA_MEMORY,
                                 .grant = FUZZ_LUA_GRANT};
    struct diag d;
    diag_init(&d);
    struct cluster *c = cluster_load_lua(script, params, 5, &lim, 1, &d);
    fuzz_show(&d, c);
    struct diag d2;   /* the same script with the fast paths off (the checks' sort) */
    diag_init(&d2);
    fastpath_set(false);
    struct cluster *c2 = cluster_load_lua(script, params, 5, &lim, 1, &d2);
    fastpath_set(true);
    fuzz_same_load(c, &d, c2, &d2);
    cluster_free(c2);
    diag_free(&d2);
    fuzz_check_load(c, &d, "script");
    if (c) {
        fuzz_round_trip(c, false);
        fuzz_schedule(c, fuzz_sink);
        cluster_free(c);
    }
    diag_free(&d);
    return 0;
}
