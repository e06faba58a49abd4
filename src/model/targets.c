/*
 * model/targets.c - a multicast's targets (model/targets.h): reading a list
 * of names, writing it back.
 */
#include "model/targets.h"

#include <stdlib.h>
#include <string.h>

#include "support/diag.h"

int cluster_set_targets(struct cluster *c, const char *list, char **cause)
{
    unsigned char *mark = xcalloc((size_t)(c->n > 0 ? c->n : 1), 1);
    int count = 0;
    const char *s = list;
    for (;;) {
        const char *end = strchr(s, ',');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        size_t a = 0, b = len;
        while (a < b && (s[a] == ' ' || s[a] == '\t'))
            a++;
        while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t'))
            b--;
        if (b > a) {
            char *name = xmalloc(b - a + 1);
            memcpy(name, s + a, b - a);
            name[b - a] = '\0';
            int p = cluster_find(c, name);
            if (p < 0) {
                char shown[64];
                set_cause(cause, "\"%s\" is not a node of this cluster", SHOWN(name, shown));
                free(name);
                free(mark);
                return -1;
            }
            free(name);
            if (!mark[p])
                count++;
            mark[p] = 1;
        }
        if (!end)
            break;
        s = end + 1;
    }
    if (count == 0) {
        free(mark);
        return set_cause(cause, "no target named: give NAME,NAME,... (the nodes that must receive "
                         "the message)");
    }
    free(c->target);
    c->target = mark;
    c->ntargets = count;
    return 0;
}

int cluster_resolve_targets(struct cluster *c, struct diag *d)
{
    if (!c->targets_spec)
        return 0;
    char *why = NULL;
    int rc = cluster_set_targets(c, c->targets_spec, &why);
    if (rc < 0)
        diag_error(d, c->path, c->targets_line, "targets", "%s", why);
    free(why);
    return rc;
}

void cluster_clear_targets(struct cluster *c)
{
    free(c->target);
    c->target = NULL;
    c->ntargets = 0;
}

char *cluster_targets_text(const struct cluster *c)
{
    if (!c->target)
        return NULL;
    size_t len = 1;
    for (int p = 0; p < c->n; p++)
        if (c->target[p])
            len += strlen(c->nodes[p].name) + 1;
    char *out = xmalloc(len), *w = out;
    for (int p = 0; p < c->n; p++)
        if (c->target[p]) {
            if (w != out)
                *w++ = ',';
            size_t k = strlen(c->nodes[p].name);
            memcpy(w, c->nodes[p].name, k);
            w += k;
        }
    *w = '\0';
    return out;
}

struct cluster *cluster_subset(const struct cluster *c, const unsigned char *keep, int *map)
{
    struct cluster *s = cluster_new(c->kind);
    int *pos = xmalloc((size_t)c->n * sizeof *pos);
    for (int p = 0; p < c->n; p++) {
        pos[p] = -1;
        if (keep[p] || p == c->source) {
            pos[p] = cluster_add_node(s, c->nodes[p].name, c->nodes[p].send, c->nodes[p].recv);
            map[pos[p]] = p;
        }
    }
    s->time_unit = c->time_unit;
    s->latency = c->latency;
    s->unit = c->unit;
    if (c->kind == CLUSTER_MATRIX) {
        s->dist = xmalloc((size_t)s->n * (size_t)s->n * sizeof *s->dist);
        for (int i = 0; i < s->n; i++)
            for (int j = 0; j < s->n; j++)
                s->dist[(size_t)i * (size_t)s->n + (size_t)j] =
                    cluster_dist(c, map[i], map[j]);
    }
    for (int k = 0; k < c->nedges; k++) {
        const struct edge *ed = &c->edges[k];
        if (pos[ed->from] >= 0 && pos[ed->to] >= 0)
            cluster_add_edge(s, pos[ed->from], pos[ed->to], ed->time, ed->send);
    }
    cluster_set_str(&s->source_name, c->nodes[c->source].name);
    free(pos);
    struct diag d;
    diag_init(&d);
    if (cluster_finish(s, &d) < 0) {   /* a graph whose relays cannot reach every node */
        cluster_free(s);
        s = NULL;
    }
    diag_free(&d);
    return s;
}
