/*
 * screen_main.c - the main screen: the schedule(s) on a time axis, stepped
 * one engine event at a time.  Top to bottom: title bar, summary (makespan,
 * lower bound, optimum, 2T+beta; a tree's cost, a pipeline's throughputs,
 * an exchange's completion and idle waits), legend, the Gantt lanes (two
 * panes in compare mode, each under a heading), the time axis (and a
 * pipeline's phases), two message lines, the key hints; the side pane
 * (panes.c: a tree, or an exchange's table of orders) on the right when
 * open.  Compare mode and the side pane are modes of this screen, not
 * screens: they combine, and every key works the same in them.  Its keys
 * are its rows in keys.c; what they do is main_request, which opens the
 * other screens (view_screen_open).  It keeps nothing of its own: what it
 * shows is the view's.
 */
#include "ui/drawkit.h"
#include "ui/screen_chooser.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/exchange.h"
#include "engine/explain.h"
#include "output/export.h"
#include "support/numfmt.h"
#include "sched/optimal_sum.h"
#include "sched/pipeline.h"
#include "output/report.h"
#include "session/trace.h"
#include "session/lesson.h"

/* What stands for a value hidden until the slide's answer is revealed (a). */
#define HIDDEN "?(a)"

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

/*
 * The summary is drawn in two passes, so that the values a lesson's slide
 * names (show = {...}) come right after the run's end and are never the
 * ones cut at the right: pass 1 draws the first items (fpair: the end,
 * each schedule's end) and the named ones, pass 2 the others after them.
 */
static int summary_pass;   /* 1 or 2 while summary_row draws; 0: everything */

static bool named(const struct view *v, const char *label)
{
    if (!v->lesson)
        return false;
    const struct slide *s = &v->lesson->slides[v->slide];
    return slide_shows(s, label) ||
           (strcmp(label, "2T+\xce\xb2") == 0 || strcmp(label, "2T+beta") == 0 ? slide_shows(s, "2T+beta") : false);
}

static int spair(struct view *v, struct cellbuf *cb, int x, int y, const char *label, const char *value,
                 unsigned vattr, bool sep)
{
    if (summary_pass != 0 && named(v, label) != (summary_pass == 1))
        return x;
    return ui_pair(v, cb, x, y, label, value, vattr, sep);
}

static int fpair(struct view *v, struct cellbuf *cb, int x, int y, const char *label, const char *value,
                 unsigned vattr, bool sep)
{
    return summary_pass == 2 ? x : ui_pair(v, cb, x, y, label, value, vattr, sep);
}

/* A pair whose value has a long and a short form: the long one when it fits. */
static int pair2(struct view *v, struct cellbuf *cb, int x, int y, const char *label,
                 const char *value, const char *shorter, unsigned vattr, bool sep)
{
    int was = x;
    x = spair(v, cb, x, y, label, value, vattr, sep);
    return x != was ? x : spair(v, cb, x, y, label, shorter, vattr, sep);
}

/* "predicted 6 · measured 6.01 · error +0.01 (+0.17%)": a prediction and its measured run. */
static int trace_pairs(struct view *v, struct cellbuf *cb, int x, int y)
{
    struct trace_error e = trace_makespan_error(&v->runs[0].run, &v->runs[1].run);
    char pred[160], err[80];
    snprintf(pred, sizeof pred, "%s", ui_num(e.predicted));
    x = fpair(v, cb, x, y, vrun_sched_name(&v->runs[0]), pred, R_NORMAL, false);
    if (view_hides(v) & HIDE_OTHER)   /* the measurement is what the question asks about */
        return fpair(v, cb, x, y, "measured", HIDDEN, R_NORMAL, true);
    x = fpair(v, cb, x, y, "measured", ui_num(e.measured), R_NORMAL, true);
    if (isfinite(e.percent))
        snprintf(err, sizeof err, "%s%s (%+.2f%%)", e.error > 0 ? "+" : "", ui_num(e.error), e.percent);
    else
        snprintf(err, sizeof err, "%s%s", e.error > 0 ? "+" : "", ui_num(e.error));
    return pair2(v, cb, x, y, "error", err, ui_num(e.error), R_NORMAL, true);
}

/* "A 6 · B 5 · difference +1 (+20%)": the two runs' end times and how they differ. */
static int compare_pairs(struct view *v, struct cellbuf *cb, int x, int y)
{
    if (vrun_measured(&v->runs[1]))
        return trace_pairs(v, cb, x, y);
    unsigned hide = view_hides(v);
    for (int i = 0; i < 2; i++)
        x = fpair(v, cb, x, y, vrun_sched_name(&v->runs[i]),
                    hide & (i ? HIDE_OTHER : HIDE_END) ? HIDDEN : ui_num(vrun_end(&v->runs[i])), R_NORMAL,
                    i > 0);
    if (hide & (HIDE_OTHER | HIDE_END))
        return x;   /* the difference would give it away */
    double a = vrun_end(&v->runs[0]), o = vrun_end(&v->runs[1]), d = a - o;
    char diff[80];
    if (o > 0)
        snprintf(diff, sizeof diff, "%s%s (%+.0f%%)", d > 0 ? "+" : "", ui_num(d), 100.0 * d / o);
    else
        snprintf(diff, sizeof diff, "%s", ui_num(d));
    x = spair(v, cb, x, y, "difference", diff, d > 0 ? R_BAD : d < 0 ? R_GOOD : R_NORMAL, true);
    for (int i = 2; i < v->nruns; i++)   /* the student's schedule */
        x = fpair(v, cb, x, y, vrun_sched_name(&v->runs[i]), ui_num(vrun_end(&v->runs[i])), R_NORMAL, true);
    return x;
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
    for (int i = 0; i < v->nruns && i < 2; i++) {
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
    return spair(v, cb, x, y, v->nruns == 1 ? "idle senders" : "idle time", both,
                x0->nwaits > 0 ? R_WAIT : R_NORMAL, true);
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

/* What a pipelined run's throughput is measured against: the LP optimum, or
 * under one-port-uni the LP's upper bound (no optimum is known there). */
static double lp_of(const struct run *r)
{
    return timing_shares_port(r->model) ? r->sched.throughput_bound : r->sched.optimal_throughput;
}

/* A pipelined run: slices, the tree's throughput, the LP optimum, the fraction, the measured rate. */
static int pipeline_pairs(struct view *v, struct cellbuf *cb, int x, int y)
{
    const struct run *r0 = &v->runs[0].run;
    char k[32], tp[2][40], frac[2][40], both[100], lp[40], meas[40];
    const char *tps[2] = {tp[0], tp[1]}, *fracs[2] = {frac[0], frac[1]};
    snprintf(k, sizeof k, "%d", r0->sched.slices);
    x = spair(v, cb, x, y, "slices", k, R_NORMAL, true);
    for (int i = 0; i < 2; i++) {
        const struct run *r = &v->runs[i < v->nruns ? i : 0].run;
        if (!vrun_pipelined(&v->runs[i < v->nruns ? i : 0])) {
            snprintf(tp[i], sizeof tp[i], "-");
            snprintf(frac[i], sizeof frac[i], "-");
            continue;
        }
        rate_text(tp[i], sizeof tp[i], r->sched.throughput);
        double ref = lp_of(r);
        if (isfinite(r->sched.throughput) && isfinite(ref) && ref > 0)
            snprintf(frac[i], sizeof frac[i], "%.3g%%", 100.0 * r->sched.throughput / ref);
        else
            snprintf(frac[i], sizeof frac[i], "?");
    }
    per_run(v, both, sizeof both, tps);
    x = spair(v, cb, x, y, "throughput", both, R_NORMAL, true);
    rate_text(lp, sizeof lp, lp_of(r0));
    x = spair(v, cb, x, y, timing_shares_port(r0->model) ? "LP bound" : "LP optimum", lp, R_NORMAL,
                true);
    per_run(v, both, sizeof both, fracs);
    x = spair(v, cb, x, y, "fraction", both, R_NORMAL, true);
    int K = r0->sched.slices;
    if (v->nruns == 1 && K >= 2) {
        rate_text(meas, sizeof meas,   /* to 12 digits, as the text report: 0.2, not 0.19999999999999993 */
                  numfmt_round(pipe_measured_throughput(&r0->eng, K / 2, K - 1), 12));
        x = spair(v, cb, x, y, "measured", meas, R_NORMAL, true);
    }
    return x;
}

static int summary_items(struct view *v, struct cellbuf *cb, int x, int y);

static void summary_row(struct view *v, struct cellbuf *cb, int y)
{
    summary_pass = 1;
    int x = summary_items(v, cb, 1, y);
    summary_pass = 2;
    summary_items(v, cb, x, y);
    summary_pass = 0;
}

/* The summary's items from column x (one pass of summary_row); the column after them. */
static int summary_items(struct view *v, struct cellbuf *cb, int x, int y)
{
    unsigned hide = view_hides(v);
    if (v->nruns == 1)
        x = fpair(v, cb, x, y, view_kind(v)->end_word,
                    hide & HIDE_END ? HIDDEN : ui_num(vrun_end(&v->runs[0])), R_NORMAL, false);
    else
        x = compare_pairs(v, cb, x, y);
    enum vkind_id kind = view_kind(v)->id;
    if (kind == VK_EXCHANGE) {
        return exchange_pairs(v, cb, x, y);
    }
    if (kind == VK_PIPELINE) {
        return pipeline_pairs(v, cb, x, y);
    }
    if (kind == VK_TREE && v->runs[0].run.sched.has_tree_cost) {   /* Figueira's cost beside the makespan */
        char cost[2][40] = {"-", "-"}, both[100];
        const char *vals[2] = {cost[0], cost[1]};
        for (int i = 0; i < v->nruns && i < 2; i++) {   /* the two schedulers (not the student's) */
            const struct sched *sc = &v->runs[i].run.sched;
            snprintf(cost[i], sizeof cost[i], "%s", sc->has_tree_cost ? ui_num(sc->tree_cost) : "-");
        }
        per_run(v, both, sizeof both, vals);
        x = spair(v, cb, x, y, "tree cost", both, R_CRIT, true);
    }
    if (named(v, "sum")) {   /* the sum of completion times, on a slide about it (Khuller & Kim) */
        char sum[2][40] = {"-", "-"}, both[100];
        const char *vals[2] = {sum[0], sum[1]};
        bool hid = (hide & (v->nruns >= 2 ? HIDE_END | HIDE_OTHER : HIDE_END)) != 0;
        for (int i = 0; i < v->nruns && i < 2; i++)
            snprintf(sum[i], sizeof sum[i], "%s", hid ? HIDDEN : ui_num(sched_sum_of_holds(&v->runs[i].run.eng)));
        per_run(v, both, sizeof both, vals);
        x = spair(v, cb, x, y, "sum", both, R_NORMAL, true);
    }
    const struct run *b = bounds_run(v);
    char opt[80], g2[80];
    x = spair(v, cb, x, y, "lower bound", ui_num(b->lower_bound), R_NORMAL, true);
    optimum_text(b, opt, sizeof opt);
    if (view_hides(v) & HIDE_OPTIMUM)
        snprintf(opt, sizeof opt, HIDDEN);
    x = spair(v, cb, x, y, "optimum", opt, R_NORMAL, true);
    double limit;
    if (b->has_beta) {
        if ((view_hides(v) & HIDE_OPTIMUM) && !named(v, "2T+beta"))
            snprintf(g2, sizeof g2, HIDDEN);   /* 2T+beta and beta give T away */
        else if (run_guarantee(b, &limit))
            snprintf(g2, sizeof g2, "%s%s", ui_num(limit), b->consistent ? "" : " (void: speeds inconsistent)");
        else
            snprintf(g2, sizeof g2, "? (T unknown)");
        x = spair(v, cb, x, y, v->ascii ? "2T+beta" : "2T+\xce\xb2", g2, R_NORMAL, true);
    }
    return x;
}

/* Does a slide's open question hide a schedule's end (a drawn run's, not only the optimum)? */
static bool end_hidden(const struct view *v)
{
    return (view_hides(v) & (v->nruns >= 2 ? HIDE_END | HIDE_OTHER : HIDE_END)) != 0;
}

/*
 * The axis's end while a schedule's end is hidden (a slide's question asks
 * about it): past every end, at a multiple of a coarse round step (a half of
 * the end or more: 6 and 7 both give 10), so that neither the axis's end
 * nor its last label can be read back as the hidden value.
 */
static double hidden_end_axis(double tmax)
{
    double step = export_nice_step(tmax, 2);
    return (floor(tmax / step) + 1) * step;
}

static void main_hints(struct view *v, struct cellbuf *cb)
{
    const struct glyphs *g = glyphs_for(v->ascii);
    /* No exercise beside an exchange or a pipeline (x says why). */
    bool exercise = view_single_message(v);
    const struct hint all[] = {
        {v->ascii ? "l" : g->right, "next"}, {v->ascii ? "h" : g->left, "back"},
        {"p", v->playing ? "pause" : "play"}, {"c", v->nruns >= 2 ? "single" : "compare"},
        {"t", view_kind(v)->pane_word}, {"x", "exercise"}, {"s", "sched"}, {"m", "model"},
        {"g/G", "start/end"}, {"+/-", "zoom"}, {"e", "export"}, {"r", "reload"},
    };
    struct hint h[sizeof all / sizeof all[0]];
    int n = 0;
    for (int i = 0; i < (int)(sizeof all / sizeof all[0]); i++)
        if (exercise || strcmp(all[i].key, "x") != 0)
            h[n++] = all[i];
    ui_status_bar(v, cb, h, n);
}

/* The side pane: wider for an exchange's table, as far as two fifths of the screen. */
static int side_width(const struct view *v, const struct cellbuf *cb)
{
    int pw = ui_pane_width(cb);
    if (!v->exchange)
        return pw;
    int nw = gantt_name_cols(v->c) > 10 ? 10 : gantt_name_cols(v->c);
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
    const struct glyphs *g = glyphs_for(v->ascii);
    cb_text(cb, 0, y, lw - 1, "pipeline", R_DIM, v->ascii);
    for (int k = 0; k < ns; k++) {
        if (!(seg[k].b > seg[k].a))
            continue;
        int ca = tmap_col(m, seg[k].a), ce = tmap_col(m, seg[k].b);
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

/*
 * Between the compare panes, once the cursor has reached it: the first
 * decision where the two schedules part, and what it costs (engine/explain.c).
 * Cut to the row; the narration log (L) has it whole.
 */
static void first_difference(struct view *v, struct cellbuf *cb, int y, int w, double now)
{
    char text[1024];
    if (end_hidden(v)) {   /* it would tell the hidden end */
        ui_put(v, cb, 1, y, w - 2, R_DIM | AF_BOLD,
               vrun_measured(&v->runs[1]) ? "measured - predicted: " HIDDEN : "first difference: " HIDDEN);
        return;
    }
    if (vrun_measured(&v->runs[1])) {   /* a measured run: how far each transfer is off */
        if (view_trace_shift(v, text, sizeof text, now))
            ui_put(v, cb, 1, y, w - 2, R_DIM | AF_BOLD, text);
        return;
    }
    if (!view_first_difference(v, text, sizeof text, now, w - 2))
        return;
    ui_put(v, cb, 1, y, w - 2, R_CRIT | AF_BOLD, text);
}

/*
 * With no row between the panes (a small terminal, 60x16), the first
 * difference takes the message lines instead of the narration at the step
 * the cursor reaches it and at the end, so it is on the screen there too;
 * the other steps narrate as usual (L has both).  True if it drew.
 */
static bool first_difference_messages(struct view *v, struct cellbuf *cb, int y, int w, double now)
{
    struct explain_diff d;
    char text[1024];
    if (v->msg[0] || v->nruns < 2 || !view_single_message(v) || end_hidden(v) ||
        explain_first_difference(vrun_engine(&v->runs[0]), vrun_engine(&v->runs[1]), &d) < 0 || !d.parted)
        return false;
    bool there = v->step > 0 && (v->step == v->nsteps || now == d.time);
    if (!there || !view_first_difference(v, text, sizeof text, now, 2 * (w - 2) - 2))
        return false;
    cb_fill(cb, 0, y, w, 2, ' ', R_NORMAL);
    ui_wrap(v, cb, 1, y, w - 2, 2, R_CRIT | AF_BOLD, text);
    return true;
}

/* Is now past every end the slide's question leaves shown (it would tell a hidden one)? */
static bool hidden_now(const struct view *v, double now)
{
    unsigned hide = view_hides(v);
    if (!end_hidden(v))
        return false;
    for (int i = 0; i < v->nruns && i < 2; i++)
        if (!(hide & (i == 0 ? HIDE_END : HIDE_OTHER)) && now <= vrun_end(&v->runs[i]))
            return false;
    return now > 0;
}

/* The title bar: the schedulers shown, the step and the time (hidden while it would tell). */
static void main_title(struct view *v, struct cellbuf *cb, double now)
{
    char right[160];
    const char *t = hidden_now(v, now) ? HIDDEN : ui_num(now);
    if (v->playing)
        snprintf(right, sizeof right, "%s %.1f/s  step %d/%d  t=%s", v->ascii ? ">" : "\xe2\x96\xb6",
                 1000.0 / view_play_ms(v), v->step, v->nsteps, t);
    else
        snprintf(right, sizeof right, "step %d/%d  t=%s", v->step, v->nsteps, t);
    char mode[200];
    if (v->nruns >= 2 && vrun_measured(&v->runs[1]))
        snprintf(mode, sizeof mode, "%s: predicted vs measured", vrun_sched_name(&v->runs[0]));
    else if (v->nruns >= 2)
        snprintf(mode, sizeof mode, "%s vs %s%s", vrun_sched_name(&v->runs[0]),
                 vrun_sched_name(&v->runs[1]), v->nruns > 2 ? " + you" : "");
    else
        snprintf(mode, sizeof mode, "%s", vrun_sched_name(&v->runs[0]));
    ui_title_bar(v, cb, mode, right);
}

/* Pane i's heading at row y, w wide: its scheduler, its end (hidden while the slide's question
 * hides it), its throughput or tree cost, and whether it is proven. */
static void pane_head(struct view *v, struct cellbuf *cb, int i, int y, int w)
{
    const struct vrun *vr = &v->runs[i];
    cb_fill(cb, 0, y, w, 1, ' ', R_HEAD);
    char head[200], extra[80] = "";
    if (vrun_pipelined(vr))
        snprintf(extra, sizeof extra, "%sthroughput %.3g", glyphs_for(v->ascii)->dot,
                 vr->run.sched.throughput);
    else if (!vr->x && vr->run.sched.has_tree_cost)
        snprintf(extra, sizeof extra, "%stree cost %s", glyphs_for(v->ascii)->dot,
                 ui_num(vr->run.sched.tree_cost));
    snprintf(head, sizeof head, "%s%s%s%s %s%s%s", vrun_sched_name(vr),
             i == 0 && v->nruns >= 2 && vrun_measured(&v->runs[1]) ? " (predicted)" : "",
             glyphs_for(v->ascii)->dot, view_kind(v)->end_word,
             view_hides(v) & (i == 0 ? HIDE_END : i == 1 ? HIDE_OTHER : 0) ? HIDDEN
                                                                          : ui_num(vrun_end(vr)),
             extra,
             vr->x ? ""
             : vr->you ? " (your exercise)"
             : vr->run.sched.status == OPT_PROVEN ? " (proven optimal)"
             : vr->run.sched.status == OPT_GAVE_UP ? " (search gave up: not proven)" : "");
    ui_put(v, cb, 1, y, w - 2, R_HEAD | AF_BOLD, head);
}

/* Are the shared links' lanes shown in place of the nodes' (f)? */
static bool showing_flows(const struct view *v)
{
    return v->flows && v->nruns == 1 && !v->runs[0].x && v->runs[0].run.shared &&
           v->runs[0].run.lanes.n > 0;
}

static int clamp_flow_top(const struct view *v, int top);

/* The shared links' lanes in L's area, their legend in the row above; sets L->lw and *m.
 * Returns the row under them. */
static int draw_flows(struct view *v, struct cellbuf *cb, struct lanes *L, struct tmap *m,
                      double tmax, double now)
{
    const struct run *r = &v->runs[0].run;
    v->page = L->h;
    v->flow_top = clamp_flow_top(v, v->flow_top);
    int lw = link_lanes_label_cols(r), nl = gantt_name_cols(v->c) + 7;
    lw = nl > lw ? nl : lw;
    if (lw > L->w / 3)
        lw = L->w / 3;
    *m = tmap_make(v, lw, L->w - lw, tmax, now);
    int shown = link_lanes_draw(v, cb, L->y, L->h, lw, m, r, now, v->flow_top);
    cb_fill(cb, 0, L->y - 1, L->w, 1, ' ', R_NORMAL);
    link_lanes_legend(v, cb, L->y - 1, L->w, v->flow_top, shown, link_lanes_rows(r));
    L->lw = lw;
    return L->y + shown;
}

static void draw_main(struct view *v, struct cellbuf *cb)
{
    int w = cb->w, h = cb->h;
    double now = view_now(v);
    main_title(v, cb, now);
    summary_row(v, cb, 1);

    /* A lesson keeps its slide strip (number, title, question) above the legend. */
    int strip = view_strip(v, cb, 2, w) ? 1 : 0;
    int gy = 3 + strip, gh = h - 8 - strip, gw = w, sw = side_width(v, cb);
    if (v->tree)
        gw = w - sw - 1;
    const struct cluster *c = v->c;
    double tmax = 0;
    for (int i = 0; i < v->nruns; i++)
        if (vrun_end(&v->runs[i]) > tmax)
            tmax = vrun_end(&v->runs[i]);
    if (end_hidden(v))
        tmax = hidden_end_axis(tmax);
    struct lanes L = {0, gy, gw, gh, 0, 2, !view_kind(v)->links, 0, 0, NULL};
    bool overlap = !view_single_message(v);   /* nodes that send while they receive */
    int nw = gantt_name_cols(c);
    /* Compare: two (with the student's schedule three) panes of equal
     * height, each a heading and the same nodes (one scroll moves them
     * all), with a blank row between them when that costs no lane. */
    int pane = 0, np = v->nruns;
    bool pane_gap = true;
    if (np == 1) {
        gantt_fit(v, &L, c->n, gh, overlap);
        gantt_pick(v, &L);
    } else {
        pane = (gh - np - (np - 1)) / np;
        if ((gh - np) / np > pane && c->n > pane && c->n <= (gh - np) / np) {
            pane = (gh - np) / np;
            pane_gap = false;
        }
        gantt_fit(v, &L, c->n, pane, overlap);
        gantt_pick(v, &L);
    }
    L.lw = nw + 3 + (L.rpl >= 2 ? 5 : 0);
    struct tmap m = tmap_make(v, L.lw, gw - L.lw, tmax, now);
    ui_legend(v, cb, 2 + strip, gw, true);
    /* The last row of a lane is blank when it has one for the gap. */
    int gap = (!L.ports && L.rpl >= 4) || (L.ports && L.rpl == 3) ? 1 : 0;
    int ay = h - 5, pane_y[VIEW_MAX_RUNS] = {gy, gy, gy};
    if (showing_flows(v)) {
        ay = draw_flows(v, cb, &L, &m, tmax, now);
    } else if (v->nruns == 1) {
        unsigned char *crit = NULL;
        if (view_single_message(v) && v->step >= v->nsteps) {
            crit = xmalloc((size_t)c->n);
            export_critical_path(vrun_engine(&v->runs[0]), crit);
        }
        struct gsrc s = {vrun_engine(&v->runs[0]), v->snap[0].phase, now, NULL, v->snap[0].step > 0};
        gantt_draw(v, cb, &L, &m, &s, crit);
        free(crit);
        ay = gy + L.count * L.rpl - gap;
    } else {
        int y = gy;
        for (int i = 0; i < np; i++) {
            pane_y[i] = y;
            const struct vrun *vr = &v->runs[i];
            pane_head(v, cb, i, y, gw);
            struct lanes P = L;
            P.y = y + 1;
            struct gsrc s = {vrun_engine(vr), v->snap[i].phase, now, NULL, v->step > 0};
            unsigned char *crit = NULL;   /* each schedule's critical path once it is complete */
            if (view_single_message(v) && v->applied[i] >= vrun_engine(vr)->nev) {
                crit = xmalloc((size_t)c->n);
                export_critical_path(vrun_engine(vr), crit);
            }
            gantt_draw(v, cb, &P, &m, &s, crit);
            free(crit);
            y += 1 + L.count * L.rpl + (pane_gap ? 1 : 0);
            if (i == 0 && pane_gap)
                first_difference(v, cb, y - 1, gw, now);
        }
        ay = y - (pane_gap ? 1 : 0);
    }
    /* The axis right under the lanes (the rest of a tall screen stays empty). */
    if (ay > h - 5)
        ay = h - 5;
    gantt_axis(v, cb, &m, 0, ay, L.lw, now);
    if (v->nruns == 1 && vrun_pipelined(&v->runs[0]) && ay + 2 < h - 3)
        phase_band(v, cb, &m, ay + 2, L.lw, &v->runs[0].run, now);
    if (v->tree) {
        int tx = w - sw, th = h - 6 - strip;   /* down to the row above the messages */
        for (int y = gy - 1; y < gy - 1 + th + 1; y++)
            cb_put(cb, tx - 1, y, glyphs_for(v->ascii)->vline, R_DIM);
        if (v->nruns == 1) {
            pane_draw(v, cb, tx, gy - 1, w - tx, th + 1, 0);
        } else {
            /* Each pane beside its own Gantt chart. */
            for (int i = 0; i < v->nruns; i++) {
                int top = i == 0 ? gy - 1 : pane_y[i];
                int end = i + 1 < v->nruns ? pane_y[i + 1] : gy + th;
                pane_draw(v, cb, tx, top, w - tx, end - top, i);
            }
        }
    }
    if (pane_gap || !first_difference_messages(v, cb, h - 3, w, now))
        ui_messages(v, cb, h - 3, w);
    main_hints(v, cb);
}

/* ---- keys ---- */

/* f: the shared links' lanes, or the nodes' again; a run that shares no link says why. */
static void toggle_flows(struct view *v)
{
    if (v->flows) {
        v->flows = false;
        return;
    }
    const struct run *r = &v->runs[0].run;
    if (v->nruns > 1)
        view_message(v, MSG_ERROR, "f shows the shared links of one schedule: leave compare (c) first");
    else if (!r->shared)
        view_message(v, MSG_ERROR, "f: this run shares no link (shared links: a SimGrid platform "
                     "under one-port or multi-port, -m)");
    else if (r->lanes.n == 0)
        view_message(v, MSG_INFO, "f: no link carries two flows at once in this schedule: each "
                     "transfer had its route to itself");
    else {
        v->flows = true;
        v->flow_top = 0;
    }
}

static int clamp_flow_top(const struct view *v, int top)
{
    int last = link_lanes_rows(&v->runs[0].run) - (v->page > 0 ? v->page : 1);
    return top > last ? (last > 0 ? last : 0) : top < 0 ? 0 : top;
}

static void select_node(struct view *v, int sel)
{
    if (sel < 0)
        sel = 0;
    if (sel >= v->c->n)
        sel = v->c->n - 1;
    v->sel = sel;
}

static unsigned main_request(struct view *v, enum ui_req req, int key)
{
    int page = v->page > 1 ? v->page : 1;
    switch (req) {
    case REQ_NEXT:
        if (v->step < v->nsteps)
            view_step_to(v, v->step + 1);
        else if (v->nruns == 2 && vrun_measured(&v->runs[1]))
            view_message(v, MSG_INFO, "end: makespan %g predicted, %g measured (g or Home: back to "
                         "the start)", vrun_end(&v->runs[0]), vrun_end(&v->runs[1]));
        else
            view_message(v, MSG_INFO, "end of the schedule: %s %g (g or Home: back to the start)",
                         view_kind(v)->end_word, vrun_end(&v->runs[0]));
        break;
    case REQ_PREV:
        if (v->step > 0)
            view_step_to(v, v->step - 1);
        break;
    case REQ_START:
        view_step_to(v, key == UK_END || key == 'G' ? v->nsteps : 0);
        break;
    case REQ_SLIDE:   /* a, y, w, ] and [: the lesson's, whose slide the view is */
        if (!view_behind(v, req, key))
            view_message(v, MSG_INFO, "no lesson is open: hetcast lesson FILE.lua presents one");
        break;
    case REQ_PLAY:
        v->playing = !v->playing;
        if (v->playing && v->step >= v->nsteps)
            view_step_to(v, 0);
        break;
    case REQ_SPEED:
        view_change_speed(v, key == '<' || key == ',' ? -1 : 1);
        break;
    case REQ_SCHED:
        v->playing = false;
        if (key == 'S' && v->nruns < 2)
            view_message(v, MSG_INFO, "S changes the second scheduler of compare mode (c); s the first");
        else
            view_screen_open(v, &screen_chooser, key == 'S' ? CH_SECOND : CH_SCHED);
        break;
    case REQ_MODEL:
        v->playing = false;
        view_screen_open(v, &screen_chooser, CH_MODEL);
        break;
    case REQ_COMPARE:
        view_set_compare(v, v->nruns == 1);
        break;
    case REQ_PANE:
        v->tree = !v->tree;
        break;
    case REQ_EXERCISE:
        v->playing = false;
        view_screen_open(v, &screen_exercise, 0);
        break;
    case REQ_SELECT:
        if (showing_flows(v))
            v->flow_top = clamp_flow_top(v, v->flow_top + (key == UK_UP ? -1 : 1));
        else
            select_node(v, v->sel + (key == UK_UP ? -1 : 1));
        break;
    case REQ_PAGE:
        if (showing_flows(v))
            v->flow_top = clamp_flow_top(v, v->flow_top + (key == UK_PGUP ? -page : page));
        else if (key == UK_PGUP) {
            select_node(v, v->sel - page);
            v->top -= page;
            if (v->top < 0)
                v->top = 0;
        } else {
            select_node(v, v->sel + page);
            v->top += page;
        }
        break;
    case REQ_SOURCE:
        view_set_source(v, v->sel);
        break;
    case REQ_EXPORT:
        view_export(v, NULL);
        break;
    case REQ_CLEAR:
        view_clear_message(v);
        break;
    case REQ_FACTS:
        if (key == 'f')
            toggle_flows(v);
        else
            view_screen_open(v, &screen_facts, key == 'L');
        break;
    case REQ_FIND:
        if (key == 'n' || key == 'N')
            view_find_again(v, key == 'n' ? 1 : -1);
        else
            view_screen_open(v, &screen_prompt, key == ':' ? ':' : '/');
        break;
    default:
        return view_request(v, req, key);
    }
    return UI_HANDLED | UI_REDRAW;
}

const struct screen screen_main = {
    .name = "main",
    .id = SCR_MAIN,
    .draw = draw_main,
    .request = main_request,
};
