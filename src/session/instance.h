/*
 * session/instance.h - a slide's family: the random instances of its
 * cluster's kind, drawn from a seed, each with its own run to grade against.
 * The view's d, `hetcast practice` and a room's per-student instances draw
 * them here, so that one seed gives one instance wherever it is drawn.
 *
 * A slide has a family when its cluster is a Lua script that reads a seed
 * parameter (param("seed", ...): the instance is the script at another
 * seed) or a node table (a random table of its size, 3 to 7 nodes, times 1
 * to 4, each receive slower than its send, the slide's latency).  A slide
 * with a pattern, slices or a measured trace has none: those are about its
 * own cluster.
 *
 * The instance keeps the slide's question when its kind can ask it of any
 * run (a prediction: the row's ask, session/question.h), graded against the
 * instance's own run of the slide's first scheduler, and is drawn among
 * those whose run answers it; a choice's answer is the author's, about the
 * slide's own cluster, and is not asked: such a slide's random table is
 * shown as fnf against the optimum, drawn among those where fnf loses.
 * Never prints.
 */
#ifndef HETCAST_INSTANCE_H
#define HETCAST_INSTANCE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "session/lesson.h"

#define INSTANCE_TRIES 300      /* seeds tried, from the one asked, for an instance that fits */
#define INSTANCE_MAX_NODES 7    /* a random node table's size at most (the optimum stays quick) */

enum instance_kind {
    INSTANCE_NONE = 0,  /* the slide has no family */
    INSTANCE_SEED,      /* its Lua script at another seed */
    INSTANCE_TABLE,     /* a random node table where fnf loses */
};

struct instance {
    enum instance_kind kind;
    int seed;               /* the seed of the instance drawn */
    int tries;              /* seeds tried to find it (1: the first one asked) */
    bool asks;              /* the slide's question is asked of the instance (a prediction whose
                               answer its run gives) */
    char *csv;              /* the instance's cluster as CSV text (cluster_write_csv) */
    char *owned;            /* what o points to that the instance allocated ("seed=N", or the
                               CSV text); a caller that keeps o past instance_free takes it
                               (and sets this NULL) */
    struct session_opts o;  /* the slide's options on the instance: the slide's own schedulers
                               for a question asked, fnf against optimal for a node table
                               otherwise; pointers into the lesson and the instance */
    struct cluster *c;      /* the instance's cluster */
    struct run run;         /* the run of o's first scheduler: the one graded against */
    bool ran;               /* run holds a run */
};

/* The family of slide k of l: its kind, or INSTANCE_NONE with why (a sentence) in buf.
 * Loads the slide's cluster to know (a node table or not). */
enum instance_kind instance_family(const struct lesson *l, int k, char *why, size_t size);

/*
 * Draw the instance of slide k from seed (>= 1): the first seed from it on whose
 * instance fits (the question asked has an answer in the run; nothing asked of a node
 * table: fnf loses there), at most INSTANCE_TRIES of them.  0 with *in filled (free it), or -1 with
 * *cause (no family, or none found) and *in holding nothing.  Costs up to INSTANCE_TRIES
 * runs of fnf and the optimum of at most 7 nodes; *cancel set stops it (-1).
 */
int instance_make(const struct lesson *l, int k, int seed, const volatile sig_atomic_t *cancel,
                  struct instance *in, char **cause);

/* The question asked of the instance (its kind's ask, from its run), into buf; false
 * (buf "") when the slide's question is not asked of it. */
bool instance_question(const struct lesson *l, int k, const struct instance *in, char *buf, size_t size);

/* Grade answer against the instance's own run, as lesson_grade grades the slide's:
 * 0 with *g, or -1 with *cause (not asked of it, or how to answer). */
int instance_grade(const struct lesson *l, int k, const struct instance *in, const char *answer,
                   struct lesson_grade *g, char **cause);

/* Why the right answer is what it is on the instance's run (its kind's reason: the reason
 * the scheduler gave for the booking asked about, the node that ends last), into buf; ""
 * when the kind gives none. */
void instance_reason(const struct lesson *l, int k, const struct instance *in, char *buf, size_t size);

void instance_free(struct instance *in);

#endif
