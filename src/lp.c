/*
 * lp.c - linear program (2) of Beaumont, Marchal & Robert, solved with GLPK.
 *
 * Variables: TP; n(e) for every edge e; x(w,e), the slices per time unit
 * destined to node w that cross edge e, for every destination w != source.
 * Constraints, with times scaled by their mean so that the values GLPK sees
 * are of order 1:
 *
 *   flow      for every w and every node v != source:
 *             sum_{e into v} x(w,e) - sum_{e out of v} x(w,e) = TP if v = w, else 0
 *   (d)       x(w,e) <= n(e)                  (the paper's n = max_w x, relaxed)
 *   (g), (j)  sum_{e out of u} n(e) T(e) <= 1   for every node u (send port)
 *   (f), (i)  sum_{e into u}  n(e) T(e) <= 1   for every node u (receive port)
 *   (e), (h)  0 <= n(e) <= 1 / T(e)
 *
 * The flow rows are the paper's (a)-(c) read as *net* flows: the paper writes
 * them on outgoing flow at the source and incoming flow at w only, which
 * taken literally lets a circulation through the source or through w count
 * as delivered slices.  Flow into the source and out of w is useless in the
 * net reading, so those variables are left out; the source's own row is the
 * sum of the others and is left out too.  Since n(e) appears only in upper
 * bounds, "<=" in (d) gives the same optimum as the paper's "=", and the
 * reported counts are recomputed as max_w x(w,e).
 *
 * Size: (n-1) * |E| flow variables and as many (d) rows; a 50-node platform
 * of density 0.2 is about 25 000 of each, solved in well under a second.
 */
#include "lp.h"

#include <glpk.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What GLPK said last, and where to go when it fails (per call, per thread). */
struct lp_guard {
    jmp_buf on_error;
    char said[256];
};

static int term_hook(void *info, const char *s)
{
    struct lp_guard *g = info;
    size_t len = strlen(g->said);
    if (len + 1 < sizeof g->said)   /* keep the first lines: they name the problem */
        snprintf(g->said + len, sizeof g->said - len, "%s", s);
    return 1;   /* nothing reaches the terminal */
}

static void error_hook(void *info)
{
    struct lp_guard *g = info;
    longjmp(g->on_error, 1);
}

/* The program's matrix, in GLPK's 1-based triplets. */
struct lp_build {
    int rows, cols;
    int nz, nzcap;
    int *ia, *ja;
    double *ar;
};

static void put(struct lp_build *b, int row, int col, double v)
{
    if (b->nz + 1 >= b->nzcap) {
        b->nzcap = b->nzcap ? 2 * b->nzcap : 1024;
        b->ia = xrealloc(b->ia, (size_t)b->nzcap * sizeof *b->ia);
        b->ja = xrealloc(b->ja, (size_t)b->nzcap * sizeof *b->ja);
        b->ar = xrealloc(b->ar, (size_t)b->nzcap * sizeof *b->ar);
    }
    b->nz++;
    b->ia[b->nz] = row;
    b->ja[b->nz] = col;
    b->ar[b->nz] = v;
}

static void build_free(struct lp_build *b)
{
    free(b->ia);
    free(b->ja);
    free(b->ar);
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
    double vars = (double)(c->n - 1) * (double)c->nedges;
    if (vars > (double)LP_MAX_VARIABLES)
        return set_cause(cause,
                         "the throughput linear program for %d nodes and %d edges would have %.0f flow "
                         "variables (at most %ld): the platform is too large to solve exactly",
                         c->n, c->nedges, vars, LP_MAX_VARIABLES);
    return 0;
}

/* GLPK's answer to 12 significant digits: 0.375, not 0.37499999999999983. */
static double tidy(double x)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.12g", x);
    return strtod(buf, NULL);
}

void lp_result_free(struct lp_result *r)
{
    free(r->count);
    free(r->busy);
    memset(r, 0, sizeof *r);
}

int lp_solve_broadcast(const struct cluster *c, struct lp_result *out, char **cause)
{
    memset(out, 0, sizeof *out);
    if (check_graph(c, cause) < 0)
        return -1;
    const int n = c->n, m = c->nedges, src = c->source;
    out->nedges = m;
    out->count = xcalloc((size_t)(m ? m : 1), sizeof *out->count);
    out->busy = xcalloc((size_t)(m ? m : 1), sizeof *out->busy);
    if (n == 1) {   /* nobody to send to: any rate will do */
        out->throughput = INFINITY;
        return 0;
    }

    double scale = 0;
    for (int k = 0; k < m; k++)
        scale += c->edges[k].time;
    scale /= m;

    /* Columns: 1 = TP, 2..m+1 = n(e), then x(w,e) numbered through xcol. */
    int *dest = xmalloc((size_t)n * sizeof *dest);   /* node -> destination number, -1: source */
    for (int v = 0, d = 0; v < n; v++)
        dest[v] = v == src ? -1 : d++;
    /* Node v != source -> its position among the conservation rows of one w. */
    const int nd = n - 1;
    size_t nx = (size_t)nd * (size_t)m;
    int *xcol = xmalloc(nx * sizeof *xcol);   /* [w * m + e] -> column, 0: no variable */
    struct lp_build b = {0};
    b.cols = 1 + m;
    for (int v = 0; v < n; v++) {
        if (dest[v] < 0)
            continue;
        for (int k = 0; k < m; k++) {
            const struct edge *e = &c->edges[k];
            xcol[(size_t)dest[v] * (size_t)m + (size_t)k] =
                (e->to == src || e->from == v) ? 0 : ++b.cols;
        }
    }
    /* Rows: conservation (nd * nd), then (d) one per flow variable, then ports. */
    int flow_rows = nd * nd;
    int row = flow_rows;
    for (int w = 0; w < n; w++) {
        if (dest[w] < 0)
            continue;
        for (int k = 0; k < m; k++) {
            int col = xcol[(size_t)dest[w] * (size_t)m + (size_t)k];
            if (!col)
                continue;
            const struct edge *e = &c->edges[k];
            /* into e->to (never the source), out of e->from (unless the source) */
            put(&b, dest[w] * nd + dest[e->to] + 1, col, 1.0);
            if (e->from != src)
                put(&b, dest[w] * nd + dest[e->from] + 1, col, -1.0);
            ++row;
            put(&b, row, col, 1.0);
            put(&b, row, 2 + k, -1.0);
        }
        put(&b, dest[w] * nd + dest[w] + 1, 1, -1.0);   /* in - out - TP = 0 at w */
    }
    int coupling_end = row;
    int *out_row = xcalloc((size_t)n, sizeof *out_row), *in_row = xcalloc((size_t)n, sizeof *in_row);
    for (int k = 0; k < m; k++) {
        const struct edge *e = &c->edges[k];
        if (!out_row[e->from])
            out_row[e->from] = ++row;
        if (!in_row[e->to])
            in_row[e->to] = ++row;
        put(&b, out_row[e->from], 2 + k, e->time / scale);
        put(&b, in_row[e->to], 2 + k, e->time / scale);
    }
    b.rows = row;

    struct lp_guard g;
    g.said[0] = '\0';
    glp_term_hook(term_hook, &g);
    glp_error_hook(error_hook, &g);
    if (setjmp(g.on_error)) {
        /* GLPK's environment is unusable after an error: drop all of it. */
        glp_free_env();
        char *nl = strchr(g.said, '\n');
        if (nl)
            *nl = '\0';
        set_cause(cause, "the throughput linear program failed inside GLPK%s%s", g.said[0] ? ": " : "",
                  g.said);
        build_free(&b);
        free(dest);
        free(xcol);
        free(out_row);
        free(in_row);
        lp_result_free(out);
        return -1;
    }
    glp_prob *P = glp_create_prob();
    glp_set_obj_dir(P, GLP_MAX);
    glp_add_rows(P, b.rows);
    glp_add_cols(P, b.cols);
    for (int i = 1; i <= flow_rows; i++)
        glp_set_row_bnds(P, i, GLP_FX, 0.0, 0.0);
    for (int i = flow_rows + 1; i <= coupling_end; i++)
        glp_set_row_bnds(P, i, GLP_UP, 0.0, 0.0);
    for (int i = coupling_end + 1; i <= b.rows; i++)
        glp_set_row_bnds(P, i, GLP_UP, 0.0, 1.0);
    glp_set_col_bnds(P, 1, GLP_LO, 0.0, 0.0);
    glp_set_obj_coef(P, 1, 1.0);
    for (int k = 0; k < m; k++)
        glp_set_col_bnds(P, 2 + k, GLP_DB, 0.0, scale / c->edges[k].time);
    for (int j = 2 + m; j <= b.cols; j++)
        glp_set_col_bnds(P, j, GLP_LO, 0.0, 0.0);
    glp_load_matrix(P, b.nz, b.ia, b.ja, b.ar);

    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.presolve = GLP_ON;
    int rc = glp_simplex(P, &parm);
    int status = glp_get_status(P);
    int result = 0;
    if (rc != 0 || status != GLP_OPT) {
        char *nl = strchr(g.said, '\n');
        if (nl)
            *nl = '\0';
        result = set_cause(cause, "the throughput linear program was not solved (GLPK: %s%s%s)",
                           rc == GLP_EITLIM ? "iteration limit"
                           : rc == GLP_ETMLIM ? "time limit"
                           : rc == GLP_ENOPFS ? "no feasible solution"
                           : rc == GLP_ENODFS ? "unbounded"
                           : rc != 0 ? "solver failure"
                           : status == GLP_UNBND ? "unbounded"
                           : status == GLP_NOFEAS ? "no feasible solution" : "no optimum found",
                           g.said[0] ? "; " : "", g.said);
    } else {
        out->throughput = tidy(glp_get_obj_val(P) / scale);
        out->rows = b.rows;
        out->cols = b.cols;
        out->iterations = glp_get_it_cnt(P);
        for (int w = 0; w < n; w++) {
            if (dest[w] < 0)
                continue;
            for (int k = 0; k < m; k++) {
                int col = xcol[(size_t)dest[w] * (size_t)m + (size_t)k];
                double x = col ? glp_get_col_prim(P, col) / scale : 0;
                if (x > out->count[k])
                    out->count[k] = x;
            }
        }
        /* Solver noise below the tolerance is no traffic. */
        for (int k = 0; k < m; k++) {
            if (out->count[k] < 1e-9 * out->throughput)
                out->count[k] = 0;
            out->count[k] = tidy(out->count[k]);
            out->busy[k] = out->count[k] * c->edges[k].time;
        }
    }
    glp_delete_prob(P);
    glp_free_env();
    build_free(&b);
    free(dest);
    free(xcol);
    free(out_row);
    free(in_row);
    if (result < 0)
        lp_result_free(out);
    return result;
}
