/*
 * sched/sched.c - the one list of schedulers, and sched_run(), the loop that asks
 * a policy for decisions and books them.
 */
#include "sched/sched.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sched/optimal.h"
#include "sched/pipeline.h"
#include "sched/trees.h"

static const struct sched_ops *const builtins[] = {
    &sched_fnf, &sched_slowest_first, &sched_random_pair, &sched_random_order,
    &sched_fef, &sched_optimal,
    /* "binomial": Figueira's tree on matrices and node tables, the pipelined
     * tree on platform graphs (sched_binomial_any dispatches; sched/pipeline.c) */
    &sched_binomial_any, &sched_depth_first, &sched_breadth_first, &sched_balanced_path, &sched_flat, &sched_magpie,
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

void sched_opts_default(struct sched_opts *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
}

void sched_init(struct sched *s, const struct sched_ops *ops, const struct sched_opts *o)
{
    memset(s, 0, sizeof *s);
    s->ops = ops;
    if (o)
        s->opt = *o;
    else
        sched_opts_default(&s->opt);
    rng_seed(&s->rng, s->opt.seed);
}

void sched_free(struct sched *s)
{
    if (s->ops && s->ops->finish && s->state)
        s->ops->finish(s);
    s->state = NULL;
}

const struct sched_ops *sched_default(const struct cluster *c, enum model m)
{
    if (sched_check(&sched_fnf, c, m, NULL) == 0)
        return &sched_fnf;
    for (int i = 0; i < NBUILTINS; i++)
        if (builtins[i] != &sched_optimal && sched_check(builtins[i], c, m, NULL) == 0)
            return builtins[i];
    return &sched_fnf;   /* refused later with the list of what would work */
}

int sched_check(const struct sched_ops *ops, const struct cluster *c, enum model m, char **cause)
{
    if (!(ops->kinds & CLUSTER_KIND_BIT(c->kind))) {
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
    if (!(model_mask_for(c->kind) & MODEL_BIT(m))) {
        char *no = model_refusal(m, c->kind);
        set_cause(cause, "%s", no);
        free(no);
        return -1;
    }
    if (!(ops->models & MODEL_BIT(m)))
        return set_cause(cause, "scheduler %s does not support the %s model", ops->name, model_name(m));
    return 0;
}

int sched_run(struct engine *e, struct sched *s, char **cause)
{
    const struct sched_ops *ops = s->ops;
    char *why = NULL;
    if (sched_check(ops, e->c, e->model, cause) < 0)
        return -1;
    if (e->lean && !ops->lean)
        return set_cause(cause, "scheduler %s needs the full engine (it reads the transfer "
                         "records); run it without a lean engine", ops->name);
    if (ops->prepare && ops->prepare(s, e, cause) < 0)
        return -1;
    int rc = 0, ran = 0;
    if (e->lean && ops->run_lean && (ran = ops->run_lean(s, e, cause)) < 0)
        rc = -1;
    for (unsigned steps = 0; rc == 0 && !ran && e->nwaiting > 0; steps++) {
        if ((steps & 1023) == 0 && s->opt.cancel && *s->opt.cancel) {
            rc = set_cause(cause, SCHED_CANCELLED_TEXT);
            break;
        }
        struct decision d;
        d.from = d.to = -1;
        d.msg = 0;
        d.reason = NULL;
        d.not_before = -INFINITY;
        int r = ops->choose(s, e, &d, cause);
        if (r != SCHED_DECIDED) {
            free(d.reason);
            if (r < 0)
                rc = -1;
            break;
        }
        if (e->lean && d.not_before > -INFINITY)
            engine_stream_until(e, d.not_before);
        int booked = engine_book_owned(e, d.from, d.to, d.msg, &d.reason, &why);
        free(d.reason);   /* NULL once booked: the engine keeps it */
        if (booked < 0) {
            set_cause(cause, "scheduler %s made a bad decision: %s", ops->name, why);
            rc = -1;
            break;
        }
    }
    free(why);
    if (rc == 0 && e->nwaiting > 0 && e->nmsg == 1)
        rc = set_cause(cause, "scheduler %s stopped with %d node%s still waiting", ops->name,
                       e->nwaiting, e->nwaiting == 1 ? "" : "s");
    if (e->lean)
        sched_free(s);
    engine_timeline(e);
    return rc;
}
