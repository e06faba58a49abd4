/*
 * session/room_challenge.c - a class challenge's cluster and the replay of
 * a student's picks (session/room_challenge.h).
 */
#define _GNU_SOURCE 1   /* open_memstream */
#include "session/room_challenge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "sched/exercise.h"
#include "sched/registry.h"
#include "session/run.h"
#include "session/session.h"
#include "support/diag.h"

/* The CSV text of c, or NULL with *cause when it is over the limits. */
static char *csv_of(const struct cluster *c, char **cause)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    if (!fp) {
        set_cause(cause, "cannot write the cluster for the class");
        return NULL;
    }
    int rc = cluster_write_csv(c, fp);
    if (fclose(fp) != 0 || rc < 0) {
        free(buf);
        set_cause(cause, "the cluster cannot be written as CSV for the class");
        return NULL;
    }
    if (len > ROOM_CHALLENGE_BYTES) {
        free(buf);
        set_cause(cause, "the cluster's CSV text is %zu bytes: a challenge sends at most %d", len,
                  ROOM_CHALLENGE_BYTES);
        return NULL;
    }
    for (char *p = buf; *p;) {
        char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char line[ROOM_CHALLENGE_LINE + 1];
        if (n > ROOM_CHALLENGE_LINE) {
            free(buf);
            set_cause(cause, "a line of the cluster's CSV text is %zu bytes: a challenge sends at most %d",
                      n, ROOM_CHALLENGE_LINE);
            return NULL;
        }
        memcpy(line, p, n);
        line[n] = '\0';
        if (text_flaw(line)) {
            free(buf);
            set_cause(cause, "the cluster's CSV text is not plain text: it cannot be sent");
            return NULL;
        }
        p += n + (nl != NULL);
    }
    return buf;
}

int challenge_prepare(struct challenge *ch, const struct lesson *l, int k, char **cause)
{
    memset(ch, 0, sizeof *ch);
    const struct slide *s = &l->slides[k];
    struct session_opts o;
    lesson_session(l, k, &o);
    if (session_is_exchange(&o) || s->slices > 0)
        return set_cause(cause, "slide %d is %s: the exercise books one message from the source", k + 1,
                         s->slices > 0 ? "a pipelined broadcast" : "an exchange");
    struct diag warn;
    diag_init(&warn);
    struct cluster *orig = session_load(&o, &warn, cause);
    diag_free(&warn);
    if (!orig)
        return -1;
    enum model m;
    if (session_model(&o, orig, &m, cause) < 0) {
        cluster_free(orig);
        return -1;
    }
    if (orig->plat && timing_shared_links(m)) {   /* the exercise's picks go by each route alone */
        set_cause(cause, "slide %d is timed on shared links: the exercise books each pick by its route's cost "
                  "alone, which is not how the slide's run is timed (a model with private routes, async or "
                  "sync, can be a challenge)", k + 1);
        cluster_free(orig);
        return -1;
    }
    if (orig->n > ROOM_CHALLENGE_NODES || orig->n < 2) {
        set_cause(cause, "slide %d's cluster has %d nodes: a challenge takes 2 to %d", k + 1, orig->n,
                  ROOM_CHALLENGE_NODES);
        cluster_free(orig);
        return -1;
    }
    ch->csv = csv_of(orig, cause);
    int n = orig->n, source = orig->source;
    cluster_free(orig);
    if (!ch->csv)
        return -1;
    /* the room plays what it sends: the cluster loaded back from the text */
    struct session_opts back;
    session_opts_init(&back);
    back.file = "(the challenge's cluster)";
    back.text = ch->csv;
    diag_init(&warn);
    ch->c = session_load(&back, &warn, cause);
    diag_free(&warn);
    if (!ch->c || ch->c->n != n || ch->c->source != source) {
        if (ch->c)
            set_cause(cause, "slide %d's cluster does not read back the same from its CSV text", k + 1);
        challenge_free(ch);
        return -1;
    }
    ch->m = m;
    text_fit(ch->model, sizeof ch->model, "%s", model_name(m));
    const struct sched_ops *fnf = session_sched("fnf", cause);
    struct run run;
    if (!fnf || sched_check(fnf, ch->c, m, cause) < 0 ||
        session_run(&run, &back, ch->c, m, fnf, false, RUN_OPT_SMALL, cause) < 0) {
        challenge_free(ch);
        return -1;
    }
    ch->fnf = run.eng.makespan;
    if (run.opt == OPT_PROVEN) {
        ch->optimum = run.optimum;
        ch->optimum_known = true;
    }
    run_free(&run);
    if (!ch->optimum_known && n <= EXERCISE_MAX_NODES) {   /* the exercise's own search */
        struct engine e;
        struct best_result b;
        if (engine_init(&e, ch->c, m, NULL) == 0) {
            if (exercise_best_completion(&e, 0, NULL, &b, NULL) == 0 && b.status == BEST_EXACT) {
                ch->optimum = b.makespan;
                ch->optimum_known = true;
            }
            engine_free(&e);
        }
    }
    return 0;
}

void challenge_free(struct challenge *ch)
{
    if (ch->c)
        cluster_free(ch->c);
    free(ch->csv);
    memset(ch, 0, sizeof *ch);
}

/* A node number 0..n-1 written in decimal at *p, followed by stop (' ': a
 * space or the end); -1 if none. */
static int node_at(const char **p, int n, char stop)
{
    const char *s = *p;
    long v = 0;
    int digits = 0;
    while (*s >= '0' && *s <= '9' && digits < 6)
        v = v * 10 + (*s++ - '0'), digits++;
    if (!digits || (digits > 1 && **p == '0') || (*s != stop && !(stop == ' ' && !*s)) || v >= n)
        return -1;
    *p = s;
    return (int)v;
}

int challenge_replay(const struct challenge *ch, const char *picks, double *makespan, char *canon,
                     size_t size, char **cause)
{
    const struct cluster *c = ch->c;
    if (strlen(picks) > ROOM_PICKS_MAX)
        return set_cause(cause, "the picks hold at most %d bytes", ROOM_PICKS_MAX);
    struct engine e;
    if (engine_init(&e, c, ch->m, cause) < 0)
        return -1;
    size_t at = 0;
    canon[0] = '\0';
    const char *p = picks;
    int k = 0, rc = 0;
    while (*p && rc == 0) {
        k++;
        if (k >= c->n) {
            rc = set_cause(cause, "pick %d: every node holds the message already after %d picks", k, k - 1);
            break;
        }
        const char *start = p;
        int from = node_at(&p, c->n, '>');
        int to = -1;
        if (from >= 0) {
            p++;
            to = node_at(&p, c->n, ' ');
        }
        if (from < 0 || to < 0) {
            const char *end = strchr(start, ' ');
            char shown[40];
            text_fit(shown, sizeof shown, "%.*s", (int)(end ? end - start : (long)strlen(start)), start);
            rc = set_cause(cause, "pick %d \"%s\" is not SENDER>RECEIVER with node numbers 0 to %d", k, shown,
                           c->n - 1);
            break;
        }
        char *why = NULL;
        if (!engine_holds(&e, from, 0))
            rc = set_cause(cause, "pick %d (%d>%d): %s does not hold the message yet", k, from, to,
                           c->nodes[from].name);
        else if (engine_holds(&e, to, 0))
            rc = set_cause(cause, "pick %d (%d>%d): %s holds the message already", k, from, to,
                           c->nodes[to].name);
        else if (engine_book(&e, from, to, 0, "the student's pick", &why) < 0)
            rc = set_cause(cause, "pick %d (%d>%d): %s", k, from, to, why ? why : "it cannot be booked");
        free(why);
        if (rc == 0)
            at += (size_t)snprintf(canon + at, at < size ? size - at : 0, "%s%d>%d", k > 1 ? " " : "", from, to);
        if (*p == ' ' && p[1])
            p++;
        else if (*p == ' ')
            rc = set_cause(cause, "the picks end with a space");
    }
    if (rc == 0 && e.nwaiting > 0)
        rc = set_cause(cause, "the broadcast is not finished: %d node%s still wait%s", e.nwaiting,
                       e.nwaiting == 1 ? "" : "s", e.nwaiting == 1 ? "s" : "");
    if (rc == 0 && at >= size)
        rc = set_cause(cause, "the picks hold at most %zu bytes", size - 1);
    if (rc == 0)
        *makespan = e.makespan;
    engine_free(&e);
    return rc;
}

char *challenge_transfers(const struct challenge *ch, const char *canon)
{
    size_t cap = 64, len = 0;
    char *out = xmalloc(cap);
    out[0] = '\0';
    for (const char *p = canon; *p;) {
        char *end;
        long from = strtol(p, &end, 10), to = *end == '>' ? strtol(end + 1, &end, 10) : -1;
        if (from < 0 || from >= ch->c->n || to < 0 || to >= ch->c->n)
            break;   /* canon is challenge_replay's: never */
        const char *a = ch->c->nodes[from].name, *b = ch->c->nodes[to].name;
        size_t need = len + strlen(a) + strlen(b) + 8;
        if (need > cap) {
            cap = 2 * need;
            out = xrealloc(out, cap);
        }
        len += (size_t)snprintf(out + len, cap - len, "%s%s -> %s", len ? ", " : "", a, b);
        p = *end == ' ' ? end + 1 : end;
    }
    return out;
}
