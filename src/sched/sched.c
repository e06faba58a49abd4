/*
 * sched/sched.c - what every policy shares: a scheduler's state, whether it
 * applies to a cluster and a model, and sched_run(), the loop that asks a
 * policy for decisions and books them.  The list of built-in policies is
 * sched/registry.c's, above them.
 */
#include "sched/sched.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

int sched_supports(const struct sched_ops *ops, const struct cluster *c, enum model m,
                   char **cause)
{
    if (!(ops->kinds & CLUSTER_KIND_BIT(c->kind)))
        return set_cause(cause, "scheduler %s does not work on a %s", ops->name,
                         cluster_kind_name(c->kind));
    if (!(model_mask_for(c->kind) & MODEL_BIT(m))) {
        char *no = model_refusal(m, c->kind);
        set_cause(cause, "%s", no);
        free(no);
        return -1;
    }
    if (!(ops->models & MODEL_BIT(m)))
        return set_cause(cause, "scheduler %s does not support the %s model", ops->name, model_name(m));
    if (c->target && !ops->multicast)
        return set_cause(cause, "scheduler %s sends to every node, and this cluster names targets "
                         "(a multicast)", ops->name);   /* sched_check names those that serve one */
    return 0;
}

int sched_run(struct engine *e, struct sched *s, char **cause)
{
    const struct sched_ops *ops = s->ops;
    char *why = NULL;
    if (sched_supports(ops, e->c, e->model, cause) < 0)
        return -1;
    if (e->lean && !ops->lean)
        return set_cause(cause, "scheduler %s needs the full engine (it reads the transfer "
                         "records); run it without a lean engine", ops->name);
    if (ops->prepare && ops->prepare(s, e, cause) < 0)
        return -1;
    int rc = 0, ran = 0;
    /* A list policy's full records from its lean run, when its reasons wait to be read (the
       view): the same bookings, in a fraction of the time of deciding one at a time. */
    bool recorded = ops->run_lean && e->reasons_later && engine_record_lean(e);
    if (e->lean && ops->run_lean && (ran = ops->run_lean(s, e, cause)) < 0)
        rc = -1;
    if (recorded)
        engine_record_lean_end(e);
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
        d.say = NULL;
        d.say_arg = NULL;
        int r = ops->choose(s, e, &d, cause);
        if (r != SCHED_DECIDED) {
            free(d.reason);
            if (r < 0)
                rc = -1;
            break;
        }
        if (e->lean && d.not_before > -INFINITY)
            engine_stream_until(e, d.not_before);
        int booked = d.say && !d.reason
                         ? engine_book_said(e, d.from, d.to, d.msg, d.say, d.say_arg, &why)
                         : engine_book_owned(e, d.from, d.to, d.msg, &d.reason, &why);
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
    if (e->lean || recorded)
        sched_free(s);
    engine_timeline(e);
    return rc;
}

int sched_plan_next(const int *from, const int *to, int len, int *next, struct decision *d)
{
    if (*next >= len)
        return SCHED_DONE;
    int i = (*next)++;
    d->from = from[i];
    d->to = to[i];
    d->msg = 0;
    return SCHED_DECIDED;
}
