/*
 * model/timing.c - the port models by name (model/timing.h): what `-m NAME` accepts,
 * the one-line summaries, and which models each cluster kind takes; and a
 * message size applied to a platform graph's affine edges.  Their
 * arithmetic is model/timing.h's.
 */
#include "model/timing.h"

#include <string.h>

#include "support/diag.h"

static const struct {
    const char *name;
    const char *summary;
} models[MODEL_COUNT] = {
    [MODEL_ASYNC] = {"async", "asynchronous sender-receiver: send s, link l, receive r; sender free after s"},
    [MODEL_SENDER_ONLY] = {"sender-only", "sender-only: the receiver holds the message after s(q)"},
    [MODEL_SYNC] = {"sync", "synchronous: the sender is busy until the receive ends"},
    [MODEL_ONE_PORT] = {"one-port", "one-port bidirectional: each transfer holds both ports for T"},
    [MODEL_MULTI_PORT] = {"multi-port", "multi-port: the sender's port is busy send_q, the message arrives after T"},
    [MODEL_ONE_PORT_UNI] = {"one-port-uni", "one-port unidirectional: one port per node, a send or a receive at a time, each for T"},
};

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
