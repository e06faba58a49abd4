/*
 * sched/lua_sched.h - Lua heuristics: a script plugged into the engine as one more
 * policy (struct sched_ops, sched/sched.h), run in the sandbox of support/lua_sandbox.h.
 *
 * The script's choose(state) is called whenever the engine needs a decision,
 * with a read-only view of the engine, and returns a sender and a receiver
 * (node objects, 1-based indices or names) and an optional reason, or a
 * whole tree as a list of {parent, child [, reason]} pairs that is handed
 * out in order.  Every answer is checked before it reaches the engine: a
 * bad one is an error located at the script's return statement.  The API is
 * in docs/lua.md.
 */
#ifndef HETCAST_LUA_SCHED_H
#define HETCAST_LUA_SCHED_H

#include <stdbool.h>

#include "sched/sched.h"

#define LUA_SCHED_MAX_SCRIPTS 32   /* distinct -s FILE.lua in one process */

/* "lua": runs the script s->opt.script (the ops below set it themselves). */
extern const struct sched_ops sched_lua;

/*
 * The ops for -s NAME.lua: sched_lua under the script's base name (so
 * reports say "fnf.lua"), bound to the script's path.  NAME is a path; a
 * bare name that is not a file here is looked up among the bundled
 * heuristics (lua_sched_set_dir).  The same path gives the same ops.  Returns
 * NULL with *cause when the script cannot be read.
 */
const struct sched_ops *lua_sched_ops(const char *name, char **cause);
bool lua_sched_is(const struct sched_ops *ops);
/* The script an ops table runs (NULL for sched_lua itself or a non-Lua policy). */
const char *lua_sched_script(const struct sched_ops *ops);

/* Where the bundled heuristics are (the front door finds the data
 * directory: app/datadir.c); NULL: none. */
void lua_sched_set_dir(const char *dir);

struct lua_sched_info {
    char *path;      /* the script */
    char *name;      /* its file name, what -s takes */
    char *summary;   /* its first comment line, after "name - " */
};
/* The bundled heuristics, sorted by name (for the view's list). Returns the count. */
int lua_sched_list(struct lua_sched_info **out);
void lua_sched_list_free(struct lua_sched_info *list, int n);

#endif
