/*
 * support/lua_sandbox.h - the one sandbox every user script runs in: cluster
 * scripts (model/cluster_lua.c) and heuristics (sched/lua_sched.c) alike.
 *
 * A sandbox is a fresh lua_State per script, made with lua_newstate and an
 * allocator that enforces a memory cap.  Only base, table, string, math and
 * utf8 are opened (linit.c's list, edited); dofile, loadfile and
 * string.dump are gone, load takes text only, and the functions that could
 * catch or outlive a limit (pcall, xpcall, load, setmetatable with __gc,
 * collectgarbage) are replaced by guarded versions.
 *
 * Every call into user Lua goes through sandbox_run(): one protected call
 * with a message handler that adds the script's file:line and a traceback
 * (lua.c's docall + msghandler).  Each run gets a fresh instruction budget,
 * counted by a LUA_MASKCOUNT hook.  When the budget, the memory cap or the
 * time backstop is passed, the sandbox is stopped for good: the hook raises
 * on every further instruction and the guarded pcall/xpcall/load re-raise,
 * so the script cannot catch it; the run then fails with the first message.
 *
 * Promises: no user code runs outside sandbox_run(); a user's mistake is a
 * message (never an abort); C objects live behind typed userdata whose
 * metatables and registry keys are named "hetcast.*".
 */
#ifndef HETCAST_LUA_SANDBOX_H
#define HETCAST_LUA_SANDBOX_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include <lua.h>

#define SANDBOX_DEFAULT_INSTRUCTIONS 10000000LL  /* per call (--lua-budget) */
#define SANDBOX_DEFAULT_MEMORY (64LL << 20)       /* bytes, whole state (--lua-memory) */
#define SANDBOX_MIN_MEMORY (1LL << 20)            /* smaller caps are raised to this */
#define SANDBOX_MIN_SECONDS 10.0                  /* time backstop per call, at least */
#define SANDBOX_TOTAL_CALLS 100LL                 /* total budget = this x the budget per call */
#define SANDBOX_CANCELLED_TEXT "cancelled"         /* the message of a cancelled script */

/* Why a sandbox stopped (a stopped sandbox refuses to run: sandbox_run). */
enum sandbox_stop {
    SANDBOX_RUNNING = 0,  /* usable */
    SANDBOX_ERROR,        /* a script error or a bad result: the last run failed */
    SANDBOX_BUDGET,       /* the instruction budget of one call was used up */
    SANDBOX_MEMORY,       /* the memory cap was passed */
    SANDBOX_TIME,         /* one call ran past the time backstop */
    SANDBOX_TOTAL,        /* the total budget of all calls was used up */
    SANDBOX_CANCELLED,    /* the front door's cancel flag was set */
};

struct sandbox_limits {
    long long instructions;  /* per call; <= 0: SANDBOX_DEFAULT_INSTRUCTIONS */
    long long memory;        /* bytes for the whole state; <= 0: SANDBOX_DEFAULT_MEMORY */
    /* The state's whole life, all calls together: SANDBOX_TOTAL_CALLS times
     * the budget per call (a heuristic's choose() runs once a node, so the
     * per-call budget alone does not bound a run).  cancel: NULL, or a flag
     * polled by the hook; a nonzero value stops the script ("cancelled"). */
    const volatile sig_atomic_t *cancel;
    /* Instructions each unit of work earns (sandbox_grant; the caller
     * chooses the unit: a cluster script's node(), edge() and distance()).
     * 0: the caller's default; < 0: nothing. */
    long long grant;
};

/* Where print() output goes; with none set (the default) it is dropped: the
 * front door sets one (the command line: "script: text" on stderr). */
typedef void (*sandbox_print_fn)(const char *script, const char *text, void *ud);

struct sandbox;

/*
 * A fresh sandbox for the script at path (read later by sandbox_load).
 * math.random is seeded with seed, so scripts are reproducible.  Returns
 * NULL with *cause when the state cannot be made.
 */
struct sandbox *sandbox_new(const char *path, const struct sandbox_limits *lim, uint64_t seed,
                            char **cause);
void sandbox_free(struct sandbox *sb);

/*
 * Run fn(L) as one protected call with a fresh instruction budget; fn finds
 * ud as a light userdata at index 1.  fn may call user code only through
 * sandbox_call.  Returns 0, or -1 with *cause: one message with the
 * script's file:line and a traceback.  A stopped sandbox refuses to run.
 */
int sandbox_run(struct sandbox *sb, lua_CFunction fn, void *ud, char **cause);

/* Inside a run: load the script as a text chunk and push it (or raise). */
void sandbox_load(lua_State *L);
/* param(name [, default]) of a script, inside a call: pushes --param name's value v converted
 * like the default at index 2 (a number, a boolean, text; without one a number if v reads as
 * one), or the default when v is NULL; a Lua error when it does not convert or is needed. 1. */
int sandbox_param(lua_State *L, const char *key, const char *v);
/* Inside a run: lua_call for user code, noting where the callee returns. */
void sandbox_call(lua_State *L, int nargs, int nresults);
/* The same for code whose results nobody checks (sandbox_return_error is not
 * used after it): no return hook, which would fire on every call it makes. */
void sandbox_call_quiet(lua_State *L, int nargs, int nresults);
/*
 * Inside a run, after sandbox_call: raise an error about what the user's
 * function returned, located at its return statement, with the traceback
 * taken there.  printf-style format.  Never returns.
 */
int sandbox_return_error(lua_State *L, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Inside a run: charge steps of work done in C to the budget (raises if over). */
void sandbox_charge(lua_State *L, double steps, const char *what);
/*
 * Inside a run: raise this run's instruction budget (and the total budget,
 * and the time backstop at one second a million) by steps, earned by work
 * the script asked for (a cluster script's nodes).  what names that work in
 * the budget messages ("the nodes ... it made"); a static string.
 */
void sandbox_grant(lua_State *L, double steps, const char *what);
/* Inside a run: count bytes of C memory kept for the script against the cap. */
void sandbox_reserve(lua_State *L, size_t bytes, const char *what);
/* The line of the Lua code calling the running C function (0 if none). */
int sandbox_caller_line(lua_State *L);

void sandbox_set_print(sandbox_print_fn fn, void *ud);

#endif
