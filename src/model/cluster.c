/*
 * model/cluster.c - the cluster model: construction, the nodes sorted by
 * their times, a latency matrix's reserved words, and the checks that every
 * front door (CSV, Lua) shares through cluster_finish().
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* strcasecmp */
#endif

#include "model/cluster.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/cluster_fast.h"
#include "model/platform.h"
#include "support/fastpath.h"
#include "support/hugemem.h"
#include "model/nameidx.h"

struct cluster *cluster_new(enum cluster_kind kind)
{
    struct cluster *c = xcalloc(1, sizeof *c);
    c->kind = kind;
    c->unit = 1.0;
    c->source = 0;
    return c;
}

void cluster_free(struct cluster *c)
{
    if (!c)
        return;
    for (int i = 1; i <= c->nlabels; i++)
        free(c->labels[i]);
    free(c->labels);
    free(c->label_slot);
    free(c->klass);
    free(c->group);
    free(c->lines);
    free(c->nodes);
    free(c->path);
    free(c->name);
    free(c->description);
    free(c->dist);
    free(c->edges);
    free(c->edge_of);
    free(c->source_name);
    free(c->target);
    free(c->targets_spec);
    free(c->segments);
    platform_free(c->plat);
    if (c->index) {
        nameidx_free(c->index);
        free(c->index);
    }
    while (c->names) {
        struct name_chunk *next = c->names->next;
        free(c->names);
        c->names = next;
    }
    free(c);
}

void cluster_set_str(char **field, const char *value)
{
    free(*field);
    *field = value ? xstrdup(value) : NULL;
}

/* Put label id (hash h) in the first empty slot of its probe sequence. */
static void label_put(uint16_t *slot, size_t cap, uint16_t id, uint32_t h)
{
    size_t i = h & (cap - 1);
    while (slot[i])
        i = (i + 1) & (cap - 1);
    slot[i] = id;
}

/* The id of label (made if new), or 0 if it is new and there is no room. */
static uint16_t label_id(struct cluster *c, const char *label)
{
    size_t len = strlen(label);
    uint32_t h = nameidx_hash(label, len);
    if (c->label_cap) {
        for (size_t i = h & (c->label_cap - 1); c->label_slot[i]; i = (i + 1) & (c->label_cap - 1))
            if (strcmp(c->labels[c->label_slot[i]], label) == 0)
                return c->label_slot[i];
    }
    if (c->nlabels == CLUSTER_MAX_LABELS)
        return 0;
    if (2 * (size_t)(c->nlabels + 1) > c->label_cap) {   /* at most half full */
        size_t cap = c->label_cap ? 2 * c->label_cap : 16;
        uint16_t *slot = xcalloc(cap, sizeof *slot);
        for (int id = 1; id <= c->nlabels; id++)
            label_put(slot, cap, (uint16_t)id,
                      nameidx_hash(c->labels[id], strlen(c->labels[id])));
        free(c->label_slot);
        c->label_slot = slot;
        c->label_cap = cap;
    }
    if (c->nlabels + 1 >= c->labelcap) {
        c->labelcap = c->labelcap ? 2 * c->labelcap : 8;
        c->labels = xrealloc(c->labels, (size_t)c->labelcap * sizeof *c->labels);
        c->labels[0] = NULL;
    }
    uint16_t id = (uint16_t)++c->nlabels;
    c->labels[id] = xstrdup(label);
    label_put(c->label_slot, c->label_cap, id, h);
    return id;
}

/* Node p's id in *ids (made, all 0, with the first label of its kind). */
static int set_label(struct cluster *c, uint16_t **ids, int p, const char *label)
{
    if (!label && !*ids)
        return 0;
    uint16_t id = label ? label_id(c, label) : 0;
    if (label && id == 0)
        return -1;
    if (!*ids)
        *ids = xcalloc((size_t)c->cap, sizeof **ids);
    (*ids)[p] = id;
    return 0;
}

int cluster_set_class(struct cluster *c, int p, const char *label)
{
    return set_label(c, &c->klass, p, label);
}

int cluster_set_group(struct cluster *c, int p, const char *label)
{
    return set_label(c, &c->group, p, label);
}

void cluster_set_line(struct cluster *c, int p, int line)
{
    if (!c->lines) {
        int k = c->lines_ruled;   /* the next node the rule may take */
        long long step = (long long)line - c->line0;
        if (p < k && cluster_line(c, p) == line)
            return;
        if (p == k && k == 0) {
            c->line0 = line;
            c->lines_ruled = 1;
            return;
        }
        if (p == k && k == 1 && step >= INT_MIN && step <= INT_MAX) {
            c->line_step = (int)step;
            c->lines_ruled = 2;
            return;
        }
        if (p == k && k >= 2 && step == (long long)k * c->line_step) {
            c->lines_ruled++;
            return;
        }
        int *lines = xcalloc((size_t)c->cap, sizeof *lines);   /* off the rule */
        for (int q = 0; q < k; q++)
            lines[q] = cluster_line(c, q);
        c->lines = lines;
    }
    c->lines[p] = line;
}

/* Grow a per-node array of c (NULL stays NULL) from c->cap to cap entries, the new ones 0. */
static void *grow_zeroed(void *a, size_t size, int old, int cap)
{
    if (!a)
        return NULL;
    a = xrealloc(a, (size_t)cap * size);
    memset((char *)a + (size_t)old * size, 0, (size_t)(cap - old) * size);
    return a;
}

/*
 * A copy of name (len bytes and a NUL) in c's name pool.  Chunks double from
 * 4 KiB to 1 MiB, so a million names cost about a dozen allocations instead
 * of a million, and they lie in the order of the nodes; a name that does not
 * fit what is left opens a new chunk (at most a name's length is lost).
 */
static char *pool_copy(struct cluster *c, const char *name, size_t len)
{
    struct name_chunk *ch = c->names;
    if (!ch || ch->cap - ch->used < len + 1) {
        size_t cap = ch ? 2 * ch->cap : 4096;
        if (cap > ((size_t)1 << 20))
            cap = (size_t)1 << 20;
        if (cap < len + 1)
            cap = len + 1;
        struct name_chunk *fresh = xmalloc(sizeof *fresh + cap);
        fresh->next = ch;
        fresh->used = 0;
        fresh->cap = cap;
        c->names = ch = fresh;
    }
    char *s = ch->text + ch->used;
    memcpy(s, name, len);
    s[len] = '\0';
    ch->used += len + 1;
    return s;
}

int cluster_add_node(struct cluster *c, const char *name, double send, double recv)
{
    if (c->n == c->cap) {
        int cap = c->cap ? 2 * c->cap : 16;
        c->nodes = xrealloc(c->nodes, (size_t)cap * sizeof *c->nodes);
        c->klass = grow_zeroed(c->klass, sizeof *c->klass, c->cap, cap);
        c->group = grow_zeroed(c->group, sizeof *c->group, c->cap, cap);
        c->lines = grow_zeroed(c->lines, sizeof *c->lines, c->cap, cap);
        c->cap = cap;
    }
    struct node *nd = &c->nodes[c->n];
    nd->name = pool_copy(c, name, strlen(name));
    nd->send = send;
    nd->recv = recv;
    int k = c->n++;
    if (c->index)
        nameidx_add(c->index, c->nodes, k);
    return k;
}

void cluster_set_node_name(struct cluster *c, int i, const char *name)
{
    c->nodes[i].name = pool_copy(c, name, strlen(name));
    if (c->index) {   /* made again when next needed */
        nameidx_free(c->index);
        free(c->index);
        c->index = NULL;
    }
}

int cluster_add_edge(struct cluster *c, int from, int to, double time, double send)
{
    if (c->nedges == c->edgecap) {
        c->edgecap = c->edgecap ? 2 * c->edgecap : 16;
        c->edges = xrealloc(c->edges, (size_t)c->edgecap * sizeof *c->edges);
    }
    struct edge *e = &c->edges[c->nedges];
    e->from = from;
    e->to = to;
    e->time = time;
    e->send = send;
    e->line = 0;
    e->alpha = 0;
    e->beta = -1;
    return c->nedges++;
}

int cluster_find(const struct cluster *c, const char *name)
{
    if (!c->index && c->n > 8) {
        /* The index and the count of lookups are a cache: they change
         * nothing a caller can see, so a const cluster may get them (every
         * cluster is made by cluster_new, never const itself). */
        struct cluster *mut = (struct cluster *)c;
        if (mut->finds++ > 0) {
            mut->index = xcalloc(1, sizeof *mut->index);
            nameidx_reserve(mut->index, (size_t)c->n);
            for (int i = 0; i < c->n; i++)
                nameidx_add(mut->index, c->nodes, i);
        }
    }
    if (c->index)
        return nameidx_find(c->index, c->nodes, name);
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->nodes[i].name, name) == 0)
            return i;
    return -1;
}

static const char *const matrix_words[CLUSTER_MATRIX_WORDS] = {
    [CLUSTER_MATRIX_SEND] = "send",
    [CLUSTER_MATRIX_RECV] = "recv",
    [CLUSTER_MATRIX_CLASS] = "class",
    [CLUSTER_MATRIX_GROUP] = "group",
};

int cluster_matrix_word(const char *name)
{
    for (int w = 0; w < CLUSTER_MATRIX_WORDS; w++)
        if (strcasecmp(name, matrix_words[w]) == 0)
            return w;
    return -1;
}

const char *cluster_matrix_word_name(int w)
{
    return matrix_words[w];
}

static const struct {
    const char *word;
    double seconds;
} time_units[] = {
    [TIME_NONE] = {"none", 0}, [TIME_S] = {"s", 1},     [TIME_MS] = {"ms", 1e-3},
    [TIME_US] = {"us", 1e-6},  [TIME_NS] = {"ns", 1e-9},
};

const char *time_unit_name(enum time_unit u)
{
    return u > TIME_NONE && u <= TIME_NS ? time_units[u].word : NULL;
}

int time_unit_word(const char *w)
{
    for (int u = TIME_NONE; u <= TIME_NS; u++)
        if (strcmp(w, time_units[u].word) == 0)
            return u;
    return -1;
}

double time_unit_seconds(enum time_unit u)
{
    return u >= TIME_NONE && u <= TIME_NS ? time_units[u].seconds : 0;
}

const char *cluster_kind_name(enum cluster_kind k)
{
    switch (k) {
    case CLUSTER_NODES: return "node table";
    case CLUSTER_MATRIX: return "latency matrix";
    case CLUSTER_GRAPH: return "platform graph";
    }
    return "?";
}

/* ---- nodes in the order of their times: fnf's receivers, the consistency check ---- */

/* The readable sort: (first time, second time, node) triples by qsort.
 * model/cluster_fast.c gives the same order in O(n) passes; support/fastpath.h chooses. */
struct sort_item {
    double first, second;
    int node;
};

static int cmp_items(const struct sort_item *a, const struct sort_item *b, int sign)
{
    if (a->first != b->first)
        return a->first < b->first ? -sign : sign;
    if (a->second != b->second)
        return a->second < b->second ? -sign : sign;
    return a->node < b->node ? -1 : a->node > b->node;
}

static int cmp_ascending(const void *x, const void *y)
{
    return cmp_items(x, y, 1);
}

static int cmp_descending(const void *x, const void *y)
{
    return cmp_items(x, y, -1);
}

void cluster_sort_nodes(const struct node *nodes, int *order, int n, bool by_recv_first,
                        bool descending)
{
    if (FAST_PATH(true)) {
        cluster_fast_sort_nodes(nodes, order, n, by_recv_first, descending);
        return;
    }
    struct sort_item *a = xmalloc((size_t)(n ? n : 1) * sizeof *a);
    for (int i = 0; i < n; i++) {
        const struct node *nd = &nodes[order[i]];
        a[i].first = by_recv_first ? nd->recv : nd->send;
        a[i].second = by_recv_first ? nd->send : nd->recv;
        a[i].node = order[i];
    }
    qsort(a, (size_t)n, sizeof *a, descending ? cmp_descending : cmp_ascending);
    for (int i = 0; i < n; i++)
        order[i] = a[i].node;
    free(a);
}

/* Is a greater than b by more than measurement noise: CLUSTER_SPEED_RTOL of
 * the larger magnitude of the two? */
static bool speed_beyond(double a, double b)
{
    return a - b > CLUSTER_SPEED_RTOL * fmax(fabs(a), fabs(b));
}

bool cluster_speeds_consistent(const struct cluster *c, int *bad_p, int *bad_q)
{
    /* Sort by (send, recv, index).  The speeds are consistent when s(p) <=
     * s(q) iff r(p) <= r(q): no node receives slower than one that sends as
     * fast or faster, nodes with equal send times have equal receive times,
     * and a node that sends slower receives slower -- each "slower" and
     * "unequal" beyond CLUSTER_SPEED_RTOL, so that measured clusters with
     * noise in their last digits pass (docs/formats.md).  One pass over the
     * order: the latest node with the largest receive time so far, and the
     * first node of the current run of equal send times (the pair named is
     * the first bad neighbours of the order when the times are far apart):
     * cluster_speed_step.  O(n log n), or O(n) by the fast path (which walks
     * the distinct pairs alone when there are few).  A NaN time has no order:
     * not consistent, and that node is named twice. */
    int n = c->n, verdict;
    if (n < 2)
        return true;
    if (FAST_PATH((verdict = cluster_fast_speeds_grouped(c, bad_p, bad_q)) >= 0))
        return verdict;
    const struct node *nodes = c->nodes;
    for (int i = 0; i < n; i++)
        if (isnan(nodes[i].send) || isnan(nodes[i].recv)) {
            if (bad_p)
                *bad_p = i;
            if (bad_q)
                *bad_q = i;
            return false;
        }
    int *idx = xmalloc((size_t)n * sizeof *idx);
    for (int i = 0; i < n; i++)
        idx[i] = i;
    cluster_sort_nodes(nodes, idx, n, false, false);
    struct speed_walk w = {idx[0], idx[0], idx[0]};
    bool ok = true;
    for (int i = 1; i < n && ok; i++)
        ok = cluster_speed_step(nodes, &w, idx[i], bad_p, bad_q);
    free(idx);
    return ok;
}

bool cluster_speed_step(const struct node *nodes, struct speed_walk *w, int yi, int *bad_p, int *bad_q)
{
    const struct node *y = &nodes[yi];
    int x = -1;
    if (speed_beyond(nodes[w->top].recv, y->recv))
        x = w->top;   /* sends as fast or faster, receives slower */
    else if (nodes[w->run].send == y->send && speed_beyond(y->recv, nodes[w->run].recv))
        x = w->prev;   /* sends as fast, receives slower than the run so far */
    else if (speed_beyond(y->send, nodes[w->prev].send) && !speed_beyond(y->recv, nodes[w->top].recv))
        x = w->top;   /* sends slower, receives as fast */
    if (x >= 0) {
        if (bad_p)
            *bad_p = x;
        if (bad_q)
            *bad_q = yi;
        return false;
    }
    if (y->recv >= nodes[w->top].recv)
        w->top = yi;
    if (nodes[w->run].send != y->send)
        w->run = yi;
    w->prev = yi;
    return true;
}

/* A time the model can compute with: >= 0 (> 0 if positive), at most CLUSTER_MAX_TIME. */
static bool time_ok(double x, bool positive)
{
    return (positive ? x > 0 : x >= 0) && x <= CLUSTER_MAX_TIME;
}

static _Thread_local const char *source_override;   /* cluster_source_override's */

void cluster_source_override(const char *name)
{
    source_override = name;
}

/* Every node reachable from the source?  O(n + edges): the edges are
 * bucketed by their tail first (all ends are valid nodes here). */
static void check_reachable(struct cluster *c, struct diag *d)
{
    int n = c->n, m = c->nedges;
    int *first = xcalloc((size_t)n + 1, sizeof *first);
    int *head = xmalloc((size_t)(m ? m : 1) * sizeof *head);
    for (int k = 0; k < m; k++)
        first[c->edges[k].from + 1]++;
    for (int u = 0; u < n; u++)
        first[u + 1] += first[u];
    int *fill = xmalloc((size_t)n * sizeof *fill);
    memcpy(fill, first, (size_t)n * sizeof *fill);
    for (int k = 0; k < m; k++)
        head[fill[c->edges[k].from]++] = c->edges[k].to;
    free(fill);
    char *seen = xcalloc((size_t)n, 1);
    int *stack = xmalloc((size_t)n * sizeof *stack), top = 0;
    seen[c->source] = 1;
    stack[top++] = c->source;
    while (top > 0) {
        int u = stack[--top];
        for (int k = first[u]; k < first[u + 1]; k++)
            if (!seen[head[k]]) {
                seen[head[k]] = 1;
                stack[top++] = head[k];
            }
    }
    free(first);
    free(head);
    char b1[64], b2[64];
    for (int i = 0; i < n; i++)
        if (!seen[i])
            diag_error(d, c->path, cluster_line(c, i), NULL,
                       "node %s is not reachable from the source %s", SHOWN(c->nodes[i].name, b1),
                       SHOWN(c->nodes[c->source].name, b2));
    free(seen);
    free(stack);
}

/* The cluster's name and description as text: a byte that is not becomes
 * '?' (in place); a description keeps its line breaks. */
static void make_text(char *s, bool lines)
{
    if (!s)
        return;
    for (int k; *s; s += k)
        if ((k = text_char(s)) < 0 && !(lines && *s == '\n')) {
            *s = '?';
            k = 1;
        } else if (k < 0) {
            k = 1;
        }
}

/* A time too small for a double's full precision (below DBL_MIN, a subnormal)
 * is 0, as the CSV reader reads "1e-310": one rule for every cluster, so
 * that what is saved reads back the same (a SimGrid route of 8e-320 s). */
static void tiny_is_zero(double *x)
{
    if (*x != 0 && fabs(*x) < DBL_MIN)
        *x = 0;
}

static void tiny_times_are_zero(struct cluster *c)
{
    for (int i = 0; i < c->n; i++) {
        tiny_is_zero(&c->nodes[i].send);
        tiny_is_zero(&c->nodes[i].recv);
    }
    tiny_is_zero(&c->latency);
    tiny_is_zero(&c->unit);
    if (c->kind == CLUSTER_MATRIX && c->dist)
        for (size_t k = 0; k < (size_t)c->n * (size_t)c->n; k++)
            tiny_is_zero(&c->dist[k]);
    for (int k = 0; k < c->nedges; k++) {
        tiny_is_zero(&c->edges[k].time);
        tiny_is_zero(&c->edges[k].send);
    }
}

/* The node arrays at their length: they doubled as they grew (a quarter of
 * 24 MB unused at 10^6 nodes, the heap's top given back). */
static void fit_nodes(struct cluster *c)
{
    if (c->n == 0 || c->n == c->cap)
        return;
    size_t n = (size_t)c->n;
    c->nodes = xrealloc(c->nodes, n * sizeof *c->nodes);
    if (c->klass)
        c->klass = xrealloc(c->klass, n * sizeof *c->klass);
    if (c->group)
        c->group = xrealloc(c->group, n * sizeof *c->group);
    if (c->lines)
        c->lines = xrealloc(c->lines, n * sizeof *c->lines);
    c->cap = c->n;
}

/* Every node's name and times: what a cluster file can say, or an error. */
static void check_nodes(const struct cluster *c, struct diag *d)
{
    char b1[64];
    for (int i = 0; i < c->n; i++) {
        const struct node *nd = &c->nodes[i];
        const char *flaw = text_flaw(nd->name);
        if (flaw)   /* names reach SVG, JSON and terminals: text only (docs/reliability.md) */
            diag_error(d, c->path, cluster_line(c, i), "name", "node name \"%s\" holds %s: a name must be "
                       "UTF-8 text without control characters", SHOWN(nd->name, b1), flaw);
        /* What a cluster file cannot say is refused whatever made the cluster
         * (a SimGrid host, a Lua node), so that what is loaded can be saved. */
        if (!nd->name[0])
            diag_error(d, c->path, cluster_line(c, i), "name", "node %d has an empty name", i + 1);
        else if (c->kind == CLUSTER_MATRIX && cluster_matrix_word(nd->name) >= 0)
            diag_error(d, c->path, cluster_line(c, i), "name", "node name \"%s\" is a column word of latency "
                       "matrices (send, recv, class, group): it cannot name a node there",
                       SHOWN(nd->name, b1));
        if (!time_ok(nd->send, false))
            diag_error(d, c->path, cluster_line(c, i), "send", "%s: send time must be a finite number >= 0 "
                       "(and at most %g)", SHOWN(nd->name, b1), CLUSTER_MAX_TIME);
        if (!time_ok(nd->recv, false))
            diag_error(d, c->path, cluster_line(c, i), "recv", "%s: receive time must be a finite number "
                       ">= 0 (and at most %g)", SHOWN(nd->name, b1), CLUSTER_MAX_TIME);
    }
}

/* A platform graph's edges checked and indexed: c->edge_of[from * n + to]. */
static void index_edges(struct cluster *c, struct diag *d)
{
    char b1[64], b2[64];
    size_t nn = (size_t)c->n * (size_t)c->n;
    free(c->edge_of);
    c->edge_of = xmalloc(nn * sizeof *c->edge_of);
    for (size_t i = 0; i < nn; i++)
        c->edge_of[i] = -1;
    for (int k = 0; k < c->nedges; k++) {
        const struct edge *e = &c->edges[k];
        if (e->from < 0 || e->from >= c->n || e->to < 0 || e->to >= c->n) {
            diag_error(d, c->path, e->line, NULL, "edge names an unknown node");
            continue;
        }
        if (e->from == e->to) {
            diag_error(d, c->path, e->line, "to", "self loop on %s",
                       SHOWN(c->nodes[e->from].name, b1));
            continue;
        }
        if (!time_ok(e->time, true) || (e->send >= 0 && !time_ok(e->send, false))) {
            diag_error(d, c->path, e->line, "time", "edge %s -> %s: time must be a finite "
                       "number > 0 and send one >= 0 (both at most %g)",
                       SHOWN(c->nodes[e->from].name, b1), SHOWN(c->nodes[e->to].name, b2),
                       CLUSTER_MAX_TIME);
            continue;
        }
        size_t at = (size_t)e->from * (size_t)c->n + (size_t)e->to;
        if (c->edge_of[at] >= 0) {
            diag_error(d, c->path, e->line, NULL, "duplicate edge %s -> %s (first on line %d)",
                       SHOWN(c->nodes[e->from].name, b1), SHOWN(c->nodes[e->to].name, b2),
                       c->edges[c->edge_of[at]].line);
            continue;
        }
        c->edge_of[at] = k;
    }
}

int cluster_finish(struct cluster *c, struct diag *d)
{
    fit_nodes(c);
    make_text(c->name, false);
    make_text(c->description, true);
    tiny_times_are_zero(c);
    char b1[64], b2[64];
    int errors = d->errors;
    if (c->n == 0) {
        diag_error(d, c->path, 0, NULL, "no nodes: the cluster is empty");
        return -1;
    }
    /* The caps of a cluster file hold for every front door (a Lua script
     * could build more), so that what is saved can be read back. */
    int cap = c->kind == CLUSTER_GRAPH    ? CLUSTER_MAX_GRAPH_NODES
              : c->kind == CLUSTER_MATRIX ? CLUSTER_MAX_MATRIX_NODES
                                          : CLUSTER_MAX_NODES;
    if (c->n > cap) {
        diag_error(d, c->path, cluster_line(c, cap), NULL, "too many nodes: %d (a %s has at most %d, "
                   "what a cluster file can hold)", c->n, cluster_kind_name(c->kind), cap);
        return -1;
    }
    c->source = 0;
    if (c->source_name) {
        int s = cluster_find(c, c->source_name);
        if (s < 0)
            diag_error(d, c->path, c->source_line, "source",
                       "\"%s\" is not a node of this cluster", SHOWN(c->source_name, b1));
        else
            c->source = s;
    }
    bool check_reach = true;
    if (source_override) {
        int s = cluster_find(c, source_override);
        if (s >= 0)
            c->source = s;
        check_reach = s >= 0;
    }
    check_nodes(c, d);
    if (!time_ok(c->latency, false))
        diag_error(d, c->path, 0, "latency", "must be a finite number >= 0 (and at most %g)",
                   CLUSTER_MAX_TIME);
    if (!time_ok(c->unit, false))
        diag_error(d, c->path, 0, "unit", "must be a finite number >= 0 (and at most %g)",
                   CLUSTER_MAX_TIME);
    if (c->kind == CLUSTER_MATRIX && !c->dist && !c->dist_of)
        diag_error(d, c->path, 0, NULL, "latency matrix without distances");
    if (c->kind == CLUSTER_MATRIX && c->dist)   /* a rule's distances: its reader checked them */
        for (int i = 0; i < c->n; i++)
            for (int j = 0; j < c->n; j++)
                if (!time_ok(c->dist[(size_t)i * (size_t)c->n + (size_t)j], false)) {
                    diag_error(d, c->path, cluster_line(c, i), SHOWN(c->nodes[j].name, b1),
                               "distance from %s must be a finite number >= 0 (and at most %g)",
                               SHOWN(c->nodes[i].name, b2), CLUSTER_MAX_TIME);
                    i = c->n;   /* one message is enough */
                    break;
                }
    if (c->kind == CLUSTER_GRAPH && c->n > CLUSTER_MAX_GRAPH_NODES) {
        diag_error(d, c->path, 0, NULL, "%d nodes: a platform graph has at most %d (use a node "
                   "table or a smaller graph)", c->n, CLUSTER_MAX_GRAPH_NODES);
        return -1;
    }
    if (c->kind == CLUSTER_GRAPH) {
        index_edges(c, d);
        if (d->errors == errors && check_reach)
            check_reachable(c, d);
    }
    if (d->errors > errors)
        return -1;
    if (c->n == 1)
        diag_warn(d, c->path, cluster_line(c, 0), NULL,
                  "one node only (%s, the source): it holds the message from the start, so "
                  "there is nothing to send", SHOWN(c->nodes[0].name, b1));
    int p, q;
    if (c->kind != CLUSTER_GRAPH && !cluster_speeds_consistent(c, &p, &q))
        diag_warn(d, c->path, cluster_line(c, q), NULL,
                  "speeds are not consistent (%s: s=%g r=%g, %s: s=%g r=%g); "
                  "the FNF guarantee 2T+beta does not hold",
                  SHOWN(c->nodes[p].name, b1), c->nodes[p].send, c->nodes[p].recv,
                  SHOWN(c->nodes[q].name, b2), c->nodes[q].send, c->nodes[q].recv);
    return 0;
}
