/*
 * draw.c - the screens of the view, drawn into a cell buffer (no curses).
 *
 * Main screen, top to bottom: title bar, summary (makespan, lower bound,
 * optimum, 2T+beta), legend, the Gantt lanes (send, link and receive rows
 * per node when there is room; then send and link+receive; then one row per
 * node, which loses nothing in a broadcast since a node receives before it
 * sends), the time axis, two message lines (the engine's narration, or a
 * message), and the key hints.  The tree pane or the exercise's pick list sits on the right.
 * Bars after the cursor are drawn as "planned" (a lighter fill); transfers
 * not started yet are not drawn at all.  Fill characters differ per kind, so
 * the picture reads without colour too.
 */
#include "view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exercise.h"
#include "export.h"
#include "report.h"

struct glyphs {
    uint32_t fill[3];       /* send, link, recv up to the cursor */
    uint32_t plan[3];       /* after the cursor */
    uint32_t hline, vline, tick, cursor, cursor_tick, tee, elbow, pipe, crit, pointer, sep, edge;
    const char *to, *from, *arrow;   /* bar labels: "→p1", "←p0"; tree edges */
    const char *left, *right, *up_down, *dot;
};

static const struct glyphs g_uni = {
    {0x2593, 0x2550, 0x2588}, {0x2591, 0x2504, 0x2591},
    0x2500, 0x2502, 0x252c, 0x2503, 0x254b, 0x251c, 0x2514, 0x2502, 0x25c6, 0x25b8, 0x2502, 0x258f,
    "\xe2\x86\x92", "\xe2\x86\x90", "->", "\xe2\x86\x90", "\xe2\x86\x92", "\xe2\x86\x91\xe2\x86\x93",
    " \xc2\xb7 ",
};

static const struct glyphs g_ascii = {
    {'=', '-', '#'}, {'.', '.', '.'},
    '-', '|', '+', '!', '!', '|', '`', '|', '*', '>', '|', '|',
    ">", "<", "->", "left", "right", "up/down", " | ",
};

enum kind { K_SEND = 0, K_LINK = 1, K_RECV = 2 };

static const struct glyphs *glyphs_of(const struct view *v)
{
    return v->ascii ? &g_ascii : &g_uni;
}

static const char *num(double x)
{
    static char bufs[8][40];
    static int at;
    char *b = bufs[at++ & 7];
    fmt_num(b, sizeof bufs[0], x);
    return b;
}

/* Text; returns the column after it. */
static int put(struct view *v, struct cellbuf *cb, int x, int y, int maxw, unsigned attr,
               const char *s)
{
    return x + cb_text(cb, x, y, maxw, s, attr, v->ascii);
}

/* Word-wrap s into at most rows lines of width w from (x, y). */
static void wrap(struct view *v, struct cellbuf *cb, int x, int y, int w, int rows, unsigned attr,
                 const char *s)
{
    char line[1024];
    for (int r = 0; r < rows && *s; r++) {
        while (*s == ' ')
            s++;
        if (r == rows - 1 || text_width(s) <= w) {
            cb_text(cb, x, y + r, w, s, attr, v->ascii);
            return;
        }
        /* The longest prefix of whole words that fits. */
        size_t best = 0, i = 0;
        int cols = 0;
        while (s[i]) {
            int len;
            uint32_t cp = utf8_decode(s + i, &len);
            if (cols + cp_width(cp) > w)
                break;
            cols += cp_width(cp);
            i += (size_t)len;
            if (s[i] == ' ' || s[i] == '\0')
                best = i;
        }
        if (best == 0)
            best = i;
        if (best >= sizeof line)
            best = sizeof line - 1;
        memcpy(line, s, best);
        line[best] = '\0';
        cb_text(cb, x, y + r, w, line, attr, v->ascii);
        s += best;
    }
}

/* ---- time mapping ---- */

struct tmap {
    int x0, w;          /* the columns of the time area */
    double t0, cpu;     /* first time shown, columns per time unit */
};

static int tcol(const struct tmap *m, double t)
{
    double c = (t - m->t0) * m->cpu;
    if (c > 1e6)
        return 1000000;
    if (c < -1e6)
        return -1000000;
    return (int)floor(c + 0.5);
}

/* The cursor's column: +INFINITY shows everything as done, -INFINITY as planned. */
static int cursor_col(const struct tmap *m, double now)
{
    if (isnan(now) || now == INFINITY)
        return 1000000;
    if (now == -INFINITY)
        return -1000000;
    return tcol(m, now);
}

/* Fit [0, tmax] in w columns, zoomed, with the cursor kept in view. */
static struct tmap make_tmap(struct view *v, int x0, int w, double tmax, double now)
{
    struct tmap m = {x0, w, 0, 1};
    if (!(tmax > 0))
        tmax = 1;
    m.cpu = (w > 3 ? w - 2 : 1) / tmax * ldexp(1.0, v->zoom);
    double span = w / m.cpu;
    double t0 = v->zoom == 0 ? 0 : v->t0;
    if (isfinite(now) && (now < t0 + span * 0.1 || now > t0 + span * 0.85))
        t0 = now - span / 2;
    double hi = tmax + 1 / m.cpu - span;
    if (t0 > hi)
        t0 = hi;
    if (t0 < 0)
        t0 = 0;
    m.t0 = v->t0 = t0;
    return m;
}

/* ---- Gantt ---- */

struct lanes {
    int x, y, w, h;         /* the whole lane area, labels included */
    int lw;                 /* label columns (before the time area) */
    int rpl;                /* rows per lane: 4 (send, link, receive, gap), 3, 2 (send,
                               link+receive) or 1 (everything on one row) */
    int top, count;         /* nodes shown: top .. top+count-1 */
};

struct gsrc {
    const struct engine *e;
    const unsigned char *phase;         /* per transfer; NULL: all shown in full */
    double now;                         /* cursor; INFINITY: none */
    const struct transfer *preview;     /* drawn as planned (exercise) */
};

static int lane_row(const struct lanes *L, int node, enum kind k)
{
    if (node < L->top || node >= L->top + L->count)
        return -1;
    int y = L->y + (node - L->top) * L->rpl;
    if (L->rpl >= 3)
        return y + (int)k;
    return L->rpl == 2 && k != K_SEND ? y + 1 : y;
}

static unsigned fill_role(enum kind k, bool plan)
{
    static const unsigned solid[3] = {R_SEND, R_LINK, R_RECV};
    static const unsigned planned[3] = {R_SEND_PLAN, R_LINK_PLAN, R_RECV_PLAN};
    return plan ? planned[k] : solid[k];
}

static unsigned label_role(enum kind k, bool plan)
{
    static const unsigned solid[3] = {R_SEND_LABEL, R_LINK_LABEL, R_RECV_LABEL};
    static const unsigned planned[3] = {R_SEND_PLAN, R_LINK_PLAN, R_RECV_PLAN};
    return (plan ? planned[k] : solid[k]) | AF_BOLD;
}

static void bar(struct view *v, struct cellbuf *cb, const struct tmap *m, int y, double a, double b,
                enum kind k, double now)
{
    if (y < 0 || !(b > a))
        return;
    int ca = tcol(m, a), ce = tcol(m, b), cn = cursor_col(m, now);
    if (ce <= ca)
        ce = ca + 1;
    const struct glyphs *g = glyphs_of(v);
    for (int c = ca < 0 ? 0 : ca; c < ce && c < m->w; c++) {
        bool plan = c >= cn;
        cb_put(cb, m->x0 + c, y, plan ? g->plan[k] : g->fill[k], fill_role(k, plan));
    }
    /* A bar right after one of the same kind starts with an edge, so the two read as two. */
    const struct cell *left = cb_at(cb, m->x0 + ca - 1, y);
    if (ca >= 1 && ca < m->w && ce - ca >= 2 && left && (left->ch == g->fill[k] || left->ch == g->plan[k]))
        cb_put(cb, m->x0 + ca, y, g->edge, label_role(k, ca >= cn));
}

/* A peer's name on a bar spanning [a, b): inside if it fits, else just after it. */
static void bar_label(struct view *v, struct cellbuf *cb, const struct tmap *m, int y, double a,
                      double b, enum kind k, double now, const char *arrow, const char *name,
                      bool underline)
{
    if (y < 0 || !(b > a))
        return;
    char full[160];
    snprintf(full, sizeof full, "%s%s", arrow, name);
    int ca = tcol(m, a), ce = tcol(m, b), cn = cursor_col(m, now);
    if (ce <= ca)
        ce = ca + 1;
    if (ca < 0)
        ca = 0;
    if (ce > m->w)
        ce = m->w;
    const char *text = full;
    int tw = text_width(full);
    /* Inside needs a fill cell on each side, so the bar still reads as a bar. */
    int room = ce - ca - 2;
    if (tw > room) {
        text = name;
        tw = text_width(name);
    }
    int at;
    bool inside = tw <= room;
    if (inside) {
        at = ca + (ce - ca - tw) / 2;
    } else {
        /* Beside, after a blank, only over blank cells with a blank after. */
        at = ce + 1;
        text = full;
        tw = text_width(full);
        if (at + tw > m->w)
            return;
        for (int c = ce; c < at + tw + 1 && c < m->w; c++) {
            const struct cell *cell = cb_at(cb, m->x0 + c, y);
            if (!cell || cell->ch != ' ')
                return;
        }
    }
    const char *s = text;
    for (int c = at; *s && c < m->w;) {
        int len;
        uint32_t cp = utf8_decode(s, &len);
        if (v->ascii && cp > 0x7e)
            cp = '?';
        unsigned attr = inside ? label_role(k, c >= cn) : (unsigned)(c >= cn ? R_DIM : R_NORMAL);
        if (underline)
            attr |= AF_UNDERLINE;
        cb_put(cb, m->x0 + c, y, cp, attr);
        c += cp_width(cp) ? cp_width(cp) : 1;
        s += len;
    }
}

static int name_cols(const struct cluster *c)
{
    int w = 2;
    for (int p = 0; p < c->n; p++) {
        int t = text_width(c->nodes[p].name);
        if (t > w)
            w = t;
    }
    return w > 12 ? 12 : w;
}

static bool shown(const struct gsrc *s, int i)
{
    return !s->phase || s->phase[i] != PHASE_FUTURE;
}

static void draw_transfer(struct view *v, struct cellbuf *cb, const struct lanes *L,
                          const struct tmap *m, const struct transfer *t, double now)
{
    bar(v, cb, m, lane_row(L, t->from, K_SEND), t->start, t->send_end, K_SEND, now);
    bar(v, cb, m, lane_row(L, t->to, K_LINK), t->link_start, t->link_end, K_LINK, now);
    bar(v, cb, m, lane_row(L, t->to, K_RECV), t->recv_start, t->recv_end, K_RECV, now);
}

static void label_transfer(struct view *v, struct cellbuf *cb, const struct lanes *L,
                           const struct tmap *m, const struct cluster *c, const struct transfer *t,
                           double now)
{
    const struct glyphs *g = glyphs_of(v);
    bar_label(v, cb, m, lane_row(L, t->from, K_SEND), t->start, t->send_end, K_SEND, now, g->to,
              c->nodes[t->to].name, t->from == v->sel || t->to == v->sel);
    bool mark = t->from == v->sel || t->to == v->sel;
    const char *peer = c->nodes[t->from].name;
    if (L->rpl >= 3) {   /* link and receive on rows of their own: label both */
        bar_label(v, cb, m, lane_row(L, t->to, K_LINK), t->link_start, t->link_end, K_LINK, now,
                  g->from, peer, mark);
        bar_label(v, cb, m, lane_row(L, t->to, K_RECV), t->recv_start, t->recv_end, K_RECV, now,
                  g->from, peer, mark);
        return;
    }
    /* One row for link then receive: labelled once with the sender, on the
     * receive part when it is wide enough. */
    bool has_link = t->link_end > t->link_start, has_recv = t->recv_end > t->recv_start;
    if (has_recv && (!has_link || tcol(m, t->recv_end) - tcol(m, t->recv_start) >= 3))
        bar_label(v, cb, m, lane_row(L, t->to, K_RECV), t->recv_start, t->recv_end, K_RECV, now,
                  g->from, peer, mark);
    else if (has_link)
        bar_label(v, cb, m, lane_row(L, t->to, K_LINK), t->link_start,
                  has_recv ? t->recv_end : t->link_end, K_LINK, now, g->from, peer, mark);
}

static void lane_labels(struct view *v, struct cellbuf *cb, const struct lanes *L,
                        const struct cluster *c, const unsigned char *crit)
{
    const struct glyphs *g = glyphs_of(v);
    static const char *const tags[3] = {"send", "link", "recv"};
    int nw = L->lw - 3 - (L->rpl >= 2 ? 5 : 0);
    for (int i = 0; i < L->count; i++) {
        int p = L->top + i, y = L->y + i * L->rpl;
        unsigned attr = p == v->sel ? R_SEL : p == c->source ? (unsigned)(R_NORMAL | AF_BOLD) : R_NORMAL;
        if (crit && crit[p] && p != v->sel)
            attr = R_CRIT;
        int tagged = L->rpl >= 3 ? 3 : L->rpl;
        cb_fill(cb, L->x, y, L->lw - 2, tagged, ' ', p == v->sel ? R_SEL : R_NORMAL);
        cb_text(cb, L->x, y, nw, c->nodes[p].name, attr, v->ascii);
        unsigned tattr = p == v->sel ? R_SEL : R_DIM;
        if (L->rpl >= 3)
            for (int k = 0; k < 3; k++)
                cb_text(cb, L->x + nw + 1, y + k, 4, tags[k], tattr, v->ascii);
        else if (L->rpl == 2) {
            cb_text(cb, L->x + nw + 1, y, 4, "send", tattr, v->ascii);
            cb_text(cb, L->x + nw + 1, y + 1, 4, "recv", tattr, v->ascii);
        }
        for (int r = 0; r < L->rpl; r++)
            cb_put(cb, L->x + L->lw - 2, y + r, g->sep, R_DIM);
    }
}

static void cursor_line(struct view *v, struct cellbuf *cb, const struct tmap *m, int y, int h,
                        double now)
{
    if (!isfinite(now))
        return;
    int c = tcol(m, now);
    if (c < 0 || c >= m->w)
        return;
    for (int r = y; r < y + h; r++) {
        const struct cell *cell = cb_at(cb, m->x0 + c, r);
        if (cell && cell->ch == ' ')
            cb_put(cb, m->x0 + c, r, glyphs_of(v)->cursor, R_CURSOR | AF_BOLD);
    }
}

/* Lanes of one engine; crit marks the critical path in the labels (may be NULL). */
static void draw_lanes(struct view *v, struct cellbuf *cb, const struct lanes *L,
                       const struct tmap *m, const struct gsrc *s, const unsigned char *crit)
{
    const struct engine *e = s->e;
    lane_labels(v, cb, L, e->c, crit);
    for (int i = 0; i < e->ntr; i++)
        if (shown(s, i))
            draw_transfer(v, cb, L, m, &e->tr[i], s->now);
    if (s->preview)
        draw_transfer(v, cb, L, m, s->preview, -INFINITY);
    for (int i = 0; i < e->ntr; i++)
        if (shown(s, i))
            label_transfer(v, cb, L, m, e->c, &e->tr[i], s->now);
    if (s->preview)
        label_transfer(v, cb, L, m, e->c, s->preview, -INFINITY);
    cursor_line(v, cb, m, L->y, L->count * L->rpl, s->now);
}

static void draw_axis(struct view *v, struct cellbuf *cb, const struct tmap *m, int x, int y,
                      int lw, double now)
{
    const struct glyphs *g = glyphs_of(v);
    cb_fill(cb, x, y, lw, 2, ' ', R_NORMAL);
    cb_text(cb, x, y + 1, lw - 1, "time", R_DIM, v->ascii);
    cb_fill(cb, m->x0, y, m->w, 1, g->hline, R_DIM);
    double span = m->w / m->cpu;
    int maxticks = m->w / 7 > 1 ? m->w / 7 : 1;
    double step = export_nice_step(span, maxticks);
    double first = ceil(m->t0 / step - 1e-9) * step;
    int free_from = 0;
    for (double t = first; t <= m->t0 + span; t += step) {
        int c = tcol(m, t);
        if (c < 0 || c >= m->w)
            continue;
        cb_put(cb, m->x0 + c, y, g->tick, R_DIM);
        const char *lab = num(fabs(t) < step * 1e-9 ? 0 : t);
        int tw = text_width(lab), at = c;
        if (at + tw > m->w)
            at = m->w - tw;
        if (at < free_from)
            continue;
        cb_text(cb, m->x0 + at, y + 1, tw, lab, R_NORMAL, v->ascii);
        free_from = at + tw + 1;
    }
    if (isfinite(now)) {
        int c = tcol(m, now);
        if (c >= 0 && c < m->w)
            cb_put(cb, m->x0 + c, y, g->cursor_tick, R_CURSOR | AF_BOLD);
    }
}

/* Rows per lane and the lanes shown, keeping the selection in view. */
static void fit_lanes(struct view *v, struct lanes *L, int n, int rows)
{
    L->rpl = n * 4 <= rows ? 4 : n * 3 <= rows ? 3 : n * 2 <= rows ? 2 : 1;
    int fit = rows / L->rpl;
    if (fit < 1)
        fit = 1;
    if (v->sel < v->top)
        v->top = v->sel;
    if (v->sel >= v->top + fit)
        v->top = v->sel - fit + 1;
    if (v->top > n - fit)
        v->top = n - fit;
    if (v->top < 0)
        v->top = 0;
    L->top = v->top;
    L->count = n - v->top < fit ? n - v->top : fit;
    v->page = fit;
}

/* ---- the tree ---- */

/* The tree of one run as far as the snapshot shows it, in x..x+w, y..y+h. */
static void draw_tree(struct view *v, struct cellbuf *cb, int x, int y, int w, int h,
                      const struct vrun *vr, const struct snapshot *snap)
{
    const struct glyphs *g = glyphs_of(v);
    const struct engine *e = &vr->run.eng;
    const struct cluster *c = e->c;
    int n = c->n;
    if (h < 2 || w < 10)
        return;
    int *order = xmalloc((size_t)n * sizeof *order), *depth = xmalloc((size_t)n * sizeof *depth);
    int *in = xmalloc((size_t)n * sizeof *in), *list = xmalloc((size_t)n * sizeof *list);
    int *ldepth = xmalloc((size_t)n * sizeof *ldepth);
    unsigned char *crit = xmalloc((size_t)n), *path = xcalloc((size_t)n, 1);
    bool *more = xcalloc((size_t)n + 1, sizeof *more), *last = xcalloc((size_t)n, sizeof *last);
    int cnt = export_tree_order(e, order, depth);
    export_critical_path(e, crit);
    for (int p = 0; p < n; p++)
        in[p] = -1;
    for (int i = 0; i < e->ntr; i++)
        if (e->tr[i].msg == 0 && e->parent[e->tr[i].to] == e->tr[i].from)
            in[e->tr[i].to] = i;
    for (int p = v->sel, guard = 0; p >= 0 && guard <= n; p = e->parent[p], guard++)
        path[p] = 1;
    /* The part that has started: a node is listed once its transfer began. */
    int m = 0, selrow = -1, waiting = 0;
    for (int i = 0; i < cnt; i++) {
        int p = order[i];
        if (in[p] >= 0 && snap->phase[in[p]] == PHASE_FUTURE)
            continue;
        if (p == v->sel)
            selrow = m;
        ldepth[m] = depth[i];
        list[m++] = p;
    }
    for (int p = 0; p < n; p++)
        waiting += !snap->holds[p];
    /* Last child among the listed: no later sibling before the subtree ends. */
    for (int i = 0; i < m; i++) {
        last[i] = true;
        for (int j = i + 1; j < m && ldepth[j] >= ldepth[i]; j++)
            if (ldepth[j] == ldepth[i]) {
                last[i] = false;
                break;
            }
    }
    char head[160];
    snprintf(head, sizeof head, "tree %s", vr->run.sched.ops->name);
    cb_fill(cb, x, y, w, 1, ' ', R_HEAD);
    char hold_txt[64];
    snprintf(hold_txt, sizeof hold_txt, "%d/%d hold", snap->nholding, n);
    int hw = text_width(hold_txt);
    put(v, cb, x + 1, y, w - hw - 4, R_HEAD | AF_BOLD, head);
    cb_text(cb, x + w - hw - 1, y, -1, hold_txt, R_HEAD, v->ascii);
    int rows = h - 2, first = 0;
    if (m > rows && selrow >= 0) {
        first = selrow - rows / 2;
        if (first > m - rows)
            first = m - rows;
        if (first < 0)
            first = 0;
    }
    for (int i = 0; i < m; i++) {
        int d = ldepth[i];
        more[d] = !last[i];
        if (i < first || i >= first + rows)
            continue;
        int p = list[i], row = y + 1 + (i - first), cx = x + 1;
        bool held = snap->holds[p];
        unsigned attr = p == v->sel ? R_SEL : path[p] ? (unsigned)(R_PATH | AF_BOLD)
                                                       : crit[p] ? R_CRIT : R_NORMAL;
        if (p == v->sel)
            cb_fill(cb, x, row, w, 1, ' ', R_SEL);
        int indent = d > 0 ? d - 1 : 0;
        int maxindent = (w - 16) / 2 > 0 ? (w - 16) / 2 : 0;
        for (int l = 1; l <= indent && l <= maxindent; l++) {
            if (more[l])
                cb_put(cb, cx, row, g->pipe, R_DIM);
            cx += 2;
        }
        if (d > 0) {
            cb_put(cb, cx, row, last[i] ? g->elbow : g->tee, R_DIM);
            cb_put(cb, cx + 1, row, g->hline, R_DIM);
            cx += 2;
        }
        char line[300], tbuf[48];
        if (d == 0 || e->parent[p] < 0)
            snprintf(line, sizeof line, "%s (source)", c->nodes[p].name);
        else
            snprintf(line, sizeof line, "%s %s %s", c->nodes[e->parent[p]].name, g->arrow,
                     c->nodes[p].name);
        double ht = engine_hold_time(e, p, 0);
        if (held)
            snprintf(tbuf, sizeof tbuf, "%s", num(ht));
        else
            snprintf(tbuf, sizeof tbuf, "(%s)", num(ht));
        int tw = text_width(tbuf), right = x + w - 3;   /* time, then the critical mark */
        cb_text(cb, cx, row, right - tw - 1 - cx, line, attr, v->ascii);
        cb_text(cb, right - tw, row, tw, tbuf, p == v->sel ? R_SEL : held ? R_NORMAL : R_DIM,
                v->ascii);
        if (crit[p])
            cb_put(cb, x + w - 2, row, g->crit, p == v->sel ? R_SEL : R_CRIT | AF_BOLD);
    }
    if (m > rows)
        cb_textf(cb, x + 1, y + h - 1, w - 2, R_DIM, v->ascii, "%d-%d of %d listed", first + 1,
                 first + rows < m ? first + rows : m, m);
    else if (waiting)
        cb_textf(cb, x + 1, y + h - 1, w - 2, R_DIM, v->ascii, "%d waiting", waiting);
    else
        cb_textf(cb, x + 1, y + h - 1, w - 2, R_DIM, v->ascii, "%s critical path: %s",
                 v->ascii ? "*" : "\xe2\x97\x86", num(e->makespan));
    free(order);
    free(depth);
    free(in);
    free(list);
    free(ldepth);
    free(crit);
    free(path);
    free(more);
    free(last);
}

/* ---- bars of text ---- */

struct hint {
    const char *key, *what;
};

static void status_bar(struct view *v, struct cellbuf *cb, const struct hint *h, int nh)
{
    int y = cb->h - 1, x = 0, w = cb->w;
    cb_fill(cb, 0, y, w, 1, ' ', R_STATUS);
    /* "? help  q quit" always fits at the right end. */
    const char *tail = " ? help  q quit ";
    int tailw = text_width(tail);
    for (int i = 0; i < nh; i++) {
        int need = text_width(h[i].key) + text_width(h[i].what) + 3;
        if (x + need > w - tailw)
            break;
        x = put(v, cb, x + 1, y, -1, R_STATUS | AF_BOLD, h[i].key);
        x = put(v, cb, x + 1, y, -1, R_STATUS, h[i].what);
        x++;
    }
    int tx = w - tailw;
    tx = put(v, cb, tx + 1, y, -1, R_STATUS | AF_BOLD, "?");
    tx = put(v, cb, tx + 1, y, -1, R_STATUS, "help");
    tx = put(v, cb, tx + 2, y, -1, R_STATUS | AF_BOLD, "q");
    put(v, cb, tx + 1, y, -1, R_STATUS, "quit");
}

static void title_bar(struct view *v, struct cellbuf *cb, const char *mode, const char *right)
{
    cb_fill(cb, 0, 0, cb->w, 1, ' ', R_TITLE);
    const struct cluster *c = v->c;
    const char *dot = glyphs_of(v)->dot, *name = c->name ? c->name : "cluster";
    int rw = text_width(right), room = cb->w - rw - 4;
    /* "hetcast · NAME · N nodes, source S · MODEL · MODE": drop "hetcast", then
     * the node count, then cut the name, until it fits. */
    char head[32], tail[512];
    int namew = 0;
    for (int form = 0; form < 3; form++) {
        char nodes[64] = "";
        if (form < 2)
            snprintf(nodes, sizeof nodes, "%d nodes, ", c->n);
        snprintf(head, sizeof head, "%s%s", form == 0 ? "hetcast" : "", form == 0 ? dot : "");
        snprintf(tail, sizeof tail, "%s%ssource %s%s%s%s%s", dot, nodes, c->nodes[c->source].name, dot,
                 model_name(v->model), dot, mode);
        namew = room - text_width(head) - text_width(tail);
        int want = text_width(name) < 12 ? text_width(name) : 12;
        if (namew >= want)
            break;
    }
    int x = put(v, cb, 1, 0, room, R_TITLE | AF_BOLD, head);
    if (namew > 0)
        x = put(v, cb, x, 0, namew, R_TITLE | AF_BOLD, name);
    put(v, cb, x, 0, room + 1 - x, R_TITLE | AF_BOLD, tail);
    put(v, cb, cb->w - rw - 1, 0, rw, R_TITLE | AF_BOLD, right);
}

/* "label value" pairs separated by bars; returns the column after. */
static int pair(struct view *v, struct cellbuf *cb, int x, int y, const char *label,
                const char *value, unsigned vattr, bool sep)
{
    int need = (sep ? text_width(glyphs_of(v)->dot) : 0) + text_width(label) + 1 + text_width(value);
    if (x + need > cb->w - 1)
        return x;   /* no room: left out whole rather than cut */
    if (sep)
        x = put(v, cb, x, y, -1, R_DIM, glyphs_of(v)->dot);
    x = put(v, cb, x, y, -1, R_DIM, label);
    x = put(v, cb, x + 1, y, -1, vattr | AF_BOLD, value);
    return x;
}

static void optimum_text(const struct run *r, char *buf, size_t size)
{
    if (r->opt == OPT_PROVEN)
        snprintf(buf, size, "%s", num(r->optimum));
    else if (r->opt == OPT_GAVE_UP)
        snprintf(buf, size, "%s..%s?", num(r->opt_lower), num(r->optimum));
    else
        snprintf(buf, size, "?");
}

/* The best known run for the bounds: one with a proven optimum, else the first. */
static const struct run *bounds_run(const struct view *v)
{
    for (int i = 0; i < v->nruns; i++)
        if (v->runs[i].run.opt == OPT_PROVEN)
            return &v->runs[i].run;
    return &v->runs[0].run;
}

static void summary_row(struct view *v, struct cellbuf *cb, int y)
{
    const struct run *b = bounds_run(v);
    char opt[80], g2[80];
    int x = 1;
    if (v->nruns == 1) {
        x = pair(v, cb, x, y, "makespan", num(v->runs[0].run.eng.makespan), R_NORMAL, false);
    } else {
        for (int i = 0; i < 2; i++)
            x = pair(v, cb, x, y, v->runs[i].run.sched.ops->name, num(v->runs[i].run.eng.makespan),
                     R_NORMAL, i > 0);
        double a = v->runs[0].run.eng.makespan, d = a - v->runs[1].run.eng.makespan;
        char diff[80];
        if (v->runs[1].run.eng.makespan > 0)
            snprintf(diff, sizeof diff, "%s%s (%+.0f%%)", d > 0 ? "+" : "", num(d),
                     100.0 * d / v->runs[1].run.eng.makespan);
        else
            snprintf(diff, sizeof diff, "%s", num(d));
        x = pair(v, cb, x, y, "difference", diff, d > 0 ? R_BAD : d < 0 ? R_GOOD : R_NORMAL, true);
    }
    x = pair(v, cb, x, y, "lower bound", num(b->lower_bound), R_NORMAL, true);
    optimum_text(b, opt, sizeof opt);
    x = pair(v, cb, x, y, "optimum", opt, R_NORMAL, true);
    double limit;
    if (b->has_beta) {
        if (run_guarantee(b, &limit))
            snprintf(g2, sizeof g2, "%s%s", num(limit), b->consistent ? "" : " (void: speeds inconsistent)");
        else
            snprintf(g2, sizeof g2, "? (T unknown)");
        pair(v, cb, x, y, v->ascii ? "2T+beta" : "2T+\xce\xb2", g2, R_NORMAL, true);
    }
}

static void legend_row(struct view *v, struct cellbuf *cb, int y, int w, bool cursor)
{
    const struct glyphs *g = glyphs_of(v);
    struct item {
        uint32_t a, b;
        unsigned ra, rb;
        const char *name;
    } items[] = {
        {g->fill[0], g->fill[0], R_SEND, R_SEND, "send"},
        {g->fill[1], g->fill[1], R_LINK, R_LINK, "link"},
        {g->fill[2], g->fill[2], R_RECV, R_RECV, "recv"},
        {g->plan[0], g->plan[2], R_SEND_PLAN, R_RECV_PLAN, "planned"},
        {g->cursor, ' ', R_CURSOR | AF_BOLD, R_NORMAL, "now"},
        {g->crit, ' ', R_CRIT | AF_BOLD, R_NORMAL, "critical path"},
    };
    /* Right: scroll position and zoom. */
    char right[160] = "";
    size_t at = 0;
    if (v->c->n > v->page && v->page > 0)
        at += (size_t)snprintf(right + at, sizeof right - at, "nodes %d-%d of %d", v->top + 1,
                               v->top + v->page < v->c->n ? v->top + v->page : v->c->n, v->c->n);
    if (v->zoom > 0 && at < sizeof right)
        snprintf(right + at, sizeof right - at, "%szoom x%d", at ? "  " : "", 1 << v->zoom);
    int rw = text_width(right), limit = rw ? w - rw - 2 : w;
    int x = 1;
    for (int i = 0; i < (int)(sizeof items / sizeof items[0]); i++) {
        if (!cursor && items[i].a == g->cursor)
            continue;
        int gw = items[i].b != ' ' ? 2 : 1, need = gw + 1 + text_width(items[i].name);
        if (x + need > limit)
            break;
        cb_put(cb, x, y, items[i].a, items[i].ra);
        if (gw == 2)
            cb_put(cb, x + 1, y, items[i].b, items[i].rb);
        x = put(v, cb, x + gw + 1, y, -1, R_NORMAL, items[i].name) + 2;
    }
    if (rw && rw + 2 < w)
        put(v, cb, w - rw - 1, y, rw, R_DIM, right);
}

static void message_rows(struct view *v, struct cellbuf *cb, int y, int w)
{
    if (v->msg[0]) {
        unsigned attr = v->msg_kind == MSG_ERROR ? R_ERROR : R_INFO;
        cb_fill(cb, 0, y, w, 2, ' ', attr);
        wrap(v, cb, 1, y, w - 2, 2, attr | AF_BOLD, v->msg);
        return;
    }
    char buf[1024], line[1100];
    if (v->nruns == 1) {
        engine_narrate(&v->runs[0].run.eng, v->step - 1, buf, sizeof buf);
        if (v->step >= v->nsteps && v->step > 0)
            snprintf(line, sizeof line, "%s. End: makespan %s.", buf, num(v->runs[0].run.eng.makespan));
        else
            snprintf(line, sizeof line, "%s", buf);
        wrap(v, cb, 1, y, w - 2, 2, R_NORMAL, line);
        return;
    }
    int latest = v->step > 0 ? v->order[v->step - 1].run : -1;
    for (int i = 0; i < 2; i++) {
        engine_narrate(&v->runs[i].run.eng, v->applied[i] - 1, buf, sizeof buf);
        int x = put(v, cb, 1, y + i, -1, R_HEAD | AF_BOLD, v->runs[i].run.sched.ops->name);
        put(v, cb, x, y + i, -1, R_HEAD | AF_BOLD, ":");
        cb_text(cb, x + 2, y + i, w - x - 3, buf, i == latest ? (unsigned)(R_NORMAL | AF_BOLD) : R_DIM,
                v->ascii);
    }
}

/* ---- the main screen ---- */

static int pane_width(const struct cellbuf *cb)
{
    int tw = cb->w / 3;
    if (tw < 28)
        tw = 28;
    if (tw > 44)
        tw = 44;
    return tw;
}

static void main_hints(struct view *v, struct cellbuf *cb)
{
    const struct glyphs *g = glyphs_of(v);
    const struct hint h[] = {
        {v->ascii ? "l" : g->right, "next"}, {v->ascii ? "h" : g->left, "back"},
        {"p", v->playing ? "pause" : "play"}, {"c", v->nruns == 2 ? "single" : "compare"},
        {"t", "tree"}, {"x", "exercise"}, {"s", "sched"}, {"m", "model"}, {"g/G", "start/end"},
        {"+/-", "zoom"}, {"e", "export"}, {"r", "reload"},
    };
    status_bar(v, cb, h, (int)(sizeof h / sizeof h[0]));
}

void draw_main(struct view *v, struct cellbuf *cb)
{
    int w = cb->w, h = cb->h;
    double now = view_now(v);
    char right[160];
    if (v->playing)
        snprintf(right, sizeof right, "%s %.1f/s  step %d/%d  t=%s", v->ascii ? ">" : "\xe2\x96\xb6",
                 1000.0 / view_play_ms(v), v->step, v->nsteps, num(now));
    else
        snprintf(right, sizeof right, "step %d/%d  t=%s", v->step, v->nsteps, num(now));
    char mode[200];
    if (v->nruns == 2)
        snprintf(mode, sizeof mode, "%s vs %s", v->runs[0].run.sched.ops->name,
                 v->runs[1].run.sched.ops->name);
    else
        snprintf(mode, sizeof mode, "%s", v->runs[0].run.sched.ops->name);
    title_bar(v, cb, mode, right);
    summary_row(v, cb, 1);

    int gy = 3, gh = h - 8, gw = w;
    if (v->tree)
        gw = w - pane_width(cb) - 1;
    const struct cluster *c = v->c;
    double tmax = 0;
    for (int i = 0; i < v->nruns; i++)
        if (v->runs[i].run.eng.makespan > tmax)
            tmax = v->runs[i].run.eng.makespan;
    struct lanes L = {0, gy, gw, gh, 0, 2, 0, 0};
    int nw = name_cols(c);
    if (v->nruns == 1) {
        fit_lanes(v, &L, c->n, gh);
    } else {
        int pane = (gh - 2) / 2;
        fit_lanes(v, &L, c->n, pane);
    }
    L.lw = nw + 3 + (L.rpl >= 2 ? 5 : 0);
    struct tmap m = make_tmap(v, L.lw, gw - L.lw, tmax, now);
    legend_row(v, cb, 2, gw, true);
    int ay = h - 5, pane_y[2] = {gy, gy};
    if (v->nruns == 1) {
        unsigned char *crit = xmalloc((size_t)c->n);
        export_critical_path(&v->runs[0].run.eng, crit);
        struct gsrc s = {&v->runs[0].run.eng, v->snap[0].phase, now, NULL};
        draw_lanes(v, cb, &L, &m, &s, v->step >= v->nsteps ? crit : NULL);
        free(crit);
        ay = gy + L.count * L.rpl - (L.rpl == 4 ? 1 : 0);
    } else {
        int pane = (gh - 2) / 2, y = gy;
        for (int i = 0; i < 2; i++) {
            pane_y[i] = y;
            const struct run *r = &v->runs[i].run;
            cb_fill(cb, 0, y, gw, 1, ' ', R_HEAD);
            char head[200];
            snprintf(head, sizeof head, "%s%smakespan %s%s", r->sched.ops->name, glyphs_of(v)->dot,
                     num(r->eng.makespan),
                     r->sched.status == OPT_PROVEN ? " (proven optimal)"
                     : r->sched.status == OPT_GAVE_UP ? " (search gave up: not proven)" : "");
            put(v, cb, 1, y, gw - 2, R_HEAD | AF_BOLD, head);
            struct lanes P = L;
            P.y = y + 1;
            struct gsrc s = {&r->eng, v->snap[i].phase, now, NULL};
            draw_lanes(v, cb, &P, &m, &s, NULL);
            y += 1 + (pane > L.count * L.rpl ? L.count * L.rpl : pane) + 1;
        }
        ay = y - 1;
    }
    /* The axis right under the lanes (the rest of a tall screen stays empty). */
    draw_axis(v, cb, &m, 0, ay < h - 5 ? ay : h - 5, L.lw, now);
    if (v->tree) {
        int tx = w - pane_width(cb), th = h - 6;
        for (int y = gy - 1; y < gy - 1 + th + 1; y++)
            cb_put(cb, tx - 1, y, glyphs_of(v)->vline, R_DIM);
        if (v->nruns == 1) {
            draw_tree(v, cb, tx, gy - 1, w - tx, th + 1, &v->runs[0], &v->snap[0]);
        } else {
            /* Each tree beside its own Gantt pane. */
            int split = pane_y[1] - (gy - 1);
            draw_tree(v, cb, tx, gy - 1, w - tx, split, &v->runs[0], &v->snap[0]);
            draw_tree(v, cb, tx, pane_y[1], w - tx, th + 1 - split, &v->runs[1], &v->snap[1]);
        }
    }
    message_rows(v, cb, h - 3, w);
    main_hints(v, cb);
}

/* ---- help ---- */

void draw_help(struct view *v, struct cellbuf *cb)
{
    const struct glyphs *g = glyphs_of(v);
    char nav[64], back[64], updown[64];
    snprintf(nav, sizeof nav, "%s  l  space", v->ascii ? "right" : g->right);
    snprintf(back, sizeof back, "%s  h", v->ascii ? "left" : g->left);
    snprintf(updown, sizeof updown, "%s", g->up_down);
    const struct hint keys[] = {
        {nav, "next event"},
        {back, "previous event (an exact replay from the start)"},
        {"Home  g", "start of the schedule"},
        {"End  G", "end of the schedule"},
        {"p", "play / pause"},
        {"<  >", "slower / faster play"},
        {"s", "scheduler: the built-ins and the Lua heuristics in lua/"},
        {"m", "port model"},
        {"c", "compare on/off: two schedulers on one time axis"},
        {"t", "tree pane: who sent to whom, receive times, critical path"},
        {"x", "exercise: pick each (sender, receiver) pair yourself"},
        {"+  -", "zoom time in / out"},
        {updown, "select a node: its bars and its path in the tree"},
        {"PgUp  PgDn", "scroll the nodes a page"},
        {"o", "make the selected node the source"},
        {"e", "export: SVG (Gantt and tree) and CSV (schedule)"},
        {"r", "reload the file from disk"},
        {"?", "this help"},
        {"q", "quit"},
    };
    int n = (int)(sizeof keys / sizeof keys[0]);
    cb_fill(cb, 0, 0, cb->w, 1, ' ', R_TITLE);
    put(v, cb, 1, 0, cb->w - 2, R_TITLE | AF_BOLD, "hetcast help: keys");
    int kw = 0;
    for (int i = 0; i < n; i++)
        if (text_width(keys[i].key) > kw)
            kw = text_width(keys[i].key);
    int rows = cb->h - 5, y = 2;
    int cols = n > rows ? 2 : 1, per = (n + cols - 1) / cols, colw = cb->w / cols;
    for (int i = 0; i < n; i++) {
        int cx = 2 + (i / per) * colw, cy = y + i % per;
        if (cy >= cb->h - 3)
            continue;
        cb_text(cb, cx, cy, kw, keys[i].key, R_HEAD | AF_BOLD, v->ascii);
        cb_text(cb, cx + kw + 2, cy, colw - kw - 4, keys[i].what, R_NORMAL, v->ascii);
    }
    int ey = y + per + 1 < cb->h - 2 ? y + per + 1 : cb->h - 3;
    char ex[256];
    snprintf(ex, sizeof ex, "Exercise: %s choose, Enter pick, %s back or undo, x leave.", g->up_down,
             v->ascii ? "left" : g->left);
    cb_text(cb, 2, ey, cb->w - 4, ex, R_DIM, v->ascii);
    const struct hint h[] = {{"any key", "back"}};
    status_bar(v, cb, h, 1);
}

/* ---- chooser ---- */

void draw_chooser(struct view *v, struct cellbuf *cb)
{
    if (v->back && v->back->draw && v->back != &screen_chooser)
        v->back->draw(v, cb);
    struct chooser *ch = &v->ch;
    int bw = cb->w - 8 < 76 ? cb->w - 8 : 76, bh = ch->n + 4;
    if (bh > cb->h - 4)
        bh = cb->h - 4;
    int bx = (cb->w - bw) / 2, by = (cb->h - bh) / 2, rows = bh - 4;
    cb_fill(cb, bx, by, bw, bh, ' ', R_NORMAL);
    const struct glyphs *g = glyphs_of(v);
    for (int i = 0; i < bw; i++) {
        cb_put(cb, bx + i, by, g->hline, R_HEAD);
        cb_put(cb, bx + i, by + bh - 1, g->hline, R_HEAD);
    }
    for (int j = 0; j < bh; j++) {
        cb_put(cb, bx, by + j, g->vline, R_HEAD);
        cb_put(cb, bx + bw - 1, by + j, g->vline, R_HEAD);
    }
    uint32_t corners[4] = {0x250c, 0x2510, 0x2514, 0x2518};   /* ┌ ┐ └ ┘ */
    if (v->ascii)
        corners[0] = corners[1] = corners[2] = corners[3] = '+';
    cb_put(cb, bx, by, corners[0], R_HEAD);
    cb_put(cb, bx + bw - 1, by, corners[1], R_HEAD);
    cb_put(cb, bx, by + bh - 1, corners[2], R_HEAD);
    cb_put(cb, bx + bw - 1, by + bh - 1, corners[3], R_HEAD);
    put(v, cb, bx + 2, by, bw - 4, R_HEAD | AF_BOLD,
        ch->kind == CH_SCHED ? " scheduler " : " port model ");
    if (ch->sel < ch->top)
        ch->top = ch->sel;
    if (ch->sel >= ch->top + rows)
        ch->top = ch->sel - rows + 1;
    int nw = 0;
    for (int i = 0; i < ch->n; i++) {
        const char *slash = strrchr(ch->items[i], '/');
        int t = text_width(slash ? slash + 1 : ch->items[i]);
        if (t > nw)
            nw = t;
    }
    if (nw > bw / 2)
        nw = bw / 2;
    for (int i = ch->top; i < ch->n && i < ch->top + rows; i++) {
        int y = by + 1 + (i - ch->top);
        bool sel = i == ch->sel;
        unsigned attr = sel ? R_SEL : R_NORMAL;
        if (sel)
            cb_fill(cb, bx + 1, y, bw - 2, 1, ' ', R_SEL);
        if (sel)
            cb_put(cb, bx + 2, y, g->pointer, R_SEL);
        const char *slash = strrchr(ch->items[i], '/');
        cb_text(cb, bx + 4, y, nw, slash ? slash + 1 : ch->items[i], attr | AF_BOLD, v->ascii);
        cb_text(cb, bx + 6 + nw, y, bw - nw - 8, ch->notes[i], sel ? R_SEL : R_DIM, v->ascii);
    }
    char foot[128];
    if (ch->n > rows)
        snprintf(foot, sizeof foot, "Enter: choose   Esc: cancel   %d-%d of %d", ch->top + 1,
                 ch->top + rows, ch->n);
    else
        snprintf(foot, sizeof foot, "Enter: choose   Esc: cancel");
    cb_text(cb, bx + 2, by + bh - 2, bw - 4, foot, R_DIM, v->ascii);
}

/* ---- too small ---- */

void draw_too_small(struct view *v, struct cellbuf *cb)
{
    char a[96], b[96];
    snprintf(a, sizeof a, "terminal too small: %dx%d", cb->w, cb->h);
    snprintf(b, sizeof b, "hetcast needs %dx%d", UI_MIN_W, UI_MIN_H);
    const char *lines[] = {a, b, "enlarge it, or q to quit"};
    int y = cb->h / 2 - 1;
    for (int i = 0; i < 3; i++) {
        int tw = text_width(lines[i]), x = (cb->w - tw) / 2;
        cb_text(cb, x < 0 ? 0 : x, y + i, cb->w, lines[i], i == 0 ? (unsigned)(R_ERROR | AF_BOLD) : R_NORMAL,
                v->ascii);
    }
}

/* ---- exercise ---- */

static void pick_panel(struct view *v, struct cellbuf *cb, int x, int y, int w, int h,
                       struct transfer *preview, bool *has_preview)
{
    struct exercise *xr = &v->ex;
    const struct engine *e = &xr->eng;
    const struct cluster *c = v->c;
    const struct glyphs *g = glyphs_of(v);
    *has_preview = false;
    cb_fill(cb, x, y, w, 1, ' ', R_HEAD);
    char head[160];
    snprintf(head, sizeof head, "your turn%s%d/%d hold", g->dot, c->n - e->nwaiting, c->n);
    put(v, cb, x + 1, y, w - 2, R_HEAD | AF_BOLD, xr->phase == EX_DONE ? "done" : head);
    int row = y + 2;
    if (xr->phase == EX_DONE) {
        cb_textf(cb, x + 1, row++, w - 2, R_NORMAL | AF_BOLD, v->ascii, "your makespan %s",
                 num(e->makespan));
        for (int i = 0; i < v->nruns; i++)
            cb_textf(cb, x + 1, row++, w - 2, R_NORMAL, v->ascii, "%s %s",
                     v->runs[i].run.sched.ops->name, num(v->runs[i].run.eng.makespan));
        if (xr->optimum_known)
            cb_textf(cb, x + 1, row++, w - 2, R_NORMAL, v->ascii, "best possible %s", num(xr->optimum));
        row++;
        cb_textf(cb, x + 1, row, w - 2, R_DIM, v->ascii, "%s undo%sx leave", v->ascii ? "left" : g->left,
                 g->dot);
        return;
    }
    if (xr->phase == EX_SENDER)
        put(v, cb, x + 1, row, w - 2, R_NORMAL | AF_BOLD, "pick a sender:");
    else
        cb_textf(cb, x + 1, row, w - 2, R_NORMAL | AF_BOLD, v->ascii, "%s sends to:",
                 c->nodes[xr->sender].name);
    row++;
    int rows = h - 7;
    if (rows < 1)
        rows = 1;
    if (xr->cursor < xr->top)
        xr->top = xr->cursor;
    if (xr->cursor >= xr->top + rows)
        xr->top = xr->cursor - rows + 1;
    for (int i = xr->top; i < xr->ncand && i < xr->top + rows; i++, row++) {
        int p = xr->cand[i];
        bool sel = i == xr->cursor;
        if (sel)
            cb_fill(cb, x, row, w, 1, ' ', R_SEL);
        if (sel)
            cb_put(cb, x + 1, row, g->pointer, R_SEL);
        cb_text(cb, x + 3, row, 12, c->nodes[p].name, sel ? R_SEL : R_NORMAL | AF_BOLD, v->ascii);
        char info[96];
        if (xr->phase == EX_SENDER) {
            snprintf(info, sizeof info, "free at %s", num(engine_ready(e, p, 0)));
        } else {
            struct transfer t;
            if (engine_earliest(e, xr->sender, p, 0, &t) == 0) {
                snprintf(info, sizeof info, "holds at %s", num(t.hold));
                if (sel) {
                    *preview = t;
                    *has_preview = true;
                }
            } else {
                snprintf(info, sizeof info, "no link");
            }
        }
        int iw = text_width(info);
        cb_text(cb, x + w - iw - 1, row, iw, info, sel ? R_SEL : R_DIM, v->ascii);
    }
    row = y + h - 4;
    if (xr->best_known)
        cb_textf(cb, x + 1, row, w - 2, R_NORMAL, v->ascii, "best reachable %s%s", num(xr->best),
                 xr->best_exact ? "" : " (search stopped)");
    else if (!xr->search)
        cb_textf(cb, x + 1, row, w - 2, R_DIM, v->ascii, "best: not searched (n > %d)",
                 EXERCISE_MAX_NODES);
    cb_textf(cb, x + 1, row + 1, w - 2, R_NORMAL, v->ascii, "so far %s", num(e->makespan));
    cb_textf(cb, x + 1, row + 2, w - 2, R_DIM, v->ascii, "Enter pick%s%s %s", g->dot,
             v->ascii ? "left" : g->left, xr->phase == EX_SENDER ? "undo" : "back");
}

void draw_exercise(struct view *v, struct cellbuf *cb)
{
    int w = cb->w, h = cb->h;
    struct exercise *xr = &v->ex;
    const struct cluster *c = v->c;
    char right[96];
    snprintf(right, sizeof right, "%d choice%s", xr->nchoices, xr->nchoices == 1 ? "" : "s");
    title_bar(v, cb, "EXERCISE", right);
    int x = 1;
    x = pair(v, cb, x, 1, "your makespan so far", num(xr->eng.makespan), R_NORMAL, false);
    if (xr->best_known)
        x = pair(v, cb, x, 1, "best reachable", num(xr->best), R_NORMAL, true);
    x = pair(v, cb, x, 1, v->runs[0].run.sched.ops->name, num(v->runs[0].run.eng.makespan), R_NORMAL,
             true);
    if (xr->optimum_known)
        pair(v, cb, x, 1, "optimum", num(xr->optimum), R_NORMAL, true);

    int pw = pane_width(cb), gw = w - pw - 1, gy = 3, gh = h - 8;
    struct transfer preview;
    bool has_preview;
    for (int y = 2; y < h - 3; y++)
        cb_put(cb, gw, y, glyphs_of(v)->vline, R_DIM);
    pick_panel(v, cb, gw + 1, 2, w - gw - 1, h - 5, &preview, &has_preview);

    struct lanes L = {0, gy, gw, gh, 0, 2, 0, 0};
    fit_lanes(v, &L, c->n, gh);
    L.lw = name_cols(c) + 3 + (L.rpl >= 2 ? 5 : 0);
    double tmax = v->runs[0].run.eng.makespan;
    if (xr->eng.makespan > tmax)
        tmax = xr->eng.makespan;
    if (has_preview && preview.hold > tmax)
        tmax = preview.hold;
    double focus = has_preview ? preview.hold : xr->eng.makespan;
    struct tmap m = make_tmap(v, L.lw, gw - L.lw, tmax, focus);
    legend_row(v, cb, 2, gw, false);
    struct gsrc s = {&xr->eng, NULL, INFINITY, has_preview ? &preview : NULL};
    draw_lanes(v, cb, &L, &m, &s, NULL);
    int ay = gy + L.count * L.rpl - (L.rpl == 4 ? 1 : 0);
    draw_axis(v, cb, &m, 0, ay < h - 5 ? ay : h - 5, L.lw, NAN);
    cb_fill(cb, 0, h - 3, w, 2, ' ', xr->feedback_role);
    wrap(v, cb, 1, h - 3, w - 2, 2, xr->feedback_role | AF_BOLD, xr->feedback);
    if (v->msg[0])
        message_rows(v, cb, h - 3, w);
    const struct glyphs *g = glyphs_of(v);
    char back[32];
    snprintf(back, sizeof back, "%s/h", v->ascii ? "left" : g->left);
    const struct hint hints[] = {
        {g->up_down, "choose"}, {"Enter", "pick"}, {back, xr->phase == EX_RECEIVER ? "back" : "undo"},
        {"+/-", "zoom"}, {"x", "leave the exercise"},
    };
    status_bar(v, cb, hints, (int)(sizeof hints / sizeof hints[0]));
}
