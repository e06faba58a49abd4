/*
 * panes.c - the side pane of the main screen (`t`), drawn into a cell
 * buffer (no curses), one per kind of run:
 *
 *   broadcast    the tree of who sent to whom, in booking order, with each
 *                node's receive time and the critical path;
 *   Figueira     the tree the scheduler built (sched/trees.h): each node's
 *                binomial position, the distance on each edge, the
 *                heaviest root-to-leaf path drawn heavy;
 *   pipelined    the spanning tree the slices follow (sched/pipeline.h), each
 *                edge's time T and LP count n(u,v), the slices each node
 *                holds so far, then the platform's other edges with n(u,v);
 *   exchange     the table of sending orders (sched/exchange.h), as in Chen &
 *                Liu's Tables 1-6, with each sender's current row marked.
 *
 * Every number comes from the core: the engine's transfers and snapshot,
 * tree_of_sched(), pipeline_plan(), the exchange's order table.  The pane
 * only lays them out, as far as the snapshot has gone.
 */
#include "ui/drawkit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/exchange.h"
#include "output/export.h"
#include "sched/pipeline.h"
#include "sched/trees.h"

/* ---- tree lines ---- */

/* One row of a tree: connectors from the depths, then text, a right column and a mark. */
struct tline {
    int node, depth;
    bool heavy;         /* the edge into it is drawn heavy (the heaviest path) */
    char edge[24];      /* a number on the edge: "├─3─name"; "" for none */
    char text[200];
    unsigned attr;
    char right[40];
    unsigned rattr;
    bool mark;          /* the critical-path mark in the last column */
    unsigned mattr;
};

/* A header bar: "what name" on the left (just the name when both do not fit), a note on the right. */
static void pane_head(struct view *v, struct cellbuf *cb, int x, int y, int w, const char *what,
                      const char *name, const char *note)
{
    cb_fill(cb, x, y, w, 1, ' ', R_HEAD);
    int hw = text_width(note);
    char title[300];
    snprintf(title, sizeof title, "%s %s", what, name);
    if (text_width(title) > w - hw - 4)
        snprintf(title, sizeof title, "%s", name);
    ui_put(v, cb, x + 1, y, w - hw - 4, R_HEAD | AF_BOLD, title);
    cb_text(cb, x + w - hw - 1, y, -1, note, R_HEAD, v->ascii);
}

/* The first line that fits w columns (the last one, cut, if none does). */
static const char *fitting(const char *const *lines, int n, int w)
{
    for (int i = 0; i < n; i++)
        if (text_width(lines[i]) <= w)
            return lines[i];
    return lines[n - 1];
}

/*
 * Lines [first, first + rows) of t[0..m) on rows y.., connectors drawn from
 * the depths: a node is its parent's last child when no later line at its
 * depth comes before the subtree ends.
 */
static void tree_rows(struct view *v, struct cellbuf *cb, int x, int y, int w, int rows,
                      const struct tline *t, int m, int first)
{
    const struct glyphs *g = glyphs_for(v->ascii);
    int maxd = 0;
    for (int i = 0; i < m; i++)
        if (t[i].depth > maxd)
            maxd = t[i].depth;
    bool *more = xcalloc((size_t)maxd + 2, sizeof *more);
    for (int i = 0; i < m; i++) {
        int d = t[i].depth;
        bool last = true;
        for (int j = i + 1; j < m && t[j].depth >= d; j++)
            if (t[j].depth == d) {
                last = false;
                break;
            }
        more[d] = !last;
        if (i < first || i >= first + rows)
            continue;
        int row = y + (i - first), cx = x + 1;
        bool sel = t[i].node == v->sel;
        if (sel)
            cb_fill(cb, x, row, w, 1, ' ', R_SEL);
        int indent = d > 0 ? d - 1 : 0;
        int maxindent = (w - 16) / 2 > 0 ? (w - 16) / 2 : 0;
        for (int l = 1; l <= indent && l <= maxindent; l++) {
            if (more[l])
                cb_put(cb, cx, row, g->pipe, R_DIM);
            cx += 2;
        }
        if (d > 0) {
            unsigned ca = t[i].heavy ? (unsigned)(R_CRIT | AF_BOLD) : R_DIM;
            uint32_t hl = t[i].heavy ? g->heavy_hline : g->hline;
            cb_put(cb, cx, row, t[i].heavy ? (last ? g->heavy_elbow : g->heavy_tee)
                                           : (last ? g->elbow : g->tee), ca);
            cb_put(cb, cx + 1, row, hl, ca);
            cx += 2;
            if (t[i].edge[0]) {
                cx += cb_text(cb, cx, row, -1, t[i].edge, sel ? R_SEL : t[i].heavy ? ca : R_NORMAL,
                              v->ascii);
                cb_put(cb, cx++, row, hl, ca);
            }
        }
        int tw = text_width(t[i].right), right = x + w - 3;   /* right column, then the mark */
        cb_text(cb, cx, row, right - tw - 1 - cx, t[i].text, sel ? R_SEL : t[i].attr, v->ascii);
        cb_text(cb, right - tw, row, tw, t[i].right, sel ? R_SEL : t[i].rattr, v->ascii);
        if (t[i].mark)
            cb_put(cb, x + w - 2, row, g->crit, sel ? R_SEL : t[i].mattr);
    }
    free(more);
}

/* The first line shown when m lines share `rows`: the selected node's line kept in view. */
static int first_line(const struct tline *t, int m, int rows, int sel)
{
    int selrow = -1;
    for (int i = 0; i < m; i++)
        if (t[i].node == sel)
            selrow = i;
    int first = 0;
    if (m > rows && selrow >= 0) {
        first = selrow - rows / 2;
        if (first > m - rows)
            first = m - rows;
        if (first < 0)
            first = 0;
    }
    return first;
}

/* in[p]: the transfer that brings p message 0 from its parent, -1 for none. */
static int *arrivals(const struct engine *e)
{
    int *in = xmalloc((size_t)e->n * sizeof *in);
    for (int p = 0; p < e->n; p++)
        in[p] = -1;
    for (int i = 0; i < e->ntr; i++)
        if (e->tr[i].msg == 0 && e->parent[e->tr[i].to] == e->tr[i].from)
            in[e->tr[i].to] = i;
    return in;
}

/* The selected node and its ancestors (by e->parent). */
static unsigned char *sel_path(const struct view *v, const struct engine *e)
{
    unsigned char *path = xcalloc((size_t)e->n, 1);
    for (int p = v->sel, guard = 0; p >= 0 && p < e->n && guard <= e->n; p = e->parent[p], guard++)
        path[p] = 1;
    return path;
}

static unsigned node_attr(const struct view *v, int p, const unsigned char *path,
                          const unsigned char *crit)
{
    return p == v->sel ? R_SEL : path[p] ? (unsigned)(R_PATH | AF_BOLD) : crit[p] ? R_CRIT : R_NORMAL;
}

/* A receive time: "6" once held, "(6)" while still planned. */
static void hold_text(char *buf, size_t size, double t, bool held)
{
    if (held)
        snprintf(buf, size, "%s", ui_num(t));
    else
        snprintf(buf, size, "(%s)", ui_num(t));
}

/* ---- the broadcast tree ---- */

static void broadcast_tree(struct view *v, struct cellbuf *cb, int x, int y, int w, int h,
                           const struct vrun *vr, const struct snapshot *snap)
{
    const struct glyphs *g = glyphs_for(v->ascii);
    const struct engine *e = &vr->run.eng;
    const struct cluster *c = e->c;
    int n = c->n;
    int *order = xmalloc((size_t)n * sizeof *order), *depth = xmalloc((size_t)n * sizeof *depth);
    int *in = arrivals(e);
    unsigned char *crit = xmalloc((size_t)n), *path = sel_path(v, e);
    struct tline *t = xcalloc((size_t)n, sizeof *t);
    int cnt = export_tree_order(e, order, depth);
    export_critical_path(e, crit);
    /* The part that has started: a node is listed once its transfer began. */
    int m = 0, waiting = 0;
    for (int i = 0; i < cnt; i++) {
        int p = order[i];
        if (in[p] >= 0 && snap->phase[in[p]] == PHASE_FUTURE)
            continue;
        struct tline *l = &t[m++];
        l->node = p;
        l->depth = depth[i];
        if (depth[i] == 0 || e->parent[p] < 0)
            snprintf(l->text, sizeof l->text, "%s (source)", c->nodes[p].name);
        else
            snprintf(l->text, sizeof l->text, "%s %s %s%s", c->nodes[e->parent[p]].name, g->arrow,
                     c->nodes[p].name, cluster_is_target(c, p) ? "" : " (relay)");
        l->attr = node_attr(v, p, path, crit);
        hold_text(l->right, sizeof l->right, engine_hold_time(e, p, 0), snap->holds[p]);
        l->rattr = snap->holds[p] ? R_NORMAL : R_DIM;
        l->mark = crit[p];
        l->mattr = R_CRIT | AF_BOLD;
    }
    int held = 0;   /* a multicast counts its targets */
    for (int p = 0; p < n; p++) {
        waiting += !snap->holds[p] && cluster_is_target(c, p);
        held += snap->holds[p] && cluster_is_target(c, p);
    }
    char note[64];
    if (c->target)
        snprintf(note, sizeof note, "%d/%d targets hold", held, c->ntargets);
    else
        snprintf(note, sizeof note, "%d/%d hold", snap->nholding, n);
    pane_head(v, cb, x, y, w, "tree", vr->run.sched.ops->name, note);
    int rows = h - 2, first = first_line(t, m, rows, v->sel);
    tree_rows(v, cb, x, y + 1, w, rows, t, m, first);
    if (m > rows)
        cb_textf(cb, x + 1, y + h - 1, w - 2, R_DIM, v->ascii, "%d-%d of %d listed", first + 1,
                 first + rows < m ? first + rows : m, m);
    else if (waiting)
        cb_textf(cb, x + 1, y + h - 1, w - 2, R_DIM, v->ascii, "%d%s waiting", waiting,
                 !c->target ? "" : waiting == 1 ? " target" : " targets");
    else
        cb_textf(cb, x + 1, y + h - 1, w - 2, R_DIM, v->ascii, "%s critical path: %s",
                 v->ascii ? "*" : "\xe2\x97\x86", ui_num(e->makespan));
    free(order);
    free(depth);
    free(in);
    free(crit);
    free(path);
    free(t);
}

/* ---- Figueira's trees ---- */

/* Where v sits: "[4]" (binomial position), "[3]" (flat: send order), "[1.0]" (magpie: group.position). */
static void position_text(const struct tree *tr, int v, char *buf, size_t size)
{
    if (tr->kind == TREE_MAGPIE && tr->group)
        snprintf(buf, size, "[%d.%d]", tr->group[v], tr->pos[v]);
    else
        snprintf(buf, size, "[%d]", tr->pos[v]);
}

static void figueira_tree(struct view *v, struct cellbuf *cb, int x, int y, int w, int h,
                          const struct vrun *vr, const struct snapshot *snap, const struct tree *tr)
{
    const struct engine *e = &vr->run.eng;
    const struct cluster *c = e->c;
    const struct glyphs *g = glyphs_for(v->ascii);
    int n = tr->n;
    int *in = arrivals(e), *stack = xmalloc((size_t)n * sizeof *stack);
    int *sdepth = xmalloc((size_t)n * sizeof *sdepth);
    unsigned char *crit = xmalloc((size_t)n), *path = sel_path(v, e);
    struct tline *t = xcalloc((size_t)n, sizeof *t);
    export_critical_path(e, crit);
    /* Depth first from the root, children in the order their parent serves them. */
    int sp = 0, m = 0;
    stack[sp] = tr->root;
    sdepth[sp++] = 0;
    while (sp > 0) {
        sp--;
        int p = stack[sp], d = sdepth[sp];
        if (in[p] >= 0 && snap->phase[in[p]] == PHASE_FUTURE)
            continue;   /* not started: neither it nor its subtree is shown yet */
        struct tline *l = &t[m++];
        char pos[32];
        position_text(tr, p, pos, sizeof pos);
        l->node = p;
        l->depth = d;
        if (d == 0) {
            snprintf(l->text, sizeof l->text, "%s %s (source)", c->nodes[p].name, pos);
        } else {
            snprintf(l->text, sizeof l->text, "%s %s", c->nodes[p].name, pos);
            snprintf(l->edge, sizeof l->edge, "%s", ui_num(tr->dist[p]));
            l->heavy = tr->heavy[p] != 0;
        }
        l->attr = node_attr(v, p, path, crit);
        if (tr->heavy[p] && l->attr == R_NORMAL)
            l->attr = R_NORMAL | AF_BOLD;
        hold_text(l->right, sizeof l->right, engine_hold_time(e, p, 0), snap->holds[p]);
        l->rattr = snap->holds[p] ? R_NORMAL : R_DIM;
        l->mark = crit[p];
        l->mattr = R_CRIT | AF_BOLD;
        for (int k = tr->first[p + 1] - 1; k >= tr->first[p]; k--) {   /* first served on top */
            stack[sp] = tr->kids[k];
            sdepth[sp++] = d + 1;
        }
    }
    char note[64];
    snprintf(note, sizeof note, "%d/%d hold", snap->nholding, n);
    pane_head(v, cb, x, y, w, "tree", vr->run.sched.ops->name, note);
    /* Two lines of key at the bottom when there is room: what the numbers are, and the cost. */
    int foot = h >= 8 ? 2 : 1, rows = h - 1 - foot;
    int first = first_line(t, m, rows, v->sel);
    tree_rows(v, cb, x, y + 1, w, rows, t, m, first);
    char hl[8], hh[8];
    snprintf(hl, sizeof hl, "%s", v->ascii ? "-" : "\xe2\x94\x80");
    snprintf(hh, sizeof hh, "%s", v->ascii ? "=" : "\xe2\x94\x81");
    if (foot == 2) {
        char k1[160], k2[160], k3[160];
        const char *what = tr->kind == TREE_FLAT ? "send order" : tr->kind == TREE_MAGPIE
                                                                      ? "group.position"
                                                                      : "binomial position";
        const char *tag = tr->kind == TREE_MAGPIE ? "[g.p]" : tr->kind == TREE_FLAT ? "[r]" : "[p]";
        snprintf(k1, sizeof k1, "%s %s%s%sd%s edge distance", tag, what, g->dot, hl, hl);
        snprintf(k2, sizeof k2, "%s %s  %sd%s distance", tag,
                 tr->kind == TREE_FLAT ? "order" : tr->kind == TREE_MAGPIE ? "group.pos" : "position",
                 hl, hl);
        snprintf(k3, sizeof k3, "%s pos %sd%s dist", tag, hl, hl);
        const char *keys[] = {k1, k2, k3};
        cb_text(cb, x + 1, y + h - 2, w - 2, fitting(keys, 3, w - 2), R_DIM, v->ascii);
    }
    if (m > rows) {
        cb_textf(cb, x + 1, y + h - 1, w - 2, R_DIM, v->ascii, "%d-%d of %d listed", first + 1,
                 first + rows < m ? first + rows : m, m);
    } else {
        char h1[160], h2[160];
        snprintf(h1, sizeof h1, "%s%s heaviest path: cost %s", hh, hh, ui_num(tr->cost));
        snprintf(h2, sizeof h2, "%s%s heaviest %s", hh, hh, ui_num(tr->cost));
        const char *hs[] = {h1, h2};
        cb_text(cb, x + 1, y + h - 1, w - 2, fitting(hs, 2, w - 2), R_CRIT | AF_BOLD, v->ascii);
    }
    free(in);
    free(stack);
    free(sdepth);
    free(crit);
    free(path);
    free(t);
}

/* ---- a pipelined tree and the LP ---- */

static void pipeline_tree(struct view *v, struct cellbuf *cb, int x, int y, int w, int h,
                          const struct vrun *vr, const struct snapshot *snap,
                          const struct pipe_plan *pl)
{
    const struct engine *e = &vr->run.eng;
    const struct cluster *c = e->c;
    const struct pipe_tree *tr = &pl->tree;
    int n = c->n, K = e->nmsg;
    /* The slices each node holds at this step: the source all, the others what has arrived. */
    int *got = xcalloc((size_t)n, sizeof *got);
    got[tr->source] = K;
    for (int i = 0; i < e->ntr; i++)
        if (snap->phase[i] == PHASE_DONE)
            got[e->tr[i].to]++;
    int everyone = K;
    for (int p = 0; p < n; p++)
        if (got[p] < everyone)
            everyone = got[p];
    unsigned char *path = xcalloc((size_t)n, 1), *intree = xcalloc((size_t)(c->nedges + 1), 1);
    for (int p = v->sel, guard = 0; p >= 0 && p < n && guard <= n; p = tr->parent[p], guard++)
        path[p] = 1;
    int *stack = xmalloc((size_t)n * sizeof *stack), *sdepth = xmalloc((size_t)n * sizeof *sdepth);
    struct tline *t = xcalloc((size_t)n, sizeof *t);
    int sp = 0, m = 0;
    stack[sp] = tr->source;
    sdepth[sp++] = 0;
    while (sp > 0) {
        sp--;
        int p = stack[sp], d = sdepth[sp];
        struct tline *l = &t[m++];
        l->node = p;
        l->depth = d;
        if (d == 0) {
            snprintf(l->text, sizeof l->text, "%s (source)", c->nodes[p].name);
        } else {
            int k = tr->edge[p];
            intree[k] = 1;
            snprintf(l->edge, sizeof l->edge, "%s", ui_num(c->edges[k].time));
            if (pl->has_lp)
                snprintf(l->text, sizeof l->text, "%s n=%.3g", c->nodes[p].name, pl->lp.count[k]);
            else
                snprintf(l->text, sizeof l->text, "%s", c->nodes[p].name);
        }
        l->attr = p == v->sel ? R_SEL : path[p] ? (unsigned)(R_PATH | AF_BOLD)
                                                : got[p] == 0 ? R_DIM : R_NORMAL;
        if (w >= 34)
            snprintf(l->right, sizeof l->right, "%d/%d", got[p], K);
        else   /* narrow: the header says K */
            snprintf(l->right, sizeof l->right, "%d", got[p]);
        l->rattr = got[p] == K ? R_NORMAL : R_DIM;
        for (int i = tr->first[p + 1] - 1; i >= tr->first[p]; i--) {   /* first sent on top */
            stack[sp] = tr->kids[i];
            sdepth[sp++] = d + 1;
        }
    }
    char note[64];
    snprintf(note, sizeof note, "%d/%d slices", everyone, K);
    pane_head(v, cb, x, y, w, "tree", vr->run.sched.ops->name, note);
    /* The tree first (what the Gantt shows), then the platform's other edges, then a key. */
    int end = y + h - 1, rows = m < end - y - 1 ? m : end - y - 1;
    int first = first_line(t, m, rows, v->sel);
    tree_rows(v, cb, x, y + 1, w, rows, t, m, first);
    int row = y + 1 + rows + 1;
    const struct glyphs *g = glyphs_for(v->ascii);
    if (!pl->has_lp && row < end) {
        cb_textf(cb, x + 1, row, w - 2, R_DIM, v->ascii, "LP: %s",
                 pl->lp_note ? pl->lp_note : "not solved");
    } else if (row + 1 < end) {
        int nw = w - 2 - 13;   /* "P0 -> P2", then T and n(u,v) right-aligned */
        cb_fill(cb, x, row, w, 1, ' ', R_HEAD);
        cb_text(cb, x + 1, row, nw, "other edges", R_HEAD | AF_BOLD, v->ascii);
        cb_text(cb, x + 1 + nw, row, 12, "    T n(u,v)", R_HEAD, v->ascii);
        row++;
        int others = 0;
        for (int k = 0; k < c->nedges; k++)
            others += !intree[k];
        int room = end - row, show = others <= room ? others : room - 1;
        /* The edges the LP uses first, then the idle ones (dim). */
        int listed = 0;
        for (int pass = 0; pass < 2; pass++)
            for (int k = 0; k < c->nedges && listed < show; k++) {
                if (intree[k] || (pass == 0) != (pl->lp.count[k] > 0))
                    continue;
                const struct edge *ed = &c->edges[k];
                unsigned a = pass == 0 ? R_NORMAL : R_DIM;
                cb_textf(cb, x + 1, row, nw, a, v->ascii, "%s %s %s", c->nodes[ed->from].name,
                         g->arrow, c->nodes[ed->to].name);
                cb_textf(cb, x + 1 + nw, row, 12, a, v->ascii, "%5s %6.3g", ui_num(ed->time),
                         pl->lp.count[k]);
                row++;
                listed++;
            }
        if (others == 0)
            cb_text(cb, x + 1, row, w - 2, "(none: the tree uses every edge)", R_DIM, v->ascii);
        else if (listed < others)
            cb_textf(cb, x + 1, row, w - 2, R_DIM, v->ascii, "+%d more", others - listed);
    }
    char dash[8], k1[160], k2[160], k3[160];
    snprintf(dash, sizeof dash, "%s", v->ascii ? "-" : "\xe2\x94\x80");
    snprintf(k1, sizeof k1, "%sT%s edge time%sn LP slices/time%sk/K held", dash, dash, g->dot, g->dot);
    snprintf(k2, sizeof k2, "%sT%s time%sn LP count%sk/K held", dash, dash, g->dot, g->dot);
    snprintf(k3, sizeof k3, "%sT%s time  n LP  k/K held", dash, dash);
    const char *keys[] = {k1, k2, k3};
    cb_text(cb, x + 1, end, w - 2, fitting(keys, 3, w - 2), R_DIM, v->ascii);
    free(got);
    free(path);
    free(intree);
    free(stack);
    free(sdepth);
    free(t);
}

/* ---- an exchange's table of sending orders ---- */

/*
 * A column per sender, its receivers from top to bottom (Chen & Liu's
 * Tables 1-6).  Each cell reads off its transfer's phase at this step:
 * delivered (plain), under way (highlighted), not started (dim), the
 * sender sitting idle for it (the idle fill's colour); the row each sender
 * has reached -- its latest transfer that has started, as exchange_rows_at
 * says, but counted in events rather than time so that it moves with every
 * step -- is marked with the pointer; a node's own entry, never sent, with
 * a star.  The columns scroll to keep the selected node in view, the rows
 * to keep its current row in view.
 */
static void orders_pane(struct view *v, struct cellbuf *cb, int x, int y, int w, int h,
                        const struct vrun *vr, const struct snapshot *snap, double now)
{
    const struct exchange *xc = vr->x;
    const struct engine *e = &xc->eng;
    const struct cluster *c = xc->c;
    const struct glyphs *g = glyphs_for(v->ascii);
    int n = xc->n, R = xc->nrecv;
    size_t cells = (size_t)n * (size_t)(R > 0 ? R : 1);
    int *cell = xmalloc(cells * sizeof *cell), *cur = xmalloc((size_t)n * sizeof *cur);
    for (size_t i = 0; i < cells; i++)
        cell[i] = -1;
    for (int q = 0; q < n; q++)
        cur[q] = -1;
    int done = 0;
    for (int i = 0; i < e->ntr; i++) {
        const struct transfer *t = &e->tr[i];
        cell[(size_t)t->from * (size_t)R + (size_t)xc->row[i]] = i;
        if (snap->phase[i] != PHASE_FUTURE && xc->row[i] > cur[t->from])
            cur[t->from] = xc->row[i];
        done += snap->phase[i] == PHASE_DONE;
    }
    char note[64];
    snprintf(note, sizeof note, "%d/%d done", done, e->ntr);
    pane_head(v, cb, x, y, w, "orders", xc->ops->name, note);

    /* Cell width: the longest name (at most 10), a mark before it and a star after. */
    int nw = 2;
    for (int p = 0; p < c->n; p++) {
        int tw = text_width(c->nodes[p].name);
        if (tw > nw)
            nw = tw;
    }
    if (nw > 10)
        nw = 10;
    int cw = nw + 3, lw = 5;   /* "step " */
    int ncols = (w - 1 - lw) / cw;
    if (ncols < 1)
        ncols = 1;
    if (ncols > n)
        ncols = n;
    int sel = v->sel >= 0 && v->sel < n ? v->sel : 0;
    int c0 = sel - ncols / 2;
    if (c0 > n - ncols)
        c0 = n - ncols;
    if (c0 < 0)
        c0 = 0;
    int foot = h >= 8 ? 2 : 1, rows = h - 2 - foot;
    if (rows < 1)
        rows = 1;
    int r0 = 0;
    if (R > rows) {
        r0 = (cur[sel] < 0 ? 0 : cur[sel]) - rows / 2;
        if (r0 > R - rows)
            r0 = R - rows;
        if (r0 < 0)
            r0 = 0;
    }
    int hy = y + 1;
    cb_text(cb, x + 1, hy, lw, "step", R_DIM, v->ascii);
    for (int j = 0; j < ncols; j++) {
        int q = c0 + j, cx = x + 1 + lw + j * cw;
        cb_text(cb, cx + 1, hy, nw, c->nodes[q].name, q == sel ? R_SEL : (unsigned)(R_HEAD | AF_BOLD),
                v->ascii);
    }
    for (int k = r0; k < R && k < r0 + rows; k++) {
        int ry = hy + 1 + (k - r0);
        cb_textf(cb, x + 1, ry, lw - 1, R_DIM, v->ascii, "%4d", k + 1);
        for (int j = 0; j < ncols; j++) {
            int q = c0 + j, cx = x + 1 + lw + j * cw;
            int p = xc->order[(size_t)q * (size_t)R + (size_t)k];
            int i = cell[(size_t)q * (size_t)R + (size_t)k];
            unsigned a = R_DIM;
            uint32_t mark = ' ';
            if (i < 0) {   /* its own message: costs nothing, never sent */
                a = R_DIM;
            } else if (snap->phase[i] == PHASE_DONE) {
                a = R_NORMAL;
            } else if (snap->phase[i] != PHASE_FUTURE) {
                a = R_SEND_LABEL | AF_BOLD;
            } else if (e->tr[i].wait_start < e->tr[i].start && e->tr[i].wait_start <= now &&
                       snap->step > 0) {
                a = R_WAIT | AF_BOLD;
                mark = g->wait;
            }
            if (k == cur[q] && i >= 0)
                mark = g->pointer;
            if (mark != ' ')
                cb_put(cb, cx, ry, mark, mark == g->wait ? (unsigned)(R_WAIT | AF_BOLD) : R_NORMAL | AF_BOLD);
            int used = cb_text(cb, cx + 1, ry, nw, c->nodes[p].name, a, v->ascii);
            if (i < 0)
                cb_put(cb, cx + 1 + used, ry, '*', R_DIM);
        }
    }
    int fy = y + h - foot;
    if (foot == 2) {   /* the key; the idle mark only where some sender waits */
        char k1[160], k2[160], k3[160], ptr[8], idle[64];
        snprintf(ptr, sizeof ptr, "%s", v->ascii ? ">" : "\xe2\x96\xb8");
        snprintf(idle, sizeof idle, "%s  ", v->ascii ? "x idle" : "\xe2\x95\xb3 idle");
        snprintf(k1, sizeof k1, "%s row reached%s%s* own message", ptr, g->dot, xc->nwaits ? idle : "");
        snprintf(k2, sizeof k2, "%s reached  %s* own", ptr, xc->nwaits ? idle : "");
        snprintf(k3, sizeof k3, "%s now  * own", ptr);
        const char *keys[] = {k1, k2, k3};
        cb_text(cb, x + 1, fy++, w - 2, fitting(keys, 3, w - 2), R_DIM, v->ascii);
    }
    if (ncols < n || R > rows) {
        char f1[160], f2[160];
        int r1 = r0 + rows < R ? r0 + rows : R;
        snprintf(f1, sizeof f1, "senders %d-%d of %d%srows %d-%d of %d", c0 + 1, c0 + ncols, n, g->dot,
                 r0 + 1, r1, R);
        snprintf(f2, sizeof f2, "senders %d-%d/%d, rows %d-%d", c0 + 1, c0 + ncols, n, r0 + 1, r1);
        const char *fs[] = {f1, f2};
        cb_text(cb, x + 1, fy, w - 2, fitting(fs, 2, w - 2), R_DIM, v->ascii);
    } else {
        cb_text(cb, x + 1, fy, w - 2, "a column per sender", R_DIM, v->ascii);
    }
    free(cell);
    free(cur);
}

/* ---- dispatch ---- */

void pane_draw(struct view *v, struct cellbuf *cb, int x, int y, int w, int h, int i)
{
    if (h < 2 || w < 10)
        return;
    const struct vrun *vr = &v->runs[i];
    const struct snapshot *snap = &v->snap[i];
    if (vr->x) {
        orders_pane(v, cb, x, y, w, h, vr, snap, view_now(v));
        return;
    }
    const struct pipe_plan *pl = pipeline_plan(&vr->run.sched);
    const struct tree *tr = tree_of_sched(&vr->run.sched);
    if (pl)
        pipeline_tree(v, cb, x, y, w, h, vr, snap, pl);
    else if (tr)
        figueira_tree(v, cb, x, y, w, h, vr, snap, tr);
    else
        broadcast_tree(v, cb, x, y, w, h, vr, snap);
}
