/*
 * fuzz_luasched.c - libFuzzer harness for Lua heuristics (src/sched/lua_sched.c
 * in the sandbox of src/support/lua_sandbox.c): any bytes, run as the script of
 * `-s FILE.lua` on three small clusters (a node table, a latency matrix and
 * a platform graph), in every model each accepts, with small instruction
 * and memory limits.  Promises checked on every input:
 *   - no crash, no hang, no leak, no undefined behaviour (ASan + UBSan);
 *   - a refused script (it does not compile, has no choose, errs, picks a
 *     node that does not hold the message, runs out of its budget ...)
 *     gets a message of its own, and the message escaped for a terminal
 *     (text_escape) is text;
 *   - a script that runs gives a broadcast: every node holds the message,
 *     n - 1 transfers, a finite makespan >= 0, and every transfer's reason
 *     is text (the script's own reasons are held to that rule);
 *   - every output of its schedule is valid (fuzz_output.h: JSON, SVG as
 *     XML, text without control bytes).
 * Built by tests/fuzz/run.sh; replay.c replays saved inputs (and the bundled
 * heuristics of lua/) through the same function in every build.
 */
#include "fuzz_common.h"
#include "sched/lua_sched.h"

#define FUZZ_LUA_INSTRUCTIONS 200000LL   /* per call; the CLI default is 10^7 */
#define FUZZ_LUA_MEMORY (4LL << 20)      /* bytes; the CLI default is 64 MiB */

static struct cluster *clusters[3];

/* A cluster from CSV text written here (the loader checks it as any file's). */
static struct cluster *make(const char *name, const char *csv)
{
    struct diag d;
    diag_init(&d);
    struct cluster *c = cluster_load_csv_buffer(name, csv, strlen(csv), &d);
    if (!c) {
        diag_print(&d, stderr);
        fuzz_fail("the harness's own cluster does not load", name);
    }
    diag_free(&d);
    return c;
}

static void free_clusters(void)
{
    for (int i = 0; i < 3; i++)
        cluster_free(clusters[i]);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_setup();
    clusters[0] = make("nodes.csv", "# source: a\nname,send,recv\na,1,2\nb,2,1\nc,3,3\nd,1,1\n"
                                    "e,2,5\n");
    clusters[1] = make("matrix.csv", "# source: m0\n,m0,m1,m2,m3\nm0,0,1,4,2\nm1,1,0,1,3\n"
                                     "m2,4,2,0,1\nm3,2,3,1,0\n");
    clusters[2] = make("graph.csv", "# source: g0\nfrom,to,time,send,bidirectional\n"
                                    "g0,g1,2,1,1\ng1,g2,1,,1\ng0,g3,5,,0\ng2,g3,1,1,1\n");
    atexit(free_clusters);
    return 0;
}

/* The script's run on c under m: it refuses with a message, or gives a valid broadcast. */
static void try_one(const char *script, const struct cluster *c, enum model m)
{
    struct sched_opts o;
    sched_opts_default(&o);
    o.script = script;
    o.lua_instructions = FUZZ_LUA_INSTRUCTIONS;
    o.lua_memory = FUZZ_LUA_MEMORY;
    o.seed = 7;
    struct run r;
    memset(&r, 0, sizeof r);
    char *cause = NULL;
    if (run_schedule(&r, c, m, &sched_lua, &o, RUN_OPT_NEVER, &cause) < 0) {
        if (!cause || !cause[0])
            fuzz_fail("a refused heuristic has no message", NULL);
        char *esc = text_escape(cause);
        for (const char *e = esc; *e;) {
            int k = *e == '\n' || *e == '\t' ? 1 : text_char(e);
            if (k <= 0)
                fuzz_fail("the refusal escaped for a terminal is not text", esc);
            e += k;
        }
        if (getenv("HETCAST_FUZZ_VERBOSE"))
            fprintf(stderr, "fuzz: %s, %s: %s\n", c->name, model_name(m), esc);
        free(esc);
        free(cause);
        return;
    }
    free(cause);
    const struct engine *e = &r.eng;
    if (e->nwaiting != 0 || e->ntr != c->n - 1)
        fuzz_fail("a heuristic's schedule is not a broadcast", NULL);
    for (int p = 0; p < c->n; p++)
        if (!engine_holds(e, p, 0))
            fuzz_fail("a heuristic's schedule leaves a node without the message", c->nodes[p].name);
    if (!(e->makespan >= 0) || !isfinite(e->makespan))
        fuzz_fail("a heuristic's makespan is not a finite number >= 0", NULL);
    for (int i = 0; i < e->ntr; i++)
        if (e->tr[i].reason && text_flaw(e->tr[i].reason))
            fuzz_fail("a transfer's reason is not text", e->tr[i].reason);
    report_run_text(fuzz_sink, &r, false);
    fuzz_check_outputs(&r);
    run_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *script = fuzz_file("fuzz.lua", data, size);
    for (int i = 0; i < 3; i++)
        for (int m = 0; m < MODEL_COUNT; m++) {
            char *why = NULL;
            if (sched_check(&sched_lua, clusters[i], (enum model)m, &why) == 0)
                try_one(script, clusters[i], (enum model)m);
            free(why);
        }
    return 0;
}
