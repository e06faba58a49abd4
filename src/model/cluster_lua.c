/*
 * model/cluster_lua.c - cluster scripts (model/cluster_lua.h): the API a script sees and
 * the assembly of its answers into the one struct cluster.
 *
 * The script talks to a builder (typed userdata "hetcast.builder", the
 * upvalue of every API function).  Nodes and edges go straight into the
 * struct cluster as they are declared, with the line of the call, so that
 * cluster_finish() names the script's lines in its messages; distances are
 * kept in a growing matrix (NaN: not given) until the script ends.  Each
 * node, edge and distance earns the script CLUSTER_LUA_GRANT instructions;
 * the C memory kept for nodes and edges is bounded by the caps of a cluster
 * file, checked at each call, and only long names and the latency matrix
 * count against the script's memory cap (model/cluster_lua.h).
 */
#include "model/cluster_lua.h"

#include <lauxlib.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "model/nameidx.h"
#include "model/targets.h"
#include "support/csvfield.h"

#define MT_BUILDER "hetcast.builder"
#define MT_PARAMS "hetcast.params"
#define UV_PARAMS 1   /* builder user value: every --param, as strings */
/* node()'s upvalues after the builder: its table's keys, made once (a key
 * given as a C string is looked up in Lua's string cache on every call). */
enum { KEY_NAME = 2, KEY_SEND, KEY_RECV, KEY_CLASS, KEY_GROUP, NODE_UPVALUES = KEY_GROUP };
static const char *const node_keys[] = {"name", "send", "recv", "class", "group"};
#define MAX_MISSING 5 /* missing distances reported one by one */
#define GRANT_WHAT "the nodes, edges and distances it made"

struct builder {
    struct cluster *c;
    double grant;           /* instructions a node, edge or distance earns */
    bool kind_set;
    int kind_line;          /* the call that fixed the kind */
    const char *kind_what;
    double *dm;             /* distances, dcap x dcap, row = from; NaN: not given */
    int dcap;
    int matrix_line;        /* first distance() or matrix() */
    bool *send_given;       /* per node: send given (graphs: the multi-port send time) */
    bool *recv_given;
    int ncap;
    bool *edge_send;        /* per edge: send given on the edge itself */
    int ecap;
    int latency_line, unit_line, recv_line;
    /* --param */
    int nparams;
    char **pkey, **pval;
    bool *pused;
    bool params_listed;     /* the script walked `params` with pairs() */
    struct nameidx names;   /* the nodes' names: node()'s twins, names as arguments */
};

/* The builder: the first upvalue of every API function, set by run_script
 * (a script cannot reach a C function's upvalues: no debug library). */
static struct builder *get_builder(lua_State *L)
{
    return *(struct builder **)lua_touserdata(L, lua_upvalueindex(1));
}

static double check_time(lua_State *L, int arg, const char *fn, const char *what, bool positive)
{
    double x = luaL_checknumber(L, arg);
    if (!isfinite(x) || x < 0 || (positive && x == 0))
        luaL_error(L, "%s: %s must be a finite number %s 0 (got %f)", fn, what,
                   positive ? ">" : ">=", x);
    return x;
}

/*
 * The string at idx, refused if it holds a zero byte or a control character
 * (a newline only where newline is true), or if it (each of its lines, where
 * newline is true) is longer than CLUSTER_MAX_TEXT: the CSV format cannot
 * carry those, and a script must build what a CSV file can say.
 */
static const char *check_text(lua_State *L, int idx, const char *fn, const char *what,
                              bool newline)
{
    size_t len, line_start = 0;
    const char *t = lua_tolstring(L, idx, &len);
    for (size_t i = 0; i <= len; i++) {
        if (i == len || t[i] == '\n') {
            if (i - line_start > (size_t)CLUSTER_MAX_TEXT)
                luaL_error(L, "%s: %s%s is longer than %d KiB (%I bytes): refused (a cluster "
                              "file's lines hold at most %d KiB; docs/lua.md)", fn,
                           newline ? "a line of " : "", what, (int)(CLUSTER_MAX_TEXT >> 10),
                           (LUAI_UACINT)(i - line_start), (int)(CLUSTER_MAX_CSV_LINE >> 10));
            line_start = i + 1;
            if (i == len)
                break;
        }
        unsigned char ch = (unsigned char)t[i];
        if ((ch < 0x20 && !(newline && ch == '\n')) || ch == 0x7f)
            luaL_error(L, "%s: %s holds a control character (byte %d at position %d); "
                          "a cluster file could not say it", fn, what, (int)ch, (int)i + 1);
    }
    return t;
}

/* The bytes s takes as a field of a CSV row (support/csvfield.h: bare, or
 * quoted with each quote doubled). */
static size_t csv_field_len(const char *s)
{
    size_t bare = csvfield_bare_len(s, (size_t)-1 - 1);
    if (bare != (size_t)-1)
        return bare;
    size_t len = 2;
    for (; *s; s++)
        len += *s == '"' ? 2 : 1;
    return len;
}

/* s without the blanks (spaces, tabs) around every line, as a CSV comment reads back. */
static void push_trimmed_lines(lua_State *L, const char *s)
{
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (;;) {
        const char *nl = strchr(s, '\n');
        const char *end = nl ? nl : s + strlen(s);
        while (s < end && (*s == ' ' || *s == '\t'))
            s++;
        while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
            end--;
        luaL_addlstring(&b, s, (size_t)(end - s));
        if (!nl)
            break;
        luaL_addchar(&b, '\n');
        s = nl + 1;
    }
    luaL_pushresult(&b);
}

/* A node named by a 1-based index or by its name; returns the 0-based index. */
static int node_arg(lua_State *L, struct builder *b, int arg, const char *fn)
{
    if (lua_type(L, arg) == LUA_TNUMBER) {
        lua_Integer i;
        if (!lua_isinteger(L, arg)) {
            double x = lua_tonumber(L, arg);
            if (x != floor(x) || fabs(x) > 1e15)
                luaL_error(L, "%s: node index %f is not a whole number", fn, x);
            i = (lua_Integer)x;
        } else {
            i = lua_tointeger(L, arg);
        }
        if (i < 1 || i > b->c->n)
            luaL_error(L, "%s: there is no node %I (the nodes so far are 1..%d)", fn,
                       (LUAI_UACINT)i, b->c->n);
        return (int)i - 1;
    }
    if (lua_type(L, arg) == LUA_TSTRING) {
        int k = nameidx_find(&b->names, b->c->nodes, lua_tostring(L, arg));
        if (k < 0)
            luaL_error(L, "%s: no node is named \"%s\" (declare it with node() first)", fn,
                       lua_tostring(L, arg));
        return k;
    }
    return luaL_typeerror(L, arg, "node name or index");
}

static void set_kind(lua_State *L, struct builder *b, enum cluster_kind k, const char *what)
{
    if (!b->kind_set) {
        b->kind_set = true;
        b->c->kind = k;
        b->kind_line = sandbox_caller_line(L);
        b->kind_what = what;
    } else if (b->c->kind != k) {
        luaL_error(L, "%s: this script already made a %s (%s() on line %d); a cluster is one "
                      "kind: a node table, a latency matrix or a platform graph",
                   what, cluster_kind_name(b->c->kind), b->kind_what, b->kind_line);
    }
}

/* ---- nodes ---- */

/* t[key] (metamethods included, as lua_getfield), key the upvalue `key` of node(). */
static int get_key(lua_State *L, int t, int key)
{
    lua_pushvalue(L, lua_upvalueindex(key));
    return lua_gettable(L, t);
}

static const char *opt_label(lua_State *L, int t, int key, const char *field, const char *fn)
{
    get_key(L, t, key);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return NULL;
    }
    if (lua_type(L, -1) != LUA_TSTRING)
        luaL_error(L, "%s: %s must be a string (got a %s)", fn, field, luaL_typename(L, -1));
    return check_text(L, -1, fn, field, false);   /* left on the stack until the node is made */
}

static bool opt_time(lua_State *L, int t, int key, const char *field, const char *fn,
                     double *out)
{
    if (key)
        get_key(L, t, key);
    else
        lua_getfield(L, t, field);
    bool given = !lua_isnil(L, -1);
    if (given)
        *out = check_time(L, -1, fn, field, false);
    lua_pop(L, 1);
    return given;
}

/*
 * node(name [, send [, recv [, {class=, group=}]]]) or
 * node{name=, send=, recv=, class=, group=}: returns the node's index.
 */
static int api_node(lua_State *L)
{
    struct builder *b = get_builder(L);
    struct cluster *c = b->c;
    double send = 0, recv = 0;
    bool sg = false, rg = false;
    const char *name, *klass = NULL, *group = NULL;
    int opts = 0, at_name = 1;
    size_t len;
    uint32_t h;
    if (lua_type(L, 1) == LUA_TTABLE) {
        if (get_key(L, 1, KEY_NAME) != LUA_TSTRING)
            return luaL_error(L, "node: the table needs name = \"...\" (a string)");
        at_name = lua_gettop(L);
        name = lua_tolstring(L, at_name, &len);
        h = nameidx_hash(name, len);
        nameidx_reserve(&b->names, 0);
        nameidx_prefetch(&b->names, h);   /* read below, after the other fields */
        check_text(L, at_name, "node", "the name", false);
        sg = opt_time(L, 1, KEY_SEND, "send", "node", &send);
        rg = opt_time(L, 1, KEY_RECV, "recv", "node", &recv);
        opts = 1;
    } else {
        if (lua_type(L, 1) != LUA_TSTRING)
            return luaL_typeerror(L, 1, "node name (a string) or a table {name=..., send=..., recv=...}");
        name = lua_tolstring(L, 1, &len);
        h = nameidx_hash(name, len);
        nameidx_reserve(&b->names, 0);
        nameidx_prefetch(&b->names, h);
        check_text(L, 1, "node", "the name", false);
        if ((sg = !lua_isnoneornil(L, 2)))
            send = check_time(L, 2, "node", "send", false);
        if ((rg = !lua_isnoneornil(L, 3)))
            recv = check_time(L, 3, "node", "recv", false);
        if (!lua_isnoneornil(L, 4)) {
            luaL_checktype(L, 4, LUA_TTABLE);
            opts = 4;
        }
    }
    if (!*name)
        return luaL_error(L, "node: the name is empty");
    if (opts) {
        klass = opt_label(L, opts, KEY_CLASS, "class", "node");
        group = opt_label(L, opts, KEY_GROUP, "group", "node");
    }
    int line = sandbox_caller_line(L);
    /* One hash and one probe find a twin and the slot of a new name (the
     * CSV loader's way, model/nameidx.h).  The slot was asked for (prefetched)
     * before the other fields and the line were read: in a table of 10^6
     * names it misses the caches every time, and the wait is hidden behind
     * that work. */
    size_t at = nameidx_probe(&b->names, c->nodes, name, h);
    int twin = b->names.slot[at].node;
    if (twin >= 0)
        return luaL_error(L, "node: there is already a node named \"%s\" (node %d)", name,
                          twin + 1);
    if (c->n >= CLUSTER_MAX_NODES)
        return luaL_error(L, "too many nodes: %d (a node table has at most %d, what a cluster "
                          "file can hold)", c->n + 1, CLUSTER_MAX_NODES);
    size_t text = len + 1 + (klass ? strlen(klass) + 1 : 0) + (group ? strlen(group) + 1 : 0);
    if (text > CLUSTER_LUA_FREE_TEXT)
        sandbox_reserve(L, text - CLUSTER_LUA_FREE_TEXT, "node()");
    int k = cluster_add_node(c, name, send, recv);
    nameidx_set(&b->names, at, k, h);
    cluster_set_line(c, k, line);
    if (cluster_set_class(c, k, klass) < 0 || cluster_set_group(c, k, group) < 0)
        return luaL_error(L, "node: too many distinct class and group labels (a cluster has at "
                          "most %d)", CLUSTER_MAX_LABELS);
    if (c->n > b->ncap) {
        b->ncap = c->cap;
        b->send_given = xrealloc(b->send_given, (size_t)b->ncap * sizeof *b->send_given);
        b->recv_given = xrealloc(b->recv_given, (size_t)b->ncap * sizeof *b->recv_given);
    }
    b->send_given[k] = sg;
    b->recv_given[k] = rg;
    if (rg && !b->recv_line)
        b->recv_line = cluster_line(c, k);
    sandbox_grant(L, b->grant, GRANT_WHAT);
    lua_pushinteger(L, k + 1);
    return 1;
}

/* nodes(): a fresh list of tables {index, name, send, recv, class, group}. */
static int api_nodes(lua_State *L)
{
    struct builder *b = get_builder(L);
    const struct cluster *c = b->c;
    sandbox_charge(L, c->n, "nodes()");
    lua_createtable(L, c->n, 0);
    for (int i = 0; i < c->n; i++) {
        const struct node *nd = &c->nodes[i];
        lua_createtable(L, 0, 6);
        lua_pushinteger(L, i + 1);
        lua_setfield(L, -2, "index");
        lua_pushstring(L, nd->name);
        lua_setfield(L, -2, "name");
        lua_pushnumber(L, nd->send);
        lua_setfield(L, -2, "send");
        lua_pushnumber(L, nd->recv);
        lua_setfield(L, -2, "recv");
        if (cluster_class_id(c, i)) {
            lua_pushstring(L, cluster_class(c, i));
            lua_setfield(L, -2, "class");
        }
        if (cluster_group_id(c, i)) {
            lua_pushstring(L, cluster_group(c, i));
            lua_setfield(L, -2, "group");
        }
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* ---- latency matrices ---- */

static double *dist_at(struct builder *b, int from, int to)
{
    return &b->dm[(size_t)from * (size_t)b->dcap + (size_t)to];
}

/* Make room for every node declared so far (capacity doubles: O(n^2) in all). */
static void dist_grow(lua_State *L, struct builder *b)
{
    int n = b->c->n;
    if (n <= b->dcap)
        return;
    int cap = b->dcap ? b->dcap : 16;
    while (cap < n)
        cap *= 2;
    size_t old = (size_t)b->dcap * (size_t)b->dcap, now = (size_t)cap * (size_t)cap;
    sandbox_reserve(L, (now - old) * sizeof(double), "the latency matrix");
    sandbox_charge(L, (double)now, "the latency matrix");
    double *dm = xmalloc(now * sizeof *dm);
    for (size_t i = 0; i < now; i++)
        dm[i] = NAN;
    for (int i = 0; i < b->dcap; i++)
        memcpy(&dm[(size_t)i * (size_t)cap], &b->dm[(size_t)i * (size_t)b->dcap],
               (size_t)b->dcap * sizeof *dm);
    free(b->dm);
    b->dm = dm;
    b->dcap = cap;
}

static void put_distance(lua_State *L, struct builder *b, int from, int to, double x,
                         const char *fn)
{
    if (from == to && x != 0)
        luaL_error(L, "%s: the distance from %s to itself must be 0 (got %f)", fn,
                   b->c->nodes[from].name, x);
    *dist_at(b, from, to) = x;
}

/* distance(a, b, d [, "one-way"]): d between a and b (both ways unless one-way). */
static int api_distance(lua_State *L)
{
    struct builder *b = get_builder(L);
    set_kind(L, b, CLUSTER_MATRIX, "distance");
    int from = node_arg(L, b, 1, "distance"), to = node_arg(L, b, 2, "distance");
    double x = check_time(L, 3, "distance", "the distance", false);
    bool one_way = false;
    if (!lua_isnoneornil(L, 4)) {
        const char *how = luaL_checkstring(L, 4);
        if (strcmp(how, "one-way") != 0)
            return luaL_error(L, "distance: the 4th argument may only be \"one-way\" (got \"%s\")",
                              how);
        one_way = true;
    }
    if (!b->matrix_line)
        b->matrix_line = sandbox_caller_line(L);
    dist_grow(L, b);
    put_distance(L, b, from, to, x, "distance");
    if (!one_way)
        put_distance(L, b, to, from, x, "distance");
    sandbox_grant(L, b->grant, GRANT_WHAT);
    return 0;
}

/* matrix{{...}, {...}, ...}: every distance, rows and columns in node order. */
static int api_matrix(lua_State *L)
{
    struct builder *b = get_builder(L);
    set_kind(L, b, CLUSTER_MATRIX, "matrix");
    luaL_checktype(L, 1, LUA_TTABLE);
    int n = b->c->n;
    if (n == 0)
        return luaL_error(L, "matrix: declare the nodes with node() first");
    lua_Integer rows = luaL_len(L, 1);
    if (rows != n)
        return luaL_error(L, "matrix: %I rows for %d nodes (the matrix must be square, "
                             "in node order)", (LUAI_UACINT)rows, n);
    if (!b->matrix_line)
        b->matrix_line = sandbox_caller_line(L);
    dist_grow(L, b);
    for (int i = 0; i < n; i++) {
        if (lua_geti(L, 1, i + 1) != LUA_TTABLE)
            return luaL_error(L, "matrix: row %d is not a table of distances", i + 1);
        lua_Integer cols = luaL_len(L, -1);
        if (cols != n)
            return luaL_error(L, "matrix: row %d (%s) has %I entries for %d nodes", i + 1,
                              b->c->nodes[i].name, (LUAI_UACINT)cols, n);
        for (int j = 0; j < n; j++) {
            lua_geti(L, -1, j + 1);
            if (!lua_isnumber(L, -1))
                return luaL_error(L, "matrix: row %d, column %d is not a number", i + 1, j + 1);
            double x = lua_tonumber(L, -1);
            if (!isfinite(x) || x < 0)
                return luaL_error(L, "matrix: row %d, column %d: a distance must be a finite "
                                     "number >= 0 (got %f)", i + 1, j + 1, x);
            put_distance(L, b, i, j, x, "matrix");
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    return 0;
}

/* ---- platform graphs ---- */

static void add_edge(lua_State *L, struct builder *b, int from, int to, double t, double send,
                     bool send_given)
{
    struct cluster *c = b->c;
    /* Bounds checked by cluster_finish, checked here too so that a script
     * making edges forever stops: every edge joins two of the nodes so far,
     * and no pair twice. */
    long long n = c->n, pairs = n * (n - 1);
    if (n > CLUSTER_MAX_GRAPH_NODES)
        luaL_error(L, "edge: too many nodes for a platform graph: %d (a platform graph has at "
                   "most %d, what a cluster file can hold)", c->n, CLUSTER_MAX_GRAPH_NODES);
    if (c->nedges >= pairs && c->nedges >= CLUSTER_LUA_FREE_EDGES)
        luaL_error(L, "edge: more edges (%d) than ordered pairs of the %d nodes so far: an edge "
                   "is given twice (or joins a node to itself)", c->nedges + 1, c->n);
    int k = cluster_add_edge(c, from, to, t, send_given ? send : -1);
    c->edges[k].line = sandbox_caller_line(L);
    if (c->nedges > b->ecap) {
        b->ecap = c->edgecap;
        b->edge_send = xrealloc(b->edge_send, (size_t)b->ecap * sizeof *b->edge_send);
    }
    b->edge_send[k] = send_given;
}

/* edge(from, to, time [, {send=, bidirectional=}]) */
static int api_edge(lua_State *L)
{
    struct builder *b = get_builder(L);
    set_kind(L, b, CLUSTER_GRAPH, "edge");
    int from = node_arg(L, b, 1, "edge"), to = node_arg(L, b, 2, "edge");
    double t = check_time(L, 3, "edge", "the time", true);
    double send = -1;
    bool send_given = false, both = false;
    if (!lua_isnoneornil(L, 4)) {
        luaL_checktype(L, 4, LUA_TTABLE);
        send_given = opt_time(L, 4, 0, "send", "edge", &send);
        lua_getfield(L, 4, "bidirectional");
        both = lua_toboolean(L, -1);
        lua_pop(L, 1);
    }
    add_edge(L, b, from, to, t, send, send_given);
    if (both)
        add_edge(L, b, to, from, t, send, send_given);
    sandbox_grant(L, b->grant, GRANT_WHAT);
    return 0;
}

/* ---- cluster parameters ---- */

static int api_latency(lua_State *L)
{
    struct builder *b = get_builder(L);
    b->c->latency = check_time(L, 1, "latency", "the latency", false);
    b->latency_line = sandbox_caller_line(L);
    return 0;
}

/* unit(u): a latency matrix's time of one distance unit; unit("us"): the clock's unit (as
 * `# unit:` in a CSV file); unit(0.5, "ms"): both. */
static int api_unit(lua_State *L)
{
    struct builder *b = get_builder(L);
    int word = 0;
    if (lua_type(L, 1) == LUA_TSTRING)
        word = 1;
    else if (!lua_isnoneornil(L, 2))
        word = 2;
    if (word) {
        const char *w = luaL_checkstring(L, word);
        int u = time_unit_word(w);
        if (u < 0)
            return luaL_error(L, "unit: \"%s\" is not a unit of time: s, ms, us, ns or none",
                              w);
        b->c->time_unit = (enum time_unit)u;
    }
    if (word != 1) {
        b->c->unit = check_time(L, 1, "unit", "the time unit", false);
        b->unit_line = sandbox_caller_line(L);
    }
    return 0;
}

/* name(s): the cluster's name, without blanks around it (as a CSV file reads it). */
static int api_name(lua_State *L)
{
    struct builder *b = get_builder(L);
    luaL_checkstring(L, 1);
    push_trimmed_lines(L, check_text(L, 1, "name", "the name", false));
    if (!*lua_tostring(L, -1))
        return luaL_error(L, "name: the cluster's name is empty");
    cluster_set_str(&b->c->name, lua_tostring(L, -1));
    return 0;
}

/* description(s): lines separated by "\n", each without blanks around it. */
static int api_description(lua_State *L)
{
    struct builder *b = get_builder(L);
    luaL_checkstring(L, 1);
    push_trimmed_lines(L, check_text(L, 1, "description", "the description", true));
    cluster_set_str(&b->c->description, lua_tostring(L, -1));
    return 0;
}

/* source(node): by name (checked when the script ends) or by index. */
static int api_source(lua_State *L)
{
    struct builder *b = get_builder(L);
    const char *name;
    if (lua_type(L, 1) == LUA_TSTRING)
        name = lua_tostring(L, 1);
    else
        name = b->c->nodes[node_arg(L, b, 1, "source")].name;
    cluster_set_str(&b->c->source_name, name);
    b->c->source_line = sandbox_caller_line(L);
    return 0;
}

/* targets(node, node, ...): a multicast (model/targets.h), each node by name or
 * index, declared before; the other nodes may relay. */
static int api_targets(lua_State *L)
{
    struct builder *b = get_builder(L);
    int top = lua_gettop(L);
    if (top < 1)
        return luaL_error(L, "targets: name at least one node (targets(\"a\", \"b\") or indices)");
    luaL_Buffer buf;
    luaL_buffinit(L, &buf);
    for (int i = 1; i <= top; i++) {
        const char *name = b->c->nodes[node_arg(L, b, i, "targets")].name;
        if (strchr(name, ','))
            return luaL_error(L, "targets: the node \"%s\" holds a comma, which a target list cannot "
                              "write", name);
        if (i > 1)
            luaL_addchar(&buf, ',');
        luaL_addstring(&buf, name);
    }
    luaL_pushresult(&buf);
    cluster_set_str(&b->c->targets_spec, lua_tostring(L, -1));
    b->c->targets_line = sandbox_caller_line(L);
    return 0;
}

/* ---- --param ---- */

static int find_param(const struct builder *b, const char *key)
{
    for (int i = b->nparams - 1; i >= 0; i--)
        if (strcmp(b->pkey[i], key) == 0)
            return i;
    return -1;
}

/* param(name [, default]): the --param value, converted like the default. */
static int api_param(lua_State *L)
{
    struct builder *b = get_builder(L);
    const char *key = luaL_checkstring(L, 1);
    int i = find_param(b, key);
    if (i < 0)
        return sandbox_param(L, key, NULL);
    for (int j = 0; j < b->nparams; j++)
        if (strcmp(b->pkey[j], key) == 0)
            b->pused[j] = true;
    return sandbox_param(L, key, b->pval[i]);
}

static int params_index(lua_State *L)
{
    struct builder *b = get_builder(L);
    if (lua_type(L, 2) == LUA_TSTRING) {
        int i = find_param(b, lua_tostring(L, 2));
        if (i >= 0) {
            for (int j = 0; j < b->nparams; j++)
                if (strcmp(b->pkey[j], b->pkey[i]) == 0)
                    b->pused[j] = true;
            lua_pushstring(L, b->pval[i]);
            return 1;
        }
    }
    return 0;
}

static int params_next(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    if (lua_next(L, 1))
        return 2;
    lua_pushnil(L);
    return 1;
}

static int params_pairs(lua_State *L)
{
    struct builder *b = get_builder(L);
    b->params_listed = true;
    lua_pushcfunction(L, params_next);
    lua_getiuservalue(L, lua_upvalueindex(1), UV_PARAMS);
    lua_pushnil(L);
    return 3;
}

static int params_newindex(lua_State *L)
{
    return luaL_error(L, "params is read-only (the values come from --param)");
}

/* params: a read-only table of every --param, as strings. */
static void push_params(lua_State *L, int builder)
{
    lua_newtable(L);
    luaL_newmetatable(L, MT_PARAMS);
    lua_pushvalue(L, builder);
    lua_pushcclosure(L, params_index, 1);
    lua_setfield(L, -2, "__index");
    lua_pushvalue(L, builder);
    lua_pushcclosure(L, params_pairs, 1);
    lua_setfield(L, -2, "__pairs");
    lua_pushcfunction(L, params_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushliteral(L, MT_PARAMS);
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
}

/* ---- running the script ---- */

static int run_script(lua_State *L)
{
    static const luaL_Reg api[] = {
        {"node", api_node},         {"nodes", api_nodes},   {"distance", api_distance},
        {"matrix", api_matrix},     {"edge", api_edge},     {"latency", api_latency},
        {"unit", api_unit},         {"name", api_name},     {"description", api_description},
        {"source", api_source},     {"param", api_param},   {"targets", api_targets},
        {NULL, NULL},
    };
    struct builder *b = lua_touserdata(L, 1);
    struct builder **ud = lua_newuserdatauv(L, sizeof *ud, 1);
    *ud = b;
    int builder = lua_gettop(L);
    luaL_newmetatable(L, MT_BUILDER);
    lua_pushliteral(L, MT_BUILDER);
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, builder);
    lua_createtable(L, 0, b->nparams);
    for (int i = 0; i < b->nparams; i++) {
        lua_pushstring(L, b->pval[i]);
        lua_setfield(L, -2, b->pkey[i]);
    }
    lua_setiuservalue(L, builder, UV_PARAMS);
    lua_pushglobaltable(L);
    for (const luaL_Reg *f = api; f->name; f++) {
        lua_pushvalue(L, builder);
        int nup = 1;
        if (f->func == api_node)
            for (; nup < NODE_UPVALUES; nup++)
                lua_pushstring(L, node_keys[nup - 1]);
        lua_pushcclosure(L, f->func, nup);
        lua_setfield(L, -2, f->name);
    }
    push_params(L, builder);
    lua_setfield(L, -2, "params");
    lua_pop(L, 1);
    sandbox_load(L);
    /* The script's results are not checked: no return hook (it would run at
     * every return of every call the script makes, node() included).
     * (Generational collection was 3 % faster on k-class, within the noise,
     * and collectgarbage("step") never ends a cycle in it: not taken.) */
    sandbox_call_quiet(L, 0, 0);
    return 0;
}

static void builder_free(struct builder *b)
{
    for (int i = 0; i < b->nparams; i++) {
        free(b->pkey[i]);
        free(b->pval[i]);
    }
    free(b->pkey);
    free(b->pval);
    free(b->pused);
    free(b->dm);
    free(b->send_given);
    free(b->recv_given);
    free(b->edge_send);
    nameidx_free(&b->names);
}

/* The script has ended: turn the builder's answers into the model's fields. */
static void assemble(struct builder *b, const char *path, struct diag *d)
{
    struct cluster *c = b->c;
    cluster_set_str(&c->path, path);
    if (!c->name) {
        const char *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        size_t len = strlen(base);
        if (len > 4 && strcmp(base + len - 4, ".lua") == 0)
            len -= 4;
        c->name = xmalloc(len + 1);
        memcpy(c->name, base, len);
        c->name[len] = '\0';
    }
    if (b->latency_line && c->kind != CLUSTER_NODES) {
        diag_warn(d, path, b->latency_line, "latency",
                  "ignored: only node tables have one latency (a %s gives every link)",
                  cluster_kind_name(c->kind));
        c->latency = 0;
    }
    if (b->unit_line && c->kind != CLUSTER_MATRIX) {
        diag_warn(d, path, b->unit_line, "unit", "ignored: a number is a latency matrix's time "
                  "of one distance unit (a clock's unit is a word: s, ms, us, ns or none)");
        c->unit = 1;
    }
    if (c->kind == CLUSTER_MATRIX && c->n > 0) {
        size_t n = (size_t)c->n;
        int missing = 0;
        /* A saved matrix names every node in its header row, which must fit a
         * line of a cluster file as every other row does (CLUSTER_MAX_TEXT). */
        size_t header = sizeof ",send,recv,class,group\n";
        for (int i = 0; i < c->n; i++)
            header += 1 + csv_field_len(c->nodes[i].name);
        if (header > (size_t)CLUSTER_MAX_CSV_LINE)
            diag_error(d, path, b->matrix_line, NULL, "the %d nodes' names take %zu bytes in a "
                       "latency matrix's header row, more than a cluster file's line holds "
                       "(%ld KiB): use shorter names", c->n, header, CLUSTER_MAX_CSV_LINE >> 10);
        c->dist = xmalloc(n * n * sizeof *c->dist);
        for (int i = 0; i < c->n; i++)
            for (int j = 0; j < c->n; j++) {
                double x = i < b->dcap && j < b->dcap ? *dist_at(b, i, j) : NAN;
                if (isnan(x) && i != j && ++missing <= MAX_MISSING)
                    diag_error(d, path, b->matrix_line, "distance",
                               "no distance from %s to %s (give every pair with distance() "
                               "or matrix())", c->nodes[i].name, c->nodes[j].name);
                c->dist[(size_t)i * n + (size_t)j] = isnan(x) ? 0 : x;
            }
        if (missing > MAX_MISSING)
            diag_error(d, path, b->matrix_line, "distance", "%d more distances are missing",
                       missing - MAX_MISSING);
    }
    if (c->kind == CLUSTER_GRAPH) {
        /* A node's send is its multi-port send time; the model keeps it on the edges. */
        for (int k = 0; k < c->nedges; k++) {
            int u = c->edges[k].from;
            if (!b->edge_send[k] && b->send_given[u])
                c->edges[k].send = c->nodes[u].send;
        }
        for (int i = 0; i < c->n; i++)
            c->nodes[i].send = c->nodes[i].recv = 0;
        if (b->recv_line)
            diag_warn(d, path, b->recv_line, "recv",
                      "ignored: a platform graph has no receive times (edges have times)");
    }
}

struct cluster *cluster_load_lua(const char *path, const char *const *params, int nparams,
                                 const struct sandbox_limits *lim, uint64_t seed,
                                 struct diag *d)
{
    struct builder b;
    memset(&b, 0, sizeof b);
    b.c = cluster_new(CLUSTER_NODES);
    b.grant = !lim || lim->grant == 0 ? CLUSTER_LUA_GRANT : lim->grant > 0 ? (double)lim->grant : 0;
    if (nparams > 0) {
        b.pkey = xcalloc((size_t)nparams, sizeof *b.pkey);
        b.pval = xcalloc((size_t)nparams, sizeof *b.pval);
        b.pused = xcalloc((size_t)nparams, sizeof *b.pused);
    }
    for (int i = 0; i < nparams; i++) {
        const char *eq = strchr(params[i], '=');
        size_t klen = eq ? (size_t)(eq - params[i]) : strlen(params[i]);
        b.pkey[b.nparams] = xmalloc(klen + 1);
        memcpy(b.pkey[b.nparams], params[i], klen);
        b.pkey[b.nparams][klen] = '\0';
        b.pval[b.nparams] = xstrdup(eq ? eq + 1 : "");
        b.nparams++;
    }
    char *cause = NULL;
    struct sandbox *sb = sandbox_new(path, lim, seed, &cause);
    if (!sb || sandbox_run(sb, run_script, &b, &cause) < 0) {
        diag_error(d, NULL, 0, NULL, "%s", cause ? cause : "the script failed");
        free(cause);
        sandbox_free(sb);
        cluster_free(b.c);
        builder_free(&b);
        return NULL;
    }
    sandbox_free(sb);
    for (int i = 0; i < b.nparams; i++)
        if (!b.pused[i] && !b.params_listed && find_param(&b, b.pkey[i]) == i)
            diag_warn(d, path, 0, NULL, "--param %s was given but the script never asked for it",
                      b.pkey[i]);
    int errors = d->errors;
    assemble(&b, path, d);
    struct cluster *c = b.c;
    builder_free(&b);
    if (d->errors > errors || cluster_finish(c, d) < 0 || cluster_resolve_targets(c, d) < 0) {
        cluster_free(c);
        return NULL;
    }
    return c;
}
