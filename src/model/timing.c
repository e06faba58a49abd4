/*
 * model/timing.c - the port models by name (model/timing.h): what `-m NAME` accepts,
 * the one-line summaries, which models each cluster kind takes, and what
 * each model means to the rest of hetcast (the predicates of model/timing.h,
 * one row a model); and a message size applied to a platform graph's affine
 * edges.  Their arithmetic is model/timing.h's.
 */
#include "model/timing.h"

#include <string.h>

#include "support/diag.h"

/* What a model means beyond its arithmetic: the flags of its row, each read
 * by one predicate of model/timing.h (which says where it is used). */
#define WAITS_RECEIVE (1u << 0)  /* timing_sender_waits_receive */
#define RENDEZVOUS (1u << 1)     /* timing_rendezvous */
#define HOLD_STEPWISE (1u << 2)  /* timing_hold_stepwise */
#define SEND_ONLY (1u << 3)      /* timing_send_only */
#define FNF_BOUNDS (1u << 4)     /* timing_fnf_bounds */
#define LIST_RUN (1u << 5)       /* timing_list_run */
#define LP_ONE_PORT (1u << 6)    /* timing_lp_of_one_port */
#define EXCHANGE (1u << 7)       /* timing_exchange_ok */
#define EXCHANGE_MATRIX (1u << 8) /* timing_exchange_on_matrix */
#define SHARED_LINKS (1u << 9)   /* timing_shared_links */
#define AT_ONCE (1u << 10)       /* timing_sends_at_once */

static const struct {
    const char *name;
    const char *summary;
    unsigned means;          /* the flags above */
    const char *tree_rule;   /* timing_tree_rule */
} models[MODEL_COUNT] = {
    [MODEL_ASYNC] = {"async", "asynchronous sender-receiver: send s, link l, receive r; sender free after s",
                     HOLD_STEPWISE | FNF_BOUNDS | LIST_RUN | EXCHANGE, "sum of its children's T"},
    [MODEL_SENDER_ONLY] = {"sender-only", "sender-only: the receiver holds the message after s(q)",
                           HOLD_STEPWISE | SEND_ONLY, "sum of its children's T"},
    [MODEL_SYNC] = {"sync", "synchronous: the sender is busy until the receive ends",
                    WAITS_RECEIVE | RENDEZVOUS | HOLD_STEPWISE | EXCHANGE | EXCHANGE_MATRIX,
                    "sum of its children's T"},
    [MODEL_ONE_PORT] = {"one-port", "one-port bidirectional: each transfer holds both ports for T",
                        WAITS_RECEIVE | RENDEZVOUS | SHARED_LINKS, "sum of its children's T"},
    [MODEL_MULTI_PORT] = {"multi-port", "multi-port: the sender's port is busy send_q, the message arrives after T",
                          LP_ONE_PORT | SHARED_LINKS | AT_ONCE, "sends or slowest link"},
    [MODEL_ONE_PORT_UNI] = {"one-port-uni", "one-port unidirectional: one port per node, a send or a receive at a time, each for T",
                            WAITS_RECEIVE | RENDEZVOUS, "its receive and its children's T"},
};

/* A new port model is its row above, its intervals and inline predicates in
 * model/timing.h (timing_phases, timing_start, timing_port_busy,
 * timing_holds_recv_port, timing_split, timing_tree_period, ...), its case of
 * timing_measured below, and what docs/models.md ("Adding a port model")
 * lists beyond: then raise this count. */
_Static_assert(MODEL_COUNT == 6, "a new port model: see docs/models.md, \"Adding a port model\"");

static bool row_has(enum model m, unsigned flag)
{
    return m < MODEL_COUNT && (models[m].means & flag);
}

bool timing_sender_waits_receive(enum model m) { return row_has(m, WAITS_RECEIVE); }
bool timing_rendezvous(enum model m) { return row_has(m, RENDEZVOUS); }
bool timing_hold_stepwise(enum model m) { return row_has(m, HOLD_STEPWISE); }
bool timing_send_only(enum model m) { return row_has(m, SEND_ONLY); }
bool timing_fnf_bounds(enum model m) { return row_has(m, FNF_BOUNDS); }
bool timing_list_run(enum model m) { return row_has(m, LIST_RUN); }
bool timing_lp_of_one_port(enum model m) { return row_has(m, LP_ONE_PORT); }
bool timing_exchange_ok(enum model m) { return row_has(m, EXCHANGE); }
bool timing_exchange_on_matrix(enum model m) { return row_has(m, EXCHANGE_MATRIX); }
bool timing_shared_links(enum model m) { return row_has(m, SHARED_LINKS); }
bool timing_sends_at_once(enum model m) { return row_has(m, AT_ONCE); }

enum model model_default_platform(void)
{
    return MODEL_ONE_PORT;
}

const char *timing_tree_rule(enum model m)
{
    return m < MODEL_COUNT ? models[m].tree_rule : "?";
}

void timing_measured(enum model m, const struct timing_measure *at, struct timing *out)
{
    double st = at->start, ls = at->link, se = at->send_end, fr = at->free, le = at->arrival,
           re = at->recv_end;
    switch (m) {
    case MODEL_SENDER_ONLY:   /* the message is held when it arrives: no receive */
        timing_set(out, st, se, ls, le, le, le, le, se);
        break;
    case MODEL_SYNC:   /* the send port is held until the acknowledged receive ends */
        timing_set(out, st, fr, ls, le, le, re, re, fr);
        break;
    case MODEL_ONE_PORT:
    case MODEL_ONE_PORT_UNI:   /* one interval, from the start to the acknowledged receive's end */
        timing_set(out, st, fr, st, re, st, re, re, fr);
        break;
    case MODEL_ASYNC:
    case MODEL_MULTI_PORT:
    default:
        timing_set(out, st, se, ls, le, le, re, re, fr);
        break;
    }
}

const char *model_name(enum model m)
{
    return m < MODEL_COUNT ? models[m].name : "?";
}

const char *model_summary(enum model m)
{
    return m < MODEL_COUNT ? models[m].summary : "?";
}

int model_parse(const char *name, enum model *out)
{
    for (int m = 0; m < MODEL_COUNT; m++)
        if (strcmp(name, models[m].name) == 0) {
            *out = (enum model)m;
            return 0;
        }
    return -1;
}

static const char *model_name_at(int m) { return models[m].name; }

char *model_names(void)
{
    return diag_join_names(MODEL_COUNT, model_name_at);
}

unsigned model_mask_for(enum cluster_kind k)
{
    if (k == CLUSTER_GRAPH)
        return MODEL_BIT(MODEL_ONE_PORT) | MODEL_BIT(MODEL_MULTI_PORT) |
               MODEL_BIT(MODEL_ONE_PORT_UNI);
    return MODEL_ALL & ~MODEL_BIT(MODEL_ONE_PORT_UNI);
}

char *model_refusal(enum model m, enum cluster_kind k)
{
    char list[256] = "";
    unsigned mask = model_mask_for(k);
    for (int i = 0; i < MODEL_COUNT; i++)
        if (mask & MODEL_BIT(i)) {
            if (list[0])
                strncat(list, ", ", sizeof list - strlen(list) - 1);
            strncat(list, models[i].name, sizeof list - strlen(list) - 1);
        }
    return xasprintf("the %s model does not apply to a %s; valid models for a %s: %s",
                     model_name(m), cluster_kind_name(k), cluster_kind_name(k), list);
}

enum model model_default_for(enum cluster_kind k)
{
    return k == CLUSTER_GRAPH ? MODEL_ONE_PORT : MODEL_ASYNC;
}

int timing_set_message_size(struct cluster *c, double size)
{
    if (c->kind == CLUSTER_NODES && c->nsegments > 0) {
        for (int k = 0; k < c->nsegments; k++) {
            const struct cluster_segment *g = &c->segments[k];
            if (size >= g->lo && size <= g->hi) {
                c->latency = timing_affine(g->latency, g->per_byte, size);
                return 1;
            }
        }
        return -1;
    }
    int affine = 0;
    for (int k = 0; c->kind == CLUSTER_GRAPH && k < c->nedges; k++) {
        struct edge *e = &c->edges[k];
        if (e->beta < 0)
            continue;
        e->time = timing_affine(e->alpha, e->beta, size);
        affine++;
    }
    return affine;
}
