/*
 * view.c - the view's state (ui/view.h): the runs, the steps, the actions
 * behind the keys, and the dispatch (a key's row in the key table, ui/keys.h,
 * to the current screen's request; the screens are screen_*.c, opened and
 * closed through their hooks, their data kept here unread).  Every
 * schedule shown comes from run_schedule(); stepping is engine_snapshot()
 * at the new event count, so going back replays exactly.  Actions that fail
 * leave the state as it was and say why in the message line.
 */
#include "ui/view.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/bounds.h"
#include "engine/explain.h"
#include "ui/glyphs.h"
#include "sched/exchange.h"
#include "output/export.h"
#include "support/lua_sandbox.h"
#include "sched/lua_sched.h"
#include "sched/optimal.h"
#include "sched/optimal_sum.h"
#include "sched/pipeline.h"
#include "output/report.h"
#include "output/report_exchange.h"
#include "sched/trees.h"
#include "session/lesson.h"
#include "session/trace.h"

static const int play_delays[] = {2000, 1000, 500, 250, 100, 40};   /* ms per step */
#define NSPEEDS ((int)(sizeof play_delays / sizeof play_delays[0]))
#define DEFAULT_SPEED 2
#define VIEW_OPT_SECONDS 5.0   /* the view's time limit for the optimal scheduler */
#define MAX_ZOOM 12   /* time zoomed in up to 2^12 times the fitted scale (+ and - in view_request) */
#define VIEW_BUSY_EXCHANGE_NODES 40   /* exchanges this large say "computing" first */
#define VIEW_BUSY_RUN_NODES 10000     /* broadcasts this large too (and Lua heuristics) */
#define VIEW_EXPORT_ASK_BYTES (4.0 * 1048576)   /* exports larger than this ask first (e again) */

void view_message(struct view *v, enum msg_kind kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->msg, sizeof v->msg, fmt, ap);
    va_end(ap);
    v->msg_kind = kind;
    if (v->lua_lines > 0) {   /* what a script printed meanwhile comes along */
        size_t len = strlen(v->msg);
        if (v->lua_lines == 1)
            snprintf(v->msg + len, sizeof v->msg - len, "%s%s", len ? " · " : "", v->lua_last);
        else
            snprintf(v->msg + len, sizeof v->msg - len, "%s%d lines printed, the last: %s",
                     len ? " · " : "", v->lua_lines, v->lua_last);
        v->lua_lines = 0;
    }
}

/*
 * print() of a Lua script (a heuristic or a cluster script) while the view
 * runs: on stderr it would scribble over the screen, so the view counts the
 * lines and shows the last with its next message (see view_message).
 */
static void lua_print_to_view(const char *script, const char *text, void *ud)
{
    struct view *v = ud;
    const char *slash = strrchr(script, '/');
    v->lua_lines++;
    snprintf(v->lua_last, sizeof v->lua_last, "%s: %s", slash ? slash + 1 : script, text);
}

void view_clear_message(struct view *v)
{
    v->msg[0] = '\0';
    v->msg_kind = MSG_NONE;
}

/* A cause of several lines: the first one, and how many follow. */
static void message_cause(struct view *v, const char *prefix, const char *cause)
{
    const char *c = cause ? cause : "failed";
    const char *nl = strchr(c, '\n');
    int more = 0;
    for (const char *p = c; (p = strchr(p, '\n')) != NULL; p++)
        if (p[1])
            more++;
    if (nl)
        view_message(v, MSG_ERROR, "%s%.*s (and %d more line%s)", prefix, (int)(nl - c), c, more,
                     more == 1 ? "" : "s");
    else
        view_message(v, MSG_ERROR, "%s%s", prefix, c);
}

static void busy(struct view *v, const char *what)
{
    if (v->busy)
        v->busy(v, what);
}

volatile sig_atomic_t *view_compute_begin(struct view *v, const char *what)
{
    if (what)
        busy(v, what);
    if (v->cancel)
        *v->cancel = 0;
    if (v->computing)
        v->computing(v, true);
    return v->cancel;
}

bool view_compute_end(struct view *v)
{
    if (v->computing)
        v->computing(v, false);
    return v->cancel && *v->cancel;
}

/* Around a computation: the front door watches for cancelling keys and
 * signals (ui/view.h); o gets the flag the core polls. */
static void computing_on(struct view *v, struct session_opts *o, const char *what)
{
    o->sopt.cancel = view_compute_begin(v, what);
}

/* After it: -1 with *cause saying the previous state is kept if it was cancelled. */
static int computing_off(struct view *v, int rc, char **cause)
{
    if (view_compute_end(v) && rc < 0) {
        free(*cause);
        *cause = xstrdup(SCHED_CANCELLED_TEXT " (what was shown is kept)");
    }
    return rc;
}

/* ---- the screens: opened and closed through their hooks ---- */

/* Where the view keeps screen s's data (a new slot at its first opening). */
static void **keep_slot(struct view *v, const struct screen *s)
{
    for (int i = 0; i < v->nkept; i++)
        if (v->kept[i].screen == s)
            return &v->kept[i].data;
    v->kept = xrealloc(v->kept, (size_t)(v->nkept + 1) * sizeof *v->kept);
    v->kept[v->nkept] = (struct kept_data){s, NULL};
    return &v->kept[v->nkept++].data;
}

void *view_screen_data(const struct view *v, const struct screen *s)
{
    for (int i = 0; i < v->nkept; i++)
        if (v->kept[i].screen == s)
            return v->kept[i].data;
    return NULL;
}

int view_hold(const struct view *v)
{
    for (int i = 0; i < v->nkept; i++) {
        int h = v->kept[i].screen->hold ? v->kept[i].screen->hold(v) : -1;
        if (h >= 0)
            return h;
    }
    return -1;
}

unsigned view_hides(const struct view *v)
{
    unsigned h = 0;
    for (int i = 0; i < v->nkept; i++)
        if (v->kept[i].screen->hides)
            h |= v->kept[i].screen->hides(v);
    return h;
}

bool view_strip(struct view *v, struct cellbuf *cb, int y, int w)
{
    for (int i = 0; i < v->nkept; i++)
        if (v->kept[i].screen->strip && v->kept[i].screen->strip(v, cb, y, w))
            return true;
    return false;
}

int view_answer(struct view *v, const char *answer)
{
    for (int i = 0; i < v->nkept; i++)
        if (v->kept[i].screen->answer)
            return v->kept[i].screen->answer(v, answer);
    view_message(v, MSG_INFO, "nothing asks a question here");
    return -1;
}

unsigned view_behind(struct view *v, enum ui_req req, int key)
{
    unsigned r = 0;
    for (int i = 0; i < v->nkept && !r; i++)
        if (v->kept[i].screen->behind)
            r = v->kept[i].screen->behind(v, req, key);
    return r;
}

void view_want(const struct view *v, unsigned char *want)
{
    for (int i = 0; i < v->nkept; i++)
        if (v->kept[i].screen->want)
            v->kept[i].screen->want(v, want);
}

int view_moves(const struct view *v, const int **from, const int **to)
{
    int n = 0;
    for (int i = 0; i < v->nkept && n == 0; i++)
        if (v->kept[i].screen->moves && v->kept[i].data)
            n = v->kept[i].screen->moves(v, from, to);
    return n;
}

bool view_first_difference(const struct view *v, char *buf, size_t size, double now, int width)
{
    if (v->nruns < 2 || !view_single_message(v))
        return false;
    struct explain_diff d;
    const struct engine *a = vrun_engine(&v->runs[0]), *b = vrun_engine(&v->runs[1]);
    if (explain_first_difference(a, b, &d) < 0 || !d.parted || now < d.time ||
        (isfinite(now) && v->step == 0))
        return false;
    const char *na = vrun_sched_name(&v->runs[0]), *nb = vrun_sched_name(&v->runs[1]);
    explain_diff_text(a, b, na, nb, &d, buf, size);
    if (width > 0 && text_width(buf) > width) {   /* the short form: the picks and who is late */
        const struct node *nd = v->c->nodes;
        int at = snprintf(buf, size, "first difference (t=%s): %s %s%s%s, %s %s%s%s", ui_num(d.time), na,
                          nd[d.a_from].name, glyphs_for(v->ascii)->to, nd[d.a_to].name, nb, nd[d.b_from].name,
                          glyphs_for(v->ascii)->to, nd[d.b_to].name);
        if (d.late >= 0 && d.worse >= 0 && at > 0 && (size_t)at < size)
            snprintf(buf + at, size - (size_t)at, "; %s loses %s (%s: %s, not %s)", d.worse == 0 ? na : nb,
                     ui_num(d.loss), nd[d.late].name, ui_num(d.late_hold[d.worse]),
                     ui_num(d.late_hold[1 - d.worse]));
    }
    return true;
}

bool view_trace_shift(const struct view *v, char *buf, size_t size, double now)
{
    if (v->nruns != 2 || !vrun_measured(&v->runs[1]) || (isfinite(now) && v->step == 0))
        return false;
    const struct engine *p = vrun_engine(&v->runs[0]), *m = vrun_engine(&v->runs[1]);
    size_t at = (size_t)snprintf(buf, size, "measured - predicted, held:");
    int shown = 0;
    for (int i = 0; i < m->ntr && i < p->ntr && at < size; i++) {
        if (m->tr[i].hold > now)
            continue;
        double d = trace_diff(m->tr[i].hold, p->tr[i].hold);
        at += (size_t)snprintf(buf + at, size - at, "%s%s %s%s", shown++ ? glyphs_for(v->ascii)->dot : " ",
                               v->c->nodes[m->tr[i].to].name, d > 0 ? "+" : "", ui_num(d));
    }
    return shown > 0;
}

/* Every screen lets go of what it made on the cluster (it changed, or the source did). */
static void forget_screens(struct view *v)
{
    for (int i = 0; i < v->nkept; i++)
        if (v->kept[i].screen->forget && v->kept[i].data)
            v->kept[i].screen->forget(v, v->kept[i].data);
}

int view_screen_open(struct view *v, const struct screen *s, int arg)
{
    if (s->open && s->open(v, keep_slot(v, s), arg) < 0)
        return -1;
    if (s->over) {
        v->back = v->screen;
        v->screen = s;
        return 0;
    }
    const struct screen *was = v->screen;
    v->screen = s;
    if (was && was != s && was->close)
        was->close(v, view_screen_data(v, was));
    return 0;
}

void view_screen_close(struct view *v)
{
    const struct screen *was = v->screen;
    v->screen = was->over && v->back ? v->back : screen_for(SCR_MAIN);
    if (was->close)
        was->close(v, view_screen_data(v, was));
}

/* ---- loading ---- */

/* Load o's cluster; its warnings, if any, joined into *warnings for the message line. */
static struct cluster *load_quiet(const struct session_opts *o, char **warnings, char **cause)
{
    struct diag warn;
    diag_init(&warn);
    struct cluster *c = session_load(o, &warn, cause);
    *warnings = diag_join(&warn);
    diag_free(&warn);
    return c;
}

/* Do two clusters read the same?  Compared as the CSV the core writes. */
static bool cluster_same(const struct cluster *a, const struct cluster *b)
{
    char *ta = NULL, *tb = NULL;
    size_t la = 0, lb = 0;
    FILE *fa = open_memstream(&ta, &la), *fb = open_memstream(&tb, &lb);
    bool same = false;
    if (fa && fb) {
        int ra = cluster_write_csv(a, fa), rb = cluster_write_csv(b, fb);
        fclose(fa);
        fclose(fb);
        fa = fb = NULL;
        same = ra == 0 && rb == 0 && la == lb && memcmp(ta, tb, la) == 0 && a->source == b->source;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    free(ta);
    free(tb);
    return same;
}

/* ---- runs and steps ---- */

const struct engine *vrun_engine(const struct vrun *r)
{
    return r->x ? &r->x->eng : &r->run.eng;
}

const char *vrun_sched_name(const struct vrun *r)
{
    if (r->run.measured)
        return r->name;   /* "fnf (measured)" */
    return r->x ? r->x->ops->name : r->run.sched.ops->name;
}

bool vrun_measured(const struct vrun *r)
{
    return !r->x && r->run.measured;
}

double vrun_end(const struct vrun *r)
{
    return r->x ? r->x->completion : r->run.eng.makespan;
}

bool vrun_pipelined(const struct vrun *r)
{
    return !r->x && r->run.sched.slices > 0;
}

const struct vkind *view_kind(const struct view *v)
{
    if (v->exchange)
        return vkind_get(VK_EXCHANGE);
    if (vrun_pipelined(&v->runs[0]))
        return vkind_get(VK_PIPELINE);
    if (tree_of_sched(&v->runs[0].run.sched) || v->runs[0].run.sched.has_tree_cost)
        return vkind_get(VK_TREE);
    return vkind_get(VK_BROADCAST);
}

bool view_single_message(const struct view *v)
{
    return view_kind(v)->no_exercise == NULL;
}

static void vrun_free(struct vrun *r)
{
    if (r->ok && r->x)
        exchange_free(r->x);
    else if (r->ok)
        run_free(&r->run);
    free(r->x);
    free(r->name);
    free(r->from);
    free(r->to);
    memset(r, 0, sizeof *r);
}

/* An exchange as the command line would build it (--pattern, --receivers, --seed), under m. */
static int make_exchange(struct view *v, const struct cluster *c, enum model m, struct vrun *out,
                         char **cause)
{
    struct session_opts o = v->opts;
    o.model = model_name(m);
    char what[300] = "";
    if (c->n >= VIEW_BUSY_EXCHANGE_NODES)
        snprintf(what, sizeof what, "%s: the %s exchange of %d nodes, every transfer simulated",
                 out->name, v->opts.pattern ? v->opts.pattern : "all-to-some", c->n);
    out->x = xcalloc(1, sizeof *out->x);
    computing_on(v, &o, what[0] ? what : NULL);
    int rc = session_exchange(&o, c, out->name, true, false, out->x, cause);
    if (computing_off(v, rc, cause) < 0) {
        vrun_free(out);
        return -1;
    }
    out->ok = true;
    return 0;
}

static int make_run(struct view *v, const struct cluster *c, enum model m, const char *name,
                    struct vrun *out, char **cause)
{
    memset(out, 0, sizeof *out);
    out->name = xstrdup(name);
    if (v->exchange)
        return make_exchange(v, c, m, out, cause);
    struct session_opts o = v->opts;
    const struct sched_ops *ops = session_sched(name, cause);
    if (!ops) {
        vrun_free(out);
        return -1;
    }
    o.sopt.reasons_later = true;   /* the narration writes the few reasons it shows */
    bool slow = strcmp(ops->name, "optimal") == 0, ip = ops == &sched_optimal_sum;
    if ((slow || ip) && o.sopt.time_limit <= 0)
        o.sopt.time_limit = VIEW_OPT_SECONDS;
    /* What the progress line says: what is computed, not only that something is. */
    char what[300] = "";
    if (ip)
        snprintf(what, sizeof what, "optimal-sum: an integer program (GLPK) for the least sum of completion "
                 "times of %d nodes, at most %g s", c->n, o.sopt.time_limit);
    else if (slow)
        snprintf(what, sizeof what, "optimal: exact search (branch and bound) over the orders of %d "
                 "nodes, at most %g s", c->n, o.sopt.time_limit);
    else if (c->n <= RUN_AUTO_OPTIMUM_NODES)
        snprintf(what, sizeof what, "%s on %d nodes, and the optimum beside it (exact search)",
                 name, c->n);
    else if (pipe_heur_parse(ops->name, &(enum pipe_heur){0}) == 0)
        snprintf(what, sizeof what, "%s: a pipelined tree on %d nodes and the throughput LP's "
                 "optimum (at most %g s)", name, c->n, o.sopt.time_limit > 0 ? o.sopt.time_limit : LP_DEFAULT_TIME_LIMIT);
    else if (c->n >= VIEW_BUSY_RUN_NODES || strstr(name, ".lua"))
        snprintf(what, sizeof what, "%s%s: the broadcast on %d nodes", name,
                 strstr(name, ".lua") ? " (a Lua heuristic)" : "", c->n);
    computing_on(v, &o, what[0] ? what : NULL);
    int rc = session_run(&out->run, &o, c, m, ops, false, RUN_OPT_SMALL, cause);
    if (computing_off(v, rc, cause) < 0) {
        vrun_free(out);
        return -1;
    }
    out->ok = true;
    return 0;
}

/* The measured run (--trace) of the prediction pred: the trace's rows of its scheduler. */
static int make_measured(struct view *v, const struct trace *t, const struct vrun *pred,
                         struct vrun *out, char **cause)
{
    memset(out, 0, sizeof *out);
    const char *name = pred->run.sched.ops->name;
    int g = trace_select(t, name, cause);
    if (g < 0)
        return -1;
    struct diag d;
    diag_init(&d);
    if (trace_measure(t, g, &pred->run, &out->run, &d) < 0) {
        *cause = diag_join(&d);
        diag_free(&d);
        return -1;
    }
    diag_free(&d);
    (void)v;
    out->name = xasprintf("%s (measured)", name);
    out->ok = true;
    return 0;
}

/*
 * The runs on screen made afresh on c under m: the first named first (NULL:
 * the first one's name), the second the measured run of the first with a
 * trace t (NULL: the view's), else the second one's name again.  0, or -1
 * with *cause and nothing to free.
 */
static int make_runs(struct view *v, const struct cluster *c, enum model m, const char *first,
                     const struct trace *t, struct vrun fresh[2], char **cause)
{
    if (make_run(v, c, m, first ? first : v->runs[0].name, &fresh[0], cause) < 0)
        return -1;
    if (v->nruns < 2)
        return 0;
    int rc = v->traced ? make_measured(v, t ? t : &v->trace, &fresh[0], &fresh[1], cause)
                       : make_run(v, c, m, v->runs[1].name, &fresh[1], cause);
    if (rc < 0)
        vrun_free(&fresh[0]);
    return rc;
}

static double ev_time(const struct view *v, const struct vstep *s)
{
    return vrun_engine(&v->runs[s->run])->ev[s->ev].time;
}

/* The steps of the current runs: one timeline, or all of them merged by
 * time (at equal times the earlier run first). */
static void rebuild_steps(struct view *v)
{
    free(v->order);
    v->order = NULL;
    for (int i = 0; i < VIEW_MAX_RUNS; i++)
        if (v->snap[i].phase)
            snapshot_free(&v->snap[i]);
    const struct engine *e[VIEW_MAX_RUNS];
    int next[VIEW_MAX_RUNS] = {0};
    v->nsteps = 0;
    for (int i = 0; i < v->nruns; i++) {
        e[i] = vrun_engine(&v->runs[i]);
        snapshot_init(&v->snap[i], e[i]);
        v->nsteps += e[i]->nev;
    }
    if (v->nruns == 1)
        return;
    v->order = xmalloc((size_t)(v->nsteps ? v->nsteps : 1) * sizeof *v->order);
    for (int k = 0; k < v->nsteps; k++) {
        int best = -1;
        for (int i = 0; i < v->nruns; i++)
            if (next[i] < e[i]->nev &&
                (best < 0 || e[i]->ev[next[i]].time < e[best]->ev[next[best]].time))
                best = i;
        v->order[k] = (struct vstep){best, next[best]++};
    }
}

static void apply_step(struct view *v)
{
    if (v->step < 0)
        v->step = 0;
    if (v->step > v->nsteps)
        v->step = v->nsteps;
    memset(v->applied, 0, sizeof v->applied);
    if (v->nruns == 1)
        v->applied[0] = v->step;
    else
        for (int k = 0; k < v->step; k++)
            v->applied[v->order[k].run]++;
    for (int i = 0; i < v->nruns; i++)
        engine_snapshot(vrun_engine(&v->runs[i]), v->applied[i], &v->snap[i]);
}

double view_now(const struct view *v)
{
    if (v->step <= 0)
        return 0;
    if (v->nruns == 1)
        return vrun_engine(&v->runs[0])->ev[v->step - 1].time;
    return ev_time(v, &v->order[v->step - 1]);
}

/* The step that shows everything up to time t (all events at t applied). */
static int step_at_time(const struct view *v, double t)
{
    int k = 0;
    for (; k < v->nsteps; k++) {
        double tk = v->nruns == 1 ? vrun_engine(&v->runs[0])->ev[k].time : ev_time(v, &v->order[k]);
        if (tk > t)
            break;
    }
    return k;
}

int view_step_at_time(const struct view *v, double t)
{
    return step_at_time(v, t);
}

void view_step_to(struct view *v, int k)
{
    int stop = view_hold(v);   /* a lesson's prediction holds the view before what it asks */
    bool held = stop >= 0 && k > stop;
    if (held) {
        k = stop;
        v->playing = false;
    }
    v->step = k;
    apply_step(v);
    view_clear_message(v);
    const char *asks = held && v->lesson ? v->lesson->slides[v->slide].kind->asks : NULL;
    if (held)
        view_message(v, MSG_INFO, "stop: slide %d asks %s; y: your answer, a: the answer", v->slide + 1,
                     asks ? asks : "a question");
}

/* After the runs changed: same time if we were somewhere, the end if we were there. */
static void reposition(struct view *v, double now, bool at_end)
{
    rebuild_steps(v);
    v->step = at_end ? v->nsteps : step_at_time(v, now);
    apply_step(v);
}

/* ---- the student's schedule ("you") ---- */

static const struct sched_ops you_ops = {
    .name = "you",
    .summary = "your own schedule, built in the exercise (x)",
};

/* The student's moves, taken off the screen with their timeline while the runs are made anew. */
struct moves {
    int *from, *to;
    int n;              /* 0: none */
};

static void moves_free(struct moves *mv)
{
    free(mv->from);
    free(mv->to);
    *mv = (struct moves){0};
}

/* The n moves from[i] -> to[i] booked on an engine of their own, as a run beside the schedulers'. */
static int make_you(const struct cluster *c, enum model m, const int *from, const int *to, int n,
                    struct vrun *out, char **cause)
{
    memset(out, 0, sizeof *out);
    struct run *r = &out->run;
    sched_init(&r->sched, &you_ops, NULL);
    if (engine_init(&r->eng, c, m, cause) < 0)
        return -1;
    for (int i = 0; i < n; i++)
        if (engine_book(&r->eng, from[i], to[i], 0, "your choice", cause) < 0) {
            engine_free(&r->eng);
            return -1;
        }
    if (r->eng.nwaiting > 0) {
        int want = c->target ? c->ntargets : c->n;   /* a multicast: its targets */
        *cause = xasprintf("your schedule reaches %d of %d %s", want - r->eng.nwaiting, want,
                           c->target ? "targets" : "nodes");
        engine_free(&r->eng);
        return -1;
    }
    engine_timeline(&r->eng);
    r->c = c;
    r->model = m;
    r->lower_bound = bound_lower(c, m);
    out->name = xstrdup("you");
    out->you = true;
    out->from = xmalloc((size_t)n * sizeof *out->from);
    out->to = xmalloc((size_t)n * sizeof *out->to);
    memcpy(out->from, from, (size_t)n * sizeof *out->from);
    memcpy(out->to, to, (size_t)n * sizeof *out->to);
    out->nmoves = n;
    out->ok = true;
    return 0;
}

bool view_drop_you(struct view *v)
{
    if (v->nruns < 2 || !v->runs[v->nruns - 1].you)
        return false;
    double now = view_now(v);
    bool at_end = v->step == v->nsteps && v->step > 0;
    vrun_free(&v->runs[--v->nruns]);
    reposition(v, now, at_end);
    return true;
}

/* Take the "you" timeline off the screen, its moves kept in *mv (none: mv->n 0). */
static void take_you(struct view *v, struct moves *mv)
{
    *mv = (struct moves){0};
    if (v->nruns < 2 || !v->runs[v->nruns - 1].you)
        return;
    struct vrun *r = &v->runs[v->nruns - 1];
    *mv = (struct moves){r->from, r->to, r->nmoves};
    r->from = r->to = NULL;
    view_drop_you(v);
}

/* Back after an action that took it off (model, reload): replayed on the
 * current cluster and model, or left off when the moves no longer finish
 * the broadcast there.  Frees the moves. */
static void readd_you(struct view *v, struct moves *mv)
{
    struct vrun fresh;
    char *cause = NULL;
    int rc = mv->n == 0 ? -1 : make_you(v->c, v->model, mv->from, mv->to, mv->n, &fresh, &cause);
    moves_free(mv);
    if (rc < 0) {
        free(cause);
        return;
    }
    double now = view_now(v);
    bool at_end = v->step == v->nsteps && v->step > 0;
    v->runs[v->nruns++] = fresh;
    reposition(v, now, at_end);
}

int view_show_you(struct view *v, const int *from, const int *to, int n)
{
    char *cause = NULL;
    struct vrun fresh;
    view_drop_you(v);
    if (make_you(v->c, v->model, from, to, n, &fresh, &cause) < 0) {
        message_cause(v, "cannot show your schedule: ", cause);
        free(cause);
        return -1;
    }
    bool compared = v->nruns >= 2 || view_set_compare(v, true) == 0;
    v->runs[v->nruns++] = fresh;
    rebuild_steps(v);
    v->step = v->nsteps;
    apply_step(v);
    double mine = fresh.run.eng.makespan;
    char others[300] = "";
    size_t at = 0;
    for (int i = 0; i + 1 < v->nruns && at < sizeof others; i++)
        at += (size_t)snprintf(others + at, sizeof others - at, "%s%s %s", i ? ", " : " (",
                               vrun_sched_name(&v->runs[i]), ui_num(vrun_end(&v->runs[i])));
    if (at > 0 && at + 1 < sizeof others)
        strcat(others, ")");
    view_message(v, compared ? MSG_INFO : MSG_ERROR, "your schedule is the timeline \"you\": makespan %s%s%s; "
                 "e exports it, x resumes it, c hides it", ui_num(mine), others,
                 compared ? "" : " (no compare: its scheduler failed)");
    return 0;
}

/* The scheduler of the first pane, or of compare mode's second (second). */
static int set_scheduler(struct view *v, const char *name, bool second)
{
    bool both = v->traced && v->nruns == 2;   /* the prediction and its measured run, both anew */
    if (both && second) {
        view_message(v, MSG_INFO, "the second pane is the measured run (--trace): s chooses "
                     "the prediction it is measured against");
        return -1;
    }
    char *cause = NULL;
    struct vrun fresh[2];
    if ((both ? make_runs(v, v->c, v->model, name, NULL, fresh, &cause)
              : make_run(v, v->c, v->model, name, &fresh[0], &cause)) < 0) {
        char prefix[300];
        snprintf(prefix, sizeof prefix, "cannot use %s: ", name);
        message_cause(v, prefix, cause);
        free(cause);
        return -1;
    }
    double now = view_now(v);
    bool at_end = v->step == v->nsteps && v->step > 0;
    int i = !both && v->nruns >= 2 && second ? 1 : 0;   /* S in compare mode: the second pane */
    for (int k = 0; k < (both ? 2 : 1); k++) {
        vrun_free(&v->runs[i + k]);
        v->runs[i + k] = fresh[k];
    }
    reposition(v, now, at_end);
    if (both)
        view_message(v, MSG_INFO, "scheduler %s: makespan %g predicted, %g measured",
                     vrun_sched_name(&v->runs[0]), vrun_end(&v->runs[0]), vrun_end(&v->runs[1]));
    else
        view_message(v, MSG_INFO, "scheduler %s%s: %s %g", vrun_sched_name(&v->runs[i]),
                     i ? " (second pane)" : "", view_kind(v)->end_word, vrun_end(&v->runs[i]));
    return 0;
}

int view_set_scheduler(struct view *v, const char *name)
{
    return set_scheduler(v, name, false);
}

int view_set_second_scheduler(struct view *v, const char *name)
{
    return set_scheduler(v, name, true);
}

int view_set_model(struct view *v, enum model m)
{
    char *cause = NULL;
    struct moves had;
    take_you(v, &had);   /* replayed under the new model afterwards */
    struct vrun fresh[VIEW_MAX_RUNS];
    if (make_runs(v, v->c, m, NULL, NULL, fresh, &cause) < 0) {
        char prefix[300];
        snprintf(prefix, sizeof prefix, "cannot use the %s model: ", model_name(m));
        message_cause(v, prefix, cause);
        free(cause);
        readd_you(v, &had);
        return -1;
    }
    double now = view_now(v);
    bool at_end = v->step == v->nsteps && v->step > 0;
    for (int i = 0; i < v->nruns; i++) {
        vrun_free(&v->runs[i]);
        v->runs[i] = fresh[i];
    }
    v->model = m;
    reposition(v, now, at_end);
    readd_you(v, &had);
    view_message(v, MSG_INFO, "model %s: %s", model_name(m), model_summary(m));
    return 0;
}

/*
 * The second scheduler of compare mode: the second -s, else what the first
 * is best measured against -- the optimum for a broadcast, the blind
 * binomial tree for Figueira's trees, lp-grow (the best heuristic of the
 * paper) for a pipelined tree, and the random order for an exchange.
 */
static const char *compare_partner(const struct view *v)
{
    if (v->opts.nsched >= 2 && strcmp(v->opts.sched[1], v->runs[0].name) != 0)
        return v->opts.sched[1];
    const struct vkind *k = view_kind(v);
    return strcmp(vrun_sched_name(&v->runs[0]), k->partner) == 0 ? k->partner_else : k->partner;
}

int view_set_compare(struct view *v, bool on)
{
    if (on == (v->nruns >= 2))
        return 0;
    if (!on) {   /* the student's timeline goes too; its choices stay (x) */
        int k0 = v->applied[0];
        while (v->nruns > 1)
            vrun_free(&v->runs[--v->nruns]);
        rebuild_steps(v);
        v->step = k0;
        apply_step(v);
        view_clear_message(v);
        return 0;
    }
    char *cause = NULL;
    const char *other = v->traced ? v->trace.file : compare_partner(v);
    if (v->traced ? make_measured(v, &v->trace, &v->runs[0], &v->runs[1], &cause) < 0
                  : make_run(v, v->c, v->model, other, &v->runs[1], &cause) < 0) {
        char prefix[300];
        snprintf(prefix, sizeof prefix, "cannot compare with %s: ", other);
        message_cause(v, prefix, cause);
        free(cause);
        return -1;
    }
    int k0 = v->applied[0];
    v->nruns = 2;
    rebuild_steps(v);
    /* Right after run 0's k0-th event, so run 0 looks the same. */
    int k = 0, seen = 0;
    if (k0 > 0)
        for (; k < v->nsteps; k++)
            if (v->order[k].run == 0 && ++seen == k0) {
                k++;
                break;
            }
    v->step = k;
    apply_step(v);
    view_clear_message(v);
    return 0;
}

int view_set_source(struct view *v, int node)
{
    if (node < 0 || node >= v->c->n)
        return -1;
    if (view_kind(v)->no_source) {
        view_message(v, MSG_ERROR, "%s", view_kind(v)->no_source);
        return -1;
    }
    if (node == v->c->source) {
        view_message(v, MSG_INFO, "%s is the source already", v->c->nodes[node].name);
        return 0;
    }
    struct moves had;
    take_you(v, &had);
    int old = v->c->source;
    v->c->source = node;
    char *cause = NULL;
    struct vrun fresh[VIEW_MAX_RUNS];
    if (make_runs(v, v->c, v->model, NULL, NULL, fresh, &cause) < 0) {
        v->c->source = old;
        message_cause(v, "cannot change the source: ", cause);
        free(cause);
        readd_you(v, &had);
        return -1;
    }
    forget_screens(v);   /* the student's choices start from the old source */
    moves_free(&had);
    for (int i = 0; i < v->nruns; i++) {
        vrun_free(&v->runs[i]);
        v->runs[i] = fresh[i];
    }
    free(v->source_name);
    v->source_name = xstrdup(v->c->nodes[node].name);
    rebuild_steps(v);
    v->step = 0;
    apply_step(v);
    view_message(v, MSG_INFO, "source %s: makespan %g", v->c->nodes[node].name,
                 v->runs[0].run.eng.makespan);
    return 0;
}

/* The Lua script one of the runs schedules with, or NULL. */
static const char *lua_script_of_runs(const struct view *v)
{
    for (int i = 0; !v->exchange && i < v->nruns; i++) {
        if (vrun_measured(&v->runs[i]) || v->runs[i].you)
            continue;
        const struct sched_ops *ops = sched_find(v->runs[i].name);
        char *cause = NULL;
        if (!ops && (ops = session_sched(v->runs[i].name, &cause)) == NULL)
            free(cause);
        if (ops && lua_sched_script(ops))
            return lua_sched_script(ops);
    }
    return NULL;
}

int view_reload(struct view *v)
{
    struct session_opts o = v->opts;
    if (v->source_name)
        o.source = v->source_name;
    char *warnings = NULL, *cause = NULL;
    /* Watched as a computation: a q typed ahead of it (ui/term.c) is not kept waiting by it. */
    volatile sig_atomic_t *cancel = view_compute_begin(v, NULL);
    struct cluster *nc = cancel && *cancel ? NULL : load_quiet(&o, &warnings, &cause);
    if (view_compute_end(v)) {
        cluster_free(nc);
        free(cause);
        free(warnings);
        view_message(v, MSG_ERROR, "reload " SCHED_CANCELLED_TEXT ": the view keeps the old cluster");
        return -1;
    }
    if (!nc) {
        message_cause(v, "reload failed, the view keeps the old cluster: ", cause);
        free(cause);
        free(warnings);
        return -1;
    }
    struct moves had;
    take_you(v, &had);
    /* A Lua heuristic is read again and rerun even on the same cluster:
     * the user has most likely edited the script. */
    const char *script = lua_script_of_runs(v);
    bool same = cluster_same(v->c, nc);
    struct trace nt = {0};   /* the trace is read again too: the run may have been measured anew */
    if (v->traced) {
        struct diag d;
        diag_init(&d);
        if (trace_load(&nt, v->trace.file, nc, &d) < 0) {
            char *why = diag_join(&d);
            diag_free(&d);
            cluster_free(nc);
            free(warnings);
            message_cause(v, "reload failed, the view keeps the old trace: ", why);
            free(why);
            moves_free(&had);
            return -1;
        }
        diag_free(&d);
    }
    if (same && !script && !v->traced) {
        cluster_free(nc);
        free(warnings);
        readd_you(v, &had);
        view_message(v, MSG_INFO, "reloaded %s: unchanged, same position", v->opts.file);
        return 0;
    }
    enum model m = v->model;
    if (!(model_mask_for(nc->kind) & MODEL_BIT(m)))
        m = model_default_for(nc->kind);
    struct vrun fresh[VIEW_MAX_RUNS];
    if (make_runs(v, nc, m, NULL, &nt, fresh, &cause) < 0) {
        trace_free(&nt);
        cluster_free(nc);
        free(warnings);
        message_cause(v, "reload failed, the view keeps the old cluster: ", cause);
        free(cause);
        readd_you(v, &had);
        return -1;
    }
    /* The screen shown made its state on the cluster (the exercise): it
     * starts again on the new one.  What the screens made on the old
     * cluster (the student's choices) goes when it changed. */
    bool restart = v->screen->forget && !v->screen->over;
    if (restart || !same) {
        forget_screens(v);
        moves_free(&had);
    }
    for (int i = 0; i < v->nruns; i++) {
        vrun_free(&v->runs[i]);
        v->runs[i] = fresh[i];
    }
    cluster_free(v->c);
    v->c = nc;
    v->model = m;
    if (v->traced) {
        trace_free(&v->trace);
        v->trace = nt;
    }
    if (v->sel >= nc->n)
        v->sel = nc->n - 1;
    if (v->top >= nc->n)
        v->top = 0;
    rebuild_steps(v);
    v->step = 0;
    apply_step(v);
    readd_you(v, &had);   /* the same cluster: a rerun Lua heuristic beside the same choices */
    if (restart && v->screen->open)
        v->screen->open(v, keep_slot(v, v->screen), 0);
    if (warnings)
        message_cause(v, "reloaded (the cluster changed; back to the start) with a warning: ",
                      warnings);
    else if (same && v->traced)
        view_message(v, MSG_INFO, "reloaded %s and the trace %s: back to the start", v->opts.file,
                     v->trace.file);
    else if (same)
        view_message(v, MSG_INFO, "reloaded %s and %s: rerun from the start", v->opts.file, script);
    else
        view_message(v, MSG_INFO, "reloaded %s: the cluster changed; back to the start", v->opts.file);
    free(warnings);
    return 0;
}

/* A file name stem from the cluster and the schedulers: letters, digits, - _ . only.
 * The cluster's name is cut to EXPORT_NAME_MAX bytes so that the stem and
 * ".svg" fit in a file name (255 bytes) whatever the cluster is called. */
enum { EXPORT_NAME_MAX = 120 };
static void export_stem(const struct view *v, char *buf, size_t size)
{
    char raw[512], cname[300];
    const char *a = vrun_sched_name(&v->runs[0]);
    snprintf(cname, sizeof cname, "%.*s%s%s", EXPORT_NAME_MAX, v->c->name ? v->c->name : "cluster",
             v->exchange ? "-" : "", v->exchange ? v->opts.pattern : "");
    if (v->nruns >= 2)
        snprintf(raw, sizeof raw, "%s-%s-vs-%s%s", cname, a, vrun_sched_name(&v->runs[1]),
                 v->nruns > 2 ? "-vs-you" : "");
    else
        snprintf(raw, sizeof raw, "%s-%s", cname, a);
    size_t n = 0;
    for (const char *p = raw; *p && n + 1 < size; p++) {
        char ch = *p;
        bool okc = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                   ch == '-' || ch == '_' || ch == '.';
        buf[n++] = okc ? ch : '_';
    }
    buf[n] = '\0';
}

/* An exchange's transfers as CSV, every run on screen in one file (a scheduler column tells them apart). */
static int write_exchanges_csv(FILE *fp, void *ctx)
{
    const struct view *v = ctx;
    for (int i = 0; i < v->nruns; i++)
        report_exchange_csv(fp, v->runs[i].x, false, i == 0);
    return ferror(fp) ? -1 : 0;
}

int view_export(struct view *v, const char *stem)
{
    char auto_stem[512], svg[600], csv[600];
    if (!stem) {
        export_stem(v, auto_stem, sizeof auto_stem);
        stem = auto_stem;
    }
    if (v->exchange) {   /* the SVG draws broadcasts only, as on the command line */
        char *cause = NULL;
        snprintf(csv, sizeof csv, "%s.csv", stem);
        if (export_to_file(csv, write_exchanges_csv, v, &cause) < 0) {
            message_cause(v, "export failed: ", cause);
            free(cause);
            return -1;
        }
        view_message(v, MSG_INFO, "exported %s (the transfers, with the idle waits; an exchange has "
                     "no SVG)", csv);
        return 0;
    }
    /* Over a few MB (the CSV has a row per transfer, about 120 bytes): ask first. */
    double bytes = 0;
    for (int i = 0; i < v->nruns; i++)
        bytes += 120.0 * v->runs[i].run.eng.ntr;
    if (bytes > VIEW_EXPORT_ASK_BYTES && !v->export_ok) {
        v->export_ok = true;
        view_message(v, MSG_INFO, "the export would be about %.0f MB (a CSV row per transfer): e again to "
                     "write it, any other key to leave it", bytes / 1048576.0);
        return 0;
    }
    v->export_ok = false;
    struct run runs[VIEW_MAX_RUNS];
    for (int i = 0; i < v->nruns; i++)
        runs[i] = v->runs[i].run;
    char *cause = NULL;
    volatile sig_atomic_t *cancel = view_compute_begin(v, NULL);   /* a q typed ahead: not written */
    bool skip = cancel && *cancel;
    int rc = skip ? 0 : export_files(runs, v->nruns, stem, svg, sizeof svg, csv, sizeof csv, &cause);
    view_compute_end(v);
    if (skip) {
        view_message(v, MSG_ERROR, "export " SCHED_CANCELLED_TEXT ": nothing written");
        return -1;
    }
    if (rc < 0) {
        message_cause(v, "export failed: ", cause);
        free(cause);
        return -1;
    }
    view_message(v, MSG_INFO, "exported %s (Gantt and tree) and %s (the schedule)", svg, csv);
    return 0;
}

/* ---- open / close ---- */

/* fnf, or where fnf does not apply (platform graphs) the first built-in that does;
 * the caterpillar for an exchange, as on the command line. */
static const char *default_scheduler(const struct view *v)
{
    if (v->exchange)
        return "caterpillar";
    return sched_default(v->c, v->model)->name;
}

int view_open(struct view *v, const struct session_opts *o, char **cause)
{
    return view_open_hooked(v, o, NULL, cause);
}

/* The first run at open: o's first scheduler; cancelled, the default one in
 * its place (docs/ui.md): the view opens on it and says so. */
static int open_first(struct view *v, const char *first, char **cause, char **note)
{
    if (make_run(v, v->c, v->model, first, &v->runs[0], cause) == 0)
        return 0;
    if (!(v->cancel && *v->cancel))
        return -1;
    const char *instead = default_scheduler(v);
    char *cause2 = NULL;
    if (strcmp(instead, first) == 0 || make_run(v, v->c, v->model, instead, &v->runs[0], &cause2) < 0) {
        free(cause2);
        free(*cause);
        *cause = xasprintf("%s: " SCHED_CANCELLED_TEXT " before the view opened, nothing to show",
                           v->c->path ? v->c->path : first);
        return -1;
    }
    *note = xasprintf("%s: cancelled; showing %s instead (s chooses a scheduler)", first, instead);
    free(*cause);
    *cause = NULL;
    return 0;
}

/* An open that failed: what it made so far freed, v left empty (view_close
 * on it does nothing), status returned. */
static int open_failed(struct view *v, char *warnings, int status)
{
    free(warnings);
    trace_free(&v->trace);
    cluster_free(v->c);
    sandbox_set_print(NULL, NULL);
    memset(v, 0, sizeof *v);
    return status;
}

int view_open_hooked(struct view *v, const struct session_opts *o, const struct view *hooks,
                     char **cause)
{
    memset(v, 0, sizeof *v);
    if (hooks) {
        v->busy = hooks->busy;
        v->busy_ctx = hooks->busy_ctx;
        v->computing = hooks->computing;
        v->cancel = hooks->cancel;
    }
    if (o->nsched > 2) {   /* two panes: a third -s is refused, not dropped */
        *cause = xasprintf("the view compares two schedulers (got %d -s); use hetcast compare FILE "
                           "-s A -s B -s C for more, as text", o->nsched);
        return 2;
    }
    v->opts = *o;
    v->exchange = o->pattern || o->receivers;
    v->tree = v->exchange;   /* an exchange opens with its table of sending orders */
    v->speed = DEFAULT_SPEED;
    v->screen = screen_for(SCR_MAIN);
    sandbox_set_print(lua_print_to_view, v);
    char *warnings = NULL;
    v->c = load_quiet(o, &warnings, cause);
    if (!v->c)
        return open_failed(v, warnings, 2);
    /* an exchange: sync on a latency matrix unless -m says otherwise */
    if ((v->exchange ? session_exchange_model(o, v->c, &v->model, cause)
                     : session_model(o, v->c, &v->model, cause)) < 0)
        return open_failed(v, warnings, 2);
    const char *first = o->nsched > 0 ? o->sched[0] : default_scheduler(v);
    if (o->trace) {   /* the prediction beside its measured run */
        if (v->exchange || o->nsched > 1) {
            *cause = xstrdup(v->exchange ? "--trace compares a broadcast; a personalized exchange "
                                           "(--pattern, --receivers) has no measured trace"
                                         : "the view shows one prediction beside its measured run "
                                           "(--trace): give one -s (hetcast compare --trace takes "
                                           "more)");
            return open_failed(v, warnings, 2);
        }
        struct diag d;
        diag_init(&d);
        const struct sched_ops *ops;
        int grp;
        if (session_trace(o, v->c, v->model, 1, &v->trace, &ops, &grp, &d, cause) < 0) {
            if (!*cause)
                *cause = diag_join(&d);
            diag_free(&d);
            return open_failed(v, warnings, 2);
        }
        diag_free(&d);
        v->traced = true;
        if (o->nsched == 0)   /* the trace's own scheduler */
            first = ops->name;
    }
    char *note = NULL;   /* the first scheduler was cancelled: what is shown instead */
    if (open_first(v, first, cause, &note) < 0) {
        bool cancelled = v->cancel && *v->cancel;
        return open_failed(v, warnings, cancelled ? 1 : 2);
    }
    v->nruns = 1;
    rebuild_steps(v);
    v->step = 0;
    apply_step(v);
    v->sel = v->c->source;
    if (v->traced) {   /* every problem of the pairing, not the first line only */
        if (make_measured(v, &v->trace, &v->runs[0], &v->runs[1], cause) < 0) {
            free(warnings);
            free(note);
            view_close(v);
            return 2;
        }
        v->nruns = 2;
        rebuild_steps(v);
        apply_step(v);
    }
    if (!note && o->nsched >= 2 && view_set_compare(v, true) < 0) {
        if (v->cancel && *v->cancel)   /* one pane, and the message says why */
            note = xstrdup(v->msg);
        else {
            *cause = xstrdup(v->msg);
            free(warnings);
            view_close(v);
            return 2;
        }
    }
    if (note) {   /* before the warnings: what is shown is not what was asked */
        view_message(v, MSG_ERROR, "%s", note);
        free(note);
    } else if (warnings)   /* the loader's lines say "warning:" themselves */
        message_cause(v, "", warnings);

    else if (v->lua_lines > 0)
        view_message(v, MSG_INFO, "%s", "");
    free(warnings);
    return 0;
}

void view_close(struct view *v)
{
    sandbox_set_print(NULL, NULL);
    forget_screens(v);
    for (int i = 0; i < v->nkept; i++)
        free(v->kept[i].data);
    free(v->kept);
    free(v->pick);
    free(v->instance_owned);
    for (int i = 0; i < v->nmoves; i++) {
        free(v->moves[i].from);
        free(v->moves[i].to);
    }
    free(v->moves);
    for (int i = 0; i < VIEW_MAX_RUNS; i++) {
        vrun_free(&v->runs[i]);
        if (v->snap[i].phase)
            snapshot_free(&v->snap[i]);
    }
    free(v->order);
    trace_free(&v->trace);
    cluster_free(v->c);
    free(v->source_name);
    memset(v, 0, sizeof *v);
}

void view_replace(struct view *v, struct view *fresh)
{
    view_close(v);
    *v = *fresh;
    memset(fresh, 0, sizeof *fresh);
    sandbox_set_print(lua_print_to_view, v);   /* it went to fresh where it was opened */
}

void view_resume(struct view *v)
{
    sandbox_set_print(lua_print_to_view, v);
}

/* ---- dispatch ---- */

unsigned view_key(struct view *v, int key)
{
    if (key == UK_RESIZE)
        return UI_HANDLED | UI_REDRAW;
    if (key != 'e')   /* a large export asked first: any other key leaves it */
        v->export_ok = false;
    const struct key_row *row = keys_find(v->screen->id, key);
    return row ? v->screen->request(v, row->req, key) : 0;
}

unsigned view_request(struct view *v, enum ui_req req, int key)
{
    switch (req) {
    case REQ_ZOOM:
        if ((key == '+' || key == '=') && v->zoom < MAX_ZOOM)
            v->zoom++;
        else if ((key == '-' || key == '_') && v->zoom > 0)
            v->zoom--;
        break;
    case REQ_RELOAD:
        view_reload(v);
        break;
    case REQ_HELP:
        view_help(v);
        break;
    case REQ_QUIT:
        return UI_HANDLED | UI_QUIT;
    default:
        return 0;
    }
    return UI_HANDLED | UI_REDRAW;
}

/* What a terminal smaller than UI_MIN_W x UI_MIN_H shows instead of a screen. */
static void too_small(struct view *v, struct cellbuf *cb)
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

void view_draw(struct view *v, struct cellbuf *cb)
{
    cb_clear(cb);
    if (cb->w < UI_MIN_W || cb->h < UI_MIN_H) {
        too_small(v, cb);
        return;
    }
    v->screen->draw(v, cb);
}

int view_play_delay(const struct view *v)
{
    return v->playing ? play_delays[v->speed] : -1;
}

unsigned view_tick(struct view *v)
{
    if (!v->playing || v->screen->id != SCR_MAIN)
        return 0;
    if (v->step >= v->nsteps) {
        v->playing = false;
        return UI_REDRAW;
    }
    view_step_to(v, v->step + 1);
    if (v->step >= v->nsteps)
        v->playing = false;
    return UI_HANDLED | UI_REDRAW;
}

void view_help(struct view *v)
{
    view_screen_open(v, screen_for(SCR_HELP), 0);
}

int view_play_ms(const struct view *v)
{
    return play_delays[v->speed];
}

void view_change_speed(struct view *v, int delta)
{
    int s = v->speed + delta;
    if (s >= 0 && s < NSPEEDS)
        v->speed = s;
}

