/*
 * output/export.c - SVG and CSV export of schedules, and the tree layout shared
 * with the view (output/export.h).
 *
 * The SVG is laid out in user units at a fixed width: one section per run
 * (lanes of send bars above receive bars, links in the receive row before
 * the receive), one shared time axis, then each run's broadcast tree drawn
 * on the same axis (a node sits at the time it holds the message), then the
 * summary.  Everything it shows comes from the runs; nothing is recomputed.
 */
#include "output/export.h"
#include "output/report.h"
#include "output/spool.h"

#include "engine/explain.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "support/atomic.h"
#include "support/csvfield.h"
#include "support/diag.h"
#include "support/numfmt.h"
#include "session/trace.h"

/* ---- the tree ---- */

static int tree_order(const struct engine *e, struct spool *sp, int *order, int *depth);

int export_tree_order(const struct engine *e, int *order, int *depth)
{
    return tree_order(e, NULL, order, depth);
}

/* export_tree_order; the bookings from sp when not NULL (output/spool.h). */
static int tree_order(const struct engine *e, struct spool *sp, int *order, int *depth)
{
    int n = e->n;
    if (n <= 0)
        return 0;
    int *first = xmalloc((size_t)n * sizeof *first);
    int *last = xmalloc((size_t)n * sizeof *last);
    int *next = xmalloc((size_t)n * sizeof *next);
    int *stack = xmalloc((size_t)n * sizeof *stack);
    int *sdepth = xmalloc((size_t)n * sizeof *sdepth);
    for (int p = 0; p < n; p++)
        first[p] = last[p] = next[p] = -1;
    struct spool_cursor at;
    spool_cursor_start(&at, e, sp);
    for (const struct transfer *t; (t = spool_cursor_next(&at));) {
        if (t->msg != 0 || e->parent[t->to] != t->from)
            continue;
        if (last[t->from] < 0)
            first[t->from] = t->to;
        else
            next[last[t->from]] = t->to;
        last[t->from] = t->to;
    }
    spool_cursor_end(&at);
    int count = 0, top = 0;
    /* Roots: nodes holding the message without a sender (the source). */
    for (int r = n - 1; r >= 0; r--)
        if (engine_holds(e, r, 0) && e->parent[r] < 0) {
            stack[top] = r;
            sdepth[top++] = 0;
        }
    while (top > 0 && count < n) {
        int u = stack[--top], du = sdepth[top];
        order[count] = u;
        if (depth)
            depth[count] = du;
        count++;
        /* Push the children in reverse so the first booked comes out first. */
        int kids = 0;
        for (int v = first[u]; v >= 0; v = next[v])
            kids++;
        if (top + kids > n)
            break;
        int at = top + kids;
        for (int v = first[u]; v >= 0; v = next[v]) {
            stack[--at] = v;
            sdepth[at] = du + 1;
        }
        top += kids;
    }
    free(first);
    free(last);
    free(next);
    free(stack);
    free(sdepth);
    return count;
}

/* Booking i of e, from its records or from sp (a lean run's spool). */
static const struct transfer *booking(const struct engine *e, struct spool *sp, long long i, struct transfer *buf)
{
    if (!sp)
        return &e->tr[i];
    return spool_read(sp, i, buf) == 0 ? buf : NULL;
}

int export_critical_path(const struct engine *e, unsigned char *mark)
{
    return export_critical_path_spool(e, NULL, mark);
}

int export_critical_path_spool(const struct engine *e, struct spool *sp, unsigned char *mark)
{
    memset(mark, 0, (size_t)e->n);
    int end = -1;
    double worst = -INFINITY;
    for (int p = 0; p < e->n; p++)
        if (e->parent[p] >= 0 && engine_hold_time(e, p, 0) > worst) {
            worst = engine_hold_time(e, p, 0);
            end = p;
        }
    if (end < 0)
        return -1;
    mark[e->c->source] = CRIT_WHOLE;
    /* Back from the last hold: a transfer waits for its sender's hold (the
     * transfer into the sender is next) or for its sender's port (the
     * earlier send that held it is next, its send alone on the path). */
    mark[end] = CRIT_WHOLE;
    if (sp ? e->lean : e->tr && !e->lean) {
        long long ntr = sp ? sp->n : e->ntr;
        int *in = xmalloc((size_t)e->n * sizeof *in), *prev = xmalloc((size_t)(ntr ? ntr : 1) * sizeof *prev),
            *last = xmalloc((size_t)e->n * sizeof *last);
        for (int p = 0; p < e->n; p++)
            in[p] = last[p] = -1;
        struct spool_cursor at;
        spool_cursor_start(&at, e, sp);
        long long i = 0;
        /* a sender's sends in order; the records read in place (the cursor fetches names ahead) */
        for (const struct transfer *t; (t = sp ? spool_cursor_next(&at) : i < ntr ? &e->tr[i] : NULL); i++) {
            if (t->msg != 0) {
                prev[i] = -1;
                continue;
            }
            in[t->to] = (int)i;
            prev[i] = last[t->from];
            last[t->from] = (int)i;
        }
        spool_cursor_end(&at);
        int cur = in[end];
        struct transfer b1, b2;
        for (long long guard = 0; cur >= 0 && guard <= ntr; guard++) {
            const struct transfer *t = booking(e, sp, cur, &b1);
            if (!t)
                break;   /* a spool that cannot be read: spool_check says so */
            int j = prev[cur];
            const struct transfer *tj = j >= 0 ? booking(e, sp, j, &b2) : NULL;
            if (t->start > engine_hold_time(e, t->from, 0) && tj && tj->free == t->start) {
                cur = j;   /* a port wait */
                if (!mark[tj->to])
                    mark[tj->to] = CRIT_SEND;
                continue;
            }
            mark[t->from] = CRIT_WHOLE;
            cur = in[t->from];
        }
        free(in);
        free(prev);
        free(last);
    } else {   /* lean: no records, the tree chain only */
        for (int p = end, guard = 0; p >= 0 && guard <= e->n; p = e->parent[p], guard++)
            mark[p] = CRIT_WHOLE;
    }
    return end;
}

double export_nice_step(double span, int max_ticks)
{
    if (!(span > 0) || !isfinite(span) || max_ticks < 1)
        return 1;
    double raw = span / max_ticks, mag = pow(10, floor(log10(raw)));
    static const double steps[] = {1, 2, 5, 10};
    for (int i = 0; i < 4; i++)
        if (steps[i] * mag >= raw)
            return steps[i] * mag;
    return 10 * mag;
}

/* ---- SVG ---- */

#define SVG_W 1000.0
#define SVG_LEFT 120.0
#define SVG_RIGHT 40.0
#define SVG_DIFF_LINES 4   /* the first difference's caption: the loss and what pushed the late node */
#define COL_SEND "#4e79a7"
#define COL_LINK "#e8b923"
#define COL_RECV "#59a14f"
#define COL_CRIT "#d62728"
#define COL_GRID "#d9d9d9"
#define COL_TEXT "#222222"
#define COL_GHOST "#555555"   /* the prediction under a measured run */

struct svg {
    FILE *fp;
    double scale;       /* user units per time unit */
    double tmax;
    bool compact;       /* one row per lane: large clusters */
    double lane_h;
    int *lane;          /* node -> its lane, -1 when not drawn (a large cluster shows a subset) */
    int nlanes;
    const char *unit;   /* the cluster's time unit, NULL when it has none */
};

#define SVG_MAX_LANES 40    /* more nodes: the critical path and the latest to hold the message */

/* Text into XML: a byte that is not text (support/diag.h's rule: a label
 * cut to its buffer may end inside a character, and XML 1.0 cannot hold
 * control characters, U+FFFE or U+FFFF) becomes '?'; the SVG stays UTF-8. */
static void xml_text(FILE *fp, const char *s)
{
    while (s && *s) {
        int k = text_char(s);
        if (k < 0) {
            fputc('?', fp);
            s++;
            continue;
        }
        switch (*s) {
        case '&': fputs("&amp;", fp); break;
        case '<': fputs("&lt;", fp); break;
        case '>': fputs("&gt;", fp); break;
        case '"': fputs("&quot;", fp); break;
        default: fwrite(s, 1, (size_t)k, fp); break;
        }
        s += k;
    }
}

#define SVG_TARGET "\xe2\x97\x8e"   /* a multicast's target: the view's mark */

static double tx(const struct svg *g, double t)
{
    return SVG_LEFT + t * g->scale;
}

/* A text element; anchor is "start", "middle" or "end". */
static void svg_text(const struct svg *g, double x, double y, double size, const char *anchor,
                     const char *fill, const char *weight, const char *s)
{
    fprintf(g->fp, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" text-anchor=\"%s\" fill=\"%s\"%s%s%s>",
            x, y, size, anchor, fill, weight ? " font-weight=\"" : "", weight ? weight : "",
            weight ? "\"" : "");
    xml_text(g->fp, s);
    fputs("</text>\n", g->fp);
}

/* One bar [a, b) at row y..y+h, with a label inside when it fits, else beside. */
static void svg_bar(const struct svg *g, double a, double b, double y, double h, const char *fill,
                    const char *label, const char *label_fill, bool bold)
{
    if (!(b > a))
        return;
    double x0 = tx(g, a), w = (b - a) * g->scale;
    if (w < 1)
        w = 1;
    fprintf(g->fp,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
            "stroke=\"%s\" stroke-width=\"%s\"/>\n",
            x0, y, w, h, fill, bold ? COL_CRIT : "#ffffff", bold ? "1.5" : "0.5");
    if (!label || !label[0])
        return;
    double size = h >= 11 ? 10 : h - 1, need = (double)strlen(label) * size * 0.62 + 4;
    if (w >= need)
        svg_text(g, x0 + w / 2, y + h / 2 + size * 0.35, size, "middle", label_fill, NULL, label);
    else
        svg_text(g, x0 + w + 2, y + h / 2 + size * 0.35, size, "start", COL_TEXT, NULL, label);
}

/* Text wrapped at spaces into lines of at most cols characters; returns the y of the last line. */
static double svg_wrapped(const struct svg *g, double x, double y, double size, size_t cols,
                          int max_lines, const char *s)
{
    char line[512];
    double last = y;
    for (int n = 0; n < max_lines && *s; n++) {
        while (*s == ' ' || *s == '\n')
            s++;
        size_t len = strlen(s), cut = len;
        if (len > cols) {
            cut = cols;
            while (cut > 0 && s[cut] != ' ')
                cut--;
            if (cut == 0)
                cut = text_cut_len(s, cols);   /* no blank: between two characters */
        }
        if (n == max_lines - 1 && len > cut) {   /* the last line says there is more */
            text_fit(line, sizeof line, "%.*s ...", (int)(cut < sizeof line - 5 ? cut : sizeof line - 5), s);
        } else {
            text_fit(line, sizeof line, "%.*s", (int)(cut < sizeof line - 1 ? cut : sizeof line - 1), s);
        }
        for (char *p = line; *p; p++)
            if (*p == '\n')
                *p = ' ';
        svg_text(g, x, y + n * (size + 4), size, "start", "#555555", NULL, line);
        last = y + n * (size + 4);
        s += cut;
    }
    return last;
}

static void svg_legend(const struct svg *g, double y, bool measured)
{
    static const struct {
        const char *name, *col;
    } items[] = {{"send port", COL_SEND}, {"link", COL_LINK}, {"receive port", COL_RECV}};
    double x = SVG_LEFT;
    for (int i = 0; i < 3; i++) {
        fprintf(g->fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"%s\"/>\n", x,
                y - 9, items[i].col);
        svg_text(g, x + 18, y, 12, "start", COL_TEXT, NULL, items[i].name);
        x += 30 + 7.5 * (double)strlen(items[i].name);
    }
    fprintf(g->fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                   "stroke-width=\"2.5\"/>\n", x, y - 4, x + 18, y - 4, COL_CRIT);
    svg_text(g, x + 24, y, 12, "start", COL_TEXT, NULL, "critical path");
    if (measured) {   /* a measured run's lanes show its prediction as outlines */
        x += 24 + 7.5 * 13 + 12;
        fprintf(g->fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"none\" "
                       "stroke=\"%s\" stroke-dasharray=\"3,2\"/>\n", x, y - 9, COL_GHOST);
        svg_text(g, x + 18, y, 12, "start", COL_TEXT, NULL, "predicted (under measured)");
    }
}

static void svg_grid(const struct svg *g, double y0, double y1, double step)
{
    for (double t = 0; t <= g->tmax + step * 1e-9; t += step)
        fprintf(g->fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                       "stroke-width=\"0.5\"/>\n", tx(g, t), y0, tx(g, t), y1, COL_GRID);
}

static void svg_axis(const struct svg *g, double y, double step)
{
    fprintf(g->fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
            SVG_LEFT, y, tx(g, g->tmax), y, COL_TEXT);
    for (double t = 0; t <= g->tmax + step * 1e-9; t += step) {
        fprintf(g->fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
                tx(g, t), y, tx(g, t), y + 5, COL_TEXT);
        svg_text(g, tx(g, t), y + 18, 11, "middle", COL_TEXT, NULL, numfmt_txt(t));
    }
    char label[16];
    text_fit(label, sizeof label, g->unit ? "time (%s)" : "time", g->unit);
    svg_text(g, SVG_LEFT - 8, y + 18, 11, "end", COL_TEXT, NULL, label);
}

/* Dashed outlines of a bar [a, b) (the prediction under a measured bar). */
static void svg_ghost(const struct svg *g, double a, double b, double y, double h)
{
    if (!(b > a))
        return;
    fprintf(g->fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                   "stroke=\"%s\" stroke-width=\"1\" stroke-dasharray=\"3,2\"/>\n",
            tx(g, a), y, (b - a) * g->scale < 1 ? 1 : (b - a) * g->scale, h, COL_GHOST);
}

/* "fnf (measured): makespan 6.01 · error +0.01 (+0.17 %)" and the like: a run's heading. */
static void run_head(const struct run *r, const struct run *pred, char *buf, size_t size)
{
    size_t at = (size_t)text_fit(buf, size, "%s%s: makespan %s", r->sched.ops->name, run_tag(r),
                                 numfmt_txt(r->eng.makespan));
    if (at < size && r->sched.status == OPT_PROVEN)
        snprintf(buf + at, size - at, " (proven optimal)");
    if (at < size && pred) {
        struct trace_error e = trace_makespan_error(pred, r);
        at += (size_t)snprintf(buf + at, size - at, " \xc2\xb7 error %s%s", e.error > 0 ? "+" : "",
                               numfmt_txt(e.error));
        if (at < size && isfinite(e.percent))
            snprintf(buf + at, size - at, " (%+.2f %%)", e.percent);
    }
}

/* The Gantt lanes of one run, from y; returns the height used.  pred: a
 * measured run's prediction, drawn under it as outlines (NULL: none). */
static double svg_gantt(const struct svg *g, const struct run *r, const struct run *pred, double y,
                        double step, struct spool *sp)
{
    const struct engine *e = &r->eng;
    const struct cluster *c = r->c;
    unsigned char *crit = xmalloc((size_t)e->n ? (size_t)e->n : 1);
    export_critical_path_spool(e, sp, crit);
    char head[320];
    run_head(r, pred, head, sizeof head);
    svg_text(g, 12, y + 16, 15, "start", COL_TEXT, "bold", head);
    y += 26;
    double lh = g->lane_h, top = y;
    for (int p = 0; p < g->nlanes; p++) {
        double ly = y + p * lh;
        if (p % 2 == 1)
            fprintf(g->fp, "<rect x=\"0\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#f4f4f4\"/>\n",
                    ly, SVG_W, lh);
    }
    svg_grid(g, top, top + g->nlanes * lh, step);
    for (int p = 0; p < c->n; p++) {
        if (g->lane[p] < 0)
            continue;
        double ly = y + g->lane[p] * lh;
        char name[128];
        /* a multicast: its targets marked, a node that is no target a relay or grey */
        bool relay = !cluster_is_target(c, p) && r->eng.parent[p] >= 0;
        text_fit(name, sizeof name, "%s%s", c->nodes[p].name, p == c->source ? " (source)"
                 : c->target && c->target[p] ? " " SVG_TARGET : relay ? " (relay)" : "");
        double fs = g->compact ? (lh > 9 ? 9 : lh - 1) : 12;
        const char *col = crit[p] == CRIT_WHOLE ? COL_CRIT
                          : cluster_is_target(c, p) || relay || p == c->source ? COL_TEXT : "#999999";
        svg_text(g, SVG_LEFT - 8, ly + lh / 2 + fs * 0.35, fs, "end", col, crit[p] == CRIT_WHOLE ? "bold" : NULL,
                 name);
    }
    for (int i = 0; pred && i < pred->eng.ntr; i++) {   /* the prediction first, under the bars */
        const struct transfer *t = &pred->eng.tr[i];
        int lf = g->lane[t->from], lt = g->lane[t->to];
        double bh = g->compact ? lh - 2 : (lh - 6) / 2;
        if (lf >= 0)
            svg_ghost(g, t->start, t->send_end, y + lf * lh + (g->compact ? 1 : 2), bh);
        if (lt >= 0)
            svg_ghost(g, t->link_start, t->recv_end > t->recv_start ? t->recv_end : t->link_end,
                      y + lt * lh + (g->compact ? 1 : 4 + bh), bh);
    }
    struct spool_cursor at;
    spool_cursor_start(&at, e, sp);
    for (const struct transfer *t; (t = spool_cursor_next(&at));) {
        bool on_crit = t->msg == 0 && crit[t->to] && crit[t->from] && e->parent[t->to] == t->from,
             send_crit = on_crit;   /* a port wait (CRIT_SEND): the send alone is on the path */
        on_crit = on_crit && crit[t->to] == CRIT_WHOLE;
        double sy, ry, bh;
        int lf = g->lane[t->from], lt = g->lane[t->to];   /* -1: that end is not drawn */
        if (g->compact) {
            bh = lh - 2;
            sy = y + lf * lh + 1;
            ry = y + lt * lh + 1;
        } else {
            bh = (lh - 6) / 2;
            sy = y + lf * lh + 2;
            ry = y + lt * lh + 4 + bh;
        }
        char sl[160], rl[160], slice[16] = "";
        if (e->nmsg > 1 && !e->personal)   /* a pipelined slice: its number, from 1 */
            text_fit(slice, sizeof slice, "%d", t->msg + 1);
        text_fit(sl, sizeof sl, "%s\xe2\x86\x92%s", slice, c->nodes[t->to].name);   /* → */
        text_fit(rl, sizeof rl, "%s\xe2\x86\x90%s", slice, c->nodes[t->from].name); /* ← */
        if (lf < 0)
            sy = -1;
        if (lt < 0)
            ry = -1;
        const char *recv_label = g->compact ? NULL : rl;
        if (sy >= 0)
            svg_bar(g, t->start, t->send_end, sy, bh, COL_SEND, g->compact || lt < 0 ? NULL : sl, "#ffffff",
                    send_crit);   /* a send to a node not drawn: no label to overlap its neighbours */
        bool has_recv = t->recv_end > t->recv_start;
        if (ry < 0)
            continue;
        svg_bar(g, t->link_start, t->link_end, ry, bh, COL_LINK,
                has_recv && (t->recv_end - t->recv_start) * g->scale >= 30 ? NULL : recv_label,
                COL_TEXT, on_crit);
        svg_bar(g, t->recv_start, t->recv_end, ry, bh, COL_RECV,
                (t->recv_end - t->recv_start) * g->scale >= 30 ? recv_label : NULL, "#ffffff",
                on_crit);
    }
    spool_cursor_end(&at);
    double ms = tx(g, e->makespan);
    fprintf(g->fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                   "stroke-width=\"1.5\" stroke-dasharray=\"5,3\"/>\n",
            ms, top - 4, ms, top + g->nlanes * lh + 2, COL_CRIT);
    free(crit);
    return 26 + g->nlanes * lh + 8;
}

/* The broadcast tree of one run on the time axis, from y; returns the height used. */
static double svg_tree(const struct svg *g, const struct run *r, double y, struct spool *sp)
{
    const struct engine *e = &r->eng;
    const struct cluster *c = r->c;
    int n = c->n;
    int *order = xmalloc((size_t)n * sizeof *order), *row = xmalloc((size_t)n * sizeof *row);
    unsigned char *crit = xmalloc((size_t)n);
    int all = tree_order(e, sp, order, NULL), cnt = 0;
    for (int i = 0; i < all; i++)   /* the drawn nodes only, in the tree's order */
        if (g->lane[order[i]] >= 0)
            order[cnt++] = order[i];
    export_critical_path_spool(e, sp, crit);
    for (int p = 0; p < n; p++)
        row[p] = -1;
    for (int i = 0; i < cnt; i++)
        row[order[i]] = i;
    double rh = g->compact ? 11 : 20, fs = g->compact ? 9 : 12;
    char head[256];
    text_fit(head, sizeof head, "%s tree (%s%s): a node sits at the time it holds the message",
             c->target ? "multicast" : "broadcast", r->sched.ops->name, r->measured ? ", measured" : "");
    svg_text(g, 12, y + 16, 15, "start", COL_TEXT, "bold", head);
    y += 30;
    for (int i = 0; i < cnt; i++) {   /* edges first, under the nodes */
        int v = order[i], u = e->parent[v];
        while (u >= 0 && row[u] < 0)   /* a hidden sender: the edge comes from its nearest drawn ancestor */
            u = e->parent[u];
        if (u < 0)
            continue;
        bool on = crit[u] == CRIT_WHOLE && crit[v] == CRIT_WHOLE;
        fprintf(g->fp, "<path d=\"M%.1f,%.1f V%.1f H%.1f\" fill=\"none\" stroke=\"%s\" "
                       "stroke-width=\"%s\"/>\n",
                tx(g, engine_hold_time(e, u, 0)), y + row[u] * rh, y + i * rh,
                tx(g, engine_hold_time(e, v, 0)), on ? COL_CRIT : "#888888", on ? "2.5" : "1");
    }
    for (int i = 0; i < cnt; i++) {
        int v = order[i];
        double x = tx(g, engine_hold_time(e, v, 0)), cy = y + i * rh;
        fprintf(g->fp, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" fill=\"%s\"/>\n", x, cy,
                g->compact ? "3" : "5", crit[v] == CRIT_WHOLE ? COL_CRIT : COL_SEND);
        char label[200];
        if (e->parent[v] >= 0)
            text_fit(label, sizeof label, "%s -> %s%s  t=%s", c->nodes[e->parent[v]].name,
                     c->nodes[v].name, cluster_is_target(c, v) ? "" : " (relay)",
                     numfmt_txt(engine_hold_time(e, v, 0)));
        else
            text_fit(label, sizeof label, "%s (source)", c->nodes[v].name);
        /* Labels of late nodes go to the left of the node, on its own row (on a
         * white ground over its edge), so they stay on the page and never overlap
         * a neighbour's (above the edge they met the row above). */
        bool left = x > SVG_LEFT + 0.7 * (SVG_W - SVG_LEFT - SVG_RIGHT);
        if (left) {   /* a white ground over its own edge */
            double lw = (double)strlen(label) * fs * 0.6 + 4;
            fprintf(g->fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ffffff\" "
                           "stroke-width=\"%.1f\"/>\n", x - 9 - lw, cy, x - 9, cy, fs * 1.2);
        }
        svg_text(g, left ? x - 9 : x + 8, cy + fs * 0.35, fs, left ? "end" : "start",
                 crit[v] == CRIT_WHOLE ? COL_CRIT : COL_TEXT, NULL, label);
    }
    free(order);
    free(row);
    free(crit);
    return 30 + (cnt > 0 ? cnt : 1) * rh + 10;
}

static void summary_line(const struct run *r, char *buf, size_t size)
{
    size_t at = (size_t)text_fit(buf, size, "%s%s: makespan %s \xc2\xb7 lower bound %s",
                                 r->sched.ops->name, run_tag(r), numfmt_txt(r->eng.makespan),
                                 numfmt_txt(r->lower_bound));
    if (at < size && r->opt == OPT_PROVEN)
        at += (size_t)text_fit(buf + at, size - at, " \xc2\xb7 optimum %s", numfmt_txt(r->optimum));
    else if (at < size && r->opt == OPT_GAVE_UP)
        at += (size_t)text_fit(buf + at, size - at, " \xc2\xb7 optimum between %s and %s",
                               numfmt_txt(r->opt_lower), numfmt_txt(r->optimum));
    double limit;
    if (at < size && run_guarantee(r, &limit))
        at += (size_t)text_fit(buf + at, size - at, " \xc2\xb7 2T + \xce\xb2 = %s", numfmt_txt(limit));
    if (at < size && r->sched.segments > 1)   /* MPI's segmented broadcast */
        at += (size_t)text_fit(buf + at, size - at, " \xc2\xb7 %d segments", r->sched.segments);
    if (at < size && r->sched.slices > 0)   /* a pipelined run: its slices and throughputs */
        text_fit(buf + at, size - at, " \xc2\xb7 %d slices \xc2\xb7 throughput %s \xc2\xb7 LP optimum %s",
                 r->sched.slices, numfmt_txt(r->sched.throughput), numfmt_txt(r->sched.optimal_throughput));
}

/*
 * The nodes a large cluster's picture shows (g->lane): every node up to
 * SVG_MAX_LANES; above, the source, every run's critical path, then the
 * nodes that hold the message latest, in node order.  With options: the
 * nodes chosen (o->keep), or the source and the critical paths alone
 * (o->critical).  Returns how many.
 */
static int pick_lanes(struct svg *g, const struct run *runs, int k, const struct svg_opts *o,
                      struct spool *sp)
{
    const struct cluster *c = runs[0].c;
    g->lane = xmalloc((size_t)(c->n ? c->n : 1) * sizeof *g->lane);
    unsigned char *keep = xcalloc((size_t)(c->n ? c->n : 1), 1), *crit = xmalloc((size_t)(c->n ? c->n : 1));
    int want = c->n <= SVG_MAX_LANES ? c->n : SVG_MAX_LANES, have = 0;
    if (o && o->critical) {
        keep[c->source] = 1;
        for (int i = 0; i < k; i++) {
            export_critical_path_spool(&runs[i].eng, i == 0 ? sp : NULL, crit);
            for (int p = 0; p < c->n; p++)
                keep[p] |= crit[p];
        }
    } else if (o && o->keep) {
        memcpy(keep, o->keep, (size_t)c->n);
    } else if (want == c->n) {
        memset(keep, 1, (size_t)c->n);
        have = c->n;
    } else {
        keep[c->source] = 1;
        have = 1;
        for (int i = 0; i < k; i++) {
            export_critical_path_spool(&runs[i].eng, i == 0 ? sp : NULL, crit);
            for (int p = 0; p < c->n && have < want; p++)
                if (crit[p] && !keep[p]) {
                    keep[p] = 1;
                    have++;
                }
        }
        while (have < want) {   /* the latest holder not kept yet: O(n) a pick, want picks */
            int best = -1;
            double bt = -1;
            for (int p = 0; p < c->n; p++) {
                double h = engine_hold_time(&runs[0].eng, p, 0);
                if (!keep[p] && (best < 0 || h > bt)) {
                    best = p;
                    bt = h;
                }
            }
            if (best < 0)
                break;
            keep[best] = 1;
            have++;
        }
    }
    g->nlanes = 0;
    for (int p = 0; p < c->n; p++)
        g->lane[p] = keep[p] ? g->nlanes++ : -1;
    free(keep);
    free(crit);
    return g->nlanes;
}

static int svg_write(FILE *fp, const struct run *runs, int k, const struct svg_opts *o,
                     struct spool *sp);

int export_svg(FILE *fp, const struct run *runs, int k)
{
    return export_svg_opts(fp, runs, k, NULL);
}

int export_svg_opts(FILE *fp, const struct run *runs, int k, const struct svg_opts *o)
{
    return svg_write(fp, runs, k, o, NULL);
}

int export_svg_spool(FILE *fp, const struct run *r, const struct svg_opts *o, struct spool *sp,
                     char **cause)
{
    svg_write(fp, r, 1, o, sp);
    return spool_check(sp, cause);   /* fp's errors are the caller's, as export_svg_opts's */
}

/* compare's lines under the title: both schedules, the difference, which is
 * proven optimal, where they part; the next y. */
static double svg_compare_head(struct svg *g, const struct run *runs, int k, double y)
{
    char sub[768], fd[2048];
    const struct run *a = &runs[0], *b = &runs[1];
    double d = a->eng.makespan - b->eng.makespan;
    text_fit(sub, sizeof sub, "%s %s vs %s %s: difference %s%s%s%s%s", a->sched.ops->name,
             numfmt_txt(a->eng.makespan), b->sched.ops->name, numfmt_txt(b->eng.makespan),
             d > 0 ? "+" : "", numfmt_txt(d), b->eng.makespan > 0 ? " (" : "", "", "");   /* then the percent */
    size_t at = strlen(sub);
    if (b->eng.makespan > 0 && at < sizeof sub)
        at += (size_t)text_fit(sub + at, sizeof sub - at, "%+.0f%%)", 100.0 * d / b->eng.makespan);
    for (int i = 2; i < k && at < sizeof sub; i++)   /* more runs (the view's "you"): their makespans */
        at += (size_t)text_fit(sub + at, sizeof sub - at, " \xc2\xb7 %s %s", runs[i].sched.ops->name,
                               numfmt_txt(runs[i].eng.makespan));
    for (int i = 0; i < 2 && at < sizeof sub; i++)
        if (runs[i].sched.status == OPT_PROVEN)
            at += (size_t)text_fit(sub + at, sizeof sub - at, " \xc2\xb7 %s is proven optimal",
                                   runs[i].sched.ops->name);
    svg_text(g, 12, y, 14, "start", COL_TEXT, "bold", sub);
    y += 18;
    struct explain_diff ed;
    if (!a->eng.lean && !b->eng.lean && explain_first_difference(&a->eng, &b->eng, &ed) == 0) {
        explain_diff_text(&a->eng, &b->eng, a->sched.ops->name, b->sched.ops->name, &ed, fd, sizeof fd);
        y = svg_wrapped(g, 12, y, 12, 150, SVG_DIFF_LINES, fd) + 20;
    }
    return y;
}

/* export_svg_opts; runs[0]'s bookings from sp when not NULL (k is then 1). */
static int svg_write(FILE *fp, const struct run *runs, int k, const struct svg_opts *o,
                     struct spool *sp)
{
    if (k < 1)
        return -1;
    bool gantt = !o || o->parts != SVG_TREE, trees = !o || o->parts != SVG_GANTT;
    bool chosen = o && (o->critical || o->keep);
    const struct cluster *c = runs[0].c;
    struct svg g = {.fp = fp, .unit = time_unit_name(c->time_unit)};
    for (int i = 0; i < k; i++)
        if (runs[i].eng.makespan > g.tmax)
            g.tmax = runs[i].eng.makespan;
    if (!(g.tmax > 0))
        g.tmax = 1;
    g.scale = (SVG_W - SVG_LEFT - SVG_RIGHT) / g.tmax;
    pick_lanes(&g, runs, k, o, sp);
    g.compact = g.nlanes > 20;
    g.lane_h = g.compact ? 11 : 32;
    double step = export_nice_step(g.tmax, 12);

    double h = 100 + (c->description ? 2 * 16 : 0) + (k >= 2 ? 56 + 18.0 * k + (SVG_DIFF_LINES - 2) * 16 : 0) +
               (g.nlanes < c->n ? 18 : 0);
    for (int i = 0; i < k; i++) {
        int reached = 0;
        for (int p = 0; p < c->n; p++)
            reached += g.lane[p] >= 0 && engine_holds(&runs[i].eng, p, 0);
        if (gantt)
            h += 26 + g.nlanes * g.lane_h + 8;
        if (trees)
            h += 30 + (reached > 0 ? reached : 1) * (g.compact ? 11 : 20) + 10;
    }
    h += 40 + 22.0 * k + 20 - (gantt && trees ? 0 : 34);

    fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n",
            SVG_W, h, SVG_W, h);
    char title[512];
    char targets[64] = "";   /* a multicast */
    if (c->target)
        text_fit(targets, sizeof targets, ", %d target%s (" SVG_TARGET ")", c->ntargets,
                 c->ntargets == 1 ? "" : "s");
    text_fit(title, sizeof title, "%s \xe2\x80\x94 %d nodes, source %s%s, %s model",
             c->name ? c->name : "cluster", c->n, c->nodes[c->source].name, targets,
             run_model_text(&runs[0]));
    fprintf(fp, "<title>");
    xml_text(fp, title);
    fprintf(fp, "</title>\n<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
    svg_text(&g, 12, 30, 20, "start", COL_TEXT, "bold", title);
    double y = 52;
    bool measured = false;   /* (predicted, measured) pairs: session/trace.h */
    for (int i = 1; i < k; i++)
        measured = measured || runs[i].measured;
    for (int i = 1; measured && i < k; i++) {   /* each measured run's error, as a subtitle */
        if (!runs[i].measured)
            continue;
        char sub[400];
        struct trace_error e = trace_makespan_error(&runs[i - 1], &runs[i]);
        int at = snprintf(sub, sizeof sub, "%s: predicted %s, measured %s, error %s%s",
                          runs[i].sched.ops->name, numfmt_txt(e.predicted), numfmt_txt(e.measured),
                          e.error > 0 ? "+" : "", numfmt_txt(e.error));
        if (isfinite(e.percent) && at > 0 && (size_t)at < sizeof sub)
            snprintf(sub + at, sizeof sub - (size_t)at, " (%+.2f %%)", e.percent);
        svg_text(&g, 12, y, 14, "start", COL_TEXT, "bold", sub);
        y += 18;
    }
    if (measured)
        y += 2;
    else if (k >= 2)
        y = svg_compare_head(&g, runs, k, y);
    if (g.nlanes < c->n) {
        char note[160];
        text_fit(note, sizeof note, "showing %d of %d nodes: %s", g.nlanes, c->n,
                 o && o->critical ? "the source and the critical path"
                 : chosen         ? "the nodes chosen"
                                  : "the source, the critical path and the latest to hold the message");
        svg_text(&g, 12, y, 12, "start", COL_CRIT, NULL, note);
        y += 18;
    }
    if (c->description)   /* wrapped at spaces, at most three lines */
        y = svg_wrapped(&g, 12, y, 12, 150, 3, c->description);
    if (gantt) {
        svg_legend(&g, y + 26, measured);
        y += 40;
        for (int i = 0; i < k; i++)
            y += svg_gantt(&g, &runs[i], i > 0 && runs[i].measured ? &runs[i - 1] : NULL, y, step,
                           i == 0 ? sp : NULL);
        svg_axis(&g, y, step);
        y += 34;
    } else {
        y += 10;
    }
    if (trees) {
        for (int i = 0; i < k; i++)
            y += svg_tree(&g, &runs[i], y, i == 0 ? sp : NULL);
        svg_axis(&g, y - 6, step);
        y += 40;
    }
    for (int i = 0; i < k; i++) {
        char line[512];
        summary_line(&runs[i], line, sizeof line);
        svg_text(&g, 12, y, 13, "start", COL_TEXT, NULL, line);
        y += 22;
    }
    fprintf(fp, "</svg>\n");
    free(g.lane);
    return ferror(fp) ? -1 : 0;
}

/* ---- CSV ---- */

static void schedule_rows(FILE *fp, const struct run *r);

int export_schedule_csv(FILE *fp, const struct run *r)
{
    report_csv_version(fp);
    fprintf(fp, "scheduler,seq,from,to,send_start,send_end,link_start,link_end,recv_start,recv_end,"
                "hold,reason\n");
    schedule_rows(fp, r);
    return ferror(fp) ? -1 : 0;
}

/* One row per transfer of r, under export_schedule_csv's header. */
static void schedule_rows(FILE *fp, const struct run *r)
{
    for (int i = 0; i < r->eng.ntr; i++) {
        const struct transfer *t = &r->eng.tr[i];
        csvfield_put(fp, r->sched.ops->name);
        fprintf(fp, ",%d,", i + 1);
        csvfield_put(fp, r->c->nodes[t->from].name);
        fputc(',', fp);
        csvfield_put(fp, r->c->nodes[t->to].name);
        fprintf(fp, ",%s,%s,%s,%s,%s,%s,%s,", numfmt_num(t->start), numfmt_num(t->send_end), numfmt_num(t->link_start),
                numfmt_num(t->link_end), numfmt_num(t->recv_start), numfmt_num(t->recv_end), numfmt_num(t->hold));
        char *tmp;
        csvfield_put(fp, engine_reason(&r->eng, t, &tmp));
        free(tmp);
        fputc('\n', fp);
    }
}

/* ---- files ---- */

int export_to_file(const char *path, export_writer w, void *ctx, char **cause)
{
    struct atomic_file af;
    if (atomic_open(&af, path) != 0)
        return set_cause(cause, "cannot write %s: %s", path, atomic_why(&af, errno));
    errno = 0;
    if (w(af.fp, ctx) < 0) {
        int err = errno ? errno : EIO;   /* why the writer gave up, if it says */
        atomic_abort(&af);
        return set_cause(cause, "cannot write %s: %s", path, strerror(err));
    }
    if (atomic_commit(&af) != 0)
        return set_cause(cause, "cannot write %s: %s", path, strerror(errno));
    return 0;
}


struct svg_job {
    const struct run *runs;
    int k;
};

static int write_svg(FILE *fp, void *ctx)
{
    const struct svg_job *j = ctx;
    return export_svg(fp, j->runs, j->k);
}

/* Every schedule of the job in one file: the scheduler column tells them apart. */
static int write_csv(FILE *fp, void *ctx)
{
    const struct svg_job *job = ctx;
    export_schedule_csv(fp, &job->runs[0]);
    for (int i = 1; i < job->k; i++)
        if (!job->runs[i].measured)   /* a measured run is in its trace already */
            schedule_rows(fp, &job->runs[i]);
    return ferror(fp) ? -1 : 0;
}

int export_files(const struct run *runs, int k, const char *stem, char *svg_path,
                 size_t svg_size, char *csv_path, size_t csv_size, char **cause)
{
    char *svg = xasprintf("%s.svg", stem), *csv = xasprintf("%s.csv", stem);
    struct svg_job job = {runs, k};
    int rc = export_to_file(svg, write_svg, &job, cause);
    if (rc == 0)
        rc = export_to_file(csv, write_csv, &job, cause);
    if (rc == 0) {
        text_fit(svg_path, svg_size, "%s", svg);
        text_fit(csv_path, csv_size, "%s", csv);
    }
    free(svg);
    free(csv);
    return rc;
}
