/*
 * model/cluster_lua.h - cluster scripts: the second front door to the one cluster
 * model.  A Lua script run in the sandbox (support/lua_sandbox.h) describes nodes,
 * a latency, a latency matrix or a platform graph through a small API
 * (docs/lua.md), and this module builds from it the same struct cluster the
 * CSV loader builds, checked by the same cluster_finish().
 */
#ifndef HETCAST_LUA_CLUSTER_H
#define HETCAST_LUA_CLUSTER_H

#include <stdint.h>

#include "model/cluster.h"
#include "support/diag.h"
#include "support/lua_sandbox.h"

/*
 * What a script's cluster earns it, so that the default limits fit a script
 * of any size up to the caps of a cluster file (docs/lua.md, "The sandbox"):
 * each node(), edge() and distance() call that succeeds adds
 * CLUSTER_LUA_GRANT instructions to the script's budget (or the limits'
 * grant, when set: the fuzzer's is small); the C memory kept
 * for the nodes and edges is not counted against the memory cap, except a
 * node's name, class and group beyond CLUSTER_LUA_FREE_TEXT bytes.  What
 * bounds a script that makes nodes or edges forever is the cap of a
 * cluster file, checked at each call: CLUSTER_MAX_NODES nodes; edges only
 * among at most CLUSTER_MAX_GRAPH_NODES nodes, and no more of them than
 * ordered pairs of the nodes so far (a duplicate or a self loop otherwise),
 * once there are CLUSTER_LUA_FREE_EDGES (below that, cluster_finish names
 * each duplicate).
 */
#define CLUSTER_LUA_GRANT 100
#define CLUSTER_LUA_FREE_TEXT 64
#define CLUSTER_LUA_FREE_EDGES (1 << 20)

/*
 * Run the script at path with --param "name=value" strings (the last one of
 * a name wins) and build its cluster.  seed seeds math.random and is the
 * default seed of hetcast.random().  Returns NULL and fills d on failure: a
 * script error is one entry holding the script's file:line and a traceback;
 * model errors name the line of the call that made the node or edge.
 * Warnings (a --param the script never read, ignored settings) go to d too.
 */
struct cluster *cluster_load_lua(const char *path, const char *const *params, int nparams,
                                 const struct sandbox_limits *lim, uint64_t seed,
                                 struct diag *d);

#endif
