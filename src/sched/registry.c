/*
 * sched/registry.c - the one list of built-in schedulers (sched/registry.h),
 * as Lua's linit.c lists its libraries: it sits on top of the policies it
 * names, and the front doors, the view and the tests read it.
 */
#include "sched/registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/optimal.h"
#include "sched/optimal_sum.h"
#include "sched/kkround.h"
#include "sched/pipeline.h"
#include "sched/trees.h"
#include "sched/list.h"
#include "sched/mpibcast.h"
#include "sched/fef.h"
#include "sched/relay.h"

static const struct sched_ops *const builtins[] = {
    &sched_fnf, &sched_slowest_first, &sched_random_pair, &sched_random_order,
    &sched_fef, &sched_optimal, &sched_optimal_sum, &sched_relay_fnf, &sched_kk_round,
    /* "binomial": Figueira's tree on matrices and node tables, the pipelined
     * tree on platform graphs (sched_binomial_any dispatches; sched/pipeline.c) */
    &sched_binomial_any, &sched_depth_first, &sched_breadth_first, &sched_balanced_path, &sched_flat, &sched_magpie, &sched_chain, &sched_knomial,
    &sched_scatter_allgather, &sched_scatter_rdb, &sched_two_tree,
    &sched_prune_simple, &sched_prune_degree, &sched_grow_tree, &sched_multiport_grow,
    &sched_lp_prune, &sched_lp_grow, &sched_multiport_prune_degree,
};
#define NBUILTINS ((int)(sizeof builtins / sizeof builtins[0]))

int sched_count(void)
{
    return NBUILTINS;
}

const struct sched_ops *sched_at(int i)
{
    return i >= 0 && i < NBUILTINS ? builtins[i] : NULL;
}

const struct sched_ops *sched_find(const char *name)
{
    for (int i = 0; i < NBUILTINS; i++)
        if (strcmp(builtins[i]->name, name) == 0)
            return builtins[i];
    return NULL;
}

static const char *builtin_name(int i) { return builtins[i]->name; }

char *sched_names(void)
{
    return diag_join_names(NBUILTINS, builtin_name);
}

const struct sched_ops *sched_default(const struct cluster *c, enum model m)
{
    if (sched_check(&sched_fnf, c, m, NULL) == 0)
        return &sched_fnf;
    for (int i = 0; i < NBUILTINS; i++)
        if (builtins[i] != &sched_optimal && builtins[i] != &sched_optimal_sum && sched_check(builtins[i], c, m, NULL) == 0)
            return builtins[i];
    return &sched_fnf;   /* refused later with the list of what would work */
}

/* Does o serve a multicast of c under m? */
static bool serves_multicast(const struct sched_ops *o, const struct cluster *c, enum model m)
{
    return o->multicast && (o->kinds & CLUSTER_KIND_BIT(c->kind)) && (o->models & MODEL_BIT(m));
}

/* "use fnf, optimal or relay-fnf": the built-ins that serve a multicast of c under m. */
static void multicast_names(const struct cluster *c, enum model m, char *buf, size_t size)
{
    int last = -1;
    for (int i = 0; i < sched_count(); i++)
        if (serves_multicast(sched_at(i), c, m))
            last = i;
    if (last < 0) {
        snprintf(buf, size, "no built-in scheduler serves one here");
        return;
    }
    size_t at = (size_t)snprintf(buf, size, "use");
    for (int i = 0, j = 0; i <= last && at < size; i++)
        if (serves_multicast(sched_at(i), c, m))
            at += (size_t)snprintf(buf + at, size - at, "%s%s", j++ == 0 ? " " : i == last ? " or " : ", ",
                                   sched_at(i)->name);
}

int sched_check(const struct sched_ops *ops, const struct cluster *c, enum model m, char **cause)
{
    if (!(ops->kinds & CLUSTER_KIND_BIT(c->kind))) {   /* refused with the alternatives */
        char list[512] = "";
        for (int i = 0; i < sched_count(); i++)
            if (sched_at(i)->kinds & CLUSTER_KIND_BIT(c->kind)) {
                if (list[0])
                    strncat(list, ", ", sizeof list - strlen(list) - 1);
                strncat(list, sched_at(i)->name, sizeof list - strlen(list) - 1);
            }
        return set_cause(cause, "scheduler %s does not work on a %s; use one of: %s", ops->name,
                         cluster_kind_name(c->kind), list);
    }
    if (sched_supports(ops, c, m, cause) == 0)
        return 0;
    if (cause && *cause && c->target && !ops->multicast && (ops->models & MODEL_BIT(m)) &&
        (model_mask_for(c->kind) & MODEL_BIT(m))) {   /* refused for its targets alone */
        char serve[200];
        multicast_names(c, m, serve, sizeof serve);
        char *why = *cause;
        *cause = xasprintf("%s: %s", why, serve);
        free(why);
    }
    return -1;
}
