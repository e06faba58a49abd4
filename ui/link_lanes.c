/*
 * ui/link_lanes.c - the shared links' lanes of the main screen (f): on a
 * platform timed on shared links (engine/flow.h), a lane per link that two
 * flows' bytes cross at once, in place of the node lanes.  A lane's first
 * row counts the flows on the link in each column (the most at once, +
 * above 9), the rows under it shade each flow's share of the link's
 * bandwidth; all up to the time cursor, as the node lanes show the bars.
 * The narration says the exact numbers of the step shown (session/run.c).
 */
#include <math.h>
#include <stdio.h>

#include "support/diag.h"
#include "ui/drawkit.h"

/* The shade of a share of a link's bandwidth: 1/2 and more, 1/4, 1/10, less. */
static uint32_t shade(bool ascii, double part)
{
    static const uint32_t uni[4] = {0x2588, 0x2593, 0x2592, 0x2591};
    static const char asc[4] = {'#', '=', '-', '.'};
    int k = part >= 0.5 ? 0 : part >= 0.25 ? 1 : part >= 0.1 ? 2 : 3;
    return ascii ? (uint32_t)asc[k] : uni[k];
}

int link_lanes_label_cols(const struct run *r)
{
    int w = 0;
    for (int k = 0; k < r->lanes.n; k++) {
        char lb[128];
        int nw = text_width(SHOWN(r->c->plat->link[r->lanes.lane[k].link].name, lb));
        w = nw > w ? nw : w;
    }
    return w + 5;
}

int link_lanes_rows(const struct run *r)
{
    int rows = 0;
    for (int k = 0; k < r->lanes.n; k++)
        rows += 1 + r->lanes.lane[k].n;
    return rows;
}

void link_lanes_legend(struct view *v, struct cellbuf *cb, int y, int w, int top, int shown, int rows)
{
    int x = ui_put(v, cb, 1, y, w - 2, R_NORMAL, "shared links: 2-9 flows, + more; share ");
    static const double at[4] = {0.5, 0.25, 0.1, 0.01};
    static const char *const name[4] = {"1/2+", "1/4+", "1/10+", "less"};
    for (int i = 0; i < 4 && x + 7 < w; i++) {
        cb_put(cb, x, y, shade(v->ascii, at[i]), R_LINK);
        x = ui_put(v, cb, x + 1, y, w - x - 1, R_NORMAL, name[i]) + 1;
    }
    char right[64];
    snprintf(right, sizeof right, "rows %d-%d of %d", top + 1, top + shown, rows);
    int rw = text_width(right);
    if (shown < rows && x + rw + 2 < w)
        ui_put(v, cb, w - rw - 1, y, rw, R_DIM, right);
}

/* Column c's times [a, b) of m, the part before now. */
static bool col_times(const struct tmap *m, int c, double now, double *a, double *b)
{
    *a = m->t0 + (c - 0.5) / m->cpu;
    *b = fmin(m->t0 + (c + 0.5) / m->cpu, now);
    return *a < *b || (c == 0 && *a <= now);
}

static void count_row(struct view *v, struct cellbuf *cb, int y, int lw, const struct tmap *m,
                      const struct run *r, int k, double now)
{
    const struct flow_lane *l = &r->lanes.lane[k];
    char lb[128], head[160];
    int at = isfinite(now) ? flow_lane_count(&r->lanes, &r->eng, k, now) : 0;
    snprintf(head, sizeof head, "%s", SHOWN(r->c->plat->link[l->link].name, lb));
    ui_put(v, cb, 0, y, lw - 4, R_HEAD | AF_BOLD, head);
    if (at >= 2) {
        snprintf(head, sizeof head, "%3d", at);
        ui_put(v, cb, lw - 4, y, 3, R_LINK_LABEL | AF_BOLD, head);
    }
    for (int c = 0; c < m->w; c++) {
        double a, b;
        if (!col_times(m, c, now, &a, &b))
            break;
        int n = flow_lane_most(&r->lanes, &r->eng, k, a, b);
        if (n >= 1)
            cb_put(cb, m->x0 + c, y, n > 9 ? '+' : (uint32_t)('0' + n), n >= 2 ? R_LINK_LABEL | AF_BOLD : R_DIM);
    }
}

static void flow_row(struct view *v, struct cellbuf *cb, int y, int lw, const struct tmap *m,
                     const struct run *r, int k, int i, double now)
{
    const struct flow_lane *l = &r->lanes.lane[k];
    const struct transfer *t = &r->eng.tr[l->tr[i]];
    double bw = r->c->plat->link[l->link].bandwidth;
    char nb[128], label[160];
    snprintf(label, sizeof label, " %s%s", glyphs_for(v->ascii)->to, SHOWN(r->c->nodes[t->to].name, nb));
    ui_put(v, cb, 0, y, lw - 5, t->to == v->sel ? R_SEL | AF_BOLD : R_NORMAL, label);
    double from = r->lanes.from[l->tr[i]];
    double now_rate = isfinite(now) ? flow_rate_at(&r->lanes, &r->flows, &r->eng, l->tr[i], now) : 0;
    if (now_rate > 0) {   /* its share at the cursor, in percent */
        snprintf(label, sizeof label, "%3.0f%%", 100 * now_rate / bw);
        ui_put(v, cb, lw - 5, y, 4, R_LINK_LABEL, label);
    }
    for (int c = 0; c < m->w; c++) {
        double a, b;
        if (!col_times(m, c, now, &a, &b))
            break;
        if (!(from < b && t->hold > a))
            continue;
        double mid = fmin(fmax((a + b) / 2, from), nextafter(t->hold, -INFINITY));
        double rate = flow_rate_at(&r->lanes, &r->flows, &r->eng, l->tr[i], mid);
        if (rate > 0)
            cb_put(cb, m->x0 + c, y, shade(v->ascii, rate / bw), R_LINK);
    }
}

int link_lanes_draw(struct view *v, struct cellbuf *cb, int y, int h, int lw, const struct tmap *m,
                    const struct run *r, double now, int top)
{
    int row = 0, shown = 0;
    for (int k = 0; k < r->lanes.n && shown < h; k++) {
        const struct flow_lane *l = &r->lanes.lane[k];
        for (int i = -1; i < l->n && shown < h; i++, row++) {
            if (row < top)
                continue;
            if (i < 0)
                count_row(v, cb, y + shown, lw, m, r, k, now);
            else
                flow_row(v, cb, y + shown, lw, m, r, k, i, now);
            shown++;
        }
    }
    return shown;
}
