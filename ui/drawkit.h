/*
 * ui/drawkit.h - what the screens (screen_*.c) and the side panes (panes.c)
 * share, all drawn by draw.c with the glyphs of ui/glyphs.h: text
 * placement, the Gantt lanes and the time axis, and the bars of text every
 * screen has (title, "label value" pairs, legend, message lines, key
 * hints).  Internal to ui/; no curses.
 */
#ifndef HETCAST_DRAWKIT_H
#define HETCAST_DRAWKIT_H

#include "ui/cellbuf.h"
#include "ui/glyphs.h"
#include "ui/view.h"

/* Text at (x, y), at most maxw columns; returns the column after it. */
int ui_put(struct view *v, struct cellbuf *cb, int x, int y, int maxw, unsigned attr,
           const char *s);

/* The first item shown of a list scrolled rows at a time, so that sel stays in view. */
int ui_keep_in_view(int top, int sel, int rows);

/* Word-wrap s into at most rows lines of width w from (x, y); the last line is cut. */
void ui_wrap(struct view *v, struct cellbuf *cb, int x, int y, int w, int rows, unsigned attr,
             const char *s);

/* The rows ui_wrap needs for all of s in width w (0 for an empty s). */
int ui_wrap_rows(const char *s, int w);

/* ---- time on the x axis ---- */

struct tmap {
    int x0, w;          /* the columns of the time area */
    double t0, cpu;     /* first time shown, columns per time unit */
};

/* Fit [0, tmax] in w columns from x0, zoomed (v->zoom), with now kept in view (sets v->t0). */
struct tmap tmap_make(struct view *v, int x0, int w, double tmax, double now);
/* The column of time t, relative to x0 (clamped to +-10^6). */
int tmap_col(const struct tmap *m, double t);

/* ---- the Gantt lanes ---- */

struct lanes {
    int x, y, w, h;         /* the whole lane area, labels included */
    int lw;                 /* label columns (before the time area) */
    int rpl;                /* rows per lane: 4 (send, link, receive, gap), 3, 2 (send,
                               link+receive) or 1 (everything on one row) */
    bool ports;             /* an exchange: the two ports only, 3 (send, receive, gap) or
                               2 rows; the links are not drawn (many messages travel to a
                               node at once, and would hide each other) */
    int top, count;         /* nodes shown: top .. top+count-1 */
    const int *pick;        /* or these count nodes, in this order (a lesson's lanes that
                               matter: gantt_pick); NULL: top .. top+count-1 */
};

struct gsrc {
    const struct engine *e;
    const unsigned char *phase;         /* per transfer; NULL: all shown in full */
    double now;                         /* cursor; INFINITY: none */
    const struct transfer *preview;     /* drawn as planned (exercise) */
    bool begun;                         /* an event has been applied: idle waits may show */
};

/* The widest node name, in columns, at most 12. */
int gantt_name_cols(const struct cluster *c);
/*
 * Rows per lane and the lanes shown for n nodes in rows rows, keeping the
 * selection in view (sets v->top, v->page).  overlap: nodes send while they
 * receive (an exchange, a pipeline), so a lane never shrinks to one row.
 */
void gantt_fit(struct view *v, struct lanes *L, int n, int rows, bool overlap);
/* The lanes of one engine: labels, idle waits, bars, peer names, the cursor.
 * crit marks the critical path in the labels (may be NULL).  O(transfers). */
void gantt_draw(struct view *v, struct cellbuf *cb, const struct lanes *L, const struct tmap *m,
                const struct gsrc *s, const unsigned char *crit);
/* The time axis at row y (ticks at round values, the cursor's tick), "time" in the first lw columns. */
void gantt_axis(struct view *v, struct cellbuf *cb, const struct tmap *m, int x, int y, int lw,
                double now);

/*
 * A lesson's lanes that matter, when the lanes L has room for (L->count) are
 * fewer than the nodes and the view is not scrolled: the source, the nodes
 * the slide names (show), the late node of the first difference, the
 * selected node and the critical path, then the other nodes in order, as
 * many as fit, by node order.  Sets L->pick to v->pick (v->npick of them)
 * and leaves it NULL otherwise.
 */
void gantt_pick(struct view *v, struct lanes *L);

/*
 * The shared links' lanes of run r (ui/link_lanes.c): per link that two
 * flows' bytes cross at once (r->lanes), a row counting its flows per
 * column, then a row per flow shading its share of the link's bandwidth,
 * up to now; h rows from row top of them at y, labels in lw columns.
 * Returns the rows drawn.  link_lanes_rows: the rows in all.
 */
int link_lanes_draw(struct view *v, struct cellbuf *cb, int y, int h, int lw, const struct tmap *m,
                    const struct run *r, double now, int top);
int link_lanes_rows(const struct run *r);
/* The label columns that show every link's name and its count. */
int link_lanes_label_cols(const struct run *r);
/* Their legend at row y: the count's digits and the shades; which rows show of how many. */
void link_lanes_legend(struct view *v, struct cellbuf *cb, int y, int w, int top, int shown, int rows);

/* ---- bars of text ---- */

struct hint {
    const char *key, *what;
};

/* The top bar: "hetcast · NAME · N nodes, source S · MODEL · mode", right at the right end. */
void ui_title_bar(struct view *v, struct cellbuf *cb, const char *mode, const char *right);
/* "label value" at (x, y), after a separator when sep; left out whole when it does not fit.
 * Returns the column after it. */
int ui_pair(struct view *v, struct cellbuf *cb, int x, int y, const char *label, const char *value,
            unsigned vattr, bool sep);
/* The fills' legend at row y in w columns (the cursor's when cursor), the scroll and zoom on the right. */
void ui_legend(struct view *v, struct cellbuf *cb, int y, int w, bool cursor);
/* Two rows from y: the message, else the narration of the current step (of both runs in compare mode). */
void ui_messages(struct view *v, struct cellbuf *cb, int y, int w);
/* The bottom row: hints as far as they fit, then "? help  q quit" at the right end. */
void ui_status_bar(struct view *v, struct cellbuf *cb, const struct hint *h, int nh);
/* The width of a side pane (the tree, the exercise's pick list): a third of the screen, 28 to 44. */
int ui_pane_width(const struct cellbuf *cb);

/*
 * The side pane of run i in x..x+w, y..y+h, as far as its snapshot goes:
 * an exchange's table of sending orders, a pipelined tree with the LP's
 * n(u,v), one of Figueira's trees with positions and distances, or the
 * broadcast tree of any other scheduler.
 */
void pane_draw(struct view *v, struct cellbuf *cb, int x, int y, int w, int h, int i);

#endif
