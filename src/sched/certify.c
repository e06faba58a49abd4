/*
 * sched/certify.c - the broadcast as an integer program, solved by GLPK
 * (sched/certify.h says what the program is and why it is exact).
 *
 * Columns, 1-based as GLPK counts them:
 *   x[q,p,k]  binary: q's k-th send (k = 1 .. n-1) goes to p (p not the source,
 *             q -> p a transfer of the cluster)
 *   h[p]      when p holds the message (the source: 0)
 *   S[q,k]    when q's k-th send starts
 *   u[p]      p's level in the tree (cycles are impossible)
 *   C         the makespan, minimised
 * Rows:
 *   every p but the source is served once:      sum_{q,k} x[q,p,k] = 1
 *   a slot serves at most one receiver:         sum_p x[q,p,k] <= 1
 *   slots are used in order:                    sum_p x[q,p,k] - sum_p x[q,p,k-1] <= 0
 *   the first send waits for the message:       S[q,1] - h[q] >= 0
 *   the next waits for the port:                S[q,k] - S[q,k-1] - sum_p free(q,p) x[q,p,k-1] >= 0
 *   p holds it after the slot that serves it:   h[p] - S[q,k] - M x[q,p,k] >= hold(q,p) - M
 *   levels grow along the tree:                 u[p] - u[q] - n sum_k x[q,p,k] >= 1 - n
 *   the makespan is the latest hold:            C - h[p] >= 0
 * A multicast (model/targets.h) serves a node that is no target at most
 * once (<= 1, not = 1), lets it send only if it is served
 * (sum_p x[q,p,1] - sum_{q',k} x[q',q,k] <= 0), and takes the makespan (or
 * the sum) over the targets only.
 */
#include "sched/certify.h"

#include <errno.h>
#include <glpk.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "support/atomic.h"
#include "sched/sched.h"
#include "support/diag.h"

struct ip {
    const struct cluster *c;
    enum model m;
    bool sum;                   /* minimise the sum of the holds, not the makespan */
    double scale;               /* costs are divided by it in the program GLPK solves (1: as written) */
    int n, src, K;              /* K = n - 1 slots a sender */
    double *free_, *hold;       /* [q * n + p]: port held, hold time of a transfer at 0; NAN: none */
    int xbase, hbase, sbase, ubase, ccol, ncols;
    int *ind;                   /* a row's columns and values, 1-based */
    double *val;
    char said[256];             /* GLPK's last words (an error) */
    const volatile sig_atomic_t *cancel;   /* stop when it is set (NULL: never) */
    bool cancelled;
    jmp_buf on_error;
};

static int x_col(const struct ip *ip, int q, int p, int k)   /* k 1-based */
{
    return ip->xbase + ((q * ip->n + p) * ip->K + (k - 1));
}

static bool has(const struct ip *ip, int q, int p)
{
    return q != p && p != ip->src && !isnan(ip->free_[q * ip->n + p]);
}

static int term_hook(void *info, const char *s)
{
    struct ip *ip = info;
    size_t have = strlen(ip->said);
    if (have + 1 < sizeof ip->said)
        text_fit(ip->said + have, sizeof ip->said - have, "%s", s);
    return 1;   /* nothing on the terminal */
}

static void error_hook(void *info)
{
    struct ip *ip = info;
    longjmp(ip->on_error, 1);
}

/* The costs of every transfer started at 0, and a check that the source reaches everyone. */
static int ip_costs(struct ip *ip, char **cause)
{
    int n = ip->n;
    ip->free_ = xcalloc((size_t)n * (size_t)n, sizeof *ip->free_);
    ip->hold = xcalloc((size_t)n * (size_t)n, sizeof *ip->hold);
    for (int q = 0; q < n; q++)
        for (int p = 0; p < n; p++) {
            struct cost k;
            struct timing tm;
            if (q == p || !timing_cost(ip->c, q, p, &k)) {
                ip->free_[q * n + p] = ip->hold[q * n + p] = NAN;
                continue;
            }
            timing_phases(ip->m, &k, 0, -INFINITY, &tm);
            ip->free_[q * n + p] = tm.free;
            ip->hold[q * n + p] = tm.hold;
        }
    bool *seen = xcalloc((size_t)n, sizeof *seen);
    int *stack = xcalloc((size_t)n, sizeof *stack), top = 0;
    seen[ip->src] = true;
    stack[top++] = ip->src;
    while (top) {
        int q = stack[--top];
        for (int p = 0; p < n; p++)
            if (!seen[p] && has(ip, q, p)) {
                seen[p] = true;
                stack[top++] = p;
            }
    }
    int missing = -1;
    for (int p = 0; p < n && missing < 0; p++)
        if (!seen[p] && cluster_is_target(ip->c, p))   /* a multicast needs its targets only */
            missing = p;
    free(seen);
    free(stack);
    if (missing >= 0) {
        char b[64];
        return set_cause(cause, "the source cannot reach %s: no broadcast to certify",
                         SHOWN(ip->c->nodes[missing].name, b));
    }
    return 0;
}

static void add_row(glp_prob *P, struct ip *ip, int len, int type, double bound, const char *name)
{
    int row = glp_add_rows(P, 1);
    glp_set_row_name(P, row, name);
    glp_set_row_bnds(P, row, type, type == GLP_UP ? 0.0 : bound, type == GLP_UP || type == GLP_FX ? bound : 0.0);
    glp_set_mat_row(P, row, len, ip->ind, ip->val);
}

/* Names for the columns, by node number (0 .. n-1, the cluster's order), so
 * that the written program reads like the head comment: x_q_p_k, h_p,
 * S_q_k, u_p, C.  A node's own name never goes into the file. */
static void name_cols(const struct ip *ip, glp_prob *P)
{
    int n = ip->n, K = ip->K;
    char b[64];
    for (int q = 0; q < n; q++) {
        for (int p = 0; p < n; p++)
            for (int k = 1; k <= K; k++) {
                snprintf(b, sizeof b, "x_%d_%d_%d", q, p, k);
                glp_set_col_name(P, x_col(ip, q, p, k), b);
            }
        snprintf(b, sizeof b, "h_%d", q);
        glp_set_col_name(P, ip->hbase + q, b);
        snprintf(b, sizeof b, "u_%d", q);
        glp_set_col_name(P, ip->ubase + q, b);
        for (int k = 1; k <= K; k++) {
            snprintf(b, sizeof b, "S_%d_%d", q, k);
            glp_set_col_name(P, ip->sbase + q * K + (k - 1), b);
        }
    }
    glp_set_col_name(P, ip->ccol, "C");
}

/* The columns of the program (x, h, S, u, C), their kinds, bounds and the
 * objective. */
static void ip_columns(struct ip *ip, glp_prob *P)
{
    int n = ip->n, K = ip->K;
    ip->xbase = 1;
    ip->hbase = ip->xbase + n * n * K;
    ip->sbase = ip->hbase + n;
    ip->ubase = ip->sbase + n * K;
    ip->ccol = ip->ubase + n;
    ip->ncols = ip->ccol;
    glp_set_obj_dir(P, GLP_MIN);
    glp_add_cols(P, ip->ncols);
    name_cols(ip, P);
    for (int q = 0; q < n; q++)
        for (int p = 0; p < n; p++)
            for (int k = 1; k <= K; k++) {
                int j = x_col(ip, q, p, k);
                glp_set_col_kind(P, j, GLP_BV);
                if (!has(ip, q, p))
                    glp_set_col_bnds(P, j, GLP_FX, 0, 0);
            }
    for (int p = 0; p < n; p++) {
        if (p == ip->src)
            glp_set_col_bnds(P, ip->hbase + p, GLP_FX, 0, 0);
        else
            glp_set_col_bnds(P, ip->hbase + p, GLP_LO, 0, 0);
        glp_set_col_bnds(P, ip->ubase + p, p == ip->src ? GLP_FX : GLP_DB, 0, p == ip->src ? 0 : n - 1);
        for (int k = 1; k <= K; k++)
            glp_set_col_bnds(P, ip->sbase + p * K + (k - 1), GLP_LO, 0, 0);
    }
    glp_set_col_bnds(P, ip->ccol, GLP_LO, 0, 0);
    if (ip->sum)
        for (int p = 0; p < n; p++)
            glp_set_obj_coef(P, ip->hbase + p, p == ip->src || !cluster_is_target(ip->c, p) ? 0 : 1);
    else
        glp_set_obj_coef(P, ip->ccol, 1);

}

/* Rows: every target served once, every other node at most once, and a
 * relay sends only once served. */
static void ip_served_rows(struct ip *ip, glp_prob *P)
{
    int n = ip->n, K = ip->K, len;
    char rn[64];
    for (int p = 0; p < n; p++) {   /* served once */
        if (p == ip->src)
            continue;
        len = 0;
        for (int q = 0; q < n; q++)
            for (int k = 1; k <= K; k++)
                if (has(ip, q, p))
                    ip->ind[++len] = x_col(ip, q, p, k), ip->val[len] = 1;
        snprintf(rn, sizeof rn, "served_%d", p);
        add_row(P, ip, len, cluster_is_target(ip->c, p) ? GLP_FX : GLP_UP, 1, rn);
        if (cluster_is_target(ip->c, p))
            continue;
        for (int q = 0; q < n; q++)   /* a relay sends only once served */
            if (has(ip, p, q))
                ip->ind[++len] = x_col(ip, p, q, 1), ip->val[len] = -1;
        for (int i = 1; i <= len; i++)
            ip->val[i] = -ip->val[i];
        snprintf(rn, sizeof rn, "relay_%d", p);
        add_row(P, ip, len, GLP_UP, 0, rn);
    }
}

/* Rows: a sender's slots, one receiver each and in order, each slot's start,
 * and the hold after the slot that serves p (big-M: binds when x is 1). */
static void ip_slot_rows(struct ip *ip, glp_prob *P, double M, double sc)
{
    int n = ip->n, K = ip->K, len;
    char rn[64];
    for (int q = 0; q < n; q++)
        for (int k = 1; k <= K; k++) {
            len = 0;   /* one receiver a slot, slots in order */
            for (int p = 0; p < n; p++)
                if (has(ip, q, p)) {
                    ip->ind[++len] = x_col(ip, q, p, k), ip->val[len] = 1;
                    if (k > 1)
                        ip->ind[++len] = x_col(ip, q, p, k - 1), ip->val[len] = -1;
                }
            snprintf(rn, sizeof rn, "slot_%d_%d", q, k);
            if (len)
                add_row(P, ip, len, GLP_UP, k > 1 ? 0 : 1, rn);
            int s = ip->sbase + q * K + (k - 1);
            len = 0;   /* the slot's start */
            ip->ind[++len] = s, ip->val[len] = 1;
            if (k == 1) {
                ip->ind[++len] = ip->hbase + q, ip->val[len] = -1;
            } else {
                ip->ind[++len] = s - 1, ip->val[len] = -1;
                for (int p = 0; p < n; p++)
                    if (has(ip, q, p))
                        ip->ind[++len] = x_col(ip, q, p, k - 1), ip->val[len] = -ip->free_[q * n + p] / sc;
            }
            snprintf(rn, sizeof rn, "start_%d_%d", q, k);
            add_row(P, ip, len, GLP_LO, 0, rn);
            for (int p = 0; p < n; p++) {   /* the hold after the slot that serves p */
                if (!has(ip, q, p))
                    continue;
                len = 0;
                ip->ind[++len] = ip->hbase + p, ip->val[len] = 1;
                ip->ind[++len] = s, ip->val[len] = -1;
                ip->ind[++len] = x_col(ip, q, p, k), ip->val[len] = -M;
                snprintf(rn, sizeof rn, "hold_%d_%d_%d", q, p, k);
                add_row(P, ip, len, GLP_LO, ip->hold[q * n + p] / sc - M, rn);
            }
        }
}

/* Rows: the levels (no cycle of transfers) and the makespan above every
 * target's hold. */
static void ip_level_rows(struct ip *ip, glp_prob *P)
{
    int n = ip->n, K = ip->K, len;
    char rn[64];
    for (int q = 0; q < n; q++)   /* levels */
        for (int p = 0; p < n; p++) {
            if (!has(ip, q, p))
                continue;
            len = 0;
            ip->ind[++len] = ip->ubase + p, ip->val[len] = 1;
            ip->ind[++len] = ip->ubase + q, ip->val[len] = -1;
            for (int k = 1; k <= K; k++)
                ip->ind[++len] = x_col(ip, q, p, k), ip->val[len] = -n;
            snprintf(rn, sizeof rn, "level_%d_%d", q, p);
            add_row(P, ip, len, GLP_LO, 1 - n, rn);
        }
    for (int p = 0; p < n; p++) {   /* the makespan */
        if (!cluster_is_target(ip->c, p))
            continue;
        len = 0;
        ip->ind[++len] = ip->ccol, ip->val[len] = 1;
        ip->ind[++len] = ip->hbase + p, ip->val[len] = -1;
        snprintf(rn, sizeof rn, "makespan_%d", p);
        add_row(P, ip, len, GLP_LO, 0, rn);
    }
}

/* Build the program of the file's head comment into P. */
static void ip_build(struct ip *ip, glp_prob *P)
{
    int n = ip->n;
    double maxfree = 0, maxhold = 0;
    for (int i = 0; i < n * n; i++)
        if (!isnan(ip->free_[i])) {
            maxfree = fmax(maxfree, ip->free_[i]);
            maxhold = fmax(maxhold, ip->hold[i]);
        }
    /* A tree each of whose nodes serves its children one after the other
     * ends by (n - 1)(maxfree + maxhold), so does the optimum; a slot starts
     * at most (n - 1) maxfree after its sender holds the message; so every
     * start plus a hold lies below M, and a row whose x is 0 binds nothing. */
    double sc = ip->scale > 0 ? ip->scale : 1;
    maxfree /= sc;
    maxhold /= sc;
    double M = 2.0 * n * (maxfree + maxhold) + 1;

    ip_columns(ip, P);
    ip->ind = xcalloc((size_t)ip->ncols + 2, sizeof *ip->ind);
    ip->val = xcalloc((size_t)ip->ncols + 2, sizeof *ip->val);
    ip_served_rows(ip, P);
    ip_slot_rows(ip, P, M, sc);
    ip_level_rows(ip, P);
}

static void ip_free(struct ip *ip)
{
    free(ip->free_);
    free(ip->hold);
    free(ip->ind);
    free(ip->val);
    ip->free_ = ip->hold = ip->val = NULL;
    ip->ind = NULL;
}

static int ip_init(struct ip *ip, const struct cluster *c, enum model m, char **cause)
{
    memset(ip, 0, sizeof *ip);
    if (!(model_mask_for(c->kind) & MODEL_BIT(m))) {
        char *why = model_refusal(m, c->kind);
        set_cause(cause, "%s", why);
        free(why);
        return -1;
    }
    if (c->n > CERTIFY_MAX_NODES)
        return set_cause(cause, "certifying by an integer program is for up to %d nodes (this cluster has %d)",
                         CERTIFY_MAX_NODES, c->n);
    ip->c = c;
    ip->m = m;
    ip->n = c->n;
    ip->src = c->source;
    ip->K = c->n > 1 ? c->n - 1 : 1;
    if (ip_costs(ip, cause) < 0) {
        ip_free(ip);
        return -1;
    }
    return 0;
}

/* The schedule in x, booked as the engine would book it: every sender's
 * children in slot order, the next booking the pending send of a holder
 * whose slot starts first (ties: the lower sender).  Its exact makespan and
 * sum come from the timing rule (model/timing.h), not from GLPK's doubles.
 * false when x is not a broadcast tree. */
static bool ip_plan(const struct ip *ip, glp_prob *P, struct certify_plan *out)
{
    int n = ip->n, K = ip->K;
    int child[CERTIFY_MAX_NODES][CERTIFY_MAX_NODES], nchild[CERTIFY_MAX_NODES] = {0};
    double slot[CERTIFY_MAX_NODES][CERTIFY_MAX_NODES];
    for (int q = 0; q < n; q++)
        for (int k = 1; k <= K; k++)
            for (int p = 0; p < n; p++)
                if (has(ip, q, p) && glp_mip_col_val(P, x_col(ip, q, p, k)) > 0.5) {
                    slot[q][nchild[q]] = glp_mip_col_val(P, ip->sbase + q * K + (k - 1));
                    child[q][nchild[q]++] = p;
                }
    double hold[CERTIFY_MAX_NODES], freeat[CERTIFY_MAX_NODES];
    bool holds[CERTIFY_MAX_NODES] = {false};
    int next[CERTIFY_MAX_NODES] = {0};
    holds[ip->src] = true;
    hold[ip->src] = 0;
    for (int q = 0; q < n; q++)
        freeat[q] = -INFINITY;
    out->len = 0;
    out->makespan = out->sum = 0;
    for (int d = 0; d < n - 1; d++) {
        int best = -1;
        for (int q = 0; q < n; q++)
            if (holds[q] && next[q] < nchild[q] && (best < 0 || slot[q][next[q]] < slot[best][next[best]]))
                best = q;
        if (best < 0 && ip->c->target)
            break;   /* a multicast: the nodes left are relays it does not serve (checked below) */
        if (best < 0)
            return false;
        int q = best, p = child[q][next[q]++];
        if (holds[p])
            return false;
        struct cost k;
        struct timing tm;
        timing_cost(ip->c, q, p, &k);
        timing_phases(ip->m, &k, hold[q] > freeat[q] ? hold[q] : freeat[q], -INFINITY, &tm);
        hold[p] = tm.hold;
        freeat[q] = tm.free;
        holds[p] = true;
        out->from[out->len] = q;
        out->to[out->len++] = p;
        if (!cluster_is_target(ip->c, p))
            continue;
        out->makespan = fmax(out->makespan, tm.hold);
        out->sum += tm.hold;
    }
    for (int p = 0; p < n; p++)
        if (!holds[p] && cluster_is_target(ip->c, p))
            return false;
    return true;
}

/* GLPK's branch and bound calls this now and then: the place to stop it. */
static void ip_callback(glp_tree *tree, void *info)
{
    struct ip *ip = info;
    if (ip->cancel && *ip->cancel && !ip->cancelled) {
        ip->cancelled = true;
        glp_ios_terminate(tree);
    }
}

/* The guarded part: GLPK's errors jump back here with its environment dropped. */
static int ip_solve(struct ip *ip, double time_limit, struct certify_plan *out, char **cause)
{
    glp_term_hook(term_hook, ip);
    glp_error_hook(error_hook, ip);
    glp_prob *volatile P = NULL;
    if (setjmp(ip->on_error)) {
        glp_free_env();
        char *nl = strchr(ip->said, '\n');
        if (nl)
            *nl = '\0';
        return set_cause(cause, "the integer program failed inside GLPK%s%s", ip->said[0] ? ": " : "",
                         ip->said);
    }
    P = glp_create_prob();
    ip_build(ip, P);
    out->rows = glp_get_num_rows(P);
    out->cols = glp_get_num_cols(P);
    out->binaries = glp_get_num_bin(P);
    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.presolve = GLP_ON;
    parm.msg_lev = GLP_MSG_OFF;
    parm.mip_gap = 0;
    parm.tol_int = 1e-9;
    parm.tol_obj = 1e-9;
    parm.cb_func = ip_callback;
    parm.cb_info = ip;
    if (time_limit > 0)
        parm.tm_lim = time_limit >= 2e6 ? 2000000000 : (int)(time_limit * 1000);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = glp_intopt(P, &parm);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    out->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    if (ip->cancelled) {
        glp_delete_prob(P);
        glp_free_env();
        return set_cause(cause, SCHED_CANCELLED_TEXT);
    }
    int status = glp_mip_status(P);
    bool have = status == GLP_OPT || status == GLP_FEAS;
    double glpk = have ? glp_mip_obj_val(P) * ip->scale : NAN;
    if (have && !ip_plan(ip, P, out)) {
        have = false;
        text_fit(out->note, sizeof out->note, "GLPK's solution is not a broadcast tree");
    }
    double value = ip->sum ? out->sum : out->makespan;
    out->value = have ? value : NAN;
    out->proven = rc == 0 && status == GLP_OPT && have && fabs(glpk - value) <= 1e-6 * fmax(1, fabs(value));
    if (!out->proven && !out->note[0])
        text_fit(out->note, sizeof out->note, "GLPK stopped before proving its optimum (%s)",
                 rc == GLP_ETMLIM ? "time limit" : status == GLP_NOFEAS ? "no feasible schedule"
                 : have && status == GLP_OPT ? "its arithmetic disagrees with the schedule's" : "solver failure");
    glp_delete_prob(P);
    glp_free_env();
    return 0;
}

int certify_solve(const struct cluster *c, enum model m, enum certify_objective obj, double time_limit,
                  const volatile sig_atomic_t *cancel, struct certify_plan *out, char **cause)
{
    memset(out, 0, sizeof *out);
    struct ip *ip = xcalloc(1, sizeof *ip);   /* on the heap: nothing of it is lost to a jump */
    int rc = ip_init(ip, c, m, cause);
    if (rc == 0) {
        ip->sum = obj == CERTIFY_SUM;
        ip->cancel = cancel;
        double big = 0;   /* GLPK's tolerances suit values near 1 to 100: the costs are scaled so */
        for (int i = 0; i < ip->n * ip->n; i++)
            if (!isnan(ip->free_[i]))
                big = fmax(big, fmax(ip->free_[i], ip->hold[i]));
        ip->scale = big > 0 ? big / 100 : 1;
        rc = ip_solve(ip, time_limit, out, cause);
    }
    ip_free(ip);
    free(ip);
    return rc;
}

int certify_optimum(const struct cluster *c, enum model m, double claimed, double time_limit,
                    struct certify *out, char **cause)
{
    memset(out, 0, sizeof *out);
    struct certify_plan plan;
    if (certify_solve(c, m, CERTIFY_MAKESPAN, time_limit, NULL, &plan, cause) < 0)
        return -1;
    out->seconds = plan.seconds;
    out->rows = plan.rows;
    out->cols = plan.cols;
    out->binaries = plan.binaries;
    out->value = plan.value;
    if (!plan.proven) {
        out->status = CERTIFY_GAVE_UP;
        text_fit(out->note, sizeof out->note, "%s", plan.note);
    } else {
        out->status = fabs(plan.value - claimed) <= 1e-9 * fmax(1, fabs(claimed)) ? CERTIFY_SAME
                                                                                 : CERTIFY_DIFFERENT;
    }
    return 0;
}

static int ip_write(struct ip *ip, const char *tmp, char **cause)
{
    glp_term_hook(term_hook, ip);
    glp_error_hook(error_hook, ip);
    if (setjmp(ip->on_error)) {
        glp_free_env();
        return set_cause(cause, "GLPK could not write the integer program");
    }
    glp_prob *P = glp_create_prob();
    glp_set_prob_name(P, "hetcast_broadcast");
    ip->scale = 1;   /* the file keeps the costs as the cluster has them */
    ip_build(ip, P);
    int rc = glp_write_lp(P, NULL, tmp);
    glp_delete_prob(P);
    glp_free_env();
    return rc == 0 ? 0 : set_cause(cause, "GLPK could not write the integer program");
}

int certify_write_lp(const struct cluster *c, enum model m, const char *path, char **cause)
{
    struct ip *ip = xcalloc(1, sizeof *ip);
    int rc = ip_init(ip, c, m, cause);
    if (rc == 0) {
        struct atomic_file af;
        if (atomic_open(&af, path) < 0) {
            rc = set_cause(cause, "%s: %s", path, atomic_why(&af, errno));
        } else {
            /* GLPK writes by name: into the temporary file, which the commit renames */
            rc = ip_write(ip, af.tmp, cause);
            if (rc < 0)
                atomic_abort(&af);
            else if (atomic_commit(&af) < 0)
                rc = set_cause(cause, "%s: %s", path, atomic_why(&af, errno));
        }
    }
    ip_free(ip);
    free(ip);
    return rc;
}
