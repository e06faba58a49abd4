/*
 * fuzz_lua.c - libFuzzer harness for cluster scripts (src/lua_cluster.c in
 * the sandbox of src/lua_sandbox.c): any bytes, run as a .lua cluster script
 * with small instruction and memory limits.  Promises checked on every input:
 *   - no crash, no hang, no leak, no undefined behaviour (ASan + UBSan);
 *   - a refused script gets at least one message;
 *   - a built cluster has nodes and a source among them, and when the CSV
 *     format can say it, it is written and loaded back as the same model;
 *   - every scheduler that accepts a small built cluster runs or refuses;
 *   - with the fast paths off (fastpath.h) the script builds the same model
 *     with the same messages, and the schedules are the same.
 * The loader reads a path, so each input is written to a file in a private
 * temporary directory first.  Built by tests/fuzz/run.sh; replay.c replays
 * saved inputs through the same function in every build.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "lua_cluster.h"

#define FUZZ_LUA_INSTRUCTIONS 200000LL   /* per call; the CLI default is 10^7 */
#define FUZZ_LUA_MEMORY (4LL << 20)      /* bytes; the CLI default is 64 MiB */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *dir;      /* private temporary directory */
static char *script;   /* dir/fuzz.lua: each input in turn */
static FILE *sink;     /* reports go nowhere, but through the real code */

static void quiet_print(const char *name, const char *text, void *ud)
{
    (void)name;
    (void)text;
    (void)ud;
}

static void cleanup(void)
{
    if (script)
        unlink(script);
    if (dir)
        rmdir(dir);
    free(script);
    free(dir);
    script = dir = NULL;
    if (sink)
        fclose(sink);
    sink = NULL;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *tmp = getenv("TMPDIR");
    dir = xasprintf("%s/hetcast-fuzz-lua.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        fuzz_fail("cannot make a temporary directory", dir);
    script = xasprintf("%s/fuzz.lua", dir);
    sink = fopen("/dev/null", "w");
    if (!sink)
        fuzz_fail("cannot open /dev/null", NULL);
    sandbox_set_print(quiet_print, NULL);
    atexit(cleanup);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *fp = fopen(script, "wb");
    if (!fp || (size && fwrite(data, 1, size, fp) != size) || fclose(fp) != 0)
        fuzz_fail("cannot write the script file", script);
    static const char *const params[] = {"n=5", "k=2", "switches=2", "per=2", "floors=1"};
    struct sandbox_limits lim = {.instructions = FUZZ_LUA_INSTRUCTIONS, .memory = FUZZ_LUA_MEMORY};
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
    if (!c) {
        if (d.errors == 0)
            fuzz_fail("a refused script has no error message", NULL);
    } else {
        if (d.errors != 0)
            fuzz_fail("a cluster was returned with errors", NULL);
        if (c->n < 1 || c->source < 0 || c->source >= c->n)
            fuzz_fail("a built cluster has no nodes or a source out of range", NULL);
        fuzz_round_trip(c, false);
        fuzz_schedule(c, sink);
        cluster_free(c);
    }
    diag_free(&d);
    return 0;
}
