/*
 * session/instance.c - a slide's family (session/instance.h): which kind of
 * random instance its cluster has, drawing one from a seed, and asking and
 * grading the slide's question on the instance's own run through the
 * question kind's row.
 */
#include "session/instance.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/registry.h"
#include "support/diag.h"
#include "support/numfmt.h"
#include "support/rng.h"

/* Does the Lua cluster script at path read a seed parameter (param("seed", ...))? */
static bool reads_seed(const char *path)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return false;
    char line[512];
    bool found = false;
    while (!found && fgets(line, sizeof line, fp))
        found = strstr(line, "param(\"seed\"") != NULL || strstr(line, "param('seed'") != NULL;
    fclose(fp);
    return found;
}

/* A random node table of n nodes (times 1..4, receive above send) with latency lat, as CSV. */
static char *random_table(int seed, int n, double lat)
{
    struct rng r;
    rng_seed(&r, (uint64_t)seed);
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    if (!fp)
        return NULL;
    fprintf(fp, "# name: random instance %d\n# latency: %s\n# source: p0\nname,send,recv\n", seed,
            numfmt_txt(lat));
    for (int i = 0; i < n; i++) {
        int send = 1 + (int)rng_below(&r, 4);
        fprintf(fp, "p%d,%d,%d\n", i, send, send + 1 + (int)rng_below(&r, 3));
    }
    fclose(fp);
    return text;
}

/* The family of slide k, with the size and latency of a random table (INSTANCE_TABLE). */
static enum instance_kind family(const struct lesson *l, int k, int *n, double *lat, char *why, size_t size)
{
    const struct slide *s = &l->slides[k];
    why[0] = '\0';
    if (s->pattern || s->slices > 0 || s->trace) {
        text_fit(why, size, "this slide's %s is about its own cluster: it has no random instance",
                 s->pattern ? "exchange" : s->slices > 0 ? "pipelined broadcast" : "measured run");
        return INSTANCE_NONE;
    }
    size_t len = strlen(s->cluster);
    if (!s->cluster_text && len > 4 && strcmp(s->cluster + len - 4, ".lua") == 0) {
        if (reads_seed(s->cluster))
            return INSTANCE_SEED;
        text_fit(why, size, "this slide's cluster script reads no seed param: it has no random instance");
        return INSTANCE_NONE;
    }
    struct session_opts o;
    lesson_session(l, k, &o);
    char *cause = NULL;
    struct cluster *c = session_load(&o, NULL, &cause);
    if (!c) {
        text_fit(why, size, "the slide's cluster does not load: %s", cause ? cause : "failed");
        free(cause);
        return INSTANCE_NONE;
    }
    enum instance_kind kind = c->kind == CLUSTER_NODES ? INSTANCE_TABLE : INSTANCE_NONE;
    *n = c->n < INSTANCE_MAX_NODES ? c->n : INSTANCE_MAX_NODES;
    if (*n < 3)
        *n = 3;
    *lat = c->latency;
    if (!kind)
        text_fit(why, size, "this slide's cluster has no random kind (a Lua script with a seed param, or a "
                 "node table)");
    cluster_free(c);
    return kind;
}

enum instance_kind instance_family(const struct lesson *l, int k, char *why, size_t size)
{
    int n;
    double lat;
    return family(l, k, &n, &lat, why, size);
}

void instance_free(struct instance *in)
{
    if (in->ran)
        run_free(&in->run);
    cluster_free(in->c);
    free(in->csv);
    free(in->owned);
    memset(in, 0, sizeof *in);
}

/* The slide's options on the instance of seed: o's cluster and schedulers set. */
static void instance_opts(const struct lesson *l, int k, struct instance *in, int n, double lat)
{
    const struct slide *s = &l->slides[k];
    struct session_opts *o = &in->o;
    lesson_session(l, k, o);
    if (in->kind == INSTANCE_SEED) {   /* the script's own random kind, another seed */
        in->owned = xasprintf("seed=%d", in->seed);
        int np = 0;
        for (int i = 0; i < o->nparams; i++)
            if (strncmp(o->params[i], "seed=", 5) != 0)
                o->params[np++] = o->params[i];
        o->params[np++] = in->owned;
        o->nparams = np;
        return;
    }
    in->owned = random_table(in->seed, n, lat);
    o->text = in->owned;
    o->file = "random instance";
    o->nparams = 0;
    o->source = NULL;
    if (!s->kind->ask) {   /* nothing asked of it: the family's point, fnf against the optimum */
        o->sched[0] = "fnf";
        o->sched[1] = "optimal";
        o->nsched = 2;
    }
}

/* Run the slide's first scheduler on the instance into in->run.  It fits when the question
 * asked of it has an answer in the run; a node table whose slide asks nothing of it, when fnf
 * loses to the proven optimum there.  1 when the instance fits, 0 when not, -1 with *cause. */
static int instance_try(const struct lesson *l, int k, struct instance *in, char **cause)
{
    const struct slide *s = &l->slides[k];
    if (in->kind == INSTANCE_TABLE && !in->owned)
        return set_cause(cause, "out of memory");
    in->c = session_load(&in->o, NULL, cause);
    enum model m;
    const struct sched_ops *ops;
    if (!in->c || session_model(&in->o, in->c, &m, cause) < 0 ||
        !(ops = in->o.nsched ? session_sched(in->o.sched[0], cause) : sched_default(in->c, m)) ||
        sched_check(ops, in->c, m, cause) < 0)
        return -1;
    if (in->kind == INSTANCE_TABLE && !in->asks) {   /* shown as fnf against the optimum: fnf must lose */
        const struct sched_ops *fnf = sched_find("fnf");
        struct run f;
        if (session_run(&f, &in->o, in->c, m, fnf, false, RUN_OPT_ALWAYS, cause) < 0)
            return -1;
        bool loses = f.opt == OPT_PROVEN && f.eng.makespan > f.optimum + 1e-9;
        if (!loses || ops != fnf) {
            run_free(&f);
            if (!loses)
                return 0;
        } else {
            in->run = f;
            in->ran = true;
        }
    }
    if (!in->ran) {
        if (session_run(&in->run, &in->o, in->c, m, ops, false, RUN_OPT_SMALL, cause) < 0)
            return -1;
        in->ran = true;
    }
    char buf[200];
    if (in->asks && !lesson_expected(s, &in->run, buf, sizeof buf))
        return 0;   /* the question has no answer on this run (too few transfers) */
    size_t len = 0;
    FILE *fp = open_memstream(&in->csv, &len);
    if (!fp || cluster_write_csv(in->c, fp) < 0) {
        if (fp)
            fclose(fp);
        return set_cause(cause, "the instance's cluster cannot be written as CSV");
    }
    fclose(fp);
    return 1;
}

int instance_make(const struct lesson *l, int k, int seed, const volatile sig_atomic_t *cancel,
                  struct instance *in, char **cause)
{
    memset(in, 0, sizeof *in);
    const struct slide *s = &l->slides[k];
    char why[300];
    int n = 0;
    double lat = 0;
    enum instance_kind kind = family(l, k, &n, &lat, why, sizeof why);
    if (!kind)
        return set_cause(cause, "%s", why);
    if (seed < 1)
        seed = 1;
    for (int t = 0; t < INSTANCE_TRIES; t++) {
        if (cancel && *cancel)
            return set_cause(cause, SCHED_CANCELLED_TEXT);
        in->kind = kind;
        in->seed = seed + t;
        in->tries = t + 1;
        in->asks = s->kind->ask != NULL;
        instance_opts(l, k, in, n, lat);
        in->o.sopt.cancel = cancel;
        char *c = NULL;
        int rc = instance_try(l, k, in, &c);
        if (rc > 0)
            return 0;
        if (rc < 0 && (kind == INSTANCE_SEED || (cancel && *cancel))) {   /* the script fails: say so */
            set_cause(cause, "seed %d does not open: %s", seed + t, c ? c : "failed");
            free(c);
            instance_free(in);
            return -1;
        }
        free(c);
        instance_free(in);
    }
    if (kind == INSTANCE_TABLE)
        return set_cause(cause, "no node table of %d nodes %s among %d tried", n,
                         s->kind->ask ? "on which the question has an answer" : "where fnf loses", INSTANCE_TRIES);
    return set_cause(cause, "no seed from %d to %d gives a run the question has an answer in", seed,
                     seed + INSTANCE_TRIES - 1);
}

bool instance_question(const struct lesson *l, int k, const struct instance *in, char *buf, size_t size)
{
    const struct slide *s = &l->slides[k];
    buf[0] = '\0';
    if (!in->asks || !in->ran || !s->kind->ask)
        return false;
    s->kind->ask(s, &in->run, buf, size);
    return true;
}

int instance_grade(const struct lesson *l, int k, const struct instance *in, const char *answer,
                   struct lesson_grade *g, char **cause)
{
    const struct slide *s = &l->slides[k];
    if (!in->asks || !in->ran)
        return set_cause(cause, "the slide's question is about its own cluster, not this instance");
    return lesson_grade(s, &in->run, answer, g, cause);
}

void instance_reason(const struct lesson *l, int k, const struct instance *in, char *buf, size_t size)
{
    const struct slide *s = &l->slides[k];
    buf[0] = '\0';
    if (in->ran && s->kind->reason)
        s->kind->reason(s, &in->run, buf, size);
}
