/*
 * sched/lp.c - linear program (2) of Beaumont, Marchal & Robert, solved with GLPK.
 *
 * The program, with x(w,e) the slices per time unit destined to node w that
 * cross edge e and n(e) the slices that cross e:
 *
 *   maximize TP subject to
 *   flow      for every destination w != source and every node v != source:
 *             sum_{e into v} x(w,e) - sum_{e out of v} x(w,e) = TP if v = w, else 0
 *   (d)       x(w,e) <= n(e)                  (the paper's n = max_w x, relaxed)
 *   (g), (j)  sum_{e out of u} n(e) T(e) <= 1   for every node u (send port)
 *   (f), (i)  sum_{e into u}  n(e) T(e) <= 1   for every node u (receive port)
 *   (e), (h)  0 <= n(e) <= 1 / T(e)
 *
 * The unidirectional one-port model (lp_limits.unidirectional; the paper's
 * §2.3 defines the model, its LP is for the bidirectional one only): a node
 * has one port that sends or receives, so its two port rows become one,
 *
 *   (f)+(g)   sum_{e out of u} n(e) T(e) + sum_{e into u} n(e) T(e) <= 1.
 *
 * Every periodic schedule meets it, so its value bounds the throughput from
 * above; unlike the bidirectional program's, it is not always reached (on a
 * triangle a node's transfers with its two neighbours exclude each other in
 * pairs: docs/pipeline.md).
 *
 * The flow rows are the paper's (a)-(c) read as *net* flows: written, as the
 * paper does, on the outgoing flow at the source and the incoming flow at w
 * only, a circulation through the source or through w would count as
 * delivered slices.  Since n(e) appears only in upper bounds, "<=" in (d)
 * gives the same optimum as the paper's "=".
 *
 * Two ways to solve it:
 *
 * - lp_solve_broadcast_flows() builds the program above as it stands:
 *   (n-1)|E| flow variables and as many (d) rows.  Exact, but GLPK's simplex
 *   needs minutes on a 50-node platform of density 0.2.
 * - lp_solve_broadcast() solves the same program projected on (TP, n): by
 *   max-flow/min-cut, flows x(w,.) of value TP within the capacities n exist
 *   for every w iff every cut separating the source from some w carries
 *   sum n(e) >= TP.  It generates rows and columns: it starts with each
 *   node's LP_START_DEGREE fastest edges out and in and a breadth-first tree
 *   from the source, the port rows, and the cuts around each receiver and
 *   the source; after each solve it adds the minimum cuts (nearest the
 *   source and nearest the receiver) of every receiver whose maximum flow
 *   falls short of TP (Dinic's algorithm; relative tolerance
 *   LP_CUT_TOLERANCE), re-solving with the dual simplex from the previous
 *   basis; when none is short it prices the edges left out under the
 *   current duals and adds those of positive reduced cost, re-solving with
 *   the primal simplex.  When no cut is violated and no edge prices out, the
 *   solution is feasible for the whole program and the duals for every
 *   column: the optimum is the whole program's.  A few rounds of programs of
 *   the size of the edges in use: 1000 nodes and 100 000 edges in seconds.
 *   The counts are then recomputed as the paper defines them,
 *   n(e) = max_w x(w,e), from a flow of value TP for every w (antiparallel
 *   flows cancelled).
 *
 * Times are scaled by their mean so that the values GLPK sees are of order 1.
 */
#include "sched/lp.h"
#include "support/atomic.h"
#include "support/numfmt.h"

#include <errno.h>
#include <glpk.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LP_CUT_TOLERANCE 1e-9   /* a cut short of TP by less than this (relative) is met */
#define LP_MAX_ROUNDS 2000      /* cut rounds before giving up */
#define LP_CANCEL_ITERATIONS 200 /* simplex iterations between polls of lp_limits.cancel */
#define LP_PRICE_TOLERANCE 1e-9 /* a column whose reduced cost is below this does not pay */
#define LP_PRICE_BATCH 2        /* columns added per pricing: at most this many per node */
#define LP_START_DEGREE 3       /* first columns: each node's fastest edges out and in */
#define FLOW_EPS 1e-13          /* residual capacities below this are empty (scaled units) */

/* ---- a maximum flow network over the platform's edges (Dinic) ---- */

struct net {
    int n;
    int *head;      /* first arc leaving node u, -1: none */
    int *next;      /* next arc leaving the same node */
    int *to;        /* arc 2k: edge k, arc 2k+1: its residual reverse */
    double *cap;    /* residual capacity */
    int *level, *iter, *queue;
};

/* The network of the edges list[0..m-1]: arc 2i is edge list[i], arc 2i+1 its reverse. */
static void net_init(struct net *g, const struct cluster *c, const int *list, int m)
{
    int arcs = 2 * (m ? m : 1);
    g->n = c->n;
    g->head = xmalloc((size_t)c->n * sizeof *g->head);
    g->next = xmalloc((size_t)arcs * sizeof *g->next);
    g->to = xmalloc((size_t)arcs * sizeof *g->to);
    g->cap = xcalloc((size_t)arcs, sizeof *g->cap);
    g->level = xmalloc((size_t)c->n * sizeof *g->level);
    g->iter = xmalloc((size_t)c->n * sizeof *g->iter);
    g->queue = xmalloc((size_t)c->n * sizeof *g->queue);
    for (int u = 0; u < c->n; u++)
        g->head[u] = -1;
    for (int i = m - 1; i >= 0; i--) {
        int a = 2 * i, b = 2 * i + 1, u = c->edges[list[i]].from, v = c->edges[list[i]].to;
        g->to[a] = v;
        g->next[a] = g->head[u];
        g->head[u] = a;
        g->to[b] = u;
        g->next[b] = g->head[v];
        g->head[v] = b;
    }
}

static void net_free(struct net *g)
{
    free(g->head);
    free(g->next);
    free(g->to);
    free(g->cap);
    free(g->level);
    free(g->iter);
    free(g->queue);
}

/* Levels from s over non-empty arcs; true if t is reached. */
static bool net_bfs(struct net *g, int s, int t)
{
    for (int u = 0; u < g->n; u++)
        g->level[u] = -1;
    int qh = 0, qt = 0;
    g->level[s] = 0;
    g->queue[qt++] = s;
    while (qh < qt) {
        int u = g->queue[qh++];
        for (int a = g->head[u]; a >= 0; a = g->next[a])
            if (g->cap[a] > FLOW_EPS && g->level[g->to[a]] < 0) {
                g->level[g->to[a]] = g->level[u] + 1;
                g->queue[qt++] = g->to[a];
            }
    }
    return g->level[t] >= 0;
}

static double net_dfs(struct net *g, int u, int t, double want)
{
    if (u == t)
        return want;
    for (; g->iter[u] >= 0; g->iter[u] = g->next[g->iter[u]]) {
        int a = g->iter[u], v = g->to[a];
        if (g->cap[a] <= FLOW_EPS || g->level[v] != g->level[u] + 1)
            continue;
        double got = net_dfs(g, v, t, want < g->cap[a] ? want : g->cap[a]);
        if (got > FLOW_EPS) {
            g->cap[a] -= got;
            g->cap[a ^ 1] += got;
            return got;
        }
    }
    return 0;
}

/*
 * Maximum flow from s to t, at most limit, with edge k's capacity cap_of[k].
 * Afterwards g->level[u] >= 0 marks the source side of a minimum cut when
 * the flow is below limit.  Edge k's flow is g->cap[2k+1].
 */
static double net_maxflow(struct net *g, const double *cap_of, int m, int s, int t, double limit)
{
    for (int k = 0; k < m; k++) {
        g->cap[2 * k] = cap_of[k];
        g->cap[2 * k + 1] = 0;
    }
    double flow = 0;
    bool more = true;
    while (more && limit - flow > FLOW_EPS && net_bfs(g, s, t)) {
        for (int u = 0; u < g->n; u++)
            g->iter[u] = g->head[u];
        double f;
        more = false;   /* a phase that moves nothing ends the search */
        while (limit - flow > FLOW_EPS && (f = net_dfs(g, s, t, limit - flow)) > FLOW_EPS) {
            flow += f;
            more = true;
        }
    }
    if (limit - flow > FLOW_EPS)
        net_bfs(g, s, t);   /* the residual reach: the cut's source side */
    return flow;
}

/*
 * After net_maxflow fell short: the minimum cut nearest t, whose far side is
 * every node that still reaches t in the residual network, marked in level
 * as net_maxflow marks the source side (>= 0: the source side).  Returns
 * false, level untouched, when it is the cut net_maxflow found (or s reaches
 * t: a flow stopped by FLOW_EPS).
 */
static bool sink_side(struct net *g, int s, int t)
{
    int *mark = g->iter, qh = 0, qt = 0;
    for (int u = 0; u < g->n; u++)
        mark[u] = 0;
    mark[t] = 1;
    g->queue[qt++] = t;
    while (qh < qt) {
        int v = g->queue[qh++];
        for (int a = g->head[v]; a >= 0; a = g->next[a])
            if (g->cap[a ^ 1] > FLOW_EPS && !mark[g->to[a]]) {
                mark[g->to[a]] = 1;
                g->queue[qt++] = g->to[a];
            }
    }
    if (mark[s])
        return false;
    bool other = false;
    for (int u = 0; u < g->n && !other; u++)
        other = (g->level[u] >= 0) != !mark[u];
    for (int u = 0; other && u < g->n; u++)
        g->level[u] = mark[u] ? -1 : 0;
    return other;
}

/* ---- one GLPK session: hooks, and everything to free when it fails ---- */

struct lp_session {
    jmp_buf on_error;
    char said[256];             /* what GLPK printed (first lines) */
    char *why;                  /* the body's own failure, if any */
    const struct cluster *c;
    struct lp_result *out;
    double scale;               /* mean edge time */
    struct timespec t0;         /* the call's start (CLOCK_MONOTONIC) */
    double limit;               /* wall-clock seconds (lp_limits), INFINITY: none */
    long iterations;            /* simplex iterations the solve may make, all rounds */
    const volatile sig_atomic_t *cancel;
    bool uni;                   /* one port row per node (lp_limits.unidirectional) */
    /* row and column generation */
    struct net g;
    bool has_net;
    int nact;                   /* edges in the program: column 2 + i is edge act[i] */
    int *act;
    int *col_of;                /* edge -> its column, 0: not in the program yet */
    double *ncap;               /* n of column 2 + i in the current solution, scaled */
    int nsup;                   /* the network's edges: those of positive n, arc 2i is */
    int *sup;                   /* edge act[sup[i]] with capacity supcap[i] */
    double *supcap;
    int ncuts, capcuts;
    unsigned char **side;       /* side[j][v]: node v is on the source side of cut j */
    int *cut_row;               /* cut j's row */
    int *ind;                   /* a row or column being added, GLPK 1-based */
    double *val;
    int buflen;
    /* the flow formulation */
    int nz, nzcap;
    int *ia, *ja;
    double *ar;
    int *dest, *xcol, *out_row, *in_row;
    const char *path;           /* lp_write_flows: the file GLPK writes */
};

static int term_hook(void *info, const char *s)
{
    struct lp_session *ss = info;
    size_t len = strlen(ss->said);
    if (len + 1 < sizeof ss->said)   /* keep the first lines: they name the problem */
        snprintf(ss->said + len, sizeof ss->said - len, "%s", s);
    return 1;   /* nothing reaches the terminal */
}

static void error_hook(void *info)
{
    struct lp_session *ss = info;
    longjmp(ss->on_error, 1);
}

static void session_free(struct lp_session *ss)
{
    if (ss->has_net)
        net_free(&ss->g);
    free(ss->why);
    free(ss->ncap);
    free(ss->act);
    free(ss->sup);
    free(ss->supcap);
    free(ss->col_of);
    for (int j = 0; j < ss->ncuts; j++)
        free(ss->side[j]);
    free(ss->side);
    free(ss->cut_row);
    free(ss->ind);
    free(ss->val);
    free(ss->ia);
    free(ss->ja);
    free(ss->ar);
    free(ss->dest);
    free(ss->xcol);
    free(ss->out_row);
    free(ss->in_row);
    free(ss);
}

/* GLPK's answer to 12 significant digits: 0.375, not 0.37499999999999983. */
static double tidy(double x)
{
    return numfmt_round(x, 12);
}

static const char *glpk_failure(int rc, int status)
{
    return rc == GLP_EITLIM ? "iteration limit"
           : rc == GLP_ETMLIM ? "time limit"
           : rc == GLP_ENOPFS || status == GLP_NOFEAS ? "no feasible solution"
           : rc == GLP_ENODFS || status == GLP_UNBND ? "unbounded"
           : rc != 0 ? "solver failure" : "no optimum found";
}

static int body_fail(struct lp_session *ss, int rc, int status)
{
    char *nl = strchr(ss->said, '\n');
    if (nl)
        *nl = '\0';
    ss->why = xasprintf("the throughput linear program was not solved (GLPK: %s%s%s)",
                        glpk_failure(rc, status), ss->said[0] ? "; " : "", ss->said);
    return -1;
}

typedef int (*lp_body)(struct lp_session *ss);

/*
 * Run body with GLPK's output captured and its errors turned into a return:
 * after an error GLPK's environment is unusable, so all of it is dropped.
 * ss is on the heap and body keeps its allocations in it, so nothing is lost
 * to the jump.  GLPK's environment is released in both cases.
 */
static int run_guarded(struct lp_session *ss, lp_body body, char **cause)
{
    glp_term_hook(term_hook, ss);
    glp_error_hook(error_hook, ss);
    if (setjmp(ss->on_error)) {
        glp_free_env();
        char *nl = strchr(ss->said, '\n');
        if (nl)
            *nl = '\0';
        return set_cause(cause, "the throughput linear program failed inside GLPK%s%s",
                         ss->said[0] ? ": " : "", ss->said);
    }
    int rc = body(ss);
    glp_free_env();
    if (rc < 0)
        return set_cause(cause, "%s", ss->why ? ss->why : "the throughput linear program failed");
    return 0;
}

static int check_graph(const struct cluster *c, char **cause)
{
    if (!c || c->kind != CLUSTER_GRAPH)
        return set_cause(cause, "the throughput linear program needs a platform graph (from,to,time)%s%s",
                         c ? ", not a " : "", c ? cluster_kind_name(c->kind) : "");
    if (c->n < 1 || !c->edge_of || c->source < 0 || c->source >= c->n)
        return set_cause(cause, "the platform graph is empty or was not checked (cluster_finish)");
    for (int k = 0; k < c->nedges; k++) {
        const struct edge *e = &c->edges[k];
        if (e->from < 0 || e->from >= c->n || e->to < 0 || e->to >= c->n || e->from == e->to ||
            !(e->time > 0) || !isfinite(e->time))
            return set_cause(cause, "edge %d of the platform graph is not valid (cluster_finish refuses it)",
                             k + 1);
    }
    return 0;
}

void lp_result_free(struct lp_result *r)
{
    free(r->count);
    free(r->busy);
    memset(r, 0, sizeof *r);
}

/* Common start: checks, the result's arrays, the trivial one-node case (returns 1). */
static int start(const struct cluster *c, struct lp_result *out, char **cause)
{
    memset(out, 0, sizeof *out);
    if (check_graph(c, cause) < 0)
        return -1;
    out->nedges = c->nedges;
    out->count = xcalloc((size_t)(c->nedges ? c->nedges : 1), sizeof *out->count);
    out->busy = xcalloc((size_t)(c->nedges ? c->nedges : 1), sizeof *out->busy);
    if (c->n == 1) {   /* nobody to send to: any rate will do */
        out->throughput = INFINITY;
        return 1;
    }
    return 0;
}

static struct lp_session *session_new(const struct cluster *c, const struct lp_limits *lim,
                                      struct lp_result *out)
{
    struct lp_session *ss = xcalloc(1, sizeof *ss);
    ss->c = c;
    ss->out = out;
    clock_gettime(CLOCK_MONOTONIC, &ss->t0);
    ss->limit = lim && lim->time_limit > 0 ? lim->time_limit : INFINITY;
    ss->iterations = lim && lim->iterations > 0 ? lim->iterations : LP_DEFAULT_ITERATIONS;
    ss->cancel = lim ? lim->cancel : NULL;
    ss->uni = lim && lim->unidirectional;
    for (int k = 0; k < c->nedges; k++)
        ss->scale += c->edges[k].time;
    ss->scale /= c->nedges;
    return ss;
}

static void ensure_buffer(struct lp_session *ss, int len)
{
    if (len + 1 > ss->buflen) {
        ss->buflen = 2 * (len + 1);
        ss->ind = xrealloc(ss->ind, (size_t)ss->buflen * sizeof *ss->ind);
        ss->val = xrealloc(ss->val, (size_t)ss->buflen * sizeof *ss->val);
    }
}

/* The send and receive port rows (g), (j), (f), (i): <= 1, empty until the
 * columns come; unidirectional: one row per node, its edges out and in together. */
static void add_port_rows(struct lp_session *ss, glp_prob *P)
{
    int n = ss->c->n;
    ss->out_row = xmalloc((size_t)n * sizeof *ss->out_row);
    ss->in_row = xmalloc((size_t)n * sizeof *ss->in_row);
    for (int dir = 0; dir < 2; dir++)
        for (int u = 0; u < n; u++) {
            int *rows = dir ? ss->in_row : ss->out_row;
            if (dir && ss->uni) {
                rows[u] = ss->out_row[u];
                continue;
            }
            rows[u] = glp_add_rows(P, 1);
            glp_set_row_bnds(P, rows[u], GLP_UP, 0.0, 1.0);
        }
}

/* Edge k's column n(e): its two port rows and every cut it leaves. */
static void add_column(struct lp_session *ss, glp_prob *P, int k)
{
    const struct edge *e = &ss->c->edges[k];
    ensure_buffer(ss, 2 + ss->ncuts);
    int len = 0;
    ss->ind[++len] = ss->out_row[e->from];
    ss->val[len] = e->time / ss->scale;
    ss->ind[++len] = ss->in_row[e->to];
    ss->val[len] = e->time / ss->scale;
    for (int j = 0; j < ss->ncuts; j++)
        if (ss->side[j][e->from] && !ss->side[j][e->to]) {
            ss->ind[++len] = ss->cut_row[j];
            ss->val[len] = 1.0;
        }
    int col = glp_add_cols(P, 1);
    glp_set_col_bnds(P, col, GLP_DB, 0.0, ss->scale / e->time);
    glp_set_mat_col(P, col, len, ss->ind, ss->val);
    ss->col_of[k] = col;
    ss->act[ss->nact++] = k;
}

struct timed_edge {
    double time;
    int k;
};

static int by_time(const void *a, const void *b)
{
    const struct timed_edge *x = a, *y = b;
    return x->time < y->time ? -1 : x->time > y->time ? 1 : (x->k > y->k) - (x->k < y->k);
}

/*
 * The first columns: every node's LP_START_DEGREE fastest edges out and in,
 * and a breadth-first tree from the source, so that every node is reached
 * and the first program's TP is positive.  The other edges come in when
 * their reduced cost says they pay (price_columns).
 */
static void add_first_columns(struct lp_session *ss, glp_prob *P)
{
    const struct cluster *c = ss->c;
    int n = c->n, m = c->nedges;
    unsigned char *want = xcalloc((size_t)m, 1);
    struct timed_edge *order = xmalloc((size_t)m * sizeof *order);
    int *outs = xcalloc((size_t)n + 1, sizeof *outs), *ins = xcalloc((size_t)n, sizeof *ins);
    for (int k = 0; k < m; k++)
        order[k] = (struct timed_edge){c->edges[k].time, k};
    qsort(order, (size_t)m, sizeof *order, by_time);
    for (int i = 0; i < m; i++) {
        const struct edge *e = &c->edges[order[i].k];
        if (outs[e->from] < LP_START_DEGREE || ins[e->to] < LP_START_DEGREE) {
            want[order[i].k] = 1;
            outs[e->from]++;
            ins[e->to]++;
        }
    }
    /* the tree: edges grouped by their tail (counting sort), then breadth first */
    memset(outs, 0, ((size_t)n + 1) * sizeof *outs);
    for (int k = 0; k < m; k++)
        outs[c->edges[k].from + 1]++;
    for (int u = 0; u < n; u++)
        outs[u + 1] += outs[u];
    int *by_tail = xmalloc((size_t)m * sizeof *by_tail), *queue = ins;
    for (int k = 0; k < m; k++)
        by_tail[outs[c->edges[k].from]++] = k;   /* outs[u] ends as the start of u + 1 */
    unsigned char *seen = xcalloc((size_t)n, 1);
    int qh = 0, qt = 0;
    queue[qt++] = c->source;
    seen[c->source] = 1;
    while (qh < qt) {
        int u = queue[qh++];
        for (int i = u ? outs[u - 1] : 0; i < outs[u]; i++) {
            int k = by_tail[i], v = c->edges[k].to;
            if (!seen[v]) {
                seen[v] = 1;
                want[k] = 1;
                queue[qt++] = v;
            }
        }
    }
    for (int k = 0; k < m; k++)
        if (want[k])
            add_column(ss, P, k);
    free(seen);
    free(by_tail);
    free(outs);
    free(ins);
    free(order);
    free(want);
}

/* sum_{e in the program leaving side S} n(e) - TP >= 0, S marked by level >= 0. */
static void add_cut_row(struct lp_session *ss, glp_prob *P, const int *level)
{
    const struct cluster *c = ss->c;
    unsigned char *side = xmalloc((size_t)c->n);
    for (int v = 0; v < c->n; v++)
        side[v] = level[v] >= 0;
    ensure_buffer(ss, ss->nact + 1);
    int len = 0;
    ss->ind[++len] = 1;
    ss->val[len] = -1.0;
    for (int i = 0; i < ss->nact; i++) {
        const struct edge *e = &c->edges[ss->act[i]];
        if (side[e->from] && !side[e->to]) {
            ss->ind[++len] = 2 + i;
            ss->val[len] = 1.0;
        }
    }
    int row = glp_add_rows(P, 1);
    glp_set_row_bnds(P, row, GLP_LO, 0.0, 0.0);
    glp_set_mat_row(P, row, len, ss->ind, ss->val);
    if (ss->ncuts == ss->capcuts) {
        ss->capcuts = ss->capcuts ? 2 * ss->capcuts : 64;
        ss->side = xrealloc(ss->side, (size_t)ss->capcuts * sizeof *ss->side);
        ss->cut_row = xrealloc(ss->cut_row, (size_t)ss->capcuts * sizeof *ss->cut_row);
    }
    ss->side[ss->ncuts] = side;
    ss->cut_row[ss->ncuts++] = row;
}

/* The maximum flow network of the current solution: the edges of positive n
 * (the others carry nothing), built afresh after every solve. */
static void rebuild_net(struct lp_session *ss)
{
    if (ss->has_net)
        net_free(&ss->g);
    int *edges = xmalloc((size_t)(ss->nact + 1) * sizeof *edges);
    ss->nsup = 0;
    for (int i = 0; i < ss->nact; i++)
        if (ss->ncap[i] > FLOW_EPS) {
            ss->sup[ss->nsup] = i;
            ss->supcap[ss->nsup] = ss->ncap[i];
            edges[ss->nsup++] = ss->act[i];
        }
    net_init(&ss->g, ss->c, edges, ss->nsup);
    ss->has_net = true;
    free(edges);
}

/* Counts as the paper defines them: n(e) = max_w x(w,e), x(w,.) a flow of value TP. */
static void counts_from_flows(struct lp_session *ss, double tp_scaled)
{
    const struct cluster *c = ss->c;
    int m = c->nedges, n = c->n;
    double *x = xcalloc((size_t)m, sizeof *x);   /* edges outside the program stay 0 */
    for (int w = 0; w < n; w++) {
        if (w == c->source)
            continue;
        net_maxflow(&ss->g, ss->supcap, ss->nsup, c->source, w, tp_scaled);
        for (int i = 0; i < ss->nsup; i++)
            x[ss->act[ss->sup[i]]] = ss->g.cap[2 * i + 1];
        for (int i = 0; i < ss->nsup; i++) {   /* u -> v and v -> u both carrying w's slices: cancel */
            int k = ss->act[ss->sup[i]];
            int back = c->edge_of[(size_t)c->edges[k].to * (size_t)n + (size_t)c->edges[k].from];
            if (back > k && x[k] > 0 && x[back] > 0) {
                double d = fmin(x[k], x[back]);
                x[k] -= d;
                x[back] -= d;
            }
        }
        for (int i = 0; i < ss->nsup; i++) {
            int k = ss->act[ss->sup[i]];
            if (x[k] > ss->out->count[k])
                ss->out->count[k] = x[k];
        }
    }
    free(x);
}

static void finish_counts(struct lp_session *ss)
{
    struct lp_result *out = ss->out;
    for (int k = 0; k < ss->c->nedges; k++) {
        double v = out->count[k] / ss->scale;
        out->count[k] = v < 1e-9 * out->throughput ? 0 : tidy(v);   /* solver noise is no traffic */
        out->busy[k] = out->count[k] * ss->c->edges[k].time;
    }
}

/* Wall-clock seconds since the call began: the unit docs/pipeline.md states. */
static double seconds_used(const struct lp_session *ss)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - ss->t0.tv_sec) + (double)(t.tv_nsec - ss->t0.tv_nsec) / 1e9;
}

static bool cancelled(const struct lp_session *ss)
{
    return ss->cancel && *ss->cancel;
}

/* Out of time or cancelled: the checks between maximum flows and rounds. */
static bool must_stop(const struct lp_session *ss)
{
    return cancelled(ss) || seconds_used(ss) >= ss->limit;
}

/* Every simplex iteration the budget allows made (GLPK counts them over all calls). */
static bool out_of_iterations(const struct lp_session *ss, glp_prob *P)
{
    return glp_get_it_cnt(P) >= ss->iterations;
}

/*
 * The message when the solve runs out of time or of iterations, or is
 * cancelled (rounds: the programs solved; tp: the last one's value, an upper
 * bound of the optimum when every edge is in the program, or 0 if none was
 * solved); returns -1.
 */
static int cuts_gave_up(struct lp_session *ss, glp_prob *P, int rounds, double tp)
{
    char bound[96] = "", spent[64];
    if (rounds > 0 && tp > 0 && ss->nact == ss->c->nedges)   /* with edges left out, no bound */
        snprintf(bound, sizeof bound, ", TP at most %.10g so far", tidy(tp / ss->scale));
    if (out_of_iterations(ss, P))
        snprintf(spent, sizeof spent, "%ld simplex iteration%s", ss->iterations,
                 ss->iterations == 1 ? "" : "s");
    else
        snprintf(spent, sizeof spent, "%g s", ss->limit);
    if (cancelled(ss))
        ss->why = xasprintf("the throughput linear program was cancelled (%d rounds of cuts and columns%s)",
                            rounds, bound);
    else
        ss->why = xasprintf("the throughput linear program gave up after %s (%d rounds of cuts and columns on "
                            "%d nodes and %d edges%s); prune-simple, prune-degree, grow-tree, "
                            "multiport-grow, multiport-prune-degree and binomial do not need it",
                            spent, rounds, ss->c->n, ss->c->nedges, bound);
    glp_delete_prob(P);
    return -1;
}

/*
 * glp_simplex within the session's limits: it_lim is what is left of the
 * iterations (per call in GLPK 5), tm_lim what is left of the time; with a
 * cancel flag the simplex runs LP_CANCEL_ITERATIONS at a time (each call
 * resumes from the basis the last one left).  Returns GLPK's code
 * (GLP_ETMLIM when out of time or iterations, or cancelled).
 */
static int simplex_limited(struct lp_session *ss, glp_prob *P, glp_smcp *parm)
{
    for (;;) {
        double left = ss->limit - seconds_used(ss);
        long iters = ss->iterations - glp_get_it_cnt(P);   /* 0: only a basis already optimal */
        if (left <= 0 || iters < 0 || cancelled(ss))
            return GLP_ETMLIM;
        parm->tm_lim = left * 1000 >= INT_MAX ? INT_MAX : 1 + (int)(left * 1000);
        parm->it_lim = iters >= INT_MAX ? INT_MAX : (int)iters;
        if (ss->cancel && parm->it_lim > LP_CANCEL_ITERATIONS)
            parm->it_lim = LP_CANCEL_ITERATIONS;
        int rc = glp_simplex(P, parm);
        if (rc != GLP_EITLIM)
            return rc;
        if (glp_get_status(P) == GLP_OPT)
            return 0;   /* GLPK counts the limit before it sees the last basis is optimal */
        if (glp_get_it_cnt(P) >= ss->iterations)
            return GLP_ETMLIM;   /* the budget spent, not a chunk of a cancellable solve */
    }
}

/*
 * One round of cuts: the minimum cut of every receiver whose maximum flow
 * within n falls short of TP, and the cut nearest it when that is another.
 * Returns the cuts added, -1 when the time is out or the solve cancelled, -2
 * with ss->why on a flow that rounding stopped.
 */
static int separate(struct lp_session *ss, glp_prob *P, double tp)
{
    const struct cluster *c = ss->c;
    int added = 0;
    for (int w = 0; w < c->n; w++) {
        if (w == c->source)
            continue;
        if (must_stop(ss))
            return -1;
        double f = net_maxflow(&ss->g, ss->supcap, ss->nsup, c->source, w, tp);
        if (f < tp * (1 - LP_CUT_TOLERANCE)) {
            if (ss->g.level[w] >= 0) {   /* a flow stopped by rounding: no cut to add */
                ss->why = xasprintf("the throughput linear program failed: a maximum flow stopped "
                                    "short of its minimum cut (rounding)");
                return -2;
            }
            add_cut_row(ss, P, ss->g.level);
            added++;
            if (sink_side(&ss->g, c->source, w)) {   /* the cut nearest w, when it is another one */
                add_cut_row(ss, P, ss->g.level);
                added++;
            }
        }
    }
    return added;
}

struct priced {
    double gain;
    int k;
};

static int by_gain(const void *a, const void *b)
{
    const struct priced *x = a, *y = b;
    return x->gain > y->gain ? -1 : x->gain < y->gain ? 1 : (x->k > y->k) - (x->k < y->k);
}

/*
 * The edges outside the program whose reduced cost is positive under the
 * current duals, the LP_PRICE_BATCH x n best of them added as columns.  The
 * reduced cost of n(u,v) is -T(u,v) (y_send(u) + y_recv(v)) - sum of the
 * duals of the cuts that (u,v) leaves; the cuts with a nonzero dual are
 * listed at each node of their far side, so an edge looks only at the cuts
 * its head is cut off by.  Returns the columns added: 0 proves the program's
 * optimum is the full program's (its duals are feasible for every column).
 */
static int price_columns(struct lp_session *ss, glp_prob *P)
{
    const struct cluster *c = ss->c;
    int n = c->n, m = c->nedges;
    double *y = xmalloc(2 * (size_t)n * sizeof *y), *z = xmalloc((size_t)(ss->ncuts + 1) * sizeof *z);
    for (int u = 0; u < n; u++) {
        y[u] = glp_get_row_dual(P, ss->out_row[u]);
        y[n + u] = glp_get_row_dual(P, ss->in_row[u]);
    }
    int *start = xcalloc((size_t)n + 1, sizeof *start);
    for (int j = 0; j < ss->ncuts; j++) {
        z[j] = glp_get_row_dual(P, ss->cut_row[j]);
        for (int v = 0; z[j] != 0 && v < n; v++)
            start[v + 1] += !ss->side[j][v];
    }
    for (int v = 0; v < n; v++)
        start[v + 1] += start[v];
    int *cut_at = xmalloc((size_t)(start[n] + 1) * sizeof *cut_at), *fill = xmalloc((size_t)n * sizeof *fill);
    memcpy(fill, start, (size_t)n * sizeof *fill);
    for (int j = 0; j < ss->ncuts; j++)
        for (int v = 0; z[j] != 0 && v < n; v++)
            if (!ss->side[j][v])
                cut_at[fill[v]++] = j;
    struct priced *cand = xmalloc((size_t)m * sizeof *cand);
    int ncand = 0;
    for (int k = 0; k < m; k++) {
        const struct edge *e = &c->edges[k];
        if (ss->col_of[k])
            continue;
        double d = -e->time / ss->scale * (y[e->from] + y[n + e->to]);
        for (int i = start[e->to]; i < start[e->to + 1]; i++)
            if (ss->side[cut_at[i]][e->from])
                d -= z[cut_at[i]];
        if (d > LP_PRICE_TOLERANCE)
            cand[ncand++] = (struct priced){d, k};
    }
    int batch = LP_PRICE_BATCH * n;
    if (ncand > batch) {
        qsort(cand, (size_t)ncand, sizeof *cand, by_gain);
        ncand = batch;
    }
    for (int i = 0; i < ncand; i++)
        add_column(ss, P, cand[i].k);
    free(cand);
    free(fill);
    free(cut_at);
    free(start);
    free(z);
    free(y);
    return ncand;
}

/* The starting program: TP, the first columns, the port rows, and the cuts
 * around the source and around every receiver. */
static glp_prob *first_program(struct lp_session *ss)
{
    const struct cluster *c = ss->c;
    int n = c->n, m = c->nedges, src = c->source;
    ss->act = xmalloc((size_t)m * sizeof *ss->act);
    ss->col_of = xcalloc((size_t)m, sizeof *ss->col_of);
    ss->ncap = xcalloc((size_t)m, sizeof *ss->ncap);
    ss->sup = xmalloc((size_t)m * sizeof *ss->sup);
    ss->supcap = xmalloc((size_t)m * sizeof *ss->supcap);
    glp_prob *P = glp_create_prob();
    glp_set_obj_dir(P, GLP_MAX);
    glp_add_cols(P, 1);
    glp_set_col_bnds(P, 1, GLP_LO, 0.0, 0.0);
    glp_set_obj_coef(P, 1, 1.0);
    add_port_rows(ss, P);
    add_first_columns(ss, P);
    int *side = xmalloc((size_t)n * sizeof *side);
    for (int v = 0; v < n; v++)
        side[v] = v == src ? 0 : -1;
    add_cut_row(ss, P, side);
    for (int w = 0; w < n; w++) {
        if (w == src)
            continue;
        for (int v = 0; v < n; v++)
            side[v] = v == w ? -1 : 0;
        add_cut_row(ss, P, side);
    }
    free(side);
    return P;
}

static int cuts_body(struct lp_session *ss)
{
    glp_prob *P = first_program(ss);
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.meth = GLP_PRIMAL;   /* all zero is feasible: the primal simplex starts there */
    double tp = 0;
    int round = 0;
    for (;; round++) {
        int rc = simplex_limited(ss, P, &parm);
        if (rc == GLP_ETMLIM)
            return cuts_gave_up(ss, P, round, tp);
        int status = glp_get_status(P);
        if (rc != 0 || status != GLP_OPT) {
            body_fail(ss, rc, status);
            glp_delete_prob(P);
            return -1;
        }
        tp = glp_get_col_prim(P, 1);
        for (int i = 0; i < ss->nact; i++)
            ss->ncap[i] = glp_get_col_prim(P, 2 + i);
        rebuild_net(ss);
        if (!(tp > 0)) {
            ss->why = xasprintf("the throughput linear program found no positive throughput");
            glp_delete_prob(P);
            return -1;
        }
        int added = separate(ss, P, tp);
        if (added == -2) {
            glp_delete_prob(P);
            return -1;
        }
        if (added < 0)
            return cuts_gave_up(ss, P, round + 1, tp);
        parm.meth = GLP_DUALP;   /* a new cut leaves the basis dual feasible */
        if (!added) {
            added = price_columns(ss, P);
            parm.meth = GLP_PRIMAL;   /* a new column leaves it primal feasible */
        }
        if (!added)
            break;
        if (round == LP_MAX_ROUNDS) {
            ss->why = xasprintf("the throughput linear program did not converge in %d rounds of cuts "
                                "and columns", LP_MAX_ROUNDS);
            glp_delete_prob(P);
            return -1;
        }
        if (must_stop(ss))
            return cuts_gave_up(ss, P, round + 1, tp);
    }
    ss->out->throughput = tidy(tp / ss->scale);
    ss->out->rows = glp_get_num_rows(P);
    ss->out->cols = glp_get_num_cols(P);
    ss->out->iterations = glp_get_it_cnt(P);
    ss->out->rounds = round + 1;
    glp_delete_prob(P);
    counts_from_flows(ss, tp);
    finish_counts(ss);
    return 0;
}

int lp_solve_broadcast(const struct cluster *c, struct lp_result *out, char **cause)
{
    return lp_solve_broadcast_limited(c, NULL, out, cause);
}

int lp_solve_broadcast_limited(const struct cluster *c, const struct lp_limits *lim,
                               struct lp_result *out, char **cause)
{
    int rc = start(c, out, cause);
    if (rc)
        return rc < 0 ? -1 : 0;
    struct lp_session *ss = session_new(c, lim, out);
    rc = run_guarded(ss, cuts_body, cause);
    session_free(ss);
    if (rc < 0)
        lp_result_free(out);
    return rc;
}

/* ---- the program as it stands: every flow variable ---- */

static void put(struct lp_session *ss, int row, int col, double v)
{
    if (ss->nz + 1 >= ss->nzcap) {
        ss->nzcap = ss->nzcap ? 2 * ss->nzcap : 1024;
        ss->ia = xrealloc(ss->ia, (size_t)ss->nzcap * sizeof *ss->ia);
        ss->ja = xrealloc(ss->ja, (size_t)ss->nzcap * sizeof *ss->ja);
        ss->ar = xrealloc(ss->ar, (size_t)ss->nzcap * sizeof *ss->ar);
    }
    ss->nz++;
    ss->ia[ss->nz] = row;
    ss->ja[ss->nz] = col;
    ss->ar[ss->nz] = v;
}

/* The flow form as a GLPK problem, its rows and columns in *rows, *cols. */
static glp_prob *build_flows(struct lp_session *ss, int *rows, int *cols_out)
{
    const struct cluster *c = ss->c;
    const int n = c->n, m = c->nedges, src = c->source, nd = n - 1;
    /* Columns: 1 = TP, 2..m+1 = n(e), then x(w,e) numbered through xcol. */
    ss->dest = xmalloc((size_t)n * sizeof *ss->dest);   /* node -> destination number, -1: source */
    for (int v = 0, d = 0; v < n; v++)
        ss->dest[v] = v == src ? -1 : d++;
    ss->xcol = xmalloc((size_t)nd * (size_t)m * sizeof *ss->xcol);   /* 0: no variable */
    int cols = 1 + m;
    for (int w = 0; w < n; w++)
        for (int k = 0; w != src && k < m; k++)   /* no flow into the source or out of w */
            ss->xcol[(size_t)ss->dest[w] * (size_t)m + (size_t)k] =
                c->edges[k].to == src || c->edges[k].from == w ? 0 : ++cols;
    /* Rows: conservation (nd per destination), then (d) per flow variable, then ports. */
    int flow_rows = nd * nd, row = flow_rows;
    for (int w = 0; w < n; w++) {
        if (w == src)
            continue;
        int dw = ss->dest[w];
        for (int k = 0; k < m; k++) {
            int col = ss->xcol[(size_t)dw * (size_t)m + (size_t)k];
            if (!col)
                continue;
            const struct edge *e = &c->edges[k];
            put(ss, dw * nd + ss->dest[e->to] + 1, col, 1.0);
            if (e->from != src)
                put(ss, dw * nd + ss->dest[e->from] + 1, col, -1.0);
            put(ss, ++row, col, 1.0);
            put(ss, row, 2 + k, -1.0);
        }
        put(ss, dw * nd + dw + 1, 1, -1.0);   /* in - out - TP = 0 at w */
    }
    int coupling_end = row;
    ss->out_row = xcalloc((size_t)n, sizeof *ss->out_row);
    ss->in_row = xcalloc((size_t)n, sizeof *ss->in_row);
    for (int k = 0; k < m; k++) {
        const struct edge *e = &c->edges[k];
        if (!ss->out_row[e->from])
            ss->out_row[e->from] = ++row;
        if (ss->uni && !ss->out_row[e->to])   /* one port: the in and out rows are one */
            ss->out_row[e->to] = ++row;
        if (ss->uni)
            ss->in_row[e->to] = ss->out_row[e->to];
        else if (!ss->in_row[e->to])
            ss->in_row[e->to] = ++row;
        put(ss, ss->out_row[e->from], 2 + k, e->time / ss->scale);
        put(ss, ss->in_row[e->to], 2 + k, e->time / ss->scale);
    }

    glp_prob *P = glp_create_prob();
    glp_set_prob_name(P, "hetcast_throughput");
    glp_set_obj_dir(P, GLP_MAX);
    glp_add_rows(P, row);
    glp_add_cols(P, cols);
    for (int i = 1; i <= row; i++)
        glp_set_row_bnds(P, i, i <= flow_rows ? GLP_FX : GLP_UP, 0.0, i > coupling_end ? 1.0 : 0.0);
    glp_set_col_bnds(P, 1, GLP_LO, 0.0, 0.0);
    glp_set_obj_coef(P, 1, 1.0);
    for (int k = 0; k < m; k++)
        glp_set_col_bnds(P, 2 + k, GLP_DB, 0.0, ss->scale / c->edges[k].time);
    for (int j = 2 + m; j <= cols; j++)
        glp_set_col_bnds(P, j, GLP_LO, 0.0, 0.0);
    glp_load_matrix(P, ss->nz, ss->ia, ss->ja, ss->ar);
    *rows = row;
    *cols_out = cols;
    return P;
}

static int flows_body(struct lp_session *ss)
{
    const struct cluster *c = ss->c;
    const int n = c->n, m = c->nedges, src = c->source;
    int row, cols;
    glp_prob *P = build_flows(ss, &row, &cols);
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.presolve = GLP_ON;
    int rc = glp_simplex(P, &parm), status = glp_get_status(P);
    if (rc != 0 || status != GLP_OPT) {
        body_fail(ss, rc, status);
        glp_delete_prob(P);
        return -1;
    }
    ss->out->throughput = tidy(glp_get_obj_val(P) / ss->scale);
    ss->out->rows = row;
    ss->out->cols = cols;
    ss->out->iterations = glp_get_it_cnt(P);
    ss->out->rounds = 1;
    for (int w = 0; w < n; w++)
        for (int k = 0; w != src && k < m; k++) {
            int col = ss->xcol[(size_t)ss->dest[w] * (size_t)m + (size_t)k];
            double x = col ? glp_get_col_prim(P, col) : 0;
            if (x > ss->out->count[k])
                ss->out->count[k] = x;
        }
    glp_delete_prob(P);
    finish_counts(ss);
    return 0;
}

/* The flow form beyond LP_MAX_FLOW_VARIABLES: true, with *cause. */
static bool too_many_flows(const struct cluster *c, char **cause)
{
    double vars = (double)(c->n - 1) * (double)c->nedges;
    if (vars <= (double)LP_MAX_FLOW_VARIABLES)
        return false;
    set_cause(cause,
              "the flow form of the throughput linear program for %d nodes and %d edges "
              "would have %.0f flow variables (at most %ld)",
              c->n, c->nedges, vars, LP_MAX_FLOW_VARIABLES);
    return true;
}

int lp_solve_broadcast_flows(const struct cluster *c, struct lp_result *out, char **cause)
{
    return lp_solve_broadcast_flows_model(c, false, out, cause);
}

int lp_solve_broadcast_flows_model(const struct cluster *c, bool unidirectional,
                                   struct lp_result *out, char **cause)
{
    int rc = start(c, out, cause);
    if (rc)
        return rc < 0 ? -1 : 0;
    if (too_many_flows(c, cause)) {
        lp_result_free(out);
        return -1;
    }
    struct lp_limits lim = {.unidirectional = unidirectional};
    struct lp_session *ss = session_new(c, &lim, out);
    rc = run_guarded(ss, flows_body, cause);
    session_free(ss);
    if (rc < 0)
        lp_result_free(out);
    return rc;
}

static int write_body(struct lp_session *ss)
{
    int rows, cols;
    glp_prob *P = build_flows(ss, &rows, &cols);
    glp_set_col_name(P, 1, "TP");
    int rc = glp_write_lp(P, NULL, ss->path);
    glp_delete_prob(P);
    if (rc != 0)
        ss->why = xasprintf("GLPK could not write the throughput linear program");
    return rc == 0 ? 0 : -1;
}

int lp_write_flows(const struct cluster *c, bool unidirectional, const char *path, char **cause)
{
    struct lp_result out;
    int rc = start(c, &out, cause);
    if (rc) {
        if (rc > 0)
            lp_result_free(&out);
        return rc < 0 ? -1 : set_cause(cause, "a single node has no throughput program to write");
    }
    if (too_many_flows(c, cause)) {
        lp_result_free(&out);
        return -1;
    }
    struct atomic_file af;
    if (atomic_open(&af, path) < 0) {
        lp_result_free(&out);
        return set_cause(cause, "%s: %s", path, atomic_why(&af, errno));
    }
    struct lp_limits lim = {.unidirectional = unidirectional};
    struct lp_session *ss = session_new(c, &lim, &out);
    ss->scale = 1;   /* the file keeps the times as the platform has them: its optimum is TP */
    ss->path = af.tmp;   /* GLPK writes by name: into the temporary file the commit renames */
    rc = run_guarded(ss, write_body, cause);
    session_free(ss);
    lp_result_free(&out);
    if (rc < 0)
        atomic_abort(&af);
    else if (atomic_commit(&af) < 0)
        rc = set_cause(cause, "%s: %s", path, atomic_why(&af, errno));
    return rc;
}
