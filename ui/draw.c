/*
 * draw.c - the drawing every screen of the view shares (ui/drawkit.h),
 * into a cell buffer (no curses), with the glyphs of ui/glyphs.h: the
 * Gantt lanes (send, link and receive rows per node when there is room;
 * then send and link+receive; then one row per node, which loses nothing
 * in a broadcast since a node receives before it sends), the time axis,
 * and the bars of text (title, summary pairs, legend, message lines, key
 * hints).  The screens themselves are screen_*.c; each lays these pieces
 * out.
 *
 * Bars after the cursor are drawn as "planned" (a lighter fill); transfers
 * not started yet are not drawn at all.  Fill characters differ per kind, so
 * the picture reads without colour too.
 */
#include "ui/drawkit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/exchange.h"
#include "output/export.h"
#include "engine/explain.h"
#include "session/lesson.h"

enum kind { K_SEND = 0, K_LINK = 1, K_RECV = 2 };

/* Text; returns the column after it. */
int ui_put(struct view *v, struct cellbuf *cb, int x, int y, int maxw, unsigned attr,
           const char *s)
{
    return x + cb_text(cb, x, y, maxw, s, attr, v->ascii);
}

int ui_keep_in_view(int top, int sel, int rows)
{
    if (sel < top)
        top = sel;
    if (sel >= top + rows)
        top = sel - rows + 1;
    return top;
}

/* The bytes of s's first line wrapped to w columns: the longest prefix of
 * whole words that fits, or as much of one long word as fits (0: none). */
static size_t wrap_prefix(const char *s, int w)
{
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
    return best ? best : i;
}

/* Word-wrap s into at most rows lines of width w from (x, y). */
void ui_wrap(struct view *v, struct cellbuf *cb, int x, int y, int w, int rows, unsigned attr,
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
        size_t best = wrap_prefix(s, w);
        if (best >= sizeof line)
            best = sizeof line - 1;
        memcpy(line, s, best);
        line[best] = '\0';
        cb_text(cb, x, y + r, w, line, attr, v->ascii);
        s += best;
    }
}

int ui_wrap_rows(const char *s, int w)
{
    int rows = 0;
    if (w < 1)
        w = 1;
    while (*s) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        rows++;
        if (text_width(s) <= w)
            break;
        size_t best = wrap_prefix(s, w);   /* as ui_wrap */
        s += best ? best : 1;
    }
    return rows;
}

/* ---- time mapping ---- */

int tmap_col(const struct tmap *m, double t)
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
    return tmap_col(m, now);
}

/* Fit [0, tmax] in w columns, zoomed, with the cursor kept in view. */
struct tmap tmap_make(struct view *v, int x0, int w, double tmax, double now)
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

/* Rows per kind (send, link, receive): more than one when tall lanes have room (gantt_fit). */
static int thick(const struct lanes *L)
{
    return !L->ports && L->rpl >= 4 ? (L->rpl - 1) / 3 : 1;
}

/* The row of a kind in a node's lane: the middle one when a kind has several. */
static int lane_row(const struct lanes *L, int node, enum kind k)
{
    int at = node - L->top;
    if (L->pick)   /* a lesson's lanes that matter: a few, looked up */
        for (at = 0; at < L->count && L->pick[at] != node; at++)
            ;
    if (at < 0 || at >= L->count)
        return -1;
    int y = L->y + at * L->rpl;
    if (L->ports)
        return k == K_LINK ? -1 : k == K_RECV ? y + 1 : y;
    if (L->rpl >= 3)
        return y + (int)k * thick(L) + thick(L) / 2;
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

/* The columns of a bar over [a, b) (at least one) and the cursor's; false when b <= a. */
static bool bar_cols(const struct tmap *m, double a, double b, double now, int *ca, int *ce, int *cn)
{
    if (!(b > a))
        return false;
    *ca = tmap_col(m, a);
    *ce = tmap_col(m, b);
    *cn = cursor_col(m, now);
    if (*ce <= *ca)
        *ce = *ca + 1;
    return true;
}

static void bar(struct view *v, struct cellbuf *cb, const struct tmap *m, int y, double a, double b,
                enum kind k, double now)
{
    int ca, ce, cn;
    if (y < 0 || !bar_cols(m, a, b, now, &ca, &ce, &cn))
        return;
    const struct glyphs *g = glyphs_for(v->ascii);
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
    int ca, ce, cn;
    if (y < 0 || !bar_cols(m, a, b, now, &ca, &ce, &cn))
        return;
    const struct glyphs *g = glyphs_for(v->ascii);
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
    int ca = tmap_col(m, a), ce = tmap_col(m, b), cn = cursor_col(m, now);
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

int gantt_name_cols(const struct cluster *c)
{
    int w = 2;
    for (int p = 0; p < c->n && w < 12; p++) {   /* a name is never wider than its bytes */
        const char *name = c->nodes[p].name;
        int t = name && strnlen(name, (size_t)w + 1) > (size_t)w ? text_width(name) : 0;
        if (t > w)
            w = t;
    }
    return (w > 12 ? 12 : w) + (c->target ? 2 : 0);   /* a multicast: its targets' mark */
}

static bool shown(const struct gsrc *s, int i)
{
    return !s->phase || s->phase[i] != PHASE_FUTURE;
}

static void draw_transfer(struct view *v, struct cellbuf *cb, const struct lanes *L,
                          const struct tmap *m, const struct transfer *t, double now)
{
    int th = thick(L), up = th / 2;   /* every row of the kind: tall lanes draw thick bars */
    for (int r = 0; r < th; r++) {
        int ys = lane_row(L, t->from, K_SEND), yl = lane_row(L, t->to, K_LINK), yr = lane_row(L, t->to, K_RECV);
        bar(v, cb, m, ys < 0 ? -1 : ys - up + r, t->start, t->send_end, K_SEND, now);
        bar(v, cb, m, yl < 0 ? -1 : yl - up + r, t->link_start, t->link_end, K_LINK, now);
        bar(v, cb, m, yr < 0 ? -1 : yr - up + r, t->recv_start, t->recv_end, K_RECV, now);
    }
    /* A transfer that takes no time (a latency matrix's distance 0, a free
     * receive and no link) still delivers: a mark where the receiver holds it. */
    int yr = lane_row(L, t->to, K_RECV), c = tmap_col(m, t->hold);
    if (yr >= 0 && !(t->link_end > t->link_start) && !(t->recv_end > t->recv_start) && c >= 0 && c < m->w)
        cb_put(cb, m->x0 + c, yr, v->ascii ? 'o' : 0x2022, fill_role(K_RECV, t->hold > now) | AF_BOLD);
}

static void label_transfer(struct view *v, struct cellbuf *cb, const struct lanes *L,
                           const struct tmap *m, const struct engine *e, const struct transfer *t,
                           double now)
{
    const struct glyphs *g = glyphs_for(v->ascii);
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
    if (has_recv && (!has_link || tmap_col(m, t->recv_end) - tmap_col(m, t->recv_start) >= 3))
        bar_label(v, cb, m, lane_row(L, t->to, K_RECV), t->recv_start, t->recv_end, K_RECV, now,
                  g->from, peer, tag, mark);
    else if (has_link)
        bar_label(v, cb, m, lane_row(L, t->to, K_LINK), t->link_start,
                  has_recv ? t->recv_end : t->link_end, K_LINK, now, g->from, peer, tag, mark);
}

/* A multicast's lanes: a target's name after its mark, a node that is no
 * target dim until it relays (the engine serves it). */
static void lane_labels(struct view *v, struct cellbuf *cb, const struct lanes *L,
                        const struct engine *e, const unsigned char *crit)
{
    const struct cluster *c = e->c;
    const struct glyphs *g = glyphs_for(v->ascii);
    static const char *const tags[3] = {"send", "link", "recv"};
    int nw = L->lw - 3 - (L->rpl >= 2 ? 5 : 0), mw = c->target && nw > 2 ? 2 : 0;
    for (int i = 0; i < L->count; i++) {
        int p = L->pick ? L->pick[i] : L->top + i, y = L->y + i * L->rpl;
        unsigned attr = p == v->sel ? R_SEL : p == c->source && !L->ports ? (unsigned)(R_NORMAL | AF_BOLD)
                                                                          : R_NORMAL;
        if (crit && crit[p] == CRIT_WHOLE && p != v->sel)
            attr = R_CRIT;
        else if (!cluster_is_target(c, p) && p != c->source && e->parent[p] < 0 && p != v->sel)
            attr = R_DIM;   /* no target, and not relaying */
        int tagged = L->ports ? 2 : L->rpl >= 4 ? L->rpl - 1 : L->rpl >= 3 ? 3 : L->rpl;
        cb_fill(cb, L->x, y, L->lw - 2, tagged, ' ', p == v->sel ? R_SEL : R_NORMAL);
        if (mw && c->target[p])
            cb_put(cb, L->x, y, g->target, p == v->sel ? R_SEL : (unsigned)(R_NORMAL | AF_BOLD));
        cb_text(cb, L->x + mw, y, nw - mw, c->nodes[p].name, attr, v->ascii);
        unsigned tattr = p == v->sel ? R_SEL : R_DIM;
        if (L->ports) {
            cb_text(cb, L->x + nw + 1, y, 4, "send", tattr, v->ascii);
            cb_text(cb, L->x + nw + 1, y + 1, 4, "recv", tattr, v->ascii);
        } else if (L->rpl >= 3)
            for (int k = 0; k < 3; k++)
                cb_text(cb, L->x + nw + 1, y + k * thick(L) + thick(L) / 2, 4, tags[k], tattr, v->ascii);
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
    int c = tmap_col(m, now);
    if (c < 0 || c >= m->w)
        return;
    for (int r = y; r < y + h; r++) {
        const struct cell *cell = cb_at(cb, m->x0 + c, r);
        if (cell && cell->ch == ' ')
            cb_put(cb, m->x0 + c, r, glyphs_for(v->ascii)->cursor, R_CURSOR | AF_BOLD);
    }
}

/*
 * Is the sender of transfer i sitting idle for it at this step?  Its wait
 * shows from the moment it began, before the transfer itself starts, so the
 * idle sender is visible while it waits.
 */
static bool waiting(const struct gsrc *s, int i)
{
    const struct transfer *t = &s->e->tr[i];   /* its phase first: the record only when needed */
    return (shown(s, i) || (s->begun && t->wait_start <= s->now)) && t->wait_start < t->start;
}

/* The last cell of a bar on the critical path becomes the path's mark (◆, or * in ASCII). */
static void crit_mark(struct view *v, struct cellbuf *cb, const struct tmap *m, int y, double a, double b)
{
    if (y < 0 || !(b > a))
        return;
    int ca = tmap_col(m, a), ce = tmap_col(m, b);
    int c = ce - 1 > ca ? ce - 1 : ca;
    if (c >= 0 && c < m->w)
        cb_put(cb, m->x0 + c, y, glyphs_for(v->ascii)->crit, R_CRIT | AF_BOLD);
}

/* Lanes of one engine; crit marks the critical path in the labels and on its bars (may be NULL). */
void gantt_draw(struct view *v, struct cellbuf *cb, const struct lanes *L,
                       const struct tmap *m, const struct gsrc *s, const unsigned char *crit)
{
    const struct engine *e = s->e;
    lane_labels(v, cb, L, e, crit);
    for (int i = 0; i < e->ntr; i++)
        if (waiting(s, i))
            for (int r = 0, ys = lane_row(L, e->tr[i].from, K_SEND); r < thick(L); r++)
                wait_bar(v, cb, m, ys < 0 ? -1 : ys - thick(L) / 2 + r, e->tr[i].wait_start, e->tr[i].start,
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
    if (crit)   /* the critical path on the bars themselves: a glyph, so it survives mono and ASCII */
        for (int i = 0; i < e->ntr; i++)
            if (shown(s, i) && crit[e->tr[i].to]) {
                const struct transfer *t = &e->tr[i];
                crit_mark(v, cb, m, lane_row(L, t->from, K_SEND), t->start, t->send_end);
                if (crit[t->to] == CRIT_SEND)   /* a port wait: its send alone is on the path */
                    continue;
                if (t->recv_end > t->recv_start)
                    crit_mark(v, cb, m, lane_row(L, t->to, K_RECV), t->recv_start, t->recv_end);
                else
                    crit_mark(v, cb, m, lane_row(L, t->to, K_LINK), t->link_start, t->link_end);
            }
    cursor_line(v, cb, m, L->y, L->count * L->rpl, s->now);
}

void gantt_axis(struct view *v, struct cellbuf *cb, const struct tmap *m, int x, int y,
                      int lw, double now)
{
    const struct glyphs *g = glyphs_for(v->ascii);
    cb_fill(cb, x, y, lw, 2, ' ', R_NORMAL);
    /* "time (us)" when the cluster's unit is known, "(us)" where that does not fit */
    const char *unit = v->c ? time_unit_name(v->c->time_unit) : NULL;
    char label[16] = "time";
    if (unit) {
        snprintf(label, sizeof label, "time (%s)", unit);
        if ((int)strlen(label) > lw - 1)
            snprintf(label, sizeof label, "(%s)", unit);
    }
    cb_text(cb, x, y + 1, lw - 1, label, R_DIM, v->ascii);
    cb_fill(cb, m->x0, y, m->w, 1, g->hline, R_DIM);
    double span = m->w / m->cpu;
    int maxticks = m->w / 7 > 1 ? m->w / 7 : 1;
    double step = export_nice_step(span, maxticks);
    double first = ceil(m->t0 / step - 1e-9) * step;
    int free_from = 0;
    for (double t = first; t <= m->t0 + span; t += step) {
        int c = tmap_col(m, t);
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
        int c = tmap_col(m, now);
        if (c >= 0 && c < m->w)
            cb_put(cb, m->x0 + c, y, g->cursor_tick, R_CURSOR | AF_BOLD);
    }
}

/*
 * Rows per lane and the lanes shown, keeping the selection in view.  A node
 * of an exchange or a pipeline sends and receives at the same time, so its
 * lane never shrinks to one row: the lanes scroll instead.
 */
void gantt_fit(struct view *v, struct lanes *L, int n, int rows, bool overlap)
{
    if (L->ports)
        L->rpl = n * 3 <= rows ? 3 : 2;
    else
        L->rpl = n * 4 <= rows ? 4 : n * 3 <= rows ? 3 : n * 2 <= rows || overlap ? 2 : 1;
    if (L->rpl == 4 && n > 0) {   /* a tall terminal: thicker bars, up to 3 rows a kind, not empty rows */
        int th = (rows / n - 1) / 3;
        L->rpl = 3 * (th > 3 ? 3 : th < 1 ? 1 : th) + 1;
    }
    int fit = rows / L->rpl;
    if (fit < 1)
        fit = 1;
    v->top = ui_keep_in_view(v->top, v->sel, fit);
    if (v->top > n - fit)
        v->top = n - fit;
    if (v->top < 0)
        v->top = 0;
    L->top = v->top;
    L->count = n - v->top < fit ? n - v->top : fit;
    L->pick = NULL;
    v->page = fit;
    v->npick = 0;
}

/* The latest hold less a rounding's worth: monotone in the hold. */
static double near_end(double end)
{
    return end - 1e-9 * (fabs(end) > 1 ? fabs(end) : 1);
}

/* want[p] = 2 for the receivers (p < n) of e's transfers that hold at its latest
 * hold, in one pass over the records: those near the latest hold so far are kept
 * until a later hold leaves them all behind (near_end is monotone, so none near
 * the last one is dropped), then those near the last taken. */
static void want_last_holds(const struct engine *e, int n, unsigned char *want)
{
    int *near = NULL, nnear = 0, cap = 0;
    double end = -INFINITY;
    for (int i = 0; i < e->ntr && e->tr; i++) {
        double h = e->tr[i].hold;
        if (h > end) {
            if (near_end(h) > end)
                nnear = 0;
            end = h;
        }
        if (h >= near_end(end)) {
            if (nnear == cap) {
                cap = cap ? 2 * cap : 64;
                near = xrealloc(near, (size_t)cap * sizeof *near);
            }
            near[nnear++] = i;
        }
    }
    for (int k = 0; k < nnear; k++) {
        const struct transfer *t = &e->tr[near[k]];
        if (t->hold >= near_end(end) && t->to >= 0 && t->to < n && want[t->to] < 2)
            want[t->to] = 2;
    }
    free(near);
}

void gantt_pick(struct view *v, struct lanes *L)
{
    const struct cluster *c = v->c;
    v->npick = 0;
    L->pick = NULL;
    if (v->top != 0 || L->count >= c->n || L->count < 1)
        return;
    bool single = view_single_message(v);   /* a critical path and a first difference */
    unsigned char *want = xcalloc((size_t)c->n, 1);   /* 4, 3: named, 2: must, 1: would like */
    want[c->source] = 2;
    view_want(v, want);   /* a lesson's: the nodes its slide names (the slide screen's want hook) */
    unsigned hide = view_hides(v);
    for (int r = 0; r < v->nruns && r < 2; r++)   /* the nodes that set each makespan shown */
        if (!(hide & (r == 0 ? HIDE_END : HIDE_OTHER)))
            want_last_holds(vrun_engine(&v->runs[r]), c->n, want);
    if (single && v->nruns >= 2) {
        struct explain_diff d;
        if (explain_first_difference(vrun_engine(&v->runs[0]), vrun_engine(&v->runs[1]), &d) == 0 &&
            d.late >= 0 && want[d.late] < 2)
            want[d.late] = 2;
    }
    if (v->sel >= 0 && v->sel < c->n && want[v->sel] < 2)
        want[v->sel] = 2;
    unsigned char *crit = xmalloc((size_t)c->n);
    for (int r = 0; r < v->nruns && r < 2 && single; r++) {
        export_critical_path(vrun_engine(&v->runs[r]), crit);
        for (int p = 0; p < c->n; p++)
            if (crit[p] && !want[p])
                want[p] = 1;
    }
    free(crit);
    bool beyond = false;   /* the first page holds every lane that matters: pages as usual */
    for (int p = L->count; p < c->n && !beyond; p++)
        beyond = want[p] != 0;
    if (!beyond) {
        free(want);
        return;
    }
    v->pick = xrealloc(v->pick, (size_t)L->count * sizeof *v->pick);
    int n = 0;
    for (int level = 4; level >= 0 && n < L->count; level--)
        for (int p = 0; p < c->n && n < L->count; p++)
            if (want[p] == level) {
                want[p] = 5;   /* taken */
                n++;
            }
    for (int p = 0; p < c->n; p++)   /* by node order */
        if (want[p] == 5)
            v->pick[v->npick++] = p;
    free(want);
    L->pick = v->pick;
}

/* ---- bars of text ---- */

void ui_status_bar(struct view *v, struct cellbuf *cb, const struct hint *h, int nh)
{
    int y = cb->h - 1, x = 0, w = cb->w;
    cb_fill(cb, 0, y, w, 1, ' ', R_STATUS);
    /* "? help  q quit" always fits at the right end -- each only where the
     * key table says the key does that on this screen (q goes back from the
     * help and cancels a list). */
    const struct key_row *hr = keys_find(v->screen->id, '?'), *qr = keys_find(v->screen->id, 'q');
    bool help = hr && hr->req == REQ_HELP, quit = qr && qr->req == REQ_QUIT;
    const char *tail = help && quit ? " ? help  q quit " : help ? " ? help " : quit ? " q quit " : "";
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
    if (help) {
        tx = ui_put(v, cb, tx + 1, y, -1, R_STATUS | AF_BOLD, "?");
        tx = ui_put(v, cb, tx + 1, y, -1, R_STATUS, "help") + 1;
    }
    if (quit) {
        tx = ui_put(v, cb, tx + 1, y, -1, R_STATUS | AF_BOLD, "q");
        ui_put(v, cb, tx + 1, y, -1, R_STATUS, "quit");
    }
}

void ui_title_bar(struct view *v, struct cellbuf *cb, const char *mode, const char *right)
{
    cb_fill(cb, 0, 0, cb->w, 1, ' ', R_TITLE);
    const struct cluster *c = v->c;
    const char *dot = glyphs_for(v->ascii)->dot, *name = c->name ? c->name : "cluster";
    int rw = text_width(right), room = cb->w - rw - 4;
    /* "hetcast · NAME · N nodes, source S · MODEL · MODE" (an exchange: its
     * pattern instead of the source): drop "hetcast", then the node count,
     * then cut the name, until it fits (below 6 columns: no name). */
    char head[32], tail[512], who[200];
    if (v->exchange && v->runs[0].x && v->runs[0].x->pattern == XPAT_ALL_TO_SOME)
        snprintf(who, sizeof who, "all-to-some, %d receivers", v->runs[0].x->nrecv);
    else if (v->exchange)
        snprintf(who, sizeof who, "all-to-all");
    else if (c->target)   /* a multicast */
        snprintf(who, sizeof who, "source %s, %d target%s", c->nodes[c->source].name, c->ntargets,
                 c->ntargets == 1 ? "" : "s");
    else
        snprintf(who, sizeof who, "source %s", c->nodes[c->source].name);
    int namew = 0;
    for (int form = 0; form < 3; form++) {
        char nodes[64] = "";
        if (form < 2)
            snprintf(nodes, sizeof nodes, "%d nodes, ", c->n);
        snprintf(head, sizeof head, "%s%s", form == 0 ? "hetcast" : "", form == 0 ? dot : "");
        const char *model = v->nruns > 0 && v->runs[0].ok && !v->runs[0].x ? run_model_text(&v->runs[0].run)
                                                               : model_name(v->model);
        snprintf(tail, sizeof tail, "%s%s%s%s%s%s%s", dot, nodes, who, dot, model, dot, mode);
        namew = room - text_width(head) - text_width(tail);
        int want = text_width(name) < 12 ? text_width(name) : 12;
        if (namew >= want)
            break;
    }
    /* A name cut to a few letters and an ellipsis tells a class nothing:
     * then it goes, with the dot after it. */
    const char *rest = tail;
    if (namew < 6 && namew < text_width(name)) {
        namew = 0;
        if (!head[0])
            rest += strlen(dot);
    }
    int x = ui_put(v, cb, 1, 0, room, R_TITLE | AF_BOLD, head);
    if (namew > 0)
        x = ui_put(v, cb, x, 0, namew, R_TITLE | AF_BOLD, name);
    ui_put(v, cb, x, 0, room + 1 - x, R_TITLE | AF_BOLD, rest);
    ui_put(v, cb, cb->w - rw - 1, 0, rw, R_TITLE | AF_BOLD, right);
}

/* "label value" pairs separated by bars; returns the column after. */
int ui_pair(struct view *v, struct cellbuf *cb, int x, int y, const char *label,
                const char *value, unsigned vattr, bool sep)
{
    int need = (sep ? text_width(glyphs_for(v->ascii)->dot) : 0) + text_width(label) + 1 + text_width(value);
    if (x + need > cb->w - 1)
        return x;   /* no room: left out whole rather than cut */
    if (sep)
        x = ui_put(v, cb, x, y, -1, R_DIM, glyphs_for(v->ascii)->dot);
    x = ui_put(v, cb, x, y, -1, R_DIM, label);
    x = ui_put(v, cb, x + 1, y, -1, vattr | AF_BOLD, value);
    return x;
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

void ui_legend(struct view *v, struct cellbuf *cb, int y, int w, bool cursor)
{
    const struct glyphs *g = glyphs_for(v->ascii);
    struct item {
        uint32_t a, b;
        unsigned ra, rb;
        const char *name;
        bool on;
    } items[] = {
        {g->fill[0], g->fill[0], R_SEND, R_SEND, "send", true},
        {g->fill[1], g->fill[1], R_LINK, R_LINK, "link", view_kind(v)->links},
        {g->fill[2], g->fill[2], R_RECV, R_RECV, "recv", true},
        {g->wait, g->wait, R_WAIT, R_WAIT, "idle", any_wait(v)},
        {g->plan[0], g->plan[2], R_SEND_PLAN, R_RECV_PLAN, "planned", true},
        {g->cursor, ' ', R_CURSOR | AF_BOLD, R_NORMAL, "now", cursor},
        {g->crit, ' ', R_CRIT | AF_BOLD, R_NORMAL, "critical path", view_single_message(v)},
        {g->target, ' ', R_NORMAL | AF_BOLD, R_NORMAL, "target", v->c->target != NULL},
    };
    /* Right: scroll position and zoom. */
    char right[160] = "";
    size_t at = 0;
    if (v->npick > 0)
        at += (size_t)snprintf(right + at, sizeof right - at, "%d of %d nodes: those that matter (PgDn: all)",
                               v->npick, v->c->n);
    else if (v->c->n > v->page && v->page > 0)
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

/* What run i's step shown says; its last step not while a slide's question hides its end. */
static void narrate_run(const struct view *v, int i, char *buf, size_t size)
{
    const struct engine *e = vrun_engine(&v->runs[i]);
    unsigned hidden = view_hides(v) & (i == 0 ? HIDE_END : i == 1 ? HIDE_OTHER : 0);
    if (hidden && v->applied[i] >= e->nev && e->nev > 0)
        snprintf(buf, size, "the end is hidden until the answer: ?(a)");
    else if (!v->runs[i].x)
        run_narrate(&v->runs[i].run, v->applied[i] - 1, buf, size);
    else
        engine_narrate(e, v->applied[i] - 1, buf, size);
}

void ui_messages(struct view *v, struct cellbuf *cb, int y, int w)
{
    if (v->msg[0]) {
        unsigned attr = v->msg_kind == MSG_ERROR ? R_ERROR : R_INFO;
        cb_fill(cb, 0, y, w, 2, ' ', attr);
        ui_wrap(v, cb, 1, y, w - 2, 2, attr | AF_BOLD, v->msg);
        return;
    }
    char buf[1024], line[1100];
    if (v->nruns == 1) {
        if (!v->runs[0].x)
            run_narrate(&v->runs[0].run, v->step - 1, buf, sizeof buf);
        else
            engine_narrate(vrun_engine(&v->runs[0]), v->step - 1, buf, sizeof buf);
        const char *about = v->c->description;
        if (v->step == 0 && about && about[0]) {   /* the cluster's own words, when it opens */
            snprintf(line, sizeof line, "%s; %s: %s", buf, v->c->name ? v->c->name : "cluster", about);
            for (char *nl = line; (nl = strchr(nl, '\n')) != NULL;)
                *nl = ' ';
        } else if (v->step >= v->nsteps && v->step > 0)
            snprintf(line, sizeof line, "%s. End: %s %s.", buf, view_kind(v)->end_word,
                     ui_num(vrun_end(&v->runs[0])));
        else
            snprintf(line, sizeof line, "%s", buf);
        ui_wrap(v, cb, 1, y, w - 2, 2, R_NORMAL, line);
        return;
    }
    int latest = v->step > 0 ? v->order[v->step - 1].run : -1;
    char said[2][1024];   /* each schedule's narration */
    for (int i = 0; i < 2; i++)
        narrate_run(v, i, said[i], sizeof said[i]);
    /* Two narrations that do not fit a row each (or three timelines for two
     * rows): the latest one whole, wrapped over both rows, rather than both
     * cut mid-sentence (L shows every one). */
    bool fits = v->nruns == 2;
    for (int i = 0; i < 2; i++)
        fits = fits && text_width(vrun_sched_name(&v->runs[i])) + 2 + text_width(said[i]) <= w - 3;
    if (!fits && latest < 0 && v->nruns > 2) {   /* three timelines at the start: what each is */
        snprintf(line, sizeof line, "%s, %s and your own schedule (you) on one time axis: l steps "
                 "through all three", vrun_sched_name(&v->runs[0]), vrun_sched_name(&v->runs[1]));
        ui_wrap(v, cb, 1, y, w - 2, 2, R_NORMAL, line);
        return;
    }
    if (!fits && latest >= 0) {
        narrate_run(v, latest, buf, sizeof buf);
        snprintf(line, sizeof line, "%s: %s", vrun_sched_name(&v->runs[latest]), buf);
        ui_wrap(v, cb, 1, y, w - 2, 2, R_NORMAL, line);
        return;
    }
    for (int i = 0; i < 2; i++) {
        int x = ui_put(v, cb, 1, y + i, -1, R_HEAD | AF_BOLD, vrun_sched_name(&v->runs[i]));
        ui_put(v, cb, x, y + i, -1, R_HEAD | AF_BOLD, ":");
        cb_text(cb, x + 2, y + i, w - x - 3, said[i], i == latest ? (unsigned)(R_NORMAL | AF_BOLD) : R_DIM,
                v->ascii);
    }
}

/* ---- the main screen ---- */

int ui_pane_width(const struct cellbuf *cb)
{
    int tw = cb->w / 3;
    if (tw < 28)
        tw = 28;
    if (tw > 44)
        tw = 44;
    return tw;
}
