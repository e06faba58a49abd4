/*
 * test_lua.c - the Lua layer (src/support/lua_sandbox.c, model/cluster_lua.c, sched/lua_sched.c):
 * the bundled fnf.lua and slowest-first.lua give exactly the built-ins'
 * schedules on many random clusters; every sandbox escape tried is refused;
 * endless loops (bare, in pcall, in xpcall, in a load reader, in __close) and
 * memory bombs are stopped with the script's file:line and a traceback;
 * every kind of bad decision has its message, located at the return
 * statement; cluster scripts build what their saved CSV loads back to.
 * Runs with the project root as working directory.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/cluster.h"
#include "config.h"
#include "engine/engine.h"
#include "model/cluster_lua.h"
#include "support/lua_sandbox.h"
#include "sched/lua_sched.h"
#include "support/rng.h"
#include "sched/sched.h"
#include "tap.h"
#include "sched/list.h"

static char tmpdir[64];

/* Write text to tmpdir/name; returns the path (caller frees). */
static char *script(const char *name, const char *text)
{
    char *path = xasprintf("%s/%s", tmpdir, name);
    FILE *fp = fopen(path, "w");
    if (!fp || fputs(text, fp) < 0 || fclose(fp) != 0) {
        printf("Bail out! cannot write %s\n", path);
        exit(1);
    }
    return path;
}

static int contains(const char *s, const char *what)
{
    return s && strstr(s, what) != NULL;
}

/* ---- cluster scripts ---- */

/* Load a cluster script from text; on failure *msg holds every diag line. */
static struct cluster *load_lua(const char *name, const char *text, const char **params,
                                int nparams, long long instructions, long long memory,
                                char **msg)
{
    char *path = script(name, text);
    struct sandbox_limits lim = {.instructions = instructions, .memory = memory};
    struct diag d;
    diag_init(&d);
    struct cluster *c = cluster_load_lua(path, params, nparams, &lim, 1, &d);
    *msg = diag_join(&d);
    diag_free(&d);
    free(path);
    return c;
}

/* The message a failing cluster script gives (NULL if it loaded). */
static char *lua_error_of(const char *text, long long instructions, long long memory)
{
    char *msg;
    struct cluster *c = load_lua("esc.lua", text, NULL, 0, instructions, memory, &msg);
    if (c) {
        cluster_free(c);
        free(msg);
        return NULL;
    }
    return msg;
}

/* ---- heuristics ---- */

/* Run a Lua heuristic; 0 or -1 with *cause.  e is left for the caller to free. */
static int run_lua(const struct cluster *c, enum model m, const char *path, long long instr,
                   long long mem, struct engine *e, char **cause)
{
    struct sched_opts o;
    sched_opts_default(&o);
    o.script = path;
    o.lua_instructions = instr;
    o.lua_memory = mem;
    struct sched s;
    sched_init(&s, &sched_lua, &o);
    if (engine_init(e, c, m, cause) < 0) {
        sched_free(&s);
        return -1;
    }
    int rc = sched_run(e, &s, cause);
    sched_free(&s);
    return rc;
}

static int run_builtin(const struct cluster *c, enum model m, const struct sched_ops *ops,
                       struct engine *e)
{
    struct sched s;
    sched_init(&s, ops, NULL);
    char *cause = NULL;
    int rc = engine_init(e, c, m, &cause);
    if (rc == 0)
        rc = sched_run(e, &s, &cause);
    if (rc < 0)
        diag("%s: %s", ops->name, cause ? cause : "?");
    free(cause);
    sched_free(&s);
    return rc;
}

/* The same bookings, in the same order, at the same times? */
static int same_schedule(const struct engine *a, const struct engine *b, char *why, size_t size)
{
    if (a->ntr != b->ntr) {
        snprintf(why, size, "%d transfers against %d", a->ntr, b->ntr);
        return 0;
    }
    for (int i = 0; i < a->ntr; i++) {
        const struct transfer *x = &a->tr[i], *y = &b->tr[i];
        if (x->from != y->from || x->to != y->to || x->start != y->start || x->hold != y->hold) {
            snprintf(why, size, "transfer %d: %d->%d at %g (holds %g) against %d->%d at %g (%g)",
                     i + 1, x->from, x->to, x->start, x->hold, y->from, y->to, y->start, y->hold);
            return 0;
        }
    }
    return 1;
}

/* Small values with many ties: the tie-breaking rules must match exactly. */
static double pick(struct rng *r)
{
    static const double v[] = {0, 0.5, 1, 1, 2, 2, 3, 5, 7.25};
    return v[rng_below(r, sizeof v / sizeof v[0])];
}

/* A uniformly random model among those the kind takes (model_mask_for). */
static enum model pick_model(struct rng *r, enum cluster_kind kind)
{
    unsigned mask = model_mask_for(kind);
    int count = 0;
    for (int m = 0; m < MODEL_COUNT; m++)
        count += (mask & MODEL_BIT(m)) != 0;
    int k = (int)rng_below(r, (uint64_t)count);
    for (int m = 0; m < MODEL_COUNT; m++)
        if ((mask & MODEL_BIT(m)) && k-- == 0)
            return (enum model)m;
    return model_default_for(kind);
}

static struct cluster *random_cluster(struct rng *r, enum cluster_kind kind)
{
    struct cluster *c = cluster_new(kind);
    int n = 1 + (int)rng_below(r, 24);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "p%d", i);
        cluster_add_node(c, name, pick(r), pick(r));
    }
    c->latency = kind == CLUSTER_NODES ? pick(r) : 0;
    if (kind == CLUSTER_MATRIX) {
        c->dist = xmalloc((size_t)n * (size_t)n * sizeof *c->dist);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                c->dist[i * n + j] = i == j ? 0 : pick(r);
    }
    cluster_set_str(&c->source_name, c->nodes[rng_below(r, (uint64_t)n)].name);
    struct diag d;
    diag_init(&d);
    if (cluster_finish(c, &d) < 0) {
        printf("Bail out! random cluster refused\n");
        exit(1);
    }
    diag_free(&d);
    return c;
}

static void test_fnf_equals_builtin(void)
{
    static const struct {
        const char *script;
        const struct sched_ops *ops;
        int clusters;
    } pairs[] = {
        {HETCAST_SRCLUADIR "/fnf.lua", &sched_fnf, 300},
        {HETCAST_SRCLUADIR "/slowest-first.lua", &sched_slowest_first, 100},
    };
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        struct rng r;
        rng_seed(&r, 20240 + k);
        int same = 0, runs = 0;
        char why[512] = "";
        for (int i = 0; i < pairs[k].clusters; i++) {
            enum cluster_kind kind = i % 3 == 2 ? CLUSTER_MATRIX : CLUSTER_NODES;
            struct cluster *c = random_cluster(&r, kind);
            enum model m = pick_model(&r, kind);
            struct engine a, b;
            char *cause = NULL;
            memset(&b, 0, sizeof b);
            if (run_builtin(c, m, pairs[k].ops, &a) == 0 &&
                run_lua(c, m, pairs[k].script, 0, 0, &b, &cause) == 0) {
                char w[256];
                if (same_schedule(&b, &a, w, sizeof w))
                    same++;
                else if (!why[0])
                    snprintf(why, sizeof why, "cluster %d (%d nodes, %s): %s", i, c->n,
                             model_name(m), w);
            } else if (!why[0]) {
                snprintf(why, sizeof why, "cluster %d: %s", i, cause ? cause : "built-in failed");
            }
            runs++;
            free(cause);
            engine_free(&a);
            engine_free(&b);
            cluster_free(c);
        }
        if (!ok(same == runs, "%s gives the built-in %s's schedules on %d random clusters",
                pairs[k].script, pairs[k].ops->name, runs))
            diag("%d of %d equal; first difference: %s", same, runs, why);
    }
}

/* ---- the sandbox ---- */

static void test_escapes(void)
{
    static const struct {
        const char *code;
        const char *want;   /* in the message */
    } cases[] = {
        {"io.write('x')", "io is left out of the sandbox"},
        {"io = nil; local f = io.open('/etc/passwd')", "io is left out of the sandbox"},
        {"os.execute('true')", "os is left out of the sandbox"},
        {"os.exit(0)", "os is left out of the sandbox"},
        {"require('os')", "require is left out of the sandbox"},
        {"package.loadlib('libc.so.6', 'system')", "package is left out of the sandbox"},
        {"dofile('/etc/passwd')", "dofile is left out of the sandbox"},
        {"loadfile('/etc/passwd')", "loadfile is left out of the sandbox"},
        {"debug.sethook()", "debug is left out of the sandbox"},
        {"debug.getregistry()", "debug is left out of the sandbox"},
        {"coroutine.wrap(function() end)()", "coroutine is left out of the sandbox"},
        {"local f = string.dump(print)", "field 'dump'"},
        {"local f = ('').dump(print)", "field 'dump'"},
        {"assert(load('\\27Lua\\84\\0\\25\\147', 'x', 'b'))", "attempt to load a binary chunk"},
        {"assert(load('\\27Lua\\84\\0\\25\\147', 'x', 'bt'))", "attempt to load a binary chunk"},
        {"assert(load(function() return nil end and '\\27Lua'))", "attempt to load a binary chunk"},
        {"local n = 0; assert(load(function() n = n + 1; if n == 1 then return '\\27Lua' end end))",
         "attempt to load a binary chunk"},
        {"getmetatable('').__index.upper = nil", "attempt to index a boolean value"},
        {"setmetatable(getmetatable(''), {})", "bad argument"},
        {"collectgarbage('stop')", "collectgarbage(\"stop\") is not available"},
        {"collectgarbage('generational')", "is not available"},
        {"setmetatable({}, {__gc = function() end})", "__gc metamethods are not allowed"},
        {"setmetatable({}, {__gc = true})", "__gc metamethods are not allowed"},
        {"math.randomseed()", "math.randomseed needs a seed"},
        {"local r = hetcast.random(1); getmetatable(r).__index = nil", "attempt to index a string"},
        {"error('plain error', 0)", "plain error"},
        {"error({})", "(error object is a table value)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *code = xasprintf("node('a')\n%s\n", cases[i].code);
        char *msg = lua_error_of(code, 0, 0);
        if (!ok(msg && contains(msg, cases[i].want) && contains(msg, "esc.lua:2:"),
                "refused, at esc.lua:2: %s", cases[i].code))
            diag("message: %s", msg ? msg : "(loaded)");
        free(code);
        free(msg);
    }
    /* What stays allowed works. */
    char *msg = lua_error_of(
        "assert(load('return 1 + 1')() == 2)\n"
        "assert(pcall(error, 'x') == false)\n"
        "assert(select(2, xpcall(error, function(m) return 'handled ' .. m end, 'x')) == 'handled x')\n"
        "assert(('abc'):upper() == 'ABC' and utf8.char(72) == 'H')\n"
        "assert(collectgarbage('count') > 0)\n"
        "math.randomseed(7); local a = math.random(1, 1000); math.randomseed(7)\n"
        "assert(math.random(1, 1000) == a)\n"
        "assert(string.rep('', 2^50) == '' and ('ab'):rep(3, ',') == 'ab,ab,ab')\n"
        "assert(('k=v'):match('^(%w+)=(%w+)$') == 'k')\n"
        "local t = {3, 1, 2}; table.sort(t); assert(t[1] == 1)\n"
        "table.insert(t, 1, 0); assert(table.remove(t, 1) == 0)\n"
        "local x <close> = setmetatable({}, {__close = function() end})\n"
        "node('a')\n", 0, 0);
    ok(!msg, "the allowed library works (load of text, pcall, xpcall, string, utf8, math.random)");
    if (msg)
        diag("%s", msg);
    free(msg);
    /* Labels are numbered per cluster: one distinct label too many is refused. */
    msg = lua_error_of("for i = 1, 65536 do node{name = 'n' .. i, class = 'c' .. i} end\n", 0, 0);
    ok(msg && contains(msg, "esc.lua:1: node: too many distinct class and group labels "
                            "(a cluster has at most 65535)"),
       "node(): the 65536th distinct class label is refused at its line");
    if (!msg || !contains(msg, "at most 65535"))
        diag("%s", msg ? msg : "(loaded)");
    free(msg);
}

static void test_loops_and_bombs(void)
{
    static const struct {
        const char *name;
        const char *code;
        long long instr, mem;
        const char *want;
    } cases[] = {
        {"an endless loop", "while true do end", 100000, 0, "instruction budget exceeded"},
        {"an endless loop in pcall", "while true do pcall(function() while true do end end) end",
         100000, 0, "instruction budget exceeded"},
        {"an endless loop in xpcall, with a looping handler",
         "while true do xpcall(function() while true do end end, "
         "function() while true do end end) end", 100000, 0, "instruction budget exceeded"},
        {"an error caught in pcall, then a loop",
         "local ok = pcall(function() while true do end end) while true do end",
         100000, 0, "instruction budget exceeded"},
        {"an endless loop in a load reader",
         "while true do load(function() while true do end end) end", 100000, 0,
         "instruction budget exceeded"},
        {"an endless loop in __close",
         "do local x <close> = setmetatable({}, {__close = function() while true do end end}) "
         "error('e') end", 100000, 0, "instruction budget exceeded"},
        /* Lua's stack limit or the memory cap, whichever comes first. */
        {"endless recursion", "local function f() return 1 + f() end f()", 0, 0, NULL},
        {"a memory bomb", "local t = {} for i = 1, 1e9 do t[i] = {i} end", 0, 8 << 20,
         "memory limit exceeded"},
        {"a memory bomb in pcall",
         "while true do pcall(function() local s = 'x' while true do s = s .. s end end) end", 0,
         8 << 20, "memory limit exceeded"},
        {"a string.rep bomb", "local s = string.rep('x', 2^40)", 0, 8 << 20,
         "the memory limit"},
        {"a table.concat bomb", "local s = ('x'):rep(2^20) local t = {} "
         "for i = 1, 1e6 do t[i] = s end local r = table.concat(t)", 0, 8 << 20,
         "memory limit exceeded"},
        {"a table.move bomb", "table.move({}, 1, 2^40, 1, {})", 0, 0,
         "instruction budget exceeded in table.move"},
        {"a pattern bomb", "local s = ('a'):rep(100000) s:find('.-.-.-b')", 0, 0,
         "this pattern could take"},
        /* a budget of about one sort: far from the time backstop even under valgrind */
        {"a sort in a loop", "local t = {} for i = 1, 1e5 do t[i] = -i end "
         "while true do table.sort(t) end", 2000000, 0, "instruction budget exceeded in table.sort"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *code = xasprintf("node('a')\n%s\n", cases[i].code);
        char *msg = lua_error_of(code, cases[i].instr, cases[i].mem);
        const char *want = cases[i].want;
        if (!want)
            want = contains(msg, "stack overflow") ? "stack overflow" : "memory limit exceeded";
        if (!ok(msg && contains(msg, want) && contains(msg, "esc.lua:2:") &&
                    contains(msg, "stack traceback:"),
                "%s is stopped, with esc.lua:2: and a traceback", cases[i].name))
            diag("message: %s", msg ? msg : "(loaded)");
        free(code);
        free(msg);
    }
    /* A bare C loop that Lua cannot count: a single huge allocation. */
    char *msg = lua_error_of("node('a')\nlocal s = ('x'):rep(2^20) local t = {}\n"
                             "for i = 1, 64 do t[i] = s end\nlocal r = table.concat(t)\n",
                             0, 8 << 20);
    ok(contains(msg, "memory limit exceeded") && contains(msg, "esc.lua:"),
       "an allocation beyond twice the cap is refused with the script's name and place");
    free(msg);
}

/* ---- bad decisions ---- */

static struct cluster *counterexample(void)
{
    struct diag d;
    diag_init(&d);
    struct cluster *c = cluster_load_csv("clusters/counterexample.csv", &d);
    diag_free(&d);
    if (!c) {
        printf("Bail out! clusters/counterexample.csv\n");
        exit(1);
    }
    return c;
}

static void test_bad_decisions(void)
{
    static const struct {
        const char *name;
        const char *body;   /* the function body; line 3 of the script returns */
        const char *want;
    } cases[] = {
        {"an unknown name", "return 'p0', 'p9'", "the receiver \"p9\" is not a node"},
        {"an index out of range", "return 1, 4", "the receiver 4 is not a node index (1..3)"},
        {"a fractional index", "return 1.5, 2", "the sender 1.5 is not a node index"},
        {"a wrong type", "return true, 2", "the sender is a boolean"},
        {"a sender that does not hold it", "return 'p1', 'p2'",
         "the sender p1 does not hold the message"},
        {"the source as receiver", "return 1, 1", "the receiver p0 is the source"},
        {"a receiver that already has it",
         "if state.step == 1 then return 1, 2 end\n  return 1, 2",
         "the receiver p1 already has the message (from p0 at t=4)"},
        {"no receiver", "return state.source", "a sender but no receiver"},
        {"nothing", "return", "choose returned nothing while 2 nodes still wait"},
        {"a reason that is not a string", "return 1, 2, 42", "the reason must be a string"},
        {"an empty tree", "return {}", "an empty table"},
        {"a tree with a bad pair", "return {{1, 2}, {3, 2}}",
         "pair 2: the sender p2 does not hold the message"},
        {"a tree with a node given twice", "return {{1, 2}, {2, 2}}",
         "pair 2: the receiver p1 already has the message"},
        {"a pair that is not a table", "return {{1, 2}, 'p2'}",
         "pair 2: expected a table {parent, child"},
    };
    struct cluster *c = counterexample();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = xasprintf("-- a bad heuristic\nlocal function choose(state)\n  %s\nend\n"
                               "return {choose = choose}\n", cases[i].body);
        char *path = script("bad.lua", text);
        struct engine e;
        char *cause = NULL;
        int rc = run_lua(c, MODEL_ASYNC, path, 0, 0, &e, &cause);
        int line = strchr(cases[i].body, '\n') ? 4 : 3;
        char where[32];
        snprintf(where, sizeof where, "bad.lua:%d: bad decision", line);
        if (!ok(rc < 0 && contains(cause, where) && contains(cause, cases[i].want) &&
                    contains(cause, "stack traceback:"),
                "%s: \"%s\" at bad.lua:%d with a traceback", cases[i].name, cases[i].want, line))
            diag("message: %s", cause ? cause : "(none)");
        engine_free(&e);
        free(cause);
        free(path);
        free(text);
    }
    /* On a platform graph, a pair without a link. */
    char *msg;
    struct cluster *g = load_lua("g.lua", "node('a') node('b') node('c')\n"
                                 "edge('a', 'b', 1) edge('b', 'c', 1)\n", NULL, 0, 0, 0, &msg);
    char *path = script("nolink.lua", "return function(state)\n  return 'a', 'c'\nend\n");
    struct engine e;
    char *cause = NULL;
    int rc = g ? run_lua(g, MODEL_ONE_PORT, path, 0, 0, &e, &cause) : 0;
    if (!ok(g && rc < 0 && contains(cause, "nolink.lua:2: bad decision 1: there is no link from a to c"),
            "a pair without a link in a platform graph is refused"))
        diag("message: %s %s", cause ? cause : "", msg ? msg : "");
    if (g)
        engine_free(&e);
    cluster_free(g);
    free(msg);
    free(cause);
    free(path);
    cluster_free(c);
}

static void test_heuristic_api(void)
{
    struct cluster *c = counterexample();
    struct engine e;
    char *cause = NULL;

    /* A runtime error names its line, inside a helper, with a traceback. */
    char *path = script("err.lua", "local function helper(n)\n  return n.parent.here\nend\n"   /* the source: no parent */
                                   "function choose(state)\n  local x = helper(state.source)\n"
                                   "  return 1, 2\nend\n");
    int rc = run_lua(c, MODEL_ASYNC, path, 0, 0, &e, &cause);
    ok(rc < 0 && contains(cause, "err.lua:2: attempt to index a nil value") &&
           contains(cause, "stack traceback:") && contains(cause, "err.lua:5:"),
       "a runtime error: file:line, and the traceback through the caller (global choose)");
    engine_free(&e);
    free(path);

    static const struct {
        const char *name, *code, *want, *what;
    } refused[] = {
        {"second.lua", "function choose(state)\n  return 1, 2\nend\n",   /* p2 twice */
         "second.lua:2: bad decision 2: the receiver", "a bad decision gives its number"},
        {"misspelt.lua", "function choose(state)\n  local w = state.waiting[1]\n"
                         "  if w.recieve < 1 then return 1, 2 end\n  return 1, 2\nend\n",
         "misspelt.lua:3: node has no field \"recieve\" (the nearest: \"recv\";",
         "a misspelt node field is an error naming it and the nearest real one"},
        {"misstate.lua", "function choose(state)\n  return state.holders[1], state.wating[1]\nend\n",
         "misstate.lua:2: state has no field \"wating\" (the nearest: \"waiting\";", "a misspelt state field too"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        free(cause);
        cause = NULL;
        path = script(refused[i].name, refused[i].code);
        rc = run_lua(c, MODEL_ASYNC, path, 0, 0, &e, &cause);
        ok(rc < 0 && contains(cause, refused[i].want), "%s: %s", refused[i].what, cause ? cause : "ran");
        engine_free(&e);
        free(path);
    }
    free(cause);
    cause = NULL;

    path = script("syntax.lua", "return {choose = function(state)\n  return 1 2\nend}\n");
    rc = run_lua(c, MODEL_ASYNC, path, 0, 0, &e, &cause);
    ok(rc < 0 && contains(cause, "syntax.lua:2:"), "a syntax error names its line");
    engine_free(&e);
    free(path);

    path = script("none.lua", "local x = 1\n");
    rc = run_lua(c, MODEL_ASYNC, path, 0, 0, &e, &cause);
    ok(rc < 0 && contains(cause, "defines no choose function"), "a script without choose is refused");
    engine_free(&e);
    free(path);

    /* A budget overrun inside choose (not while loading). */
    path = script("slow.lua", "return {choose = function(state)\n  while true do end\nend}\n");
    rc = run_lua(c, MODEL_ASYNC, path, 50000, 0, &e, &cause);
    ok(rc < 0 && contains(cause, "slow.lua:2: instruction budget exceeded: more than 50000"),
       "choose running past its budget is stopped (--lua-budget 50000)");
    engine_free(&e);
    free(path);

    /* The view: fields, methods, lists; reasons reach the transfers. */
    path = script("view.lua",
        "local calls = 0\n"
        "return {choose = function(state)\n"
        "  calls = calls + 1\n"
        "  assert(state.n == 3 and state.step == calls and state.model == 'async')\n"
        "  assert(state.kind == 'nodes' and state.latency == 1 and state.cluster == 'counterexample')\n"
        "  assert(state.source.name == 'p0' and state.source.is_source and state.source.index == 1)\n"
        "  assert(#state.nodes == 3 and #state.holders + #state.waiting == 3)\n"
        "  assert(state.holders == state.holders, 'lists are built once per call')\n"
        "  local p2 = state:node('p2')\n"
        "  assert(p2 == state.nodes[3] and p2.send == 2 and p2.recv == 3 and p2.class == 'slow')\n"
        "  assert(tostring(p2) == 'p2' and 'to ' .. p2 == 'to p2')\n"
        "  local k = state:cost(1, 'p2')\n"
        "  assert(k.s == 1 and k.l == 1 and k.r == 3 and k.T == 5)\n"
        "  if calls == 1 then\n"
        "    assert(state.now == 0 and state.source.ready == 0 and p2.ready == nil and p2.waiting)\n"
        "    local t = state:earliest(1, 3)\n"
        "    assert(t.start == 0 and t.send_end == 1 and t.link_end == 2 and t.hold == 5)\n"
        "    assert(not pcall(function() p2.send = 0 end), 'nodes are read-only')\n"
        "    assert(not pcall(function() state.n = 0 end), 'the state is read-only')\n"
        "    saved = state\n"
        "    return 'p0', 3, 'slow one first'\n"
        "  end\n"
        "  local ok, err = pcall(function() return saved.n end)\n"
        "  assert(not ok and err:find('earlier decision'), 'an old state is refused')\n"
        "  assert(#state.transfers == 1 and state.transfers[1].to == p2)\n"
        "  assert(state.transfers[1].reason == 'slow one first' and p2.parent == state.source)\n"
        "  assert(p2.holds and p2.hold == 5 and state.now == 1)\n"
        "  return state.source, state.waiting[1]\n"
        "end}\n");
    rc = run_lua(c, MODEL_ASYNC, path, 0, 0, &e, &cause);
    if (!ok(rc == 0 && e.ntr == 2 && e.makespan == 5, "the state view: fields, methods, lists, "
            "read-only, stale states refused"))
        diag("%s", cause ? cause : "");
    ok(rc == 0 && strcmp(e.tr[0].reason, "slow one first") == 0 &&
           contains(e.tr[1].reason, "view.lua chose p0 -> p1"),
       "the reason given is stored; without one, a default names the script");
    engine_free(&e);
    free(path);

    /* A tree handed out in order; choose is called once. */
    path = script("tree.lua", "calls = 0\nfunction choose(state)\n  calls = calls + 1\n"
                              "  assert(calls == 1, 'called again')\n"
                              "  return {{'p0', 'p2', 'first'}, {'p2', 'p1'}}\nend\n");
    rc = run_lua(c, MODEL_ASYNC, path, 0, 0, &e, &cause);
    ok(rc == 0 && e.ntr == 2 && e.tr[0].to == 2 && e.tr[1].from == 2 && e.tr[1].to == 1 &&
           strcmp(e.tr[0].reason, "first") == 0,
       "a whole tree is handed out in order, choose called once");
    engine_free(&e);
    free(path);

    /* math.random in a heuristic is seeded by --seed: two runs agree. */
    path = script("rand.lua", "function choose(s)\n  local w = s.waiting\n"
                              "  return s.holders[math.random(#s.holders)], w[math.random(#w)]\nend\n");
    struct cluster *big = NULL;
    char *msg;
    big = load_lua("k.lua", "for i = 1, 30 do node('n' .. i, i % 4, i % 5) end", NULL, 0, 0, 0,
                   &msg);
    struct engine e2;
    int rc2 = run_lua(big, MODEL_ASYNC, path, 0, 0, &e, &cause);
    rc2 |= run_lua(big, MODEL_ASYNC, path, 0, 0, &e2, &cause);
    char why[256];
    ok(rc2 == 0 && same_schedule(&e, &e2, why, sizeof why), "math.random is seeded: runs repeat");
    engine_free(&e);
    engine_free(&e2);
    cluster_free(big);
    free(msg);
    free(path);

    /* The ops for -s FILE.lua carry the script's name. */
    const struct sched_ops *ops = lua_sched_ops("fnf.lua", &cause);
    ok(ops && strcmp(ops->name, "fnf.lua") == 0 && lua_sched_is(ops) &&
           contains(lua_sched_script(ops), "lua/fnf.lua"),
       "-s fnf.lua finds the bundled script and is named fnf.lua");
    ok(lua_sched_ops("fnf.lua", &cause) == ops, "the same script gives the same ops");
    ok(!lua_sched_ops("no-such-heuristic.lua", &cause) && contains(cause, "bundled ones:") &&
           contains(cause, "fnf.lua"),
       "an unknown script is refused with the bundled list");
    struct lua_sched_info *list;
    int n = lua_sched_list(&list);
    int have = 0;
    for (int i = 0; i < n; i++)
        have += (strcmp(list[i].name, "fnf.lua") == 0 && list[i].summary[0]) +
                (strcmp(list[i].name, "slowest-first.lua") == 0);
    ok(n >= 4 && have == 2, "lua_sched_list: the bundled heuristics with their summaries (%d)", n);
    lua_sched_list_free(list, n);

    /* Every bundled heuristic runs on the three kinds it can. */
    const char *bundled[] = {"fnf.lua", "slowest-first.lua", "ecef.lua", "lookahead.lua", "flat.lua"};
    for (size_t i = 0; i < sizeof bundled / sizeof bundled[0]; i++) {
        char *p = xasprintf("%s/%s", HETCAST_SRCLUADIR, bundled[i]);
        rc = run_lua(c, MODEL_ASYNC, p, 0, 0, &e, &cause);
        if (!ok(rc == 0 && e.ntr == 2 && e.nwaiting == 0, "%s broadcasts on the counterexample",
                bundled[i]))
            diag("%s", cause ? cause : "");
        engine_free(&e);
        free(p);
    }
    free(cause);
    cluster_free(c);
}

/* ---- cluster scripts ---- */

static int same_model(const struct cluster *a, const struct cluster *b, const char **why)
{
    if (a->kind != b->kind || a->n != b->n)
        return *why = "kind or size", 0;
    for (int i = 0; i < a->n; i++) {
        const struct node *x = &a->nodes[i], *y = &b->nodes[i];
        if (strcmp(x->name, y->name) != 0 || x->send != y->send || x->recv != y->recv)
            return *why = "a node", 0;
        if (a->kind == CLUSTER_NODES &&
            (strcmp(cluster_class(a, i) ? cluster_class(a, i) : "",
                    cluster_class(b, i) ? cluster_class(b, i) : "") != 0 ||
             strcmp(cluster_group(a, i) ? cluster_group(a, i) : "",
                    cluster_group(b, i) ? cluster_group(b, i) : "") != 0))
            return *why = "a class or group", 0;
    }
    if (a->latency != b->latency || a->unit != b->unit || a->source != b->source)
        return *why = "latency, unit or source", 0;
    if (strcmp(a->name, b->name) != 0 ||
        strcmp(a->description ? a->description : "", b->description ? b->description : "") != 0)
        return *why = "name or description", 0;
    if (a->kind == CLUSTER_MATRIX)
        for (int i = 0; i < a->n * a->n; i++)
            if (a->dist[i] != b->dist[i])
                return *why = "a distance", 0;
    if (a->kind == CLUSTER_GRAPH) {
        if (a->nedges != b->nedges)
            return *why = "edge count", 0;
        for (int k = 0; k < a->nedges; k++) {
            const struct edge *x = &a->edges[k], *y = &b->edges[k];
            if (x->from != y->from || x->to != y->to || x->time != y->time ||
                (x->send >= 0 ? x->send : -1) != (y->send >= 0 ? y->send : -1))
                return *why = "an edge", 0;
        }
    }
    return 1;
}

static void round_trip(const char *label, const char *path, const char **params, int nparams)
{
    struct sandbox_limits lim = {.instructions = 0};
    struct diag d;
    diag_init(&d);
    struct cluster *a = cluster_load_lua(path, params, nparams, &lim, 1, &d);
    char *csv = xasprintf("%s/saved.csv", tmpdir), *cause = NULL;
    struct cluster *b = NULL;
    if (a && cluster_save_csv(a, csv, &cause) == 0)
        b = cluster_load_csv(csv, &d);
    const char *why = "not loaded or not saved";
    if (!ok(a && b && same_model(a, b, &why), "%s and the CSV it saves load to the same model",
            label)) {
        diag("differs in: %s %s", why, cause ? cause : "");
        diag_print(&d, stdout);
    }
    free(cause);
    free(csv);
    cluster_free(a);
    cluster_free(b);
    diag_free(&d);
}

static void test_cluster_scripts(void)
{
    const char *p1[] = {"n=40", "k=4", "seed=9", "jitter=0.2"};
    round_trip("clusters/k-class.lua (n=40 k=4 jitter)", "clusters/k-class.lua", p1, 4);
    round_trip("clusters/k-class.lua (defaults)", "clusters/k-class.lua", NULL, 0);
    const char *p2[] = {"switches=3", "per=4", "floors=3", "unit=2"};
    round_trip("clusters/lab.lua (a latency matrix)", "clusters/lab.lua", p2, 4);
    char *g = script("graph.lua",
        "name 'ring'\ndescription 'a ring with a shortcut'\n"
        "for i = 1, 5 do node{name = 'r' .. i, send = i == 2 and 0.5 or nil} end\n"
        "for i = 1, 5 do edge(i, i % 5 + 1, i, {bidirectional = true}) end\n"
        "edge('r1', 'r3', 9)\nsource 'r3'\n");
    round_trip("a platform graph script (multi-port send times)", g, NULL, 0);
    free(g);

    /* Parameters: converted like the default, required without one, reproducible. */
    char *msg;
    const char *pp[] = {"n=5", "label=x", "flag=yes", "unused=1"};
    struct cluster *c = load_lua("par.lua",
        "local n = param('n', 2)\nassert(math.type(n) == 'integer' and n == 5)\n"
        "assert(param('label', 'y') == 'x' and param('flag', false) == true)\n"
        "assert(param('absent', 3) == 3)\n"
        "for i = 1, n do node('p' .. i, hetcast.random(i):uniform(1, 2)) end\n",
        pp, 4, 0, 0, &msg);
    ok(c && c->n == 5 && contains(msg, "--param unused was given but the script never asked for it"),
       "param(): numbers, strings, booleans, defaults; an unused --param is a warning");
    cluster_free(c);
    free(msg);
    const char *bad[] = {"n=abc"};
    c = load_lua("par.lua", "local n = param('n', 2)\n", bad, 1, 0, 0, &msg);
    ok(!c && contains(msg, "par.lua:1: param: --param n=abc is not a number"),
       "a --param that is not a number, where one is expected");
    free(msg);
    c = load_lua("par.lua", "\nlocal n = param('n')\n", NULL, 0, 0, 0, &msg);
    ok(!c && contains(msg, "par.lua:2: param: this script needs --param n=VALUE"),
       "a required --param missing");
    free(msg);
    const char *k1[] = {"seed=4"}, *k2[] = {"seed=5"};
    struct diag d;
    diag_init(&d);
    struct sandbox_limits lim = {.instructions = 0};
    struct cluster *x = cluster_load_lua("clusters/k-class.lua", k1, 1, &lim, 1, &d);
    struct cluster *y = cluster_load_lua("clusters/k-class.lua", k1, 1, &lim, 1, &d);
    struct cluster *z = cluster_load_lua("clusters/k-class.lua", k2, 1, &lim, 1, &d);
    const char *why;
    ok(x && y && z && same_model(x, y, &why) && !same_model(x, z, &why),
       "hetcast.random: the same seed gives the same cluster, another seed another");
    cluster_free(x);
    cluster_free(y);
    cluster_free(z);
    diag_free(&d);

    /* Model errors name the script's lines. */
    static const struct {
        const char *code, *want;
    } errs[] = {
        {"node('a')\nnode('a')\n", "e.lua:2: node: there is already a node named \"a\""},
        {"node('a')\ndistance('a', 'b', 1)\n", "e.lua:2: distance: no node is named \"b\""},
        {"node('a') node('b')\ndistance(1, 2, 1)\nedge(1, 2, 1)\n",
         "e.lua:3: edge: this script already made a latency matrix (distance() on line 2)"},
        {"node('a') node('b') node('c')\ndistance('a', 'b', 1)\n",
         "e.lua:2: distance: no distance from a to c"},
        {"node('a', -1)\n", "e.lua:1: node: send must be a finite number >= 0"},
        {"node('a')\nsource('z')\n", "e.lua:2: source: \"z\" is not a node of this cluster"},
        {"name 'empty'\n", "e.lua: no nodes"},
        {"node('a') node('b')\nmatrix{{0, 1}, {1}}\n", "e.lua:2: matrix: row 2 (b) has 1 entries"},
        {"node('a') node('b')\ndistance('a', 'a', 3)\n", "e.lua:2: distance: the distance from a to itself must be 0"},
        {"node('a') node('b') node('c')\nedge('a', 'b', 1)\n", "node c is not reachable"},
        {"node('a')\nnode('b\\0c')\n", "e.lua:2: node: the name holds a control character (byte 0"},
        {"node('a')\ndescription('one \\1')\n", "e.lua:2: description: the description holds a control"},
        {"node('a', 1, 2, {class = 'x\\ny'})\n", "e.lua:1: node: class holds a control character"},
        {"node('a')\nname('   ')\n", "e.lua:2: name: the cluster's name is empty"},
    };
    for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++) {
        c = load_lua("e.lua", errs[i].code, NULL, 0, 0, 0, &msg);
        if (!ok(!c && contains(msg, errs[i].want), "cluster script error: %s", errs[i].want))
            diag("message: %s", msg ? msg : "(loaded)");
        cluster_free(c);
        free(msg);
    }
    /* node()'s name index: a twin found among thousands of names (past the
     * index's growth and its filter), names as arguments after them, and a
     * table whose fields come from a metatable (node{} reads them as
     * lua_getfield would). */
    c = load_lua("e.lua", "for i = 1, 5000 do node{name = 'n' .. i, send = 1, recv = 2} end\n"
                 "node('m', 1, 2)\nnode{name = 'n1234'}\n", NULL, 0, 0, 0, &msg);
    ok(!c && contains(msg, "e.lua:3: node: there is already a node named \"n1234\" (node 1234)"),
       "a twin among 5000 names: its line and the first node's number");
    cluster_free(c);
    free(msg);
    c = load_lua("e.lua", "for i = 1, 5000 do node('n' .. i, i, i + 1) end\n"
                 "for i = 1, 5000 do node('m' .. i, i, i + 1) end\n"
                 "node('x', 1, 2)\nsource('n4321')\n"
                 "assert(node(setmetatable({}, {__index = {name = 'y', send = 3, recv = 4, "
                 "class = 'k'}})) == 10002)\nassert(nodes()[10002].class == 'k')\n", NULL, 0, 0,
                 0, &msg);
    ok(c && c->n == 10002 && c->source == 4320 && strcmp(c->nodes[10001].name, "y") == 0 &&
           c->nodes[10001].send == 3 && c->nodes[10001].recv == 4 &&
           cluster_line(c, 10001) == 5 && cluster_find(c, "m777") == 5776 &&
           cluster_find(c, "m777") == 5776 && cluster_find(c, "zz") < 0,
       "10^4 names: found by name afterwards; node{} reads fields (class too) through __index");
    cluster_free(c);
    free(msg);
    c = load_lua("t.lua", "node('a')\nname('  lab 2 ')\ndescription(' one \\n two  ')\n", NULL,
                 0, 0, 0, &msg);
    ok(c && strcmp(c->name, "lab 2") == 0 && strcmp(c->description, "one\ntwo") == 0,
       "blanks around the name and each description line go, as a CSV file reads them");
    cluster_free(c);
    free(msg);
    c = load_lua("w.lua", "node('a', 1, 1)\nlatency(2)\ndistance('a', 'a', 0)\n", NULL, 0, 0, 0, &msg);
    ok(c && c->kind == CLUSTER_MATRIX && contains(msg, "w.lua:2: warning: latency: ignored"),
       "a latency on a matrix is ignored with a warning, as in CSV files");
    cluster_free(c);
    free(msg);
}

/* ---- scripts as large as a cluster file ---- */

/* The budget message's limit and grant: "more than X ... plus G granted"; 0 if absent. */
static int budget_numbers(const char *msg, double *limit, double *granted)
{
    const char *m = msg ? strstr(msg, "more than ") : NULL, *g = msg ? strstr(msg, " plus ") : NULL;
    return m && g && sscanf(m, "more than %lf", limit) == 1 &&
           sscanf(g, " plus %lf granted", granted) == 1;
}

/*
 * A script of 10^6 nodes (2 x 10^4 under valgrind) whose loop body runs
 * about 60 instructions a node loads with the default limits and equals the
 * CSV of the same nodes; runaway scripts are still stopped, and the budget
 * messages name a limit that was passed.
 */
static void test_big_scripts(void)
{
    int n = tap_scale(1000000, 20000);   /* small: within the time backstop under a starved valgrind */
    char *code = xasprintf("local n = %d\n"
                           "for i = 1, n do\n"
                           "  local h = 0\n"
                           "  for j = 1, 8 do h = h + (i * j) %% 3 end\n"
                           "  local s = 1 + i %% 7\n"
                           "  node(string.format('node-%%07d', i), s, s + 1 + i %% 5, "
                           "{class = 'c' .. h %% 3})\n"
                           "end\n", n);
    char *msg;
    struct cluster *a = load_lua("big.lua", code, NULL, 0, 0, 0, &msg);
    if (!ok(a && a->n == n, "a script of %d nodes, ~60 instructions each, loads with the "
            "default limits", n))
        diag("%s", msg ? msg : "?");
    free(msg);
    free(code);
    char *csv = xasprintf("%s/big.csv", tmpdir);
    FILE *fp = fopen(csv, "w");
    if (!fp) {
        printf("Bail out! cannot write %s\n", csv);
        exit(1);
    }
    fputs("# name: big\nname,send,recv,class\n", fp);
    for (long long i = 1; i <= n; i++) {
        long long h = 0;
        for (long long j = 1; j <= 8; j++)
            h += i * j % 3;
        fprintf(fp, "node-%07lld,%lld,%lld,c%lld\n", i, 1 + i % 7, 2 + i % 7 + i % 5, h % 3);
    }
    fclose(fp);
    struct diag d;
    diag_init(&d);
    struct cluster *b = cluster_load_csv(csv, &d);
    const char *why = "not loaded";
    if (!ok(a && b && same_model(a, b, &why), "... and it is the cluster the CSV of its %d "
            "nodes loads to", n))
        diag("differs in: %s", why);
    diag_free(&d);
    cluster_free(a);
    cluster_free(b);
    unlink(csv);
    free(csv);

    /* Edges and distances earn their grant too: 2.2 x 10^6 edge() calls and
     * 2 x 10^6 distance() calls, each past the budget without it (seconds
     * under valgrind: the full scale only). */
    struct cluster *c;
    if (tap_scale(1, 0)) {
        c = load_lua("g.lua", "local n = 1500\nfor i = 1, n do node('g' .. i) end\n"
                     "for i = 1, n do for j = 1, n do\n"
                     "  if i ~= j then edge(i, j, 1 + (i * j) % 9) end\nend end\n",
                     NULL, 0, 0, 0, &msg);
        ok(c && c->kind == CLUSTER_GRAPH && c->nedges == 1500 * 1499 &&
               c->edges[c->nedges - 1].time == 1 + (1500 * 1499) % 9,
           "a complete platform graph of 1500 nodes (edge() by edge()) loads with the default "
           "limits");
        if (!c)
            diag("%s", msg ? msg : "?");
        cluster_free(c);
        free(msg);
        c = load_lua("g.lua", "local n = 2000\nfor i = 1, n do node('m' .. i, 1, 2) end\n"
                     "for i = 1, n do for j = i, n do\n"
                     "  distance(i, j, i == j and 0 or 1 + (i + j) % 9)\nend end\n",
                     NULL, 0, 0, 0, &msg);
        ok(c && c->kind == CLUSTER_MATRIX && c->n == 2000 &&
               c->dist[(size_t)1999 * 2000 + 2] == 1 + (2000 + 3) % 9,
           "a latency matrix of 2000 nodes (distance() by distance()) loads with the default "
           "limits");
        if (!c)
            diag("%s", msg ? msg : "?");
        cluster_free(c);
        free(msg);
    }

    /* The grant adds to an explicit --lua-budget too. */
    c = load_lua("esc.lua", "for i = 1, 1000 do node('n' .. i) end\n", NULL, 0,
                                 1000, 0, &msg);
    ok(c && c->n == 1000, "1000 nodes load under --lua-budget 1000: each earns 100");
    cluster_free(c);
    free(msg);

    /* Runaways, with the default limits unless said.  The two that run the
       default 10^7 instructions: full scale only (under valgrind a starved
       process can take longer than the 10 s time backstop for them). */
    if (tap_scale(1, 0)) {
        msg = lua_error_of("node('a')\nwhile true do end\n", 0, 0);
        if (!ok(contains(msg, "esc.lua:2: instruction budget exceeded: more than 10000100 "
                              "instructions in one call (--lua-budget 10000000 plus 100 granted "
                              "for the nodes, edges and distances it made)"),
                "an endless loop after a node: stopped, the message gives the budget with the grant"))
            diag("%s", msg ? msg : "(loaded)");
        free(msg);
        msg = lua_error_of("local i = 0\nwhile true do i = i + 1 node('n' .. i) for j = 1, 1000 do "
                           "end end\n", 0, 0);
        double limit = 0, granted = 0;
        if (!ok(contains(msg, "esc.lua:2: instruction budget exceeded") &&
                    budget_numbers(msg, &limit, &granted) && granted > 100 &&
                    fmod(granted, 100) == 0 && limit == 10000000 + granted,
                "nodes made forever at 1000 instructions each: stopped by the budget, which the "
                "message gives as 10^7 plus 100 a node"))
            diag("%s", msg ? msg : "(loaded)");
        free(msg);
    }
    msg = lua_error_of("node('a')\nwhile true do pcall(node, 'a') end\n", 100000, 0);
    if (!ok(contains(msg, "esc.lua:2: instruction budget exceeded: more than 100100 "
                          "instructions in one call (--lua-budget 100000 plus 100 granted"),
            "node() refused forever in pcall: no grant for a refused node, stopped"))
        diag("%s", msg ? msg : "(loaded)");
    free(msg);
    msg = lua_error_of("node('a')\nlocal s = 'x' while true do s = s .. s end\n", 0, 0);
    if (!ok(contains(msg, "esc.lua:2: memory limit exceeded") && contains(msg, "64 MiB"),
            "a string that grows forever after a node: stopped at the 64 MiB cap"))
        diag("%s", msg ? msg : "(loaded)");
    free(msg);
    msg = lua_error_of("for i = 1, 5000 do node('n' .. i) end\nedge(1, 2, 1)\n", 0, 0);
    ok(contains(msg, "esc.lua:2: edge: too many nodes for a platform graph: 5000 (a platform "
                     "graph has at most 4096"),
       "edge() among more nodes than a platform graph holds: refused at its line");
    free(msg);
    if (tap_scale(1, 0)) {   /* 2^20 edge() calls: seconds under valgrind */
        msg = lua_error_of("node('a') node('b')\nwhile true do edge(1, 2, 1) end\n", 0, 0);
        ok(contains(msg, "esc.lua:2: edge: more edges (1048577) than ordered pairs of the 2 "
                         "nodes so far"),
           "edges made forever: stopped past 2^20 edges between 2 nodes");
        free(msg);
    }
}

int main(void)
{
    lua_sched_set_dir(HETCAST_SRCLUADIR);   /* as the program does from its data directory */
    snprintf(tmpdir, sizeof tmpdir, "/tmp/hetcast-lua-XXXXXX");
    if (!mkdtemp(tmpdir)) {
        printf("Bail out! mkdtemp\n");
        return 1;
    }
    test_fnf_equals_builtin();
    test_escapes();
    test_loops_and_bombs();
    test_bad_decisions();
    test_heuristic_api();
    test_cluster_scripts();
    test_big_scripts();
    const char *names[] = {"esc.lua", "bad.lua", "g.lua", "nolink.lua", "err.lua", "syntax.lua",
                           "none.lua", "slow.lua", "view.lua", "tree.lua", "rand.lua", "k.lua",
                           "graph.lua", "saved.csv", "par.lua", "e.lua", "w.lua", "t.lua"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char *p = xasprintf("%s/%s", tmpdir, names[i]);
        unlink(p);
        free(p);
    }
    rmdir(tmpdir);
    return tap_exit();
}
