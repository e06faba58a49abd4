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

#include "drawkit.h"
#include "exchange.h"
#include "exercise.h"
#include "export.h"
#include "pipeline.h"
#include "report.h"
#include "trees.h"

static const struct glyphs g_uni = {
    {0x2593, 0x2550, 0x2588}, {0x2591, 0x2504, 0x2591},
    0x2573, 0x00b7,
    0x2500, 0x2502, 0x252c, 0x2503, 0x254b, 0x251c, 0x2514, 0x2502, 0x25c6, 0x25b8, 0x2502, 0x258f,
    0x2523, 0x2517, 0x2501,
    "\xe2\x86\x92", "\xe2\x86\x90", "->", "\xe2\x86\x90", "\xe2\x86\x92", "\xe2\x86\x91\xe2\x86\x93",
    " \xc2\xb7 ",
};

static const struct glyphs g_ascii = {
    {'=', '-', '#'}, {'.', '.', '.'},
    'x', ':',
    '-', '|', '+', '!', '!', '|', '`', '|', '*', '>', '|', '|',
    '#', '#', '=',
    ">", "<", "->", "left", "right", "up/down", " | ",
};

enum kind { K_SEND = 0, K_LINK = 1, K_RECV = 2 };

const struct glyphs *ui_glyphs(const struct view *v)
{
    return v->ascii ? &g_ascii : &g_uni;
}

const char *ui_num(double x)
{
    return report_txt(x);
}

/* Text; returns the column after it. */
int ui_put(struct view *v, struct cellbuf *cb, int x, int y, int maxw, unsigned attr,
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
    bool ports;             /* an exchange: the two ports only, 3 (send, receive, gap) or
                               2 rows; the links are not drawn (many messages travel to a
                               node at once, and would hide each other) */
    int top, count;         /* nodes shown: top .. top+count-1 */
};

struct gsrc {
    const struct engine *e;
    const unsigned char *phase;         /* per transfer; NULL: all shown in full */
    double now;                         /* cursor; INFINITY: none */
    const struct transfer *preview;     /* drawn as planned (exercise) */
    bool begun;                         /* an event has been applied: idle waits may show */
};

static int lane_row(const struct lanes *L, int node, enum kind k)
{
    if (node < L->top || node >= L->top + L->count)
        return -1;
    int y = L->y + (node - L->top) * L->rpl;
    if (L->ports)
        return k == K_LINK ? -1 : k == K_RECV ? y + 1 : y;
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
    const struct glyphs *g = ui_glyphs(v);
    /* A bar over by now is solid even where rounding puts it under the cursor. */
    bool over = b <= now;
    for (int c = ca < 0 ? 0 : ca; c < ce && c < m->w; c++) {
        bool plan = c >= cn && !over;
        cb_put(cb, m->x0 + c, y, plan ? g->plan[k] : g->fill[k], fill_role(k, plan));
    }
    /* A bar right after one of the same kind starts with an edge, so the two read as two. */
    const struct cell *left = cb_at(cb, m->x0 + ca - 1, y);
    if (ca >= 1 && ca < m->w && ce - ca >= 2 && left && (left->ch == g->fill[k] || left->ch == g->plan[k]))
        cb_put(cb, m->x0 + ca, y, g->edge, label_role(k, ca >= cn));
}

/* A sender sitting idle over [a, b), waiting for its receiver's port: solid up to the
 * cursor, and under it too -- that is where it waits now. */
static void wait_bar(struct view *v, struct cellbuf *cb, const struct tmap *m, int y, double a,
                     double b, double now)
{
    if (y < 0 || !(b > a))
        return;
    int ca = tcol(m, a), ce = tcol(m, b), cn = cursor_col(m, now);
    if (ce <= ca)
        ce = ca + 1;
    const struct glyphs *g = ui_glyphs(v);
    for (int c = ca < 0 ? 0 : ca; c < ce && c < m->w; c++)
        cb_put(cb, m->x0 + c, y, c > cn ? g->wait_plan : g->wait, c > cn ? R_WAIT_PLAN : R_WAIT);
}

/*
 * A peer's name on a bar spanning [a, b): inside if it fits, else just after
 * it.  A pipelined slice (tag: its number) is "3→p1" inside, or just "3",
 * and never beside: slices follow each other too closely.
 */
static void bar_label(struct view *v, struct cellbuf *cb, const struct tmap *m, int y, double a,
                      double b, enum kind k, double now, const char *arrow, const char *name,
                      const char *tag, bool underline)
{
    if (y < 0 || !(b > a))
        return;
    char full[160];
    snprintf(full, sizeof full, "%s%s%s", tag ? tag : "", arrow, name);
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
        text = tag ? tag : name;
        tw = text_width(text);
    }
    int at;
    bool inside = tw <= room;
    if (inside) {
        at = ca + (ce - ca - tw) / 2;
    } else if (tag) {
        return;
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
                           const struct tmap *m, const struct engine *e, const struct transfer *t,
                           double now)
{
    const struct glyphs *g = ui_glyphs(v);
    const struct cluster *c = e->c;
    char slice[16];
    const char *tag = NULL;
    if (e->nmsg > 1 && !e->personal) {   /* pipelined: the slice's number, from 1 */
        snprintf(slice, sizeof slice, "%d", t->msg + 1);
        tag = slice;
    }
    bar_label(v, cb, m, lane_row(L, t->from, K_SEND), t->start, t->send_end, K_SEND, now, g->to,
              c->nodes[t->to].name, tag, t->from == v->sel || t->to == v->sel);
    bool mark = t->from == v->sel || t->to == v->sel;
    const char *peer = c->nodes[t->from].name;
    if (L->rpl >= 3 || L->ports) {   /* link and receive on rows of their own: label both */
        bar_label(v, cb, m, lane_row(L, t->to, K_LINK), t->link_start, t->link_end, K_LINK, now,
                  g->from, peer, tag, mark);
        bar_label(v, cb, m, lane_row(L, t->to, K_RECV), t->recv_start, t->recv_end, K_RECV, now,
                  g->from, peer, tag, mark);
        return;
    }
    /* One row for link then receive: labelled once with the sender, on the
     * receive part when it is wide enough. */
    bool has_link = t->link_end > t->link_start, has_recv = t->recv_end > t->recv_start;
    if (has_recv && (!has_link || tcol(m, t->recv_end) - tcol(m, t->recv_start) >= 3))
        bar_label(v, cb, m, lane_row(L, t->to, K_RECV), t->recv_start, t->recv_end, K_RECV, now,
                  g->from, peer, tag, mark);
    else if (has_link)
        bar_label(v, cb, m, lane_row(L, t->to, K_LINK), t->link_start,
                  has_recv ? t->recv_end : t->link_end, K_LINK, now, g->from, peer, tag, mark);
}

static void lane_labels(struct view *v, struct cellbuf *cb, const struct lanes *L,
                        const struct cluster *c, const unsigned char *crit)
{
    const struct glyphs *g = ui_glyphs(v);
    static const char *const tags[3] = {"send", "link", "recv"};
    int nw = L->lw - 3 - (L->rpl >= 2 ? 5 : 0);
    for (int i = 0; i < L->count; i++) {
        int p = L->top + i, y = L->y + i * L->rpl;
        unsigned attr = p == v->sel ? R_SEL : p == c->source && !L->ports ? (unsigned)(R_NORMAL | AF_BOLD)
                                                                          : R_NORMAL;
        if (crit && crit[p] && p != v->sel)
            attr = R_CRIT;
        int tagged = L->ports ? 2 : L->rpl >= 3 ? 3 : L->rpl;
        cb_fill(cb, L->x, y, L->lw - 2, tagged, ' ', p == v->sel ? R_SEL : R_NORMAL);
        cb_text(cb, L->x, y, nw, c->nodes[p].name, attr, v->ascii);
        unsigned tattr = p == v->sel ? R_SEL : R_DIM;
        if (L->ports) {
            cb_text(cb, L->x + nw + 1, y, 4, "send", tattr, v->ascii);
            cb_text(cb, L->x + nw + 1, y + 1, 4, "recv", tattr, v->ascii);
        } else if (L->rpl >= 3)
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
            cb_put(cb, m->x0 + c, r, ui_glyphs(v)->cursor, R_CURSOR | AF_BOLD);
    }
}

/*
 * Is the sender of transfer i sitting idle for it at this step?  Its wait
 * shows from the moment it began, before the transfer itself starts, so the
 * idle sender is visible while it waits.
 */
static bool waiting(const struct gsrc *s, int i)
{
    const struct transfer *t = &s->e->tr[i];
    return t->wait_start < t->start && (shown(s, i) || (s->begun && t->wait_start <= s->now));
}

/* Lanes of one engine; crit marks the critical path in the labels (may be NULL). */
static void draw_lanes(struct view *v, struct cellbuf *cb, const struct lanes *L,
                       const struct tmap *m, const struct gsrc *s, const unsigned char *crit)
{
    const struct engine *e = s->e;
    lane_labels(v, cb, L, e->c, crit);
    for (int i = 0; i < e->ntr; i++)
        if (waiting(s, i))
            wait_bar(v, cb, m, lane_row(L, e->tr[i].from, K_SEND), e->tr[i].wait_start, e->tr[i].start,
                     s->now);
    for (int i = 0; i < e->ntr; i++)
        if (shown(s, i))
            draw_transfer(v, cb, L, m, &e->tr[i], s->now);
    if (s->preview)
        draw_transfer(v, cb, L, m, s->preview, -INFINITY);
    for (int i = 0; i < e->ntr; i++)
        if (shown(s, i))
            label_transfer(v, cb, L, m, e, &e->tr[i], s->now);
    if (s->preview)
        label_transfer(v, cb, L, m, e, s->preview, -INFINITY);
    cursor_line(v, cb, m, L->y, L->count * L->rpl, s->now);
}

static void draw_axis(struct view *v, struct cellbuf *cb, const struct tmap *m, int x, int y,
                      int lw, double now)
{
    const struct glyphs *g = ui_glyphs(v);
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
        const char *lab = ui_num(fabs(t) < step * 1e-9 ? 0 : t);
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

/*
 * Rows per lane and the lanes shown, keeping the selection in view.  A node
 * of an exchange or a pipeline sends and receives at the same time, so its
 * lane never shrinks to one row: the lanes scroll instead.
 */
static void fit_lanes(struct view *v, struct lanes *L, int n, int rows, bool overlap)
{
    if (L->ports)
        L->rpl = n * 3 <= rows ? 3 : 2;
    else
        L->rpl = n * 4 <= rows ? 4 : n * 3 <= rows ? 3 : n * 2 <= rows || overlap ? 2 : 1;
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
        x = ui_put(v, cb, x + 1, y, -1, R_STATUS | AF_BOLD, h[i].key);
        x = ui_put(v, cb, x + 1, y, -1, R_STATUS, h[i].what);
        x++;
    }
    int tx = w - tailw;
    tx = ui_put(v, cb, tx + 1, y, -1, R_STATUS | AF_BOLD, "?");
    tx = ui_put(v, cb, tx + 1, y, -1, R_STATUS, "help");
    tx = ui_put(v, cb, tx + 2, y, -1, R_STATUS | AF_BOLD, "q");
    ui_put(v, cb, tx + 1, y, -1, R_STATUS, "quit");
}

static void title_bar(struct view *v, struct cellbuf *cb, const char *mode, const char *right)
{
    cb_fill(cb, 0, 0, cb->w, 1, ' ', R_TITLE);
    const struct cluster *c = v->c;
    const char *dot = ui_glyphs(v)->dot, *name = c->name ? c->name : "cluster";
    int rw = text_width(right), room = cb->w - rw - 4;
    /* "hetcast · NAME · N nodes, source S · MODEL · MODE" (an exchange: its
     * pattern instead of the source): drop "hetcast", then the node count,
     * then cut the name, until it fits. */
    char head[32], tail[512], who[200];
    if (v->exchange && v->runs[0].x && v->runs[0].x->pattern == XPAT_ALL_TO_SOME)
        snprintf(who, sizeof who, "all-to-some, %d receivers", v->runs[0].x->nrecv);
    else if (v->exchange)
        snprintf(who, sizeof who, "all-to-all");
    else
        snprintf(who, sizeof who, "source %s", c->nodes[c->source].name);
    int namew = 0;
    for (int form = 0; form < 3; form++) {
        char nodes[64] = "";
        if (form < 2)
            snprintf(nodes, sizeof nodes, "%d nodes, ", c->n);
        snprintf(head, sizeof head, "%s%s", form == 0 ? "hetcast" : "", form == 0 ? dot : "");
        snprintf(tail, sizeof tail, "%s%s%s%s%s%s%s", dot, nodes, who, dot, model_name(v->model), dot,
                 mode);
        namew = room - text_width(head) - text_width(tail);
        int want = text_width(name) < 12 ? text_width(name) : 12;
        if (namew >= want)
            break;
    }
    int x = ui_put(v, cb, 1, 0, room, R_TITLE | AF_BOLD, head);
    if (namew > 0)
        x = ui_put(v, cb, x, 0, namew, R_TITLE | AF_BOLD, name);
    ui_put(v, cb, x, 0, room + 1 - x, R_TITLE | AF_BOLD, tail);
    ui_put(v, cb, cb->w - rw - 1, 0, rw, R_TITLE | AF_BOLD, right);
}

/* "label value" pairs separated by bars; returns the column after. */
static int pair(struct view *v, struct cellbuf *cb, int x, int y, const char *label,
                const char *value, unsigned vattr, bool sep)
{
    int need = (sep ? text_width(ui_glyphs(v)->dot) : 0) + text_width(label) + 1 + text_width(value);
    if (x + need > cb->w - 1)
        return x;   /* no room: left out whole rather than cut */
    if (sep)
        x = ui_put(v, cb, x, y, -1, R_DIM, ui_glyphs(v)->dot);
    x = ui_put(v, cb, x, y, -1, R_DIM, label);
    x = ui_put(v, cb, x + 1, y, -1, vattr | AF_BOLD, value);
    return x;
}

static void optimum_text(const struct run *r, char *buf, size_t size)
{
    if (r->opt == OPT_PROVEN)
        snprintf(buf, size, "%s", ui_num(r->optimum));
    else if (r->opt == OPT_GAVE_UP)
        snprintf(buf, size, "%s..%s?", ui_num(r->opt_lower), ui_num(r->optimum));
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

/* A pair whose value has a long and a short form: the long one when it fits. */
static int pair2(struct view *v, struct cellbuf *cb, int x, int y, const char *label,
                 const char *value, const char *shorter, unsigned vattr, bool sep)
{
    int was = x;
    x = pair(v, cb, x, y, label, value, vattr, sep);
    return x != was ? x : pair(v, cb, x, y, label, shorter, vattr, sep);
}

/* "A 6 · B 5 · difference +1 (+20%)": the two runs' end times and how they differ. */
static int compare_pairs(struct view *v, struct cellbuf *cb, int x, int y)
{
    for (int i = 0; i < 2; i++)
        x = pair(v, cb, x, y, vrun_sched_name(&v->runs[i]), ui_num(vrun_end(&v->runs[i])), R_NORMAL,
                 i > 0);
    double a = vrun_end(&v->runs[0]), o = vrun_end(&v->runs[1]), d = a - o;
    char diff[80];
    if (o > 0)
        snprintf(diff, sizeof diff, "%s%s (%+.0f%%)", d > 0 ? "+" : "", ui_num(d), 100.0 * d / o);
    else
        snprintf(diff, sizeof diff, "%s", ui_num(d));
    return pair(v, cb, x, y, "difference", diff, d > 0 ? R_BAD : d < 0 ? R_GOOD : R_NORMAL, true);
}

/* One value per run: "3" alone, "3 / 6" in compare mode ("-" where a run has none). */
static void per_run(const struct view *v, char *buf, size_t size, const char *const vals[2])
{
    if (v->nruns == 1)
        snprintf(buf, size, "%s", vals[0]);
    else
        snprintf(buf, size, "%s / %s", vals[0], vals[1]);
}

/* An exchange: the lower bound (who sets it) and the senders' idle waits. */
static int exchange_pairs(struct view *v, struct cellbuf *cb, int x, int y)
{
    const struct exchange *x0 = v->runs[0].x;
    char lb[160], idle[2][80], both[170];
    snprintf(lb, sizeof lb, "%s (%s's %s)", ui_num(x0->lower_bound), v->c->nodes[x0->bound_node].name,
             x0->bound_by_recv ? "receives" : "sends");
    x = pair2(v, cb, x, y, "lower bound", lb, ui_num(x0->lower_bound), R_NORMAL, true);
    const char *vals[2] = {idle[0], idle[1]};
    for (int i = 0; i < v->nruns; i++) {
        const struct exchange *xc = v->runs[i].x;
        if (v->nruns == 1 && xc->nwaits > 0)
            snprintf(idle[i], sizeof idle[i], "%d wait%s, %s in all", xc->nwaits,
                     xc->nwaits == 1 ? "" : "s", ui_num(xc->idle));
        else if (v->nruns == 1)
            snprintf(idle[i], sizeof idle[i], "none");
        else
            snprintf(idle[i], sizeof idle[i], "%s", ui_num(xc->idle));
    }
    per_run(v, both, sizeof both, vals);
    return pair(v, cb, x, y, v->nruns == 1 ? "idle senders" : "idle time", both,
                x0->nwaits > 0 ? R_WAIT : R_NORMAL, true);
}

/* A measured rate to 12 digits, as the text report rounds it: 0.2, not 0.19999999999999993. */
static double rounded(double r)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.12g", r);
    return strtod(buf, NULL);
}

static void rate_text(char *buf, size_t size, double r)
{
    if (isnan(r))
        snprintf(buf, size, "?");
    else if (isinf(r))
        snprintf(buf, size, "unbounded");
    else
        snprintf(buf, size, "%.3g", r);
}

/* A pipelined run: slices, the tree's throughput, the LP optimum, the fraction, the measured rate. */
static int pipeline_pairs(struct view *v, struct cellbuf *cb, int x, int y)
{
    const struct run *r0 = &v->runs[0].run;
    char k[32], tp[2][40], frac[2][40], both[100], lp[40], meas[40];
    const char *tps[2] = {tp[0], tp[1]}, *fracs[2] = {frac[0], frac[1]};
    snprintf(k, sizeof k, "%d", r0->sched.slices);
    x = pair(v, cb, x, y, "slices", k, R_NORMAL, true);
    for (int i = 0; i < 2; i++) {
        const struct run *r = &v->runs[i < v->nruns ? i : 0].run;
        if (!vrun_pipelined(&v->runs[i < v->nruns ? i : 0])) {
            snprintf(tp[i], sizeof tp[i], "-");
            snprintf(frac[i], sizeof frac[i], "-");
            continue;
        }
        rate_text(tp[i], sizeof tp[i], r->sched.throughput);
        if (isfinite(r->sched.throughput) && isfinite(r->sched.optimal_throughput) &&
            r->sched.optimal_throughput > 0)
            snprintf(frac[i], sizeof frac[i], "%.3g%%",
                     100.0 * r->sched.throughput / r->sched.optimal_throughput);
        else
            snprintf(frac[i], sizeof frac[i], "?");
    }
    per_run(v, both, sizeof both, tps);
    x = pair(v, cb, x, y, "throughput", both, R_NORMAL, true);
    rate_text(lp, sizeof lp, r0->sched.optimal_throughput);
    x = pair(v, cb, x, y, "LP optimum", lp, R_NORMAL, true);
    per_run(v, both, sizeof both, fracs);
    x = pair(v, cb, x, y, "fraction", both, R_NORMAL, true);
    int K = r0->sched.slices;
    if (v->nruns == 1 && K >= 2) {
        rate_text(meas, sizeof meas, rounded(pipe_measured_throughput(&r0->eng, K / 2, K - 1)));
        x = pair(v, cb, x, y, "measured", meas, R_NORMAL, true);
    }
    return x;
}

static void summary_row(struct view *v, struct cellbuf *cb, int y)
{
    int x = 1;
    if (v->nruns == 1)
        x = pair(v, cb, x, y, v->exchange ? "completion" : "makespan", ui_num(vrun_end(&v->runs[0])),
                 R_NORMAL, false);
    else
        x = compare_pairs(v, cb, x, y);
    if (v->exchange) {
        exchange_pairs(v, cb, x, y);
        return;
    }
    if (vrun_pipelined(&v->runs[0])) {
        pipeline_pairs(v, cb, x, y);
        return;
    }
    if (v->runs[0].run.sched.has_tree_cost) {   /* Figueira's cost beside the simulated makespan */
        char cost[2][40], both[100];
        const char *vals[2] = {cost[0], cost[1]};
        for (int i = 0; i < v->nruns; i++) {
            const struct sched *sc = &v->runs[i].run.sched;
            snprintf(cost[i], sizeof cost[i], "%s", sc->has_tree_cost ? ui_num(sc->tree_cost) : "-");
        }
        per_run(v, both, sizeof both, vals);
        x = pair(v, cb, x, y, "tree cost", both, R_CRIT, true);
    }
    const struct run *b = bounds_run(v);
    char opt[80], g2[80];
    x = pair(v, cb, x, y, "lower bound", ui_num(b->lower_bound), R_NORMAL, true);
    optimum_text(b, opt, sizeof opt);
    x = pair(v, cb, x, y, "optimum", opt, R_NORMAL, true);
    double limit;
    if (b->has_beta) {
        if (run_guarantee(b, &limit))
            snprintf(g2, sizeof g2, "%s%s", ui_num(limit), b->consistent ? "" : " (void: speeds inconsistent)");
        else
            snprintf(g2, sizeof g2, "? (T unknown)");
        pair(v, cb, x, y, v->ascii ? "2T+beta" : "2T+\xce\xb2", g2, R_NORMAL, true);
    }
}

/* Does any run on screen have a sender sitting idle for a busy receiver? */
static bool any_wait(const struct view *v)
{
    for (int i = 0; i < v->nruns; i++) {
        const struct engine *e = vrun_engine(&v->runs[i]);
        for (int k = 0; k < e->ntr; k++)
            if (e->tr[k].wait_start < e->tr[k].start)
                return true;
    }
    return false;
}

/* A single-message broadcast, whose critical path the lanes and the tree mark. */
static bool single_message(const struct view *v)
{
    return !v->exchange && !vrun_pipelined(&v->runs[0]);
}

static void legend_row(struct view *v, struct cellbuf *cb, int y, int w, bool cursor)
{
    const struct glyphs *g = ui_glyphs(v);
    struct item {
        uint32_t a, b;
        unsigned ra, rb;
        const char *name;
        bool on;
    } items[] = {
        {g->fill[0], g->fill[0], R_SEND, R_SEND, "send", true},
        {g->fill[1], g->fill[1], R_LINK, R_LINK, "link", !v->exchange},
        {g->fill[2], g->fill[2], R_RECV, R_RECV, "recv", true},
        {g->wait, g->wait, R_WAIT, R_WAIT, "idle", any_wait(v)},
        {g->plan[0], g->plan[2], R_SEND_PLAN, R_RECV_PLAN, "planned", true},
        {g->cursor, ' ', R_CURSOR | AF_BOLD, R_NORMAL, "now", cursor},
        {g->crit, ' ', R_CRIT | AF_BOLD, R_NORMAL, "critical path", single_message(v)},
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
        if (!items[i].on)
            continue;
        int gw = items[i].b != ' ' ? 2 : 1, need = gw + 1 + text_width(items[i].name);
        if (x + need > limit)
            break;
        cb_put(cb, x, y, items[i].a, items[i].ra);
        if (gw == 2)
            cb_put(cb, x + 1, y, items[i].b, items[i].rb);
        x = ui_put(v, cb, x + gw + 1, y, -1, R_NORMAL, items[i].name) + 2;
    }
    if (rw && rw + 2 < w)
        ui_put(v, cb, w - rw - 1, y, rw, R_DIM, right);
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
        engine_narrate(vrun_engine(&v->runs[0]), v->step - 1, buf, sizeof buf);
        if (v->step >= v->nsteps && v->step > 0)
            snprintf(line, sizeof line, "%s. End: %s %s.", buf, v->exchange ? "completion" : "makespan",
                     ui_num(vrun_end(&v->runs[0])));
        else
            snprintf(line, sizeof line, "%s", buf);
        wrap(v, cb, 1, y, w - 2, 2, R_NORMAL, line);
        return;
    }
    int latest = v->step > 0 ? v->order[v->step - 1].run : -1;
    for (int i = 0; i < 2; i++) {
        engine_narrate(vrun_engine(&v->runs[i]), v->applied[i] - 1, buf, sizeof buf);
        int x = ui_put(v, cb, 1, y + i, -1, R_HEAD | AF_BOLD, vrun_sched_name(&v->runs[i]));
        ui_put(v, cb, x, y + i, -1, R_HEAD | AF_BOLD, ":");
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
    const struct glyphs *g = ui_glyphs(v);
    /* No exercise beside an exchange or a pipeline (ex_start says why). */
    bool exercise = single_message(v);
    const struct hint all[] = {
        {v->ascii ? "l" : g->right, "next"}, {v->ascii ? "h" : g->left, "back"},
        {"p", v->playing ? "pause" : "play"}, {"c", v->nruns == 2 ? "single" : "compare"},
        {"t", v->exchange ? "orders" : "tree"}, {"x", "exercise"}, {"s", "sched"}, {"m", "model"},
        {"g/G", "start/end"}, {"+/-", "zoom"}, {"e", "export"}, {"r", "reload"},
    };
    struct hint h[sizeof all / sizeof all[0]];
    int n = 0;
    for (int i = 0; i < (int)(sizeof all / sizeof all[0]); i++)
        if (exercise || strcmp(all[i].key, "x") != 0)
            h[n++] = all[i];
    status_bar(v, cb, h, n);
}

/* The side pane: wider for an exchange's table, as far as two fifths of the screen. */
static int side_width(const struct view *v, const struct cellbuf *cb)
{
    int pw = pane_width(cb);
    if (!v->exchange)
        return pw;
    int nw = name_cols(v->c) > 10 ? 10 : name_cols(v->c);
    int want = 7 + v->c->n * (nw + 3), cap = cb->w * 2 / 5;
    if (want > cap)
        want = cap;
    return want > pw ? want : pw;
}

/*
 * Under the time axis of a pipelined run: when the pipeline fills (until
 * every node holds the first slice), runs steady, and drains (once the
 * bottleneck -- the node whose sends set the tree's period, pipe_period --
 * has sent its last slice: nodes before it may finish earlier, but the
 * slices keep coming out at the steady rate until then).  With too few
 * slices the bottleneck is done before the pipeline is full, and there is
 * no steady part.  The part the cursor is in is bold.
 */
static void phase_band(struct view *v, struct cellbuf *cb, const struct tmap *m, int y, int lw,
                       const struct run *r, double now)
{
    const struct engine *e = &r->eng;
    const struct pipe_plan *pl = pipeline_plan(&r->sched);
    int who = -1;
    if (!pl || !(pipe_period(e->c, &pl->tree, r->model, &who) > 0) || who < 0)
        return;
    double filled = 0, last_send = 0;
    for (int p = 0; p < e->n; p++)
        if (engine_hold_time(e, p, 0) > filled && isfinite(engine_hold_time(e, p, 0)))
            filled = engine_hold_time(e, p, 0);
    for (int i = 0; i < e->ntr; i++)
        if (e->tr[i].from == who && e->tr[i].send_end > last_send)
            last_send = e->tr[i].send_end;
    struct seg {
        double a, b;
        const char *name, *shorter;
    } seg[3];
    int ns = 0;
    if (last_send > filled) {
        seg[ns++] = (struct seg){0, filled, "filling", "fill"};
        seg[ns++] = (struct seg){filled, last_send, "steady", "steady"};
        seg[ns++] = (struct seg){last_send, e->makespan, "draining", "drain"};
    } else {
        seg[ns++] = (struct seg){0, filled, "filling (no steady state)", "filling"};
        seg[ns++] = (struct seg){filled, e->makespan, "draining", "drain"};
    }
    const struct glyphs *g = ui_glyphs(v);
    cb_text(cb, 0, y, lw - 1, "pipeline", R_DIM, v->ascii);
    for (int k = 0; k < ns; k++) {
        if (!(seg[k].b > seg[k].a))
            continue;
        int ca = tcol(m, seg[k].a), ce = tcol(m, seg[k].b);
        bool here = now >= seg[k].a && (now < seg[k].b || (k == ns - 1 && now <= seg[k].b));
        unsigned a = here ? (unsigned)(R_NORMAL | AF_BOLD) : R_DIM;
        for (int c = ca; c < ce; c++)
            if (c >= 0 && c < m->w)
                cb_put(cb, m->x0 + c, y, c == ca ? (k == 0 ? g->tee : g->tick) : g->hline, a);
        if (ce - 1 >= 0 && ce - 1 < m->w && k == ns - 1)
            cb_put(cb, m->x0 + ce - 1, y, v->ascii ? '|' : 0x2524, a);
        const char *name = text_width(seg[k].name) + 2 <= ce - ca - 2 ? seg[k].name : seg[k].shorter;
        int tw = text_width(name);
        if (tw + 2 <= ce - ca - 2) {
            int at = ca + (ce - ca - tw) / 2;
            if (at >= 0 && at + tw < m->w)
                cb_text(cb, m->x0 + at, y, tw, name, a, v->ascii);
        }
    }
}

void draw_main(struct view *v, struct cellbuf *cb)
{
    int w = cb->w, h = cb->h;
    double now = view_now(v);
    char right[160];
    if (v->playing)
        snprintf(right, sizeof right, "%s %.1f/s  step %d/%d  t=%s", v->ascii ? ">" : "\xe2\x96\xb6",
                 1000.0 / view_play_ms(v), v->step, v->nsteps, ui_num(now));
    else
        snprintf(right, sizeof right, "step %d/%d  t=%s", v->step, v->nsteps, ui_num(now));
    char mode[200];
    if (v->nruns == 2)
        snprintf(mode, sizeof mode, "%s vs %s", vrun_sched_name(&v->runs[0]),
                 vrun_sched_name(&v->runs[1]));
    else
        snprintf(mode, sizeof mode, "%s", vrun_sched_name(&v->runs[0]));
    title_bar(v, cb, mode, right);
    summary_row(v, cb, 1);

    int gy = 3, gh = h - 8, gw = w, sw = side_width(v, cb);
    if (v->tree)
        gw = w - sw - 1;
    const struct cluster *c = v->c;
    double tmax = 0;
    for (int i = 0; i < v->nruns; i++)
        if (vrun_end(&v->runs[i]) > tmax)
            tmax = vrun_end(&v->runs[i]);
    struct lanes L = {0, gy, gw, gh, 0, 2, v->exchange, 0, 0};
    bool overlap = !single_message(v);   /* nodes that send while they receive */
    int nw = name_cols(c);
    if (v->nruns == 1) {
        fit_lanes(v, &L, c->n, gh, overlap);
    } else {
        int pane = (gh - 2) / 2;
        fit_lanes(v, &L, c->n, pane, overlap);
    }
    L.lw = nw + 3 + (L.rpl >= 2 ? 5 : 0);
    struct tmap m = make_tmap(v, L.lw, gw - L.lw, tmax, now);
    legend_row(v, cb, 2, gw, true);
    /* The last row of a lane is blank when it has one for the gap. */
    int gap = L.rpl == 4 || (L.ports && L.rpl == 3) ? 1 : 0;
    int ay = h - 5, pane_y[2] = {gy, gy};
    if (v->nruns == 1) {
        unsigned char *crit = NULL;
        if (single_message(v) && v->step >= v->nsteps) {
            crit = xmalloc((size_t)c->n);
            export_critical_path(vrun_engine(&v->runs[0]), crit);
        }
        struct gsrc s = {vrun_engine(&v->runs[0]), v->snap[0].phase, now, NULL, v->snap[0].step > 0};
        draw_lanes(v, cb, &L, &m, &s, crit);
        free(crit);
        ay = gy + L.count * L.rpl - gap;
    } else {
        int pane = (gh - 2) / 2, y = gy;
        for (int i = 0; i < 2; i++) {
            pane_y[i] = y;
            const struct vrun *vr = &v->runs[i];
            cb_fill(cb, 0, y, gw, 1, ' ', R_HEAD);
            char head[200], extra[80] = "";
            if (vrun_pipelined(vr))
                snprintf(extra, sizeof extra, "%sthroughput %.3g", ui_glyphs(v)->dot,
                         vr->run.sched.throughput);
            else if (!vr->x && vr->run.sched.has_tree_cost)
                snprintf(extra, sizeof extra, "%stree cost %s", ui_glyphs(v)->dot,
                         ui_num(vr->run.sched.tree_cost));
            snprintf(head, sizeof head, "%s%s%s %s%s%s", vrun_sched_name(vr), ui_glyphs(v)->dot,
                     vr->x ? "completion" : "makespan", ui_num(vrun_end(vr)), extra,
                     vr->x ? ""
                     : vr->run.sched.status == OPT_PROVEN ? " (proven optimal)"
                     : vr->run.sched.status == OPT_GAVE_UP ? " (search gave up: not proven)" : "");
            ui_put(v, cb, 1, y, gw - 2, R_HEAD | AF_BOLD, head);
            struct lanes P = L;
            P.y = y + 1;
            struct gsrc s = {vrun_engine(vr), v->snap[i].phase, now, NULL, v->step > 0};
            draw_lanes(v, cb, &P, &m, &s, NULL);
            y += 1 + (pane > L.count * L.rpl ? L.count * L.rpl : pane) + 1;
        }
        ay = y - 1;
    }
    /* The axis right under the lanes (the rest of a tall screen stays empty). */
    if (ay > h - 5)
        ay = h - 5;
    draw_axis(v, cb, &m, 0, ay, L.lw, now);
    if (v->nruns == 1 && vrun_pipelined(&v->runs[0]) && ay + 2 < h - 3)
        phase_band(v, cb, &m, ay + 2, L.lw, &v->runs[0].run, now);
    if (v->tree) {
        int tx = w - sw, th = h - 6;
        for (int y = gy - 1; y < gy - 1 + th + 1; y++)
            cb_put(cb, tx - 1, y, ui_glyphs(v)->vline, R_DIM);
        if (v->nruns == 1) {
            pane_draw(v, cb, tx, gy - 1, w - tx, th + 1, 0);
        } else {
            /* Each pane beside its own Gantt chart. */
            int split = pane_y[1] - (gy - 1);
            pane_draw(v, cb, tx, gy - 1, w - tx, split, 0);
            pane_draw(v, cb, tx, pane_y[1], w - tx, th + 1 - split, 1);
        }
    }
    message_rows(v, cb, h - 3, w);
    main_hints(v, cb);
}

/* ---- help ---- */

void draw_help(struct view *v, struct cellbuf *cb)
{
    const struct glyphs *g = ui_glyphs(v);
    char nav[64], back[64], updown[64];
    snprintf(nav, sizeof nav, "%s  l  space", v->ascii ? "right" : g->right);
    snprintf(back, sizeof back, "%s  h", v->ascii ? "left" : g->left);
    snprintf(updown, sizeof updown, "%s", g->up_down);
    /* What the pane and the lists hold depends on the run: a broadcast, one of
     * Figueira's trees, a pipeline, or an exchange (no exercise, no source). */
    bool xch = v->exchange, single = single_message(v);
    const char *pane = "tree pane: who sent to whom, receive times, critical path";
    if (xch)
        pane = "the table of sending orders, each sender's row marked";
    else if (vrun_pipelined(&v->runs[0]))
        pane = "tree pane: edge times T, the LP's n(u,v), slices held";
    else if (tree_of_sched(&v->runs[0].run.sched))
        pane = "tree pane: positions, distances, heaviest path";
    const struct hint all[] = {
        {nav, "next event"},
        {back, "previous event (an exact replay from the start)"},
        {"Home  g", "start of the schedule"},
        {"End  G", "end of the schedule"},
        {"p", "play / pause"},
        {"<  >", "slower / faster play"},
        {"s", xch ? "the exchange's order: caterpillar, random, rspb, ..."
                  : "scheduler: the built-ins and the Lua heuristics in lua/"},
        {"m", xch ? "model: sync (rendezvous) or async" : "port model"},
        {"c", "compare on/off: two schedulers on one time axis"},
        {"t", pane},
        {"x", single ? "exercise: pick each (sender, receiver) pair yourself" : NULL},
        {"+  -", "zoom time in / out"},
        {updown, xch ? "select a node: its bars and its column of orders"
                     : "select a node: its bars and its path in the tree"},
        {"PgUp  PgDn", "scroll the nodes a page"},
        {"o", xch ? NULL : "make the selected node the source"},
        {"e", xch ? "export: CSV (the transfers, with the idle waits)"
                  : "export: SVG (Gantt and tree) and CSV (schedule)"},
        {"r", "reload the file from disk"},
        {"?", "this help"},
        {"q", "quit"},
    };
    struct hint keys[sizeof all / sizeof all[0]];
    int n = 0;
    for (int i = 0; i < (int)(sizeof all / sizeof all[0]); i++)
        if (all[i].what)
            keys[n++] = all[i];
    cb_fill(cb, 0, 0, cb->w, 1, ' ', R_TITLE);
    ui_put(v, cb, 1, 0, cb->w - 2, R_TITLE | AF_BOLD, "hetcast help: keys");
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
    if (single)
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
    const struct glyphs *g = ui_glyphs(v);
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
    ui_put(v, cb, bx + 2, by, bw - 4, R_HEAD | AF_BOLD,
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
    const struct glyphs *g = ui_glyphs(v);
    *has_preview = false;
    cb_fill(cb, x, y, w, 1, ' ', R_HEAD);
    char head[160];
    snprintf(head, sizeof head, "your turn%s%d/%d hold", g->dot, c->n - e->nwaiting, c->n);
    ui_put(v, cb, x + 1, y, w - 2, R_HEAD | AF_BOLD, xr->phase == EX_DONE ? "done" : head);
    int row = y + 2;
    if (xr->phase == EX_DONE) {
        cb_textf(cb, x + 1, row++, w - 2, R_NORMAL | AF_BOLD, v->ascii, "your makespan %s",
                 ui_num(e->makespan));
        for (int i = 0; i < v->nruns; i++)
            cb_textf(cb, x + 1, row++, w - 2, R_NORMAL, v->ascii, "%s %s",
                     v->runs[i].run.sched.ops->name, ui_num(v->runs[i].run.eng.makespan));
        if (xr->optimum_known)
            cb_textf(cb, x + 1, row++, w - 2, R_NORMAL, v->ascii, "best possible %s", ui_num(xr->optimum));
        row++;
        cb_textf(cb, x + 1, row, w - 2, R_DIM, v->ascii, "%s undo%sx leave", v->ascii ? "left" : g->left,
                 g->dot);
        return;
    }
    if (xr->phase == EX_SENDER)
        ui_put(v, cb, x + 1, row, w - 2, R_NORMAL | AF_BOLD, "pick a sender:");
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
            snprintf(info, sizeof info, "free at %s", ui_num(engine_ready(e, p, 0)));
        } else {
            struct transfer t;
            if (engine_earliest(e, xr->sender, p, 0, &t) == 0) {
                snprintf(info, sizeof info, "holds at %s", ui_num(t.hold));
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
        cb_textf(cb, x + 1, row, w - 2, R_NORMAL, v->ascii, "best reachable %s%s", ui_num(xr->best),
                 xr->best_exact ? "" : " (search stopped)");
    else if (!xr->search)
        cb_textf(cb, x + 1, row, w - 2, R_DIM, v->ascii, "best: not searched (n > %d)",
                 EXERCISE_MAX_NODES);
    cb_textf(cb, x + 1, row + 1, w - 2, R_NORMAL, v->ascii, "so far %s", ui_num(e->makespan));
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
    x = pair(v, cb, x, 1, "your makespan so far", ui_num(xr->eng.makespan), R_NORMAL, false);
    if (xr->best_known)
        x = pair(v, cb, x, 1, "best reachable", ui_num(xr->best), R_NORMAL, true);
    x = pair(v, cb, x, 1, v->runs[0].run.sched.ops->name, ui_num(v->runs[0].run.eng.makespan), R_NORMAL,
             true);
    if (xr->optimum_known)
        pair(v, cb, x, 1, "optimum", ui_num(xr->optimum), R_NORMAL, true);

    int pw = pane_width(cb), gw = w - pw - 1, gy = 3, gh = h - 8;
    struct transfer preview;
    bool has_preview;
    for (int y = 2; y < h - 3; y++)
        cb_put(cb, gw, y, ui_glyphs(v)->vline, R_DIM);
    pick_panel(v, cb, gw + 1, 2, w - gw - 1, h - 5, &preview, &has_preview);

    struct lanes L = {0, gy, gw, gh, 0, 2, false, 0, 0};
    fit_lanes(v, &L, c->n, gh, false);
    L.lw = name_cols(c) + 3 + (L.rpl >= 2 ? 5 : 0);
    double tmax = v->runs[0].run.eng.makespan;
    if (xr->eng.makespan > tmax)
        tmax = xr->eng.makespan;
    if (has_preview && preview.hold > tmax)
        tmax = preview.hold;
    double focus = has_preview ? preview.hold : xr->eng.makespan;
    struct tmap m = make_tmap(v, L.lw, gw - L.lw, tmax, focus);
    legend_row(v, cb, 2, gw, false);
    struct gsrc s = {&xr->eng, NULL, INFINITY, has_preview ? &preview : NULL, true};
    draw_lanes(v, cb, &L, &m, &s, NULL);
    int ay = gy + L.count * L.rpl - (L.rpl == 4 ? 1 : 0);
    draw_axis(v, cb, &m, 0, ay < h - 5 ? ay : h - 5, L.lw, NAN);
    cb_fill(cb, 0, h - 3, w, 2, ' ', xr->feedback_role);
    wrap(v, cb, 1, h - 3, w - 2, 2, xr->feedback_role | AF_BOLD, xr->feedback);
    if (v->msg[0])
        message_rows(v, cb, h - 3, w);
    const struct glyphs *g = ui_glyphs(v);
    char back[32];
    snprintf(back, sizeof back, "%s/h", v->ascii ? "left" : g->left);
    const struct hint hints[] = {
        {g->up_down, "choose"}, {"Enter", "pick"}, {back, xr->phase == EX_RECEIVER ? "back" : "undo"},
        {"+/-", "zoom"}, {"x", "leave the exercise"},
    };
    status_bar(v, cb, hints, (int)(sizeof hints / sizeof hints[0]));
}
