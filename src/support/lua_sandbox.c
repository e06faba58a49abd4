/*
 * support/lua_sandbox.c - the sandbox every user script runs in (support/lua_sandbox.h).
 *
 * Limits and how they are enforced:
 *
 * - Memory: sb_alloc counts every byte of the state (plus what the C side
 *   reserves for the script).  Passing the cap arms the count hook for the
 *   very next instruction, which collects garbage and, if the script still
 *   holds more than the cap, stops it with file:line and a traceback.  No
 *   single allocation may take the state beyond twice the cap: that one is
 *   refused at once (Lua's out-of-memory error, reported with the place
 *   the script was last seen).
 * - Instructions: a LUA_MASKCOUNT hook every `count` instructions (1000,
 *   fewer when the state is large and one instruction may touch megabytes)
 *   adds to the call's count and stops the script past its budget, or past
 *   the total budget of all its calls (SANDBOX_TOTAL_CALLS times the budget
 *   per call), or when the front door's cancel flag is set.  Work the
 *   script asks of the C side may earn more (sandbox_grant: a cluster
 *   script's nodes), added to both budgets and the time backstop.  Library
 *   functions whose work is not bounded by memory are guarded: table.move,
 *   table.sort, table.insert/remove and the pattern functions charge their
 *   work to the budget, and a pattern whose worst case cannot fit in what is
 *   left is refused before it starts; string.rep checks the memory first.
 * - Time: a backstop per call (SANDBOX_MIN_SECONDS, or one second per
 *   million instructions of budget), checked by the hook and on large
 *   allocations, for the few operations counted as one instruction that
 *   still take long (comparing two huge strings).
 *
 * Once stopped, a sandbox stays stopped: the hook raises on every
 * instruction and pcall, xpcall and load re-raise what they caught, so the
 * error reaches sandbox_run whatever the script wraps around it.
 */
#include "support/lua_sandbox.h"

#include <lauxlib.h>
#include <lualib.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "support/diag.h"
#include "support/rng.h"

#define TICK 1000                      /* instructions between hook calls (small states) */
#define GRACE_BYTES ((size_t)1 << 20)  /* room to build the message once stopped */
#define PRINT_LIMIT 65536              /* bytes of print() output per script */
#define KEY_RETURN_TB "hetcast.return_traceback"
#define MT_RNG "hetcast.rng"
#define POOL_STEP 16                   /* the pool's size classes: 16, 32, ... */
#define POOL_MAX 128                   /* larger blocks come from malloc */
#define POOL_CLASSES (POOL_MAX / POOL_STEP)
#define POOL_CHUNK ((size_t)64 << 10)  /* the pool takes memory 64 KiB at a time */

/* A chunk of the small-block pool; its blocks follow the header. */
struct pool_chunk {
    struct pool_chunk *next;
    size_t pad;            /* the blocks stay 16-byte aligned */
};

struct sandbox {
    lua_State *L;
    char *path;
    /* memory */
    size_t mem_used;        /* bytes held by the Lua state */
    size_t reserved;        /* bytes the C side keeps for the script */
    size_t mem_cap;
    size_t mem_hard;        /* no allocation beyond this */
    size_t refused;         /* size of the last refused allocation */
    /* the small-block pool (sb_alloc): a free list a size class, and the
     * chunks, the newest first, with the unused end of the newest */
    void *free_block[POOL_CLASSES];
    struct pool_chunk *chunks;
    char *bump, *bump_end;
    bool mem_armed;         /* the hook runs at the next instruction to check memory */
    /* budget and time, per run */
    long long budget;
    double used;            /* instructions and charged steps this run */
    double total_used;      /* the same, all finished runs */
    double total_budget;    /* all runs together */
    double granted;         /* instructions granted this run (sandbox_grant) */
    double total_granted;   /* the same, all runs */
    const char *grant_what; /* what earned the grants, for the messages */
    const volatile sig_atomic_t *cancel;
    double seconds;         /* time backstop per run */
    double run_seconds;     /* this run's: seconds plus the grants' share */
    double deadline;
    int count;              /* the hook's current instruction count */
    int mask;               /* the hook's current mask */
    bool in_run;
    /* locating results */
    lua_CFunction tramp;    /* the C function sandbox_run is running */
    bool watch_return;
    bool preformatted;      /* the error on the stack already has its traceback */
    char ret_where[LUA_IDSIZE + 24];
    char seen_where[LUA_IDSIZE + 24];   /* where the hook last saw the script */
    /* stopping */
    enum sandbox_stop stop;
    char stop_msg[512];     /* short message re-raised after a stop */
    char *fatal;            /* the full message with its traceback */
    size_t printed;
    uint64_t seed;          /* math.random's seed, hetcast.random()'s default */
};

static sandbox_print_fn g_print;
static void *g_print_ud;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The sandbox a state belongs to (kept in the state's extra space). */
static struct sandbox *sandbox_of(lua_State *L)
{
    return *(struct sandbox **)lua_getextraspace(L);
}

void sandbox_set_print(sandbox_print_fn fn, void *ud)
{
    g_print = fn;
    g_print_ud = ud;
}

static void sb_hook(lua_State *L, lua_Debug *ar);

static void set_hook(struct sandbox *sb, int mask, int count)
{
    sb->mask = mask;
    sb->count = count;
    lua_sethook(sb->L, sb_hook, mask, count);
}

/* Instructions between hook calls: fewer when one instruction may copy megabytes
 * of the script's own heap (a table or a string it holds).  What the C side
 * keeps for it (reserved: a cluster's nodes) is not counted here: no
 * instruction copies it, and sandbox_reserve checks the cap at once; counting
 * it made a script of 10^6 nodes take a hook every 10 instructions. */
static int tick_for(const struct sandbox *sb)
{
    size_t m = sb->mem_used;
    long long t = m > ((size_t)32 << 20) ? 10 : m > ((size_t)4 << 20) ? 100 : TICK;
    if (t > sb->budget)
        t = sb->budget;
    return t < 1 ? 1 : (int)t;
}

static bool over_cap(const struct sandbox *sb)
{
    return sb->mem_used + sb->reserved > sb->mem_cap;
}

/* ---- the allocator ---- */

/*
 * Blocks of up to POOL_MAX bytes (a short string, a small table, a closure:
 * most of what a script allocates, and most of it dies young) come from free
 * lists of 16-byte size classes, refilled from 64 KiB chunks; a block freed
 * goes back to its list.  Lua tells the allocator every block's size, so a
 * block's size says where it came from.  The chunks are freed with the
 * state; the memory cap counts the bytes the state asks for, as before.
 */
static size_t pool_class(size_t size)
{
    return (size - 1) / POOL_STEP;
}

static void *pool_get(struct sandbox *sb, size_t size)
{
    size_t c = pool_class(size);
    void *p = sb->free_block[c];
    if (p) {
        memcpy(&sb->free_block[c], p, sizeof p);
        return p;
    }
    size_t bytes = (c + 1) * POOL_STEP;
    if ((size_t)(sb->bump_end - sb->bump) < bytes) {
        struct pool_chunk *ch = malloc(POOL_CHUNK);
        if (!ch)
            return NULL;
        ch->next = sb->chunks;
        sb->chunks = ch;
        sb->bump = (char *)(ch + 1);
        sb->bump_end = (char *)ch + POOL_CHUNK;
    }
    p = sb->bump;
    sb->bump += bytes;
    return p;
}

static void pool_put(struct sandbox *sb, void *p, size_t size)
{
    size_t c = pool_class(size);
    memcpy(p, &sb->free_block[c], sizeof p);
    sb->free_block[c] = p;
}

static void pool_free_all(struct sandbox *sb)
{
    while (sb->chunks) {
        struct pool_chunk *next = sb->chunks->next;
        free(sb->chunks);
        sb->chunks = next;
    }
}

static void block_free(struct sandbox *sb, void *p, size_t size)
{
    if (size <= POOL_MAX)
        pool_put(sb, p, size);
    else
        free(p);
}

/* realloc(ptr, nsize) for a block of old bytes (0: none), pool or malloc. */
static void *block_resize(struct sandbox *sb, void *ptr, size_t old, size_t nsize)
{
    if (old > POOL_MAX && nsize > POOL_MAX)
        return realloc(ptr, nsize);
    if (ptr && old <= POOL_MAX && nsize <= POOL_MAX && pool_class(old) == pool_class(nsize))
        return ptr;
    void *q = nsize <= POOL_MAX ? pool_get(sb, nsize) : malloc(nsize);
    if (q && ptr) {
        memcpy(q, ptr, old < nsize ? old : nsize);
        block_free(sb, ptr, old);
    }
    return q;
}

static void *sb_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    struct sandbox *sb = ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        if (ptr)
            block_free(sb, ptr, old);
        sb->mem_used -= old;
        return NULL;
    }
    if (nsize > old) {
        size_t hard = sb->mem_hard + (sb->stop > SANDBOX_ERROR ? GRACE_BYTES : 0);
        size_t total = sb->mem_used + sb->reserved;
        if (nsize - old > hard || total > hard - (nsize - old)) {
            sb->refused = nsize;
            return NULL;
        }
    }
    void *q = block_resize(sb, ptr, old, nsize);
    if (!q) {
        /* A failed shrink keeps the block (Lua counts on shrinks working).
         * Only a block leaving malloc for the pool can fail to shrink (no
         * memory for a chunk): it is larger than any class and joins the
         * pool when freed, for good. */
        return nsize <= old ? ptr : NULL;
    }
    sb->mem_used = sb->mem_used - old + nsize;
    if (sb->in_run && sb->stop == SANDBOX_RUNNING && !sb->mem_armed &&
        (over_cap(sb) || (nsize >= 65536 && now_seconds() > sb->deadline))) {
        /* lua_sethook is safe here: it only stores the hook and sets traps. */
        sb->mem_armed = true;
        set_hook(sb, sb->mask, 1);
    }
    return q;
}

static int sb_panic(lua_State *L)
{
    (void)L;   /* every call into Lua is protected: this is a bug, not a user's error */
    diag_fatal("unprotected Lua error");
}

/* ---- stopping ---- */

/* "src:line:" of the first Lua frame at or above level; "" if none. */
static void where_at(lua_State *L, int level, char *buf, size_t size)
{
    lua_Debug ar;
    buf[0] = '\0';
    for (; lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "Sl", &ar))
            break;
        if (ar.currentline > 0) {
            snprintf(buf, size, "%s:%d:", ar.short_src, ar.currentline);
            return;
        }
    }
}

static int reraise(lua_State *L, struct sandbox *sb)
{
    lua_pushstring(L, sb->stop_msg);
    return lua_error(L);
}

/* A size for a message: bytes, KiB or MiB, whichever reads best. */
static void format_size(char *buf, size_t size, double bytes)
{
    if (bytes < 1024.0)
        snprintf(buf, size, "%.0f bytes", bytes);
    else if (bytes < 1024.0 * 1024.0)
        snprintf(buf, size, "%.4g KiB", bytes / 1024.0);
    else
        snprintf(buf, size, "%.4g MiB", bytes / (1024.0 * 1024.0));
}

/*
 * Stop the sandbox for good: the message is located at the first Lua frame
 * at or above level (0 in the hook: the running function; 1 in a library
 * function: its caller), the traceback taken from there.
 */
static int sb_fatal(lua_State *L, struct sandbox *sb, enum sandbox_stop why, int level,
                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int sb_fatal(lua_State *L, struct sandbox *sb, enum sandbox_stop why, int level,
                    const char *fmt, ...)
{
    char what[400], where[LUA_IDSIZE + 24];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    sb->stop = why;
    where_at(L, level, where, sizeof where);
    if (!where[0])
        snprintf(where, sizeof where, "%s:", sb->path);
    snprintf(sb->stop_msg, sizeof sb->stop_msg, "%s %s", where, what);
    set_hook(sb, LUA_MASKCOUNT, 1);   /* from now on every instruction raises */
    luaL_traceback(L, L, sb->stop_msg, level);
    free(sb->fatal);
    sb->fatal = xstrdup(lua_tostring(L, -1));
    lua_pop(L, 1);
    return reraise(L, sb);
}

static int fatal_memory(lua_State *L, struct sandbox *sb, int level)
{
    char cap[32];
    format_size(cap, sizeof cap, (double)sb->mem_cap);
    return sb_fatal(L, sb, SANDBOX_MEMORY, level,
                    "memory limit exceeded: the script holds more than its %s (--lua-memory)",
                    cap);
}

/* After a protected call inside the script: a stop is never caught. */
static void check_stop(lua_State *L, struct sandbox *sb, int status)
{
    if (status == LUA_ERRMEM && sb->stop == SANDBOX_RUNNING) {
        char cap[32], asked[32];
        lua_gc(L, LUA_GCCOLLECT);
        format_size(cap, sizeof cap, (double)sb->mem_cap);
        format_size(asked, sizeof asked, (double)sb->refused);
        sb_fatal(L, sb, SANDBOX_MEMORY, 1,
                 "memory limit exceeded: an allocation of %s was refused (the limit is %s; "
                 "--lua-memory)", asked, cap);
    }
    if (sb->stop > SANDBOX_ERROR)
        reraise(L, sb);
}

/* ---- the hook ---- */

static void note_return(lua_State *L, struct sandbox *sb, lua_Debug *ar)
{
    lua_Debug up;
    /* Only a function called straight from the trampoline matters: the stack
     * is then [trampoline, function], and level 2 does not exist.  This
     * test is cheap; most returns (library calls, __index) stop here. */
    if (lua_getstack(L, 2, &up) || !lua_getstack(L, 1, &up) || !lua_getinfo(L, "f", &up))
        return;
    bool top = lua_tocfunction(L, -1) == sb->tramp;
    lua_pop(L, 1);
    if (!top || !lua_getinfo(L, "Sl", ar))
        return;
    if (ar->currentline > 0)
        snprintf(sb->ret_where, sizeof sb->ret_where, "%s:%d:", ar->short_src, ar->currentline);
    else
        snprintf(sb->ret_where, sizeof sb->ret_where, "%s:", ar->short_src);
    luaL_traceback(L, L, NULL, 0);
    lua_setfield(L, LUA_REGISTRYINDEX, KEY_RETURN_TB);
}

/* This run's budget: --lua-budget plus what its calls were granted. */
static double run_budget(const struct sandbox *sb)
{
    return (double)sb->budget + sb->granted;
}

/* Stop the run past its budget; what: "" (the hook) or the library function charging. */
static void check_budget(lua_State *L, struct sandbox *sb, int level, const char *what)
{
    if (sb->used <= run_budget(sb))
        return;
    const char *in = *what ? " in " : "";
    if (sb->granted > 0)
        sb_fatal(L, sb, SANDBOX_BUDGET, level,
                 "instruction budget exceeded%s%s: more than %.0f instructions in one call "
                 "(--lua-budget %lld plus %.0f granted for %s)", in, what, run_budget(sb),
                 sb->budget, sb->granted, sb->grant_what);
    sb_fatal(L, sb, SANDBOX_BUDGET, level,
             "instruction budget exceeded%s%s: more than %lld instructions in one call "
             "(--lua-budget)", in, what, sb->budget);
}

/* The limits of the state's whole life: the total budget and the cancel flag. */
static void check_total(lua_State *L, struct sandbox *sb, int level, const char *what)
{
    if (sb->cancel && *sb->cancel)
        sb_fatal(L, sb, SANDBOX_CANCELLED, level, SANDBOX_CANCELLED_TEXT);
    double granted = sb->total_granted + sb->granted;
    if (sb->total_used + sb->used <= sb->total_budget + granted)
        return;
    const char *in = *what ? " in " : "";
    if (granted > 0)
        sb_fatal(L, sb, SANDBOX_TOTAL, level,
                 "total instruction budget exceeded%s%s: more than %.0f instructions in all "
                 "calls of the script (%lld x --lua-budget %lld plus %.0f granted for %s)", in,
                 what, sb->total_budget + granted, SANDBOX_TOTAL_CALLS, sb->budget, granted,
                 sb->grant_what);
    sb_fatal(L, sb, SANDBOX_TOTAL, level,
             "total instruction budget exceeded%s%s: more than %.0f instructions in all "
             "calls of the script (%lld x --lua-budget %lld)", in, what, sb->total_budget,
             SANDBOX_TOTAL_CALLS, sb->budget);
}

/* The time backstop of this run. */
static void check_time(lua_State *L, struct sandbox *sb, int level, const char *what)
{
    if (now_seconds() > sb->deadline)
        sb_fatal(L, sb, SANDBOX_TIME, level, "time limit exceeded%s%s: one call ran for more "
                 "than %g seconds", *what ? " in " : "", what, sb->run_seconds);
}

static void sb_hook(lua_State *L, lua_Debug *ar)
{
    struct sandbox *sb = sandbox_of(L);
    if (ar->event == LUA_HOOKRET) {
        if (sb->watch_return)
            note_return(L, sb, ar);
        return;
    }
    if (ar->event != LUA_HOOKCOUNT)
        return;
    if (sb->stop > SANDBOX_ERROR)
        reraise(L, sb);
    sb->used += sb->count;
    if (sb->mem_armed) {
        sb->mem_armed = false;
        if (over_cap(sb)) {
            lua_gc(L, LUA_GCCOLLECT);
            if (over_cap(sb))
                fatal_memory(L, sb, 0);
        }
    }
    check_budget(L, sb, 0, "");
    check_time(L, sb, 0, "");
    check_total(L, sb, 0, "");
    if (sb->mem_used + sb->reserved > sb->mem_cap / 4) {
        lua_Debug me;
        if (lua_getstack(L, 0, &me) && lua_getinfo(L, "Sl", &me) && me.currentline > 0)
            snprintf(sb->seen_where, sizeof sb->seen_where, "%s:%d", me.short_src,
                     me.currentline);
    }
    int t = tick_for(sb);
    if (t != sb->count)
        set_hook(sb, sb->mask, t);
}

void sandbox_charge(lua_State *L, double steps, const char *what)
{
    struct sandbox *sb = sandbox_of(L);
    if (!sb->in_run)
        return;
    sb->used += steps;
    check_budget(L, sb, 1, what);
    check_time(L, sb, 1, what);
    check_total(L, sb, 1, what);
}

void sandbox_grant(lua_State *L, double steps, const char *what)
{
    struct sandbox *sb = sandbox_of(L);
    if (!sb->in_run || steps <= 0)
        return;
    sb->granted += steps;
    sb->grant_what = what;
    /* The time backstop grows with the budget, as for --lua-budget. */
    sb->run_seconds += steps * 1e-6;
    sb->deadline += steps * 1e-6;
}

void sandbox_reserve(lua_State *L, size_t bytes, const char *what)
{
    struct sandbox *sb = sandbox_of(L);
    if (bytes > sb->mem_cap || sb->mem_used + sb->reserved > sb->mem_cap - bytes) {
        char cap[32], asked[32];
        format_size(cap, sizeof cap, (double)sb->mem_cap);
        format_size(asked, sizeof asked, (double)bytes);
        sb_fatal(L, sb, SANDBOX_MEMORY, 1,
                 "memory limit exceeded: %s needs %s more, beyond the script's %s "
                 "(--lua-memory)", what, asked, cap);
    }
    sb->reserved += bytes;
}

int sandbox_caller_line(lua_State *L)
{
    lua_Debug ar;
    if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "l", &ar))
        return ar.currentline > 0 ? ar.currentline : 0;
    return 0;
}

/* ---- guarded library functions ---- */

/* The wrapped library function, called directly with the guard's stack: only
 * for functions without upvalues of their own (string, table, base). */
static lua_CFunction original(lua_State *L)
{
    return lua_tocfunction(L, lua_upvalueindex(1));
}

static int guard_pcall(lua_State *L)
{
    struct sandbox *sb = sandbox_of(L);
    luaL_checkany(L, 1);
    int status = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
    check_stop(L, sb, status);
    lua_pushboolean(L, status == LUA_OK);
    lua_insert(L, 1);
    return lua_gettop(L);
}

/*
 * The user's message handler, called through this one: an error raised by
 * the hook calls the handler while hooks are off (Lua runs it inside the
 * hook), so once the sandbox is stopped the user's handler is skipped.
 */
static int xpcall_handler(lua_State *L)
{
    if (sandbox_of(L)->stop > SANDBOX_ERROR)
        return 1;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int guard_xpcall(lua_State *L)
{
    struct sandbox *sb = sandbox_of(L);
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 1);   /* the function */
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, xpcall_handler, 1);
    lua_replace(L, 1);     /* the guarded handler goes first */
    lua_replace(L, 2);
    int status = lua_pcall(L, n - 2, LUA_MULTRET, 1);
    check_stop(L, sb, status);
    lua_pushboolean(L, status == LUA_OK);
    lua_replace(L, 1);     /* the handler's slot holds the status */
    return lua_gettop(L);
}

/* load(chunk [, chunkname [, mode [, env]]]): text chunks only, whatever mode says. */
static int guard_load(lua_State *L)
{
    struct sandbox *sb = sandbox_of(L);
    if (lua_gettop(L) < 3)
        lua_settop(L, 3);
    lua_pushliteral(L, "t");
    lua_replace(L, 3);
    int n = original(L)(L);
    check_stop(L, sb, LUA_OK);   /* a reader function's stop was caught by the parser */
    return n;
}

static int guard_setmetatable(lua_State *L)
{
    if (lua_type(L, 2) == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL)
            return luaL_error(L, "setmetatable: __gc metamethods are not allowed in hetcast "
                                 "scripts (finalizers would run outside the script's budget)");
        lua_pop(L, 1);
    }
    return original(L)(L);
}

static int guard_collectgarbage(lua_State *L)
{
    static const char *const allowed[] = {"collect", "count", "step", "isrunning", NULL};
    const char *opt = luaL_optstring(L, 1, "collect");
    for (int i = 0; allowed[i]; i++)
        if (strcmp(opt, allowed[i]) == 0)
            return original(L)(L);
    return luaL_error(L, "collectgarbage(\"%s\") is not available in hetcast scripts "
                         "(only collect, count, step and isrunning)", opt);
}

static int guard_randomseed(lua_State *L)
{
    if (lua_isnoneornil(L, 1))
        return luaL_error(L, "math.randomseed needs a seed in hetcast scripts (runs must be "
                             "reproducible): math.randomseed(n)");
    /* Called as a value, not as original(L)(L): it keeps its state in an upvalue. */
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

static int sb_print(lua_State *L)
{
    struct sandbox *sb = sandbox_of(L);
    int n = lua_gettop(L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; i++) {
        if (i > 1)
            luaL_addchar(&b, '\t');
        luaL_tolstring(L, i, NULL);
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    if (sb->printed >= PRINT_LIMIT)
        return 0;
    sb->printed += len + 1;
    if (sb->printed >= PRINT_LIMIT)
        s = "(more print output not shown)";
    if (g_print)
        g_print(sb->path, s, g_print_ud);
    return 0;
}

/* string.rep: an empty result at once, and no result larger than the memory left. */
static int guard_rep(lua_State *L)
{
    struct sandbox *sb = sandbox_of(L);
    size_t l, lsep;
    luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &lsep);
    if (n <= 0 || l + lsep == 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    double total = (double)l * (double)n + (double)lsep * (double)(n - 1);
    size_t held = sb->mem_used + sb->reserved;
    double room = held < sb->mem_cap ? (double)(sb->mem_cap - held) : 0;
    if (total > room) {
        char want[32], left[32];
        format_size(want, sizeof want, total);
        format_size(left, sizeof left, room);
        return luaL_error(L, "string.rep: the result would take %s, more than the %s left "
                             "under the memory limit (--lua-memory)", want, left);
    }
    return original(L)(L);
}

/* Index just past the set starting at p[i] == '[' (as lstrlib's classEnd). */
static size_t skip_set(const char *p, size_t m, size_t i)
{
    i++;
    if (i < m && p[i] == '^')
        i++;
    do {
        if (i >= m)
            return m;
        if (p[i++] == '%' && i < m)
            i++;
    } while (i < m && p[i] != ']');
    return i + 1;
}

/*
 * A bound on the steps of Lua's backtracking matcher: every repetition
 * (*, +, -), %b and back reference may scan the subject again for each way
 * the items before it matched, every ? doubles, and an unanchored search
 * tries every start: (m+1) * (n+1)^k * 2^q * (n+1).
 */
static double pattern_cost(const char *p, size_t m, size_t n, bool can_anchor, bool plain)
{
    double N = (double)n + 1;
    bool special = false;
    for (size_t j = 0; j < m && !special; j++)
        special = p[j] != '\0' && strchr("^$*+?.([%-", p[j]) != NULL;
    if (plain || !special)
        return N * (double)(m + 1);
    size_t i = 0;
    bool anchored = false;
    if (can_anchor && m > 0 && p[0] == '^') {
        anchored = true;
        i = 1;
    }
    int k = 0, q = 0;
    while (i < m) {
        char c = p[i];
        if (c == '(' || c == ')') {
            i++;
            continue;
        }
        if (c == '%' && i + 1 < m) {
            char d = p[i + 1];
            if (d == 'b') {
                k++;
                i += 4;
                continue;
            }
            if (d == 'f') {
                i = i + 2 < m && p[i + 2] == '[' ? skip_set(p, m, i + 2) : i + 2;
                continue;
            }
            if (d >= '0' && d <= '9') {
                k++;
                i += 2;
                continue;
            }
            i += 2;
        } else if (c == '[') {
            i = skip_set(p, m, i);
        } else {
            i++;
        }
        if (i < m && (p[i] == '*' || p[i] == '+' || p[i] == '-')) {
            k++;
            i++;
        } else if (i < m && p[i] == '?') {
            q++;
            i++;
        }
    }
    double cost = (double)(m + 1) * pow(N, k) * pow(2.0, q);
    return anchored ? cost : cost * N;
}

static int guard_pattern(lua_State *L, const char *name, bool can_anchor, bool has_plain)
{
    struct sandbox *sb = sandbox_of(L);
    size_t n, m;
    const char *s = luaL_checklstring(L, 1, &n);
    const char *p = luaL_checklstring(L, 2, &m);
    (void)s;
    bool plain = has_plain && lua_toboolean(L, 4);
    double cost = pattern_cost(p, m, n, can_anchor, plain);
    double left = run_budget(sb) - sb->used;
    if (sb->in_run && cost > left) {
        char msg[300];   /* lua_pushfstring knows no %g */
        snprintf(msg, sizeof msg, "%s: this pattern could take up to %.3g steps on a %zu-byte "
                 "subject, more than the %.0f instructions left in this call (simplify the "
                 "pattern or use a shorter subject)", name, cost, n, left > 0 ? left : 0);
        return luaL_error(L, "%s", msg);
    }
    sandbox_charge(L, (double)n / 4 + (double)m, name);
    return original(L)(L);
}

static int guard_find(lua_State *L) { return guard_pattern(L, "string.find", true, true); }
static int guard_match(lua_State *L) { return guard_pattern(L, "string.match", true, false); }
static int guard_gmatch(lua_State *L) { return guard_pattern(L, "string.gmatch", false, false); }
static int guard_gsub(lua_State *L) { return guard_pattern(L, "string.gsub", true, false); }

static int guard_move(lua_State *L)
{
    lua_Integer f = luaL_checkinteger(L, 2), e = luaL_checkinteger(L, 3);
    if (e >= f)
        sandbox_charge(L, (double)e - (double)f + 1, "table.move");
    return original(L)(L);
}

static int guard_sort(lua_State *L)
{
    if (lua_type(L, 1) == LUA_TTABLE) {
        double n = (double)lua_rawlen(L, 1);
        sandbox_charge(L, n * log2(n + 1), "table.sort");
    }
    return original(L)(L);
}

/* table.insert(t, pos, v) and table.remove(t, pos) shift the elements after pos. */
static int guard_insert(lua_State *L)
{
    if (lua_gettop(L) == 3 && lua_type(L, 1) == LUA_TTABLE && lua_isinteger(L, 2)) {
        double shift = (double)lua_rawlen(L, 1) - (double)lua_tointeger(L, 2) + 1;
        if (shift > 0)
            sandbox_charge(L, shift, "table.insert");
    }
    return original(L)(L);
}

static int guard_remove(lua_State *L)
{
    if (lua_gettop(L) >= 2 && lua_type(L, 1) == LUA_TTABLE && lua_isinteger(L, 2)) {
        double shift = (double)lua_rawlen(L, 1) - (double)lua_tointeger(L, 2);
        if (shift > 0)
            sandbox_charge(L, shift, "table.remove");
    }
    return original(L)(L);
}

/* ---- hetcast.random(seed): a seeded generator ---- */

struct script_rng {
    struct rng r;
    lua_Integer seed;
};

/* The generator at index 1.  Its methods hold the metatable as their
 * upvalue: the common case compares with it, without luaL_checkudata's
 * registry lookup by name (g:int() may run once a node). */
static struct script_rng *check_rng(lua_State *L)
{
    void *g = lua_touserdata(L, 1);
    if (g && lua_getmetatable(L, 1)) {
        bool ours = lua_rawequal(L, -1, lua_upvalueindex(1));
        lua_pop(L, 1);
        if (ours)
            return g;
    }
    return luaL_checkudata(L, 1, MT_RNG);   /* the usual error */
}

static int rng_new(lua_State *L)
{
    lua_Integer seed = luaL_optinteger(L, 1, (lua_Integer)sandbox_of(L)->seed);
    struct script_rng *g = lua_newuserdatauv(L, sizeof *g, 0);
    rng_seed(&g->r, (uint64_t)seed);
    g->seed = seed;
    luaL_setmetatable(L, MT_RNG);
    return 1;
}

/* g:uniform() in [0,1); g:uniform(a, b) in [a, b). */
static int rng_uniform(lua_State *L)
{
    struct script_rng *g = check_rng(L);
    double a = luaL_optnumber(L, 2, 0), b = luaL_optnumber(L, 3, 1);
    if (lua_gettop(L) == 2)
        return luaL_error(L, "uniform: give both bounds, g:uniform(a, b), or none");
    luaL_argcheck(L, a <= b, 3, "the upper bound is below the lower one");
    lua_pushnumber(L, rng_range(&g->r, a, b));
    return 1;
}

/* g:int(n) in 1..n; g:int(a, b) in a..b (both included). */
static int rng_int(lua_State *L)
{
    struct script_rng *g = check_rng(L);
    lua_Integer a = 1, b;
    if (lua_gettop(L) >= 3) {
        a = luaL_checkinteger(L, 2);
        b = luaL_checkinteger(L, 3);
    } else {
        b = luaL_checkinteger(L, 2);
    }
    luaL_argcheck(L, a <= b, lua_gettop(L) >= 3 ? 3 : 2, "the interval is empty");
    uint64_t span = (uint64_t)b - (uint64_t)a + 1;
    uint64_t x = span ? rng_below(&g->r, span) : rng_next(&g->r);
    lua_pushinteger(L, (lua_Integer)((uint64_t)a + x));
    return 1;
}

/* g:normal(mu, sd), Box-Muller (one draw per call, so replays are exact). */
static int rng_normal(lua_State *L)
{
    struct script_rng *g = check_rng(L);
    double mu = luaL_optnumber(L, 2, 0), sd = luaL_optnumber(L, 3, 1);
    luaL_argcheck(L, sd >= 0, 3, "the standard deviation must be >= 0");
    double u1 = 1.0 - rng_unit(&g->r), u2 = rng_unit(&g->r);
    lua_pushnumber(L, mu + sd * sqrt(-2.0 * log(u1)) * cos(2.0 * 3.14159265358979323846 * u2));
    return 1;
}

static int rng_exponential(lua_State *L)
{
    struct script_rng *g = check_rng(L);
    double mean = luaL_optnumber(L, 2, 1);
    luaL_argcheck(L, mean > 0, 2, "the mean must be > 0");
    lua_pushnumber(L, -mean * log(1.0 - rng_unit(&g->r)));
    return 1;
}

static int rng_pick(lua_State *L)
{
    struct script_rng *g = check_rng(L);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_Unsigned n = lua_rawlen(L, 2);
    if (n == 0)
        return 0;
    lua_rawgeti(L, 2, (lua_Integer)(1 + rng_below(&g->r, n)));
    return 1;
}

static int rng_shuffle(lua_State *L)
{
    struct script_rng *g = check_rng(L);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_Unsigned n = lua_rawlen(L, 2);
    sandbox_charge(L, (double)n, "shuffle");
    for (lua_Unsigned i = n; i > 1; i--) {   /* Fisher-Yates */
        lua_Integer j = (lua_Integer)(1 + rng_below(&g->r, i));
        lua_rawgeti(L, 2, (lua_Integer)i);
        lua_rawgeti(L, 2, j);
        lua_rawseti(L, 2, (lua_Integer)i);
        lua_rawseti(L, 2, j);
    }
    lua_settop(L, 2);
    return 1;
}

static int rng_tostring(lua_State *L)
{
    struct script_rng *g = check_rng(L);
    lua_pushfstring(L, "hetcast.random(%I)", (LUAI_UACINT)g->seed);
    return 1;
}

static void open_rng(lua_State *L)
{
    static const luaL_Reg methods[] = {
        {"uniform", rng_uniform}, {"int", rng_int}, {"normal", rng_normal},
        {"exponential", rng_exponential}, {"pick", rng_pick}, {"shuffle", rng_shuffle},
        {NULL, NULL},
    };
    luaL_newmetatable(L, MT_RNG);
    luaL_newlibtable(L, methods);
    lua_pushvalue(L, -2);
    luaL_setfuncs(L, methods, 1);
    lua_setfield(L, -2, "__index");
    lua_pushvalue(L, -1);
    lua_pushcclosure(L, rng_tostring, 1);
    lua_setfield(L, -2, "__tostring");
    lua_pushliteral(L, MT_RNG);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
}

/* ---- setting the state up ---- */

static void wrap(lua_State *L, int t, const char *name, lua_CFunction guard)
{
    lua_getfield(L, t, name);
    lua_pushcclosure(L, guard, 1);
    lua_setfield(L, t, name);
}

static void drop(lua_State *L, int t, const char *name)
{
    lua_pushnil(L);
    lua_setfield(L, t, name);
}

/* The globals the sandbox leaves out, and what a script that reaches for one is told. */
static const char *const left_out[] = {"io", "os", "require", "package", "debug", "coroutine", "dofile",
                                       "loadfile", NULL};

/* The globals' __index: a name the sandbox leaves out is an error saying so (not Lua's "attempt
 * to index a nil value"); any other missing global is nil, as in Lua. */
static int sb_global_index(lua_State *L)
{
    const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
    for (int i = 0; k && left_out[i]; i++)
        if (strcmp(k, left_out[i]) == 0) {
            luaL_where(L, 2);
            lua_pushfstring(L, "%s is left out of the sandbox: a script only computes (no files, "
                               "processes or modules; docs/lua.md, \"The sandbox\")", k);
            lua_concat(L, 2);
            return lua_error(L);
        }
    return 0;
}

static int sb_setup(lua_State *L)
{
    static const luaL_Reg libs[] = {
        {LUA_GNAME, luaopen_base},         {LUA_TABLIBNAME, luaopen_table},
        {LUA_STRLIBNAME, luaopen_string},  {LUA_MATHLIBNAME, luaopen_math},
        {LUA_UTF8LIBNAME, luaopen_utf8},   {NULL, NULL},
    };
    uint64_t seed = *(const uint64_t *)lua_touserdata(L, 1);
    for (const luaL_Reg *lib = libs; lib->func; lib++) {
        luaL_requiref(L, lib->name, lib->func, 1);
        lua_pop(L, 1);
    }
    lua_pushglobaltable(L);
    int g = lua_gettop(L);
    drop(L, g, "dofile");
    drop(L, g, "loadfile");
    wrap(L, g, "load", guard_load);
    wrap(L, g, "setmetatable", guard_setmetatable);
    wrap(L, g, "collectgarbage", guard_collectgarbage);
    lua_pushcfunction(L, guard_pcall);
    lua_setfield(L, g, "pcall");
    lua_pushcfunction(L, guard_xpcall);
    lua_setfield(L, g, "xpcall");
    lua_pushcfunction(L, sb_print);
    lua_setfield(L, g, "print");
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, sb_global_index);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, g);

    lua_getfield(L, g, LUA_STRLIBNAME);
    int s = lua_gettop(L);
    drop(L, s, "dump");
    wrap(L, s, "rep", guard_rep);
    wrap(L, s, "find", guard_find);
    wrap(L, s, "match", guard_match);
    wrap(L, s, "gmatch", guard_gmatch);
    wrap(L, s, "gsub", guard_gsub);
    lua_pushliteral(L, "");
    lua_getmetatable(L, -1);   /* strings' metatable: getmetatable("") gives false */
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 3);

    lua_getfield(L, g, LUA_TABLIBNAME);
    int t = lua_gettop(L);
    wrap(L, t, "move", guard_move);
    wrap(L, t, "sort", guard_sort);
    wrap(L, t, "insert", guard_insert);
    wrap(L, t, "remove", guard_remove);
    lua_pop(L, 1);

    lua_getfield(L, g, LUA_MATHLIBNAME);
    int m = lua_gettop(L);
    lua_getfield(L, m, "randomseed");
    lua_pushinteger(L, (lua_Integer)(seed & 0x7fffffffffffffffULL));
    lua_pushinteger(L, (lua_Integer)(seed >> 63));
    lua_call(L, 2, 0);
    wrap(L, m, "randomseed", guard_randomseed);
    lua_pop(L, 1);

    open_rng(L);
    lua_createtable(L, 0, 4);
    lua_pushliteral(L, HETCAST_VERSION);
    lua_setfield(L, -2, "version");
    lua_pushcfunction(L, rng_new);
    lua_setfield(L, -2, "random");
    lua_setfield(L, g, "hetcast");
    lua_pop(L, 1);
    return 0;
}

struct sandbox *sandbox_new(const char *path, const struct sandbox_limits *lim, uint64_t seed,
                            char **cause)
{
    struct sandbox *sb = xcalloc(1, sizeof *sb);
    sb->path = xstrdup(path ? path : "(script)");
    sb->seed = seed;
    long long mem = lim && lim->memory > 0 ? lim->memory : SANDBOX_DEFAULT_MEMORY;
    if (mem < SANDBOX_MIN_MEMORY)
        mem = SANDBOX_MIN_MEMORY;
    if ((unsigned long long)mem > (unsigned long long)(SIZE_MAX / 4))
        mem = (long long)(SIZE_MAX / 4);
    sb->mem_cap = (size_t)mem;
    sb->mem_hard = 2 * sb->mem_cap + GRACE_BYTES;
    sb->budget = lim && lim->instructions > 0 ? lim->instructions : SANDBOX_DEFAULT_INSTRUCTIONS;
    sb->seconds = fmax(SANDBOX_MIN_SECONDS, (double)sb->budget * 1e-6);
    sb->total_budget = (double)sb->budget * (double)SANDBOX_TOTAL_CALLS;
    sb->cancel = lim ? lim->cancel : NULL;
    lua_State *L = lua_newstate(sb_alloc, sb);
    if (!L) {
        set_cause(cause, "%s: cannot create a Lua state", sb->path);
        pool_free_all(sb);
        free(sb->path);
        free(sb);
        return NULL;
    }
    sb->L = L;
    *(struct sandbox **)lua_getextraspace(L) = sb;
    lua_atpanic(L, sb_panic);
    lua_pushcfunction(L, sb_setup);
    lua_pushlightuserdata(L, &seed);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
        set_cause(cause, "%s: cannot set up the Lua sandbox: %s", sb->path,
                  lua_tostring(L, -1) ? lua_tostring(L, -1) : "?");
        sandbox_free(sb);
        return NULL;
    }
    return sb;
}

void sandbox_free(struct sandbox *sb)
{
    if (!sb)
        return;
    if (sb->L) {
        lua_sethook(sb->L, NULL, 0, 0);
        lua_close(sb->L);
    }
    pool_free_all(sb);
    free(sb->path);
    free(sb->fatal);
    free(sb);
}

/* ---- running ---- */

/* Does the first line of msg hold a "something:LINE:" location? */
static bool has_location(const char *msg)
{
    const char *end = strchr(msg, '\n');
    if (!end)
        end = msg + strlen(msg);
    for (const char *c = msg; c < end; c++) {
        if (*c != ':')
            continue;
        const char *d = c + 1;
        if (d < end && *d >= '0' && *d <= '9') {
            while (d < end && *d >= '0' && *d <= '9')
                d++;
            if (d < end && *d == ':')
                return true;
        }
    }
    return false;
}

/* lua.c's msghandler, plus the script's file:line when the message has none. */
static int sb_msghandler(lua_State *L)
{
    struct sandbox *sb = sandbox_of(L);
    if (sb->preformatted) {
        sb->preformatted = false;
        return 1;
    }
    const char *msg = lua_tostring(L, 1);
    if (!msg)
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    if (!has_location(msg)) {
        char where[LUA_IDSIZE + 24];
        where_at(L, 1, where, sizeof where);
        msg = lua_pushfstring(L, "%s %s", where[0] ? where : sb->path, msg);
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

int sandbox_run(struct sandbox *sb, lua_CFunction fn, void *ud, char **cause)
{
    lua_State *L = sb->L;
    if (sb->stop != SANDBOX_RUNNING)
        return set_cause(cause, "%s", sb->fatal ? sb->fatal : "the script failed earlier");
    if (!lua_checkstack(L, 4))
        return set_cause(cause, "%s: the Lua stack is full", sb->path);
    int base = lua_gettop(L);
    lua_pushcfunction(L, sb_msghandler);
    lua_pushcfunction(L, fn);
    lua_pushlightuserdata(L, ud);
    sb->used = 0;
    sb->granted = 0;
    sb->run_seconds = sb->seconds;
    sb->tramp = fn;
    sb->watch_return = false;
    sb->preformatted = false;
    sb->ret_where[0] = '\0';
    sb->deadline = now_seconds() + sb->seconds;
    sb->in_run = true;
    sb->mem_armed = over_cap(sb);
    set_hook(sb, LUA_MASKCOUNT, sb->mem_armed ? 1 : tick_for(sb));
    int status = lua_pcall(L, 1, 0, base + 1);
    sb->total_used += sb->used;
    sb->total_granted += sb->granted;
    sb->in_run = false;
    sb->watch_return = false;
    lua_sethook(L, NULL, 0, 0);
    if (status == LUA_OK && sb->stop == SANDBOX_RUNNING) {
        lua_settop(L, base);
        return 0;
    }
    if (sb->stop > SANDBOX_ERROR && sb->fatal) {
        set_cause(cause, "%s", sb->fatal);
    } else if (status == LUA_ERRMEM) {
        char cap[32], asked[32];
        format_size(cap, sizeof cap, (double)sb->mem_cap);
        format_size(asked, sizeof asked, (double)sb->refused);
        sb->stop = SANDBOX_MEMORY;
        set_cause(cause,
                  "%s: memory limit exceeded: an allocation of %s was refused (the limit is "
                  "%s; --lua-memory)\nstack traceback:\n\t(Lua unwinds out-of-memory errors "
                  "without one; the script was last seen at %s)",
                  sb->seen_where[0] ? sb->seen_where : sb->path, asked, cap,
                  sb->seen_where[0] ? sb->seen_where : "its start");
    } else {
        const char *msg = lua_tostring(L, -1);
        set_cause(cause, "%s", msg ? msg : "error without a message");
    }
    if (sb->stop == SANDBOX_RUNNING)
        sb->stop = SANDBOX_ERROR;
    lua_settop(L, base);
    return -1;
}

void sandbox_load(lua_State *L)
{
    struct sandbox *sb = sandbox_of(L);
    if (luaL_loadfilex(L, sb->path, "t") != LUA_OK) {
        sb->preformatted = true;   /* "file:line: syntax error": nothing ran, no traceback */
        lua_error(L);
    }
}

void sandbox_call_quiet(lua_State *L, int nargs, int nresults)
{
    lua_call(L, nargs, nresults);
}

void sandbox_call(lua_State *L, int nargs, int nresults)
{
    struct sandbox *sb = sandbox_of(L);
    sb->watch_return = true;
    sb->ret_where[0] = '\0';
    set_hook(sb, LUA_MASKCOUNT | LUA_MASKRET, sb->count);
    lua_call(L, nargs, nresults);
    sb->watch_return = false;
    set_hook(sb, LUA_MASKCOUNT, sb->count);
}

int sandbox_return_error(lua_State *L, const char *fmt, ...)
{
    struct sandbox *sb = sandbox_of(L);
    char what[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    lua_getfield(L, LUA_REGISTRYINDEX, KEY_RETURN_TB);
    const char *tb = lua_tostring(L, -1);
    if (sb->ret_where[0])
        lua_pushfstring(L, "%s %s\n%s", sb->ret_where, what, tb ? tb : "stack traceback:");
    else
        lua_pushfstring(L, "%s: %s", sb->path, what);
    sb->preformatted = true;
    return lua_error(L);
}

int sandbox_param(lua_State *L, const char *key, const char *v)
{
    int dt = lua_type(L, 2);
    if (!v) {
        if (dt == LUA_TNONE || dt == LUA_TNIL)
            return luaL_error(L, "param: this script needs --param %s=VALUE", key);
        lua_settop(L, 2);
        return 1;
    }
    if (dt == LUA_TSTRING) {
        lua_pushstring(L, v);
    } else if (dt == LUA_TBOOLEAN) {
        if (strcmp(v, "true") == 0 || strcmp(v, "yes") == 0 || strcmp(v, "1") == 0)
            lua_pushboolean(L, 1);
        else if (strcmp(v, "false") == 0 || strcmp(v, "no") == 0 || strcmp(v, "0") == 0)
            lua_pushboolean(L, 0);
        else
            return luaL_error(L, "param: --param %s=%s is not true or false", key, v);
    } else if (lua_stringtonumber(L, v) == 0) {
        if (dt == LUA_TNUMBER)
            return luaL_error(L, "param: --param %s=%s is not a number", key, v);
        lua_pushstring(L, v);
    }
    return 1;
}
