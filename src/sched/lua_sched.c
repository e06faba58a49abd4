/*
 * sched/lua_sched.c - Lua heuristics as engine policies (sched/lua_sched.h).
 *
 * prepare() makes a sandbox, runs the script once and keeps its choose
 * function; choose() calls it through sandbox_run() with a fresh state
 * object.  The view the script gets is read-only by construction: the state
 * ("hetcast.state") and the nodes ("hetcast.node") are userdata whose
 * fields are read from the engine when asked; the lists it hands out
 * (state.nodes, .holders, .waiting, .transfers) are fresh tables built once
 * per call, the script's own to sort.  A state object is only valid during
 * the call it was passed to; node objects are cached (one per node), so
 * they compare with ==.
 *
 * Cost: a call costs O(n) for each list the script asks for; a decision
 * named by a string costs O(n) to look up.
 */
#include "sched/lua_sched.h"

#include <dirent.h>
#include <errno.h>
#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/diag.h"
#include "support/lua_sandbox.h"

#define MT_NODE "hetcast.node"
#define MT_STATE "hetcast.state"
#define KEY_NODES "hetcast.node_cache"

struct queued {
    int from, to;
    char *reason;
};

struct lua_policy {
    struct sched *s;
    const struct engine *e;
    struct sandbox *sb;
    const char *path;
    char name[64];          /* the script's base name, as reports show it */
    int choose_ref;
    unsigned call;          /* choose calls so far; a state is valid in its own */
    struct decision *d;     /* where the running call puts its decision */
    struct queued *q;       /* a tree being handed out */
    int qn, qnext;
};

struct state_ud {
    unsigned call;
};

struct node_ud {
    int index;
};

/* ---- the -s FILE.lua ops tables ---- */

struct slot {
    struct sched_ops ops;
    char name[64];
    char summary[128];
    char path[4096];
};

static struct slot slots[LUA_SCHED_MAX_SCRIPTS];
static int nslots;

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

static const struct slot *slot_of(const struct sched_ops *ops)
{
    for (int i = 0; i < nslots; i++)
        if (ops == &slots[i].ops)
            return &slots[i];
    return NULL;
}

bool lua_sched_is(const struct sched_ops *ops)
{
    return ops == &sched_lua || slot_of(ops) != NULL;
}

const char *lua_sched_script(const struct sched_ops *ops)
{
    const struct slot *sl = slot_of(ops);
    return sl ? sl->path : NULL;
}

static bool is_dir(const char *path)
{
    DIR *d = path ? opendir(path) : NULL;
    if (d)
        closedir(d);
    return d != NULL;
}

static char *bundled_dir;   /* lua_sched_set_dir */

void lua_sched_set_dir(const char *dir)
{
    free(bundled_dir);
    bundled_dir = dir ? xstrdup(dir) : NULL;
}

/* The directory of the bundled heuristics, or NULL if none is set or it is gone. */
static const char *lua_sched_dir(void)
{
    return is_dir(bundled_dir) ? bundled_dir : NULL;
}

const struct sched_ops *lua_sched_ops(const char *name, char **cause)
{
    char found[4096];
    const char *path = name;
    if (access(name, R_OK) != 0) {
        int err = errno;
        const char *dir = lua_sched_dir();
        if (!strchr(name, '/') && dir &&
            text_fit(found, sizeof found, "%s/%s", dir, name) < (int)sizeof found &&
            access(found, R_OK) == 0) {
            path = found;
        } else {
            struct lua_sched_info *list;
            int n = lua_sched_list(&list);
            char names[1024] = "";
            for (int i = 0; i < n; i++) {
                if (i)
                    strncat(names, ", ", sizeof names - strlen(names) - 1);
                strncat(names, list[i].name, sizeof names - strlen(names) - 1);
            }
            lua_sched_list_free(list, n);
            return set_cause(cause, "cannot read the Lua heuristic %s: %s%s%s", name,
                             strerror(err), n ? "; bundled ones: " : "", names),
                   NULL;
        }
    }
    if (strlen(path) >= sizeof slots[0].path)
        return set_cause(cause, "%s: the path is too long", name), NULL;
    for (int i = 0; i < nslots; i++)
        if (strcmp(slots[i].path, path) == 0)
            return &slots[i].ops;
    if (nslots == LUA_SCHED_MAX_SCRIPTS)
        return set_cause(cause, "too many Lua heuristics in one run (at most %d)",
                         LUA_SCHED_MAX_SCRIPTS), NULL;
    struct slot *sl = &slots[nslots++];
    text_fit(sl->path, sizeof sl->path, "%s", path);
    text_fit(sl->name, sizeof sl->name, "%s", base_name(path));
    text_fit(sl->summary, sizeof sl->summary, "the Lua heuristic %s", path);
    sl->ops = sched_lua;
    sl->ops.name = sl->name;
    sl->ops.summary = sl->summary;
    return &sl->ops;
}

/* ---- bundled heuristics ---- */

/* The first comment line of a script, after "-- name - ". */
static char *summary_of(const char *path)
{
    FILE *fp = fopen(path, "r");
    char line[512] = "";
    if (fp) {
        if (!fgets(line, sizeof line, fp))
            line[0] = '\0';
        fclose(fp);
    }
    line[strcspn(line, "\r\n")] = '\0';
    const char *s = line;
    if (strncmp(s, "--", 2) != 0)
        return xstrdup("");
    s += 2;
    const char *dash = strstr(s, " - ");
    s = dash ? dash + 3 : s;
    while (*s == ' ')
        s++;
    return xstrdup(s);
}

static int cmp_info(const void *a, const void *b)
{
    return strcmp(((const struct lua_sched_info *)a)->name, ((const struct lua_sched_info *)b)->name);
}

int lua_sched_list(struct lua_sched_info **out)
{
    *out = NULL;
    const char *dir = lua_sched_dir();
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d)
        return 0;
    int n = 0, cap = 0;
    struct lua_sched_info *list = NULL;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len < 5 || strcmp(de->d_name + len - 4, ".lua") != 0 || de->d_name[0] == '.' ||
            strcmp(de->d_name, "prelude.lua") == 0)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 8;
            list = xrealloc(list, (size_t)cap * sizeof *list);
        }
        list[n].path = xasprintf("%s/%s", dir, de->d_name);
        list[n].name = xstrdup(de->d_name);
        list[n].summary = summary_of(list[n].path);
        n++;
    }
    closedir(d);
    if (n > 1)
        qsort(list, (size_t)n, sizeof *list, cmp_info);
    *out = list;
    return n;
}

void lua_sched_list_free(struct lua_sched_info *list, int n)
{
    for (int i = 0; i < n; i++) {
        free(list[i].path);
        free(list[i].name);
        free(list[i].summary);
    }
    free(list);
}

/* ---- the view: node objects ---- */

static struct lua_policy *policy_of(lua_State *L)
{
    return lua_touserdata(L, lua_upvalueindex(1));
}

/* Push node i's object; cache is the stack index of the node cache table. */
static void push_cached_node(lua_State *L, int cache, int i)
{
    if (lua_rawgeti(L, cache, i + 1) == LUA_TNIL) {
        lua_pop(L, 1);
        struct node_ud *nu = lua_newuserdatauv(L, sizeof *nu, 0);
        nu->index = i;
        luaL_setmetatable(L, MT_NODE);
        lua_pushvalue(L, -1);
        lua_rawseti(L, cache, i + 1);
    }
}

static void push_node(lua_State *L, int i)
{
    lua_getfield(L, LUA_REGISTRYINDEX, KEY_NODES);
    push_cached_node(L, lua_gettop(L), i);
    lua_remove(L, -2);
}

static void push_opt_string(lua_State *L, const char *s)
{
    if (s)
        lua_pushstring(L, s);
    else
        lua_pushnil(L);
}

/* What a node object and the state object answer to (node_value and state_index). */
static const char *const node_fields[] = {"name", "index", "send", "recv", "holds", "waiting", "hold", "ready",
                                          "send_free", "recv_free", "parent", "is_source", "class", "group",
                                          NULL};
static const char *const state_fields[] = {"nodes", "holders", "waiting", "transfers", "n", "now", "time",
                                           "step", "nwaiting", "nholders", "source", "model", "kind",
                                           "latency", "unit", "makespan", "seed", "cluster", "cost",
                                           "earliest", "node", NULL};

/* k read from an engine object (what: "node", "state") that has no such field: an error naming
 * it, the nearest real one and the list (a misspelling would read nil and fail far away). */
static int no_such_field(lua_State *L, const char *what, const char *k, const char *const *fields)
{
    for (const char *const *f = fields; *f; f++)
        if (strcmp(*f, k) == 0)
            return 0;   /* a real field, nil now (a waiting node's hold) */
    char list[400] = "";
    for (const char *const *f = fields; *f; f++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", f == fields ? "" : ", ", *f);
    const char *near = text_nearest(k, fields, -1);
    char shown[96];
    luaL_where(L, 2);
    if (near)
        lua_pushfstring(L, "%s has no field \"%s\" (the nearest: \"%s\"; a %s has %s)", what,
                        diag_shown(k, shown, sizeof shown), near, what, list);
    else
        lua_pushfstring(L, "%s has no field \"%s\" (a %s has %s)", what, diag_shown(k, shown, sizeof shown),
                        what, list);
    lua_concat(L, 2);
    return lua_error(L);
}

static int node_value(lua_State *L, struct lua_policy *lp, const struct node_ud *nu, const char *k);

static int node_index(lua_State *L)
{
    struct lua_policy *lp = policy_of(L);
    /* Only the locked "hetcast.node" metatable holds this function, so
     * argument 1 is one of ours (luaL_checkudata would cost a quarter of a
     * policy's time). */
    const struct node_ud *nu = lua_touserdata(L, 1);
    if (!nu || lua_type(L, 2) != LUA_TSTRING)
        return 0;
    const char *k = lua_tostring(L, 2);
    int n = node_value(L, lp, nu, k);
    return n ? n : no_such_field(L, "node", k, node_fields);
}

/* Dispatched on the first letter: the loops of a policy read these a lot.  0: nil, or no such
 * field. */
static int node_value(lua_State *L, struct lua_policy *lp, const struct node_ud *nu, const char *k)
{
    const struct engine *e = lp->e;
    int i = nu->index;
    const struct node *nd = &e->c->nodes[i];
    bool holds = engine_holds(e, i, 0);
    switch (k[0]) {
    case 'c':
        if (strcmp(k, "class") != 0)
            return 0;
        push_opt_string(L, cluster_class(e->c, i));
        return 1;
    case 'g':
        if (strcmp(k, "group") != 0)
            return 0;
        push_opt_string(L, cluster_group(e->c, i));
        return 1;
    case 'h':
        if (strcmp(k, "holds") == 0)
            lua_pushboolean(L, holds);
        else if (strcmp(k, "hold") == 0 && holds)
            lua_pushnumber(L, engine_hold_time(e, i, 0));
        else
            return 0;
        return 1;
    case 'i':
        if (strcmp(k, "index") == 0)
            lua_pushinteger(L, i + 1);
        else if (strcmp(k, "is_source") == 0)
            lua_pushboolean(L, i == e->c->source);
        else
            return 0;
        return 1;
    case 'n':
        if (strcmp(k, "name") != 0)
            return 0;
        lua_pushstring(L, nd->name);
        return 1;
    case 'p':
        if (strcmp(k, "parent") != 0 || e->parent[i] < 0)
            return 0;
        push_node(L, e->parent[i]);
        return 1;
    case 'r':
        if (strcmp(k, "ready") == 0 && holds)
            lua_pushnumber(L, engine_ready(e, i, 0));
        else if (strcmp(k, "recv") == 0)
            lua_pushnumber(L, nd->recv);
        else if (strcmp(k, "recv_free") == 0)
            lua_pushnumber(L, e->recv_free[i]);
        else
            return 0;
        return 1;
    case 's':
        if (strcmp(k, "send") == 0)
            lua_pushnumber(L, nd->send);
        else if (strcmp(k, "send_free") == 0)
            lua_pushnumber(L, e->send_free[i]);
        else
            return 0;
        return 1;
    case 'w':
        if (strcmp(k, "waiting") != 0)
            return 0;
        lua_pushboolean(L, !holds);
        return 1;
    default:
        return 0;
    }
}

static int node_tostring(lua_State *L)
{
    struct lua_policy *lp = policy_of(L);
    const struct node_ud *nu = luaL_checkudata(L, 1, MT_NODE);
    lua_pushstring(L, lp->e->c->nodes[nu->index].name);
    return 1;
}

static int node_concat(lua_State *L)
{
    luaL_tolstring(L, 1, NULL);
    luaL_tolstring(L, 2, NULL);
    lua_concat(L, 2);
    return 1;
}

static int read_only(lua_State *L)
{
    return luaL_error(L, "the engine's state is read-only: a policy answers with its decision "
                         "(build your own tables for anything else)");
}

/* ---- the view: the state object ---- */

static struct state_ud *check_state(lua_State *L, struct lua_policy *lp)
{
    struct state_ud *su = luaL_checkudata(L, 1, MT_STATE);
    if (su->call != lp->call)
        luaL_error(L, "this state belongs to an earlier decision (decision %d); use the state "
                      "passed to the current call", (int)su->call);
    return su;
}

/* A node named by a node object, a 1-based index or a name; -1 if none. */
static int to_node(lua_State *L, const struct engine *e, int idx)
{
    const struct node_ud *nu = luaL_testudata(L, idx, MT_NODE);
    if (nu)
        return nu->index;
    if (lua_type(L, idx) == LUA_TNUMBER) {
        double x = lua_tonumber(L, idx);
        if (x == floor(x) && x >= 1 && x <= e->n)
            return (int)x - 1;
        return -1;
    }
    if (lua_type(L, idx) == LUA_TSTRING)
        return cluster_find(e->c, lua_tostring(L, idx));
    return -1;
}

static int arg_node(lua_State *L, struct lua_policy *lp, int idx)
{
    int k = to_node(L, lp->e, idx);
    if (k < 0)
        luaL_argerror(L, idx, "not a node (give a node, a 1-based index or a name)");
    return k;
}

static void set_num(lua_State *L, const char *field, double x)
{
    lua_pushnumber(L, x);
    lua_setfield(L, -2, field);
}

static void push_timing(lua_State *L, const struct transfer *t)
{
    set_num(L, "start", t->start);
    set_num(L, "send_end", t->send_end);
    set_num(L, "link_start", t->link_start);
    set_num(L, "link_end", t->link_end);
    set_num(L, "recv_start", t->recv_start);
    set_num(L, "recv_end", t->recv_end);
    set_num(L, "hold", t->hold);
    set_num(L, "free", t->free);
}

/* state:cost(q, p) -> {s=, l=, r=, T=} or nil when there is no link. */
static int state_cost(lua_State *L)
{
    struct lua_policy *lp = policy_of(L);
    check_state(L, lp);
    int q = arg_node(L, lp, 2), p = arg_node(L, lp, 3);
    struct cost k;
    if (q == p || !timing_cost(lp->e->c, q, p, &k))
        return 0;
    lua_createtable(L, 0, 5);
    set_num(L, "s", k.s);
    set_num(L, "l", k.l);
    set_num(L, "r", k.r);
    set_num(L, "T", k.T);
    set_num(L, "send_mp", k.send_mp);
    return 1;
}

/* state:earliest(q, p) -> what booking q -> p now would give, or nil if it cannot be booked. */
static int state_earliest(lua_State *L)
{
    struct lua_policy *lp = policy_of(L);
    check_state(L, lp);
    int q = arg_node(L, lp, 2), p = arg_node(L, lp, 3);
    struct transfer t;
    if (q == p || engine_holds(lp->e, p, 0) || engine_earliest(lp->e, q, p, 0, &t) < 0)
        return 0;
    lua_createtable(L, 0, 8);
    push_timing(L, &t);
    return 1;
}

/* state:node(x) -> the node object, or nil. */
static int state_node(lua_State *L)
{
    struct lua_policy *lp = policy_of(L);
    check_state(L, lp);
    int k = to_node(L, lp->e, 2);
    if (k < 0)
        return 0;
    push_node(L, k);
    return 1;
}

/* Build the list `key` (nodes, holders, waiting, transfers); false if no such list. */
static bool push_list(lua_State *L, struct lua_policy *lp, const char *key)
{
    const struct engine *e = lp->e;
    int which = strcmp(key, "nodes") == 0 ? 0 : strcmp(key, "holders") == 0 ? 1
              : strcmp(key, "waiting") == 0 ? 2 : strcmp(key, "transfers") == 0 ? 3 : -1;
    if (which < 0)
        return false;
    if (which == 3) {
        lua_createtable(L, e->ntr, 0);
        for (int i = 0; i < e->ntr; i++) {
            const struct transfer *t = &e->tr[i];
            lua_createtable(L, 0, 12);
            lua_pushinteger(L, i + 1);
            lua_setfield(L, -2, "seq");
            push_node(L, t->from);
            lua_setfield(L, -2, "from");
            push_node(L, t->to);
            lua_setfield(L, -2, "to");
            push_timing(L, t);
            char *tmp;
            lua_pushstring(L, engine_reason(e, t, &tmp));
            free(tmp);
            lua_setfield(L, -2, "reason");
            lua_rawseti(L, -2, i + 1);
        }
        return true;
    }
    lua_getfield(L, LUA_REGISTRYINDEX, KEY_NODES);
    int cache = lua_gettop(L);
    lua_createtable(L, which == 2 ? e->nwaiting : which == 1 ? e->n - e->nwaiting : e->n, 0);
    int k = 0;
    for (int i = 0; i < e->n; i++) {
        bool holds = engine_holds(e, i, 0);
        if (which == 0 || (which == 1 && holds) || (which == 2 && !holds)) {
            push_cached_node(L, cache, i);
            lua_rawseti(L, -2, ++k);
        }
    }
    lua_remove(L, cache);
    return true;
}

static const char *kind_word(enum cluster_kind k)
{
    return k == CLUSTER_MATRIX ? "matrix" : k == CLUSTER_GRAPH ? "graph" : "nodes";
}

static int state_index(lua_State *L)
{
    struct lua_policy *lp = policy_of(L);
    const struct state_ud *su = lua_touserdata(L, 1);   /* ours: see node_index */
    if (!su)
        return 0;
    if (su->call != lp->call)
        check_state(L, lp);   /* raises the message */
    if (lua_type(L, 2) != LUA_TSTRING)
        return 0;
    const char *k = lua_tostring(L, 2);
    const struct engine *e = lp->e;
    lua_getiuservalue(L, 1, 1);   /* this call's lists */
    lua_pushvalue(L, 2);
    if (lua_rawget(L, -2) != LUA_TNIL)
        return 1;
    lua_pop(L, 1);
    if (push_list(L, lp, k)) {
        lua_pushvalue(L, 2);
        lua_pushvalue(L, -2);
        lua_rawset(L, -4);
        return 1;
    }
    if (strcmp(k, "n") == 0) {
        lua_pushinteger(L, e->n);
    } else if (strcmp(k, "now") == 0 || strcmp(k, "time") == 0) {
        double now = INFINITY;
        for (int i = 0; i < e->n; i++)
            if (engine_holds(e, i, 0) && engine_ready(e, i, 0) < now)
                now = engine_ready(e, i, 0);
        lua_pushnumber(L, now);
    } else if (strcmp(k, "step") == 0) {
        lua_pushinteger(L, e->ntr + 1);
    } else if (strcmp(k, "nwaiting") == 0) {
        lua_pushinteger(L, e->nwaiting);
    } else if (strcmp(k, "nholders") == 0) {
        lua_pushinteger(L, e->n - e->nwaiting);
    } else if (strcmp(k, "source") == 0) {
        push_node(L, e->c->source);
    } else if (strcmp(k, "model") == 0) {
        lua_pushstring(L, model_name(e->model));
    } else if (strcmp(k, "kind") == 0) {
        lua_pushstring(L, kind_word(e->c->kind));
    } else if (strcmp(k, "latency") == 0) {
        lua_pushnumber(L, e->c->latency);
    } else if (strcmp(k, "unit") == 0) {
        lua_pushnumber(L, e->c->unit);
    } else if (strcmp(k, "makespan") == 0) {
        lua_pushnumber(L, e->makespan);
    } else if (strcmp(k, "seed") == 0) {
        lua_pushinteger(L, (lua_Integer)lp->s->opt.seed);
    } else if (strcmp(k, "cluster") == 0) {
        push_opt_string(L, e->c->name);
    } else if (strcmp(k, "cost") == 0 || strcmp(k, "earliest") == 0 || strcmp(k, "node") == 0) {
        lua_pushlightuserdata(L, lp);
        lua_pushcclosure(L, k[0] == 'c' ? state_cost : k[0] == 'e' ? state_earliest : state_node,
                         1);
        lua_pushvalue(L, 2);   /* kept for the rest of the call, like the lists */
        lua_pushvalue(L, -2);
        lua_rawset(L, -4);
    } else {
        return no_such_field(L, "state", k, state_fields);
    }
    return 1;
}

static void push_state(lua_State *L, struct lua_policy *lp)
{
    struct state_ud *su = lua_newuserdatauv(L, sizeof *su, 1);
    su->call = lp->call;
    luaL_setmetatable(L, MT_STATE);
    lua_newtable(L);
    lua_setiuservalue(L, -2, 1);
}

static void make_metatable(lua_State *L, struct lua_policy *lp, const char *name,
                           const luaL_Reg *fns)
{
    luaL_newmetatable(L, name);
    for (; fns->name; fns++) {
        lua_pushlightuserdata(L, lp);
        lua_pushcclosure(L, fns->func, 1);
        lua_setfield(L, -2, fns->name);
    }
    lua_pushstring(L, name);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
}

/* ---- running the script ---- */

/* The value of --param key (the last given), or NULL. */
static const char *param_value(const struct lua_policy *lp, const char *key)
{
    size_t len = strlen(key);
    const char *v = NULL;
    for (int i = 0; i < lp->s->opt.nparams; i++)
        if (!strncmp(lp->s->opt.params[i], key, len) && lp->s->opt.params[i][len] == '=')
            v = lp->s->opt.params[i] + len + 1;
    return v;
}

/* param(name [, default]): --param name's value, converted like the default (as in a cluster
 * script). */
static int api_param(lua_State *L)
{
    const struct lua_policy *lp = lua_touserdata(L, lua_upvalueindex(1));
    const char *key = luaL_checkstring(L, 1);
    return sandbox_param(L, key, param_value(lp, key));
}

/* The globals param and params (every --param as text, the script's own table). */
static void set_params(lua_State *L, struct lua_policy *lp)
{
    lua_pushlightuserdata(L, lp);
    lua_pushcclosure(L, api_param, 1);
    lua_setglobal(L, "param");
    lua_newtable(L);
    for (int i = 0; i < lp->s->opt.nparams; i++) {
        const char *kv = lp->s->opt.params[i], *eq = strchr(kv, '=');
        if (!eq)
            continue;
        lua_pushlstring(L, kv, (size_t)(eq - kv));
        lua_pushstring(L, eq + 1);
        lua_rawset(L, -3);
    }
    lua_setglobal(L, "params");
}

static int load_policy(lua_State *L)
{
    static const luaL_Reg node_mt[] = {
        {"__index", node_index}, {"__newindex", read_only}, {"__tostring", node_tostring},
        {"__concat", node_concat}, {NULL, NULL},
    };
    static const luaL_Reg state_mt[] = {
        {"__index", state_index}, {"__newindex", read_only}, {NULL, NULL},
    };
    struct lua_policy *lp = lua_touserdata(L, 1);
    make_metatable(L, lp, MT_NODE, node_mt);
    make_metatable(L, lp, MT_STATE, state_mt);
    set_params(L, lp);
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, KEY_NODES);
    int base = lua_gettop(L);
    sandbox_load(L);
    sandbox_call(L, 0, 1);
    if (lua_type(L, -1) == LUA_TTABLE) {
        lua_getfield(L, -1, "choose");
        if (lua_type(L, -1) != LUA_TFUNCTION)
            return sandbox_return_error(L, "the table the script returns has no choose "
                                           "function (return {choose = function(state) ... end})");
    } else if (lua_type(L, -1) != LUA_TFUNCTION) {
        if (lua_type(L, -1) != LUA_TNIL)
            return sandbox_return_error(L, "the script returned a %s; a heuristic returns a "
                                           "table {choose = function(state) ... end}, a function, "
                                           "or defines a global function choose(state)",
                                        luaL_typename(L, -1));
        lua_getglobal(L, "choose");
        if (lua_type(L, -1) != LUA_TFUNCTION)
            return sandbox_return_error(L, "the script defines no choose function: end it with "
                                           "return {choose = function(state) ... end}, or "
                                           "define a global function choose(state)");
    }
    lp->choose_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_settop(L, base);
    return 0;
}

/* The node a decision names, or an error located at the script's return. */
static int decision_node(lua_State *L, struct lua_policy *lp, int idx, const char *role,
                         const char *pair)
{
    const struct engine *e = lp->e;
    int t = lua_type(L, idx);
    int k = to_node(L, e, idx);
    if (k >= 0)
        return k;
    if (t == LUA_TSTRING)
        sandbox_return_error(L, "bad decision %d: %s%s \"%s\" is not a node of %s", lp->e->ntr + 1, pair, role,
                             lua_tostring(L, idx), e->c->name ? e->c->name : "this cluster");
    if (t == LUA_TNUMBER)
        sandbox_return_error(L, "bad decision %d: %s%s %s is not a node index (1..%d)", lp->e->ntr + 1, pair, role,
                             lua_tostring(L, idx), e->n);
    return sandbox_return_error(L, "bad decision %d: %s%s is a %s; give a node, a 1-based index or "
                                   "a name", lp->e->ntr + 1, pair, role, luaL_typename(L, idx));
}

/* Can from send to to, given who holds the message (holds[])? */
static void check_pair(lua_State *L, struct lua_policy *lp, const unsigned char *holds, int from,
                       int to, const char *pair)
{
    const struct engine *e = lp->e;
    const char *fn = e->c->nodes[from].name, *tn = e->c->nodes[to].name;
    struct cost k;
    if (!holds[from])
        sandbox_return_error(L, "bad decision %d: %sthe sender %s does not hold the message (it "
                                "is still waiting), so it cannot send it", lp->e->ntr + 1, pair, fn);
    if (holds[to]) {
        if (to == e->c->source)
            sandbox_return_error(L, "bad decision %d: %sthe receiver %s is the source: it has "
                                    "the message from the start", lp->e->ntr + 1, pair, tn);
        if (engine_holds(e, to, 0) && e->parent[to] >= 0)
            sandbox_return_error(L, "bad decision %d: %sthe receiver %s already has the message "
                                    "(from %s at t=%g)", lp->e->ntr + 1, pair, tn,
                                 e->c->nodes[e->parent[to]].name, engine_hold_time(e, to, 0));
        sandbox_return_error(L, "bad decision %d: %sthe receiver %s already has the message", lp->e->ntr + 1, pair,
                             tn);
    }
    if (!timing_cost(e->c, from, to, &k))
        sandbox_return_error(L, "bad decision %d: %sthere is no link from %s to %s", lp->e->ntr + 1, pair, fn, tn);
}

static const char *opt_reason(lua_State *L, struct lua_policy *lp, int idx, const char *pair)
{
    int t = lua_type(L, idx);
    if (t == LUA_TNONE || t == LUA_TNIL)
        return NULL;
    if (t != LUA_TSTRING)
        sandbox_return_error(L, "bad decision %d: %sthe reason must be a string (got a %s)", lp->e->ntr + 1, pair,
                             luaL_typename(L, idx));
    const char *r = lua_tostring(L, idx), *flaw = text_flaw(r);
    if (flaw || strlen(r) != lua_rawlen(L, idx))   /* it reaches SVG, JSON and terminals */
        sandbox_return_error(L, "bad decision %d: %sthe reason must be UTF-8 text without control "
                             "characters (it holds %s)", lp->e->ntr + 1, pair, flaw ? flaw : "a NUL byte");
    return r;
}

static void queue_free(struct lua_policy *lp)
{
    for (int i = 0; i < lp->qn; i++)
        free(lp->q[i].reason);
    free(lp->q);
    lp->q = NULL;
    lp->qn = lp->qnext = 0;
}

static void hand_out(struct lua_policy *lp, struct decision *d)
{
    const struct queued *x = &lp->q[lp->qnext++];
    d->from = x->from;
    d->to = x->to;
    d->msg = 0;
    if (x->reason)
        d->reason = xstrdup(x->reason);
    else
        d->reason = xasprintf("%s: %s -> %s (pair %d of the tree it returned)", lp->name, lp->e->c->nodes[x->from].name, lp->e->c->nodes[x->to].name, lp->qnext);
}

/* A whole tree: a list of {parent, child [, reason]}, checked in order. */
static void take_tree(lua_State *L, struct lua_policy *lp, int t)
{
    const struct engine *e = lp->e;
    lua_Unsigned n = lua_rawlen(L, t);
    if (n == 0)
        sandbox_return_error(L, "bad decision %d: choose returned an empty table (a tree is a list "
                                "of {parent, child} pairs)", lp->e->ntr + 1);
    unsigned char *holds = lua_newuserdatauv(L, (size_t)e->n, 0);
    for (int i = 0; i < e->n; i++)
        holds[i] = engine_holds(e, i, 0);
    queue_free(lp);
    for (lua_Unsigned i = 1; i <= n; i++) {
        char pair[48];
        text_fit(pair, sizeof pair, "pair %llu: ", (unsigned long long)i);
        if (lua_rawgeti(L, t, (lua_Integer)i) != LUA_TTABLE)
            sandbox_return_error(L, "bad decision %d: %sexpected a table {parent, child [, "
                                    "reason]}, got a %s", lp->e->ntr + 1, pair, luaL_typename(L, -1));
        int p = lua_gettop(L);
        lua_rawgeti(L, p, 1);
        lua_rawgeti(L, p, 2);
        lua_rawgeti(L, p, 3);
        int from = decision_node(L, lp, p + 1, "the parent", pair);
        int to = decision_node(L, lp, p + 2, "the child", pair);
        const char *reason = opt_reason(L, lp, p + 3, pair);
        check_pair(L, lp, holds, from, to, pair);
        holds[to] = 1;
        if (lp->qn % 64 == 0)
            lp->q = xrealloc(lp->q, ((size_t)lp->qn + 64) * sizeof *lp->q);
        lp->q[lp->qn].from = from;
        lp->q[lp->qn].to = to;
        lp->q[lp->qn].reason = reason ? xstrdup(reason) : NULL;
        lp->qn++;
        lua_settop(L, p - 1);
    }
}

static int call_choose(lua_State *L)
{
    struct lua_policy *lp = lua_touserdata(L, 1);
    const struct engine *e = lp->e;
    struct decision *d = lp->d;
    int base = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, lp->choose_ref);
    push_state(L, lp);
    sandbox_call(L, 1, LUA_MULTRET);
    int nres = lua_gettop(L) - base;
    if (nres == 0 || lua_isnil(L, base + 1))
        return sandbox_return_error(L, "bad decision %d: choose returned nothing while %d node%s "
                                       "still wait%s (return a sender and a receiver)", lp->e->ntr + 1,
                                    e->nwaiting, e->nwaiting == 1 ? "" : "s",
                                    e->nwaiting == 1 ? "s" : "");
    if (lua_type(L, base + 1) == LUA_TTABLE) {
        take_tree(L, lp, base + 1);
        hand_out(lp, d);
        return 0;
    }
    if (nres < 2 || lua_isnil(L, base + 2))
        return sandbox_return_error(L, "bad decision %d: choose returned a sender but no receiver", lp->e->ntr + 1);
    int from = decision_node(L, lp, base + 1, "the sender", "");
    int to = decision_node(L, lp, base + 2, "the receiver", "");
    const char *reason = opt_reason(L, lp, base + 3, "");
    unsigned char *holds = lua_newuserdatauv(L, (size_t)e->n, 0);
    holds[from] = engine_holds(e, from, 0);
    holds[to] = engine_holds(e, to, 0);
    check_pair(L, lp, holds, from, to, "");
    d->from = from;
    d->to = to;
    d->msg = 0;
    d->reason = reason ? xstrdup(reason)
                       : xasprintf("%s chose %s -> %s", lp->name, e->c->nodes[from].name,
                                   e->c->nodes[to].name);
    return 0;
}

static void policy_free(struct lua_policy *lp)
{
    queue_free(lp);
    sandbox_free(lp->sb);
    free(lp);
}

static int lua_prepare(struct sched *s, struct engine *e, char **cause)
{
    const char *path = s->opt.script ? s->opt.script : lua_sched_script(s->ops);
    if (!path)
        return set_cause(cause, "the lua scheduler needs a script: -s FILE.lua");
    struct lua_policy *lp = xcalloc(1, sizeof *lp);
    s->state = lp;
    lp->s = s;
    lp->e = e;
    lp->path = path;
    lp->choose_ref = LUA_NOREF;
    text_fit(lp->name, sizeof lp->name, "%s", base_name(path));
    struct sandbox_limits lim = {.instructions = s->opt.lua_instructions,
                                 .memory = s->opt.lua_memory, .cancel = s->opt.cancel};
    lp->sb = sandbox_new(path, &lim, s->opt.seed, cause);
    if (!lp->sb || sandbox_run(lp->sb, load_policy, lp, cause) < 0)
        return -1;
    return 0;
}

static int lua_choose(struct sched *s, const struct engine *e, struct decision *d, char **cause)
{
    struct lua_policy *lp = s->state;
    lp->e = e;
    if (lp->qnext < lp->qn) {
        hand_out(lp, d);
        return SCHED_DECIDED;
    }
    lp->d = d;
    lp->call++;
    if (sandbox_run(lp->sb, call_choose, lp, cause) < 0)
        return -1;
    return SCHED_DECIDED;
}

static void lua_finish(struct sched *s)
{
    policy_free(s->state);
    s->state = NULL;
}

const struct sched_ops sched_lua = {
    .name = "lua",
    .summary = "a heuristic written in Lua: -s FILE.lua (docs/lua.md)",
    .kinds = CLUSTER_KIND_BIT(CLUSTER_NODES) | CLUSTER_KIND_BIT(CLUSTER_MATRIX) |
             CLUSTER_KIND_BIT(CLUSTER_GRAPH),
    .models = MODEL_ALL,
    .randomized = true,
    .prepare = lua_prepare,
    .choose = lua_choose,
    .finish = lua_finish,
};
