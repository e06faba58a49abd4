/*
 * screen_lesson.c - a lesson in the view (hetcast lesson FILE): each slide
 * opens on its own screen (title, the instructor's text, the question; the
 * answer on a key), and Enter shows its schedule(s) on the main screen at
 * the slide's step, where ] and [ move between slides and w brings the text
 * back.  A slide's cluster is opened through view_open like any `hetcast
 * FILE -s A -s B`, so everything the main screen does works on it.
 *
 * The lesson and the slide shown stay in the view (v->lesson, v->slide):
 * they are what the whole view shows -- its cluster, schedulers and step
 * come from the slide, the main screen's ] [ w read them, and lesson_go
 * opens the view anew on another slide beside the one shown, which it
 * replaces only once the new one is open.  The slide screen keeps only
 * whether the answer is revealed and how a student's answer was graded
 * (struct slide_state), which w finds again.
 *
 * A slide that asks something is answered in one place, whatever asks it
 * (a key here, the prompt, a live class): lesson_answer grades an answer
 * with lesson_grade against the slide's run and reveals the answer,
 * lesson_reveal reveals it ungraded; until then the main screen hides what
 * gives the answer away (lesson_hides) and holds at the step the question's
 * kind names (lesson_hold: before the decision a prediction asks about) --
 * the screen's hooks, which the view and the main screen reach through
 * view_hides and view_hold, never by name.
 */
#include "ui/drawkit.h"
#include "ui/screen_exercise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"
#include "session/instance.h"
#include "session/lesson.h"
#include "support/numfmt.h"
#include "support/rng.h"
#include "sched/exercise.h"
#include "ui/room_pane.h"

/* The slide screen's state. */
struct slide_state {
    bool answer;        /* the answer is revealed */
    bool graded;        /* a student's answer was graded: g */
    struct lesson_grade g;
    char consequence[300];  /* a wrong pick that is a schedule choice: what it leads to */
};

static struct slide_state *slide_of(const struct view *v)
{
    return view_screen_data(v, &screen_lesson);
}

/* A view to open beside v (which stays shown until it is ready), with what the terminal set. */
static void fresh_beside(struct view *next, const struct view *v)
{
    memset(next, 0, sizeof *next);
    next->colour = v->colour;
    next->ascii = v->ascii;
    next->busy = v->busy;
    next->busy_ctx = v->busy_ctx;
    next->computing = v->computing;
    next->cancel = v->cancel;
}

/* Show fresh (opened beside v) in v's place, the lesson's kept choices carried over. */
static void replace_keeping(struct view *v, struct view *fresh);

/* Open slide k into v (closed or fresh) with the options o (NULL: the slide's own), keeping
 * what the terminal set. */
static int open_slide_as(struct view *v, const struct lesson *l, int k, const struct session_opts *with,
                         char **cause)
{
    struct view keep = *v;
    struct session_opts o;
    lesson_session(l, k, &o);
    if (with)
        o = *with;
    int rc = view_open_hooked(v, &o, &keep, cause);   /* the terminal's hooks: cancel, progress */
    if (rc != 0)
        return rc;
    v->colour = keep.colour;
    v->ascii = keep.ascii;
    v->busy = keep.busy;
    v->busy_ctx = keep.busy_ctx;
    v->room = keep.room;   /* a live class goes on from slide to slide */
    v->room_bars = keep.room_bars;
    v->lesson = l;
    v->slide = k;
    const struct slide *s = &l->slides[k];
    view_screen_open(v, &screen_lesson, 0);   /* the view is fresh: the answer hidden, its hold on */
    char note[sizeof v->msg];   /* what view_open said (a cancelled scheduler) outlives the step */
    enum msg_kind note_kind = v->msg_kind;
    memcpy(note, v->msg, sizeof note);
    view_step_to(v, s->step < 0 || s->step > v->nsteps ? v->nsteps : s->step);   /* held at lesson_hold */
    memcpy(v->msg, note, sizeof note);
    v->msg_kind = note_kind;
    if (view_kind(v)->id == VK_TREE)   /* a tree lesson is about the tree: its pane open */
        v->tree = true;
    for (int i = 0; i < s->nshow; i++) {   /* a name that is neither a node nor a value is a slip */
        bool known = false;
        for (int j = 0; lesson_show_values[j] && !known; j++)
            known = strcmp(s->show[i], lesson_show_values[j]) == 0;
        for (int p = 0; p < v->c->n && !known; p++)
            known = strcmp(s->show[i], v->c->nodes[p].name) == 0;
        if (!known) {
            char name[80];
            view_message(v, MSG_ERROR, "slide %d: show names \"%s\", no node of this cluster and no "
                         "summary value (makespan, lower bound, optimum, 2T+beta, ...)", k + 1,
                         SHOWN(s->show[i], name));
            break;
        }
    }
    return 0;
}

static int open_slide(struct view *v, const struct lesson *l, int k, char **cause)
{
    return open_slide_as(v, l, k, NULL, cause);
}

int lesson_view_open(struct view *v, const struct lesson *l, int k, char **cause)
{
    return lesson_view_open_hooked(v, l, k, NULL, cause);
}

int lesson_view_open_hooked(struct view *v, const struct lesson *l, int k, const struct view *hooks,
                            char **cause)
{
    memset(v, 0, sizeof *v);
    if (hooks) {   /* open_slide keeps them (view_open_hooked) */
        v->busy = hooks->busy;
        v->busy_ctx = hooks->busy_ctx;
        v->computing = hooks->computing;
        v->cancel = hooks->cancel;
    }
    return open_slide(v, l, k, cause);
}

void lesson_go(struct view *v, int k)
{
    const struct lesson *l = v->lesson;
    if (k < 0 || k >= l->n) {
        view_message(v, MSG_INFO, k < 0 ? "the first slide" : "the last slide: q ends the lesson");
        return;
    }
    struct view next;   /* the slide shown stays until the next one is ready */
    fresh_beside(&next, v);
    next.room = v->room;
    next.room_bars = false;   /* another slide's question: its histogram waits for b */
    char *cause = NULL;
    if (open_slide(&next, l, k, &cause) != 0) {
        view_resume(v);
        if (v->cancel && *v->cancel)
            view_message(v, MSG_ERROR, "slide %d: " SCHED_CANCELLED_TEXT "; slide %d stays", k + 1,
                         v->slide + 1);
        else if (lesson_line(l, k, cause) > 0)   /* where the author mends it */
            view_message(v, MSG_ERROR, "slide %d does not open (line %d): %s", k + 1, lesson_line(l, k, cause),
                         cause ? cause : "failed");
        else
            view_message(v, MSG_ERROR, "slide %d does not open: %s", k + 1, cause ? cause : "failed");
        free(cause);
        return;
    }
    /* The exercise's choices on the slide left stay with the lesson: x on it again resumes them. */
    if (!v->moves) {
        v->moves = xcalloc((size_t)l->n, sizeof *v->moves);
        v->nmoves = l->n;
    }
    const struct exercise *x = exercise_of(v);
    struct slide_moves *m = &v->moves[v->slide];
    free(m->from);
    free(m->to);
    *m = (struct slide_moves){NULL, NULL, 0};
    if (x && x->nchoices > 0) {
        m->from = xmalloc((size_t)x->nchoices * sizeof *m->from);
        m->to = xmalloc((size_t)x->nchoices * sizeof *m->to);
        memcpy(m->from, x->from, (size_t)x->nchoices * sizeof *m->from);
        memcpy(m->to, x->to, (size_t)x->nchoices * sizeof *m->to);
        m->n = x->nchoices;
    }
    replace_keeping(v, &next);
}

static void replace_keeping(struct view *v, struct view *fresh)
{
    struct slide_moves *moves = v->moves;
    int nmoves = v->nmoves;
    v->moves = NULL;   /* view_replace closes v: they go to the slide opened */
    v->nmoves = 0;
    view_replace(v, fresh);
    v->moves = moves;
    v->nmoves = nmoves;
}

void lesson_new_instance(struct view *v)
{
    const struct lesson *l = v->lesson;
    if (!l)
        return;
    int seed = v->instance > 0 ? v->instance + 1 : 2;   /* seed 1 is a script's default */
    struct instance in;
    char *cause = NULL;
    if (instance_make(l, v->slide, seed, v->cancel, &in, &cause) < 0) {   /* session/instance.h */
        view_resume(v);
        view_message(v, MSG_ERROR, "d: %s", cause ? cause : "no instance");
        free(cause);
        return;
    }
    struct view next;
    fresh_beside(&next, v);
    if (open_slide_as(&next, l, v->slide, &in.o, &cause) != 0) {
        instance_free(&in);
        view_resume(v);
        view_message(v, MSG_ERROR, "d: seed %d does not open: %s", seed, cause ? cause : "failed");
        free(cause);
        return;
    }
    next.instance = in.seed;
    next.instance_owned = in.owned;   /* what next's options point to */
    in.owned = NULL;
    bool script = in.kind == INSTANCE_SEED;
    char *name = script ? xstrdup(next.c->name ? next.c->name : "the script") : NULL;
    int n = next.c->n;
    replace_keeping(v, &next);
    view_screen_close(v);   /* the main screen, at the slide's step (held where its question asks) */
    if (script)
        view_message(v, MSG_INFO, "a new instance: %s with seed %d (w then d: another; ] then [: the "
                     "slide's own)", name, in.seed);
    else
        view_message(v, MSG_INFO, "a new instance: %d random nodes%s (seed %d, tried %d; w then d: another; "
                     "] then [: the slide's own)", n, in.asks ? "" : " where fnf loses", in.seed, in.tries);
    free(name);
    instance_free(&in);
}

/* A question or an answer as one paragraph: its line breaks become spaces
 * (it has two rows, wrapped; a break would show as a control character). */
static char *paragraph(const char *s)
{
    char *p = xstrdup(s);
    for (char *c = p; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    return p;
}

/* The next paragraph of *text (up to a blank line) as one line, its single
 * line breaks made spaces; NULL after the last.  Free it. */
static char *next_paragraph(const char **text)
{
    const char *s = *text;
    while (*s == '\n' || *s == '\r' || *s == ' ')
        s++;
    if (!*s)
        return NULL;
    const char *end = s;
    for (;;) {
        const char *nl = strchr(end, '\n');
        if (!nl) {
            end += strlen(end);
            break;
        }
        const char *t = nl + 1;
        while (*t == ' ' || *t == '\t' || *t == '\r')
            t++;
        if (*t == '\n' || !*t) {   /* a blank line ends the paragraph */
            end = nl;
            break;
        }
        end = nl + 1;
    }
    char *p = xmalloc((size_t)(end - s) + 1), *o = p;
    for (const char *c = s; c < end; c++) {   /* a line break and the next line's indent: one space */
        if (*c == '\n' || *c == '\r') {
            while (o > p && o[-1] == ' ')
                o--;
            *o++ = ' ';
            while (c + 1 < end && (c[1] == ' ' || c[1] == '\t' || c[1] == '\r'))
                c++;
        } else {
            *o++ = *c;
        }
    }
    *o = '\0';
    *text = end;
    return p;
}

static struct slide_state *state_of(const struct view *v)
{
    return v->lesson ? slide_of(v) : NULL;
}

bool lesson_revealed(const struct view *v)
{
    const struct slide_state *st = state_of(v);
    return !v->lesson || (st && st->answer);
}

void lesson_reveal(struct view *v)
{
    struct slide_state *st = state_of(v);
    if (!st)
        return;
    const struct slide *s = &v->lesson->slides[v->slide];
    if (!s->answer && !slide_gradable(s)) {
        view_message(v, MSG_INFO, "this slide asks no question");
        return;
    }
    st->answer = true;
}

/* The run a slide's prediction is graded against: its first scheduler's broadcast. */
static const struct run *graded_run(const struct view *v)
{
    return v->nruns > 0 && !v->runs[0].x && !v->runs[0].you ? &v->runs[0].run : NULL;
}

/* The question as the view shows it, into buf: the slide's own; on a new instance, its kind's
 * question asked of the instance's run, or the slide's own said plainly to be about the slide's
 * cluster when its kind cannot ask it of another run (a choice: the author's answer). */
static const char *question_text(const struct view *v, const struct slide *s, char *buf, size_t size)
{
    if (!v->instance || !s->question)
        return s->question;
    if (s->kind->ask && graded_run(v))
        s->kind->ask(s, graded_run(v), buf, size);
    else
        text_fit(buf, size, "(about the slide's own cluster, not this instance: ] then [ brings it back) %s",
                 s->question);
    return buf;
}

/* The slide's answer text as the view shows it: the author's; on a new instance, the reason
 * its kind gives from the instance's run (the author's is about the slide's own cluster). */
static const char *answer_text(const struct view *v, const struct slide *s, char *buf, size_t size)
{
    if (!v->instance || !s->answer || !s->kind->ask)   /* not asked of the instance: the author's */
        return s->answer;
    buf[0] = '\0';
    if (s->kind->reason && graded_run(v))
        s->kind->reason(s, graded_run(v), buf, size);
    return buf[0] ? buf : NULL;
}

/* The best makespan that can follow booking from -> to on the first k bookings of the
 * view's run, or NAN (not a schedule choice there, or no proven best). */
static double best_after(const struct view *v, int k, int from, int to)
{
    const struct engine *e = vrun_engine(&v->runs[0]);
    struct engine x;
    char *cause = NULL;
    if (engine_init(&x, v->c, v->model, &cause) < 0) {
        free(cause);
        return NAN;
    }
    double best = NAN;
    bool ok = true;
    for (int i = 0; i < k && ok; i++)
        ok = engine_book(&x, e->tr[i].from, e->tr[i].to, 0, "the run", &cause) == 0;
    if (ok && engine_book(&x, from, to, 0, "the pick", &cause) == 0) {
        struct best_opts o = {0, 0, -INFINITY, NULL};
        struct best_result b;
        if (exercise_best_completion_opts(&x, &o, &b, &cause) == 0 && b.status == BEST_EXACT)
            best = b.makespan;
    }
    free(cause);
    engine_free(&x);
    return best;
}

/*
 * A wrong pick that is a schedule choice -- its text and the right one's are
 * nodes waiting for the message when the slide's run books its next
 * transfer -- played as the exercise plays a pick: what the best schedule
 * that starts with it reaches, against the right one, into buf ("" when it
 * is not one).
 */
static void consequence(const struct view *v, const struct slide *s, const char *answer, char *buf,
                        size_t size)
{
    buf[0] = '\0';
    int pick = question_choice(s, answer);
    if (pick < 0 || s->correct < 0 || v->nruns < 1 || !view_single_message(v) || v->runs[0].you ||
        v->c->n > EXERCISE_MAX_NODES)
        return;
    const struct engine *e = vrun_engine(&v->runs[0]);
    int k = 0;   /* the bookings started by the step shown */
    for (int i = 0; i < v->applied[0] && e->ev && i < e->nev; i++)
        if (e->ev[i].kind == EV_SEND_START && e->ev[i].transfer + 1 > k)
            k = e->ev[i].transfer + 1;
    if (k >= e->ntr || !e->tr)
        return;
    int from = e->tr[k].from;
    int to[2] = {-1, -1};
    for (int p = 0; p < v->c->n; p++) {
        if (strcmp(v->c->nodes[p].name, s->choices[pick]) == 0)
            to[0] = p;
        if (strcmp(v->c->nodes[p].name, s->choices[s->correct]) == 0)
            to[1] = p;
    }
    if (to[0] < 0 || to[1] < 0)
        return;
    double a = best_after(v, k, from, to[0]), b = best_after(v, k, from, to[1]);
    if (isnan(a) || isnan(b))
        return;
    const char *f = v->c->nodes[from].name;
    text_fit(buf, size, "%s -> %s now: the best that can follow ends at %s; %s -> %s reaches %s%s", f,
             v->c->nodes[to[0]].name, ui_num(a), f, v->c->nodes[to[1]].name, ui_num(b),
             a > b ? "" : " (no loss here)");
}

int lesson_answer(struct view *v, const char *answer)
{
    struct slide_state *st = state_of(v);
    if (!st)
        return -1;
    const struct slide *s = &v->lesson->slides[v->slide];
    if (!slide_gradable(s)) {
        view_message(v, MSG_INFO, "this slide asks nothing to answer%s", s->answer ? " (a: its answer)" : "");
        return -1;
    }
    if (v->instance && !s->kind->ask) {
        view_message(v, MSG_INFO, "the question is about the slide's own cluster, not this instance: ] then [ "
                     "brings it back");
        return -1;
    }
    char *cause = NULL;
    struct lesson_grade g;
    if (lesson_grade(s, graded_run(v), answer, &g, &cause) < 0) {
        view_message(v, MSG_ERROR, "%s", cause ? cause : "that answer cannot be read");
        free(cause);
        return -1;
    }
    int named = s->nchoices ? question_choice(s, answer) : -1;
    if (named >= 0)   /* the pick as the class sees it: "A: p1" */
        text_fit(g.given, sizeof g.given, "%c: %s", 'A' + named, s->choices[named]);
    st->g = g;
    st->graded = true;
    st->answer = true;
    st->consequence[0] = '\0';
    if (!g.correct)
        consequence(v, s, answer, st->consequence, sizeof st->consequence);
    if (g.correct)
        view_message(v, MSG_INFO, "right: %s", g.expected);
    else
        view_message(v, MSG_ERROR, "not quite: %s; the answer is %s%s%s", g.given, g.expected,
                     st->consequence[0] ? ". " : "", st->consequence);
    return 0;
}

/* Its hold hook: the step the slide's question holds the main screen at until the answer
 * (its kind's rule, on the run it is graded against). */
static int lesson_hold(const struct view *v)
{
    if (!v->lesson || lesson_revealed(v))
        return -1;
    const struct slide *s = &v->lesson->slides[v->slide];
    if (!s->kind->hold || (s->kind->one_run && (v->nruns != 1 || !graded_run(v))) || v->nruns < 1)
        return -1;
    return s->kind->hold(s, vrun_engine(&v->runs[0]), v->nsteps);
}

/* Its hides hook: any question hides the optimum and the other schedule, its kind more. */
static unsigned lesson_hides(const struct view *v)
{
    if (!v->lesson || lesson_revealed(v))
        return 0;
    const struct slide *s = &v->lesson->slides[v->slide];
    if (!s->question || (v->instance && !s->kind->ask))   /* a new instance: only a prediction asks */
        return 0;
    return HIDE_OPTIMUM | HIDE_OTHER | s->kind->hides;
}

/* "A p1  B p2": the choices, lettered. */
static void choice_line(const struct slide *s, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int i = 0; i < s->nchoices; i++) {
        size_t len = strlen(buf);
        text_fit(buf + len, size - len, "%s%c %s", i ? "   " : "", 'A' + i, s->choices[i]);
    }
}

/* The verdict and the answer as one paragraph, into buf. */
static void verdict(const struct view *v, const struct slide *s, char *buf, size_t size)
{
    const struct slide_state *st = state_of(v);
    char expect[200] = "", own[400];
    const char *answer = answer_text(v, s, own, sizeof own);
    if (slide_gradable(s))
        lesson_expected(s, graded_run(v), expect, sizeof expect);
    if (st && st->graded)
        text_fit(buf, size, "%s %s%s%s%s%s%s%s", st->g.correct ? "Right:" : "Not quite:",
                 st->g.correct ? st->g.expected : st->g.given,
                 st->g.correct ? "" : "; the answer is ", st->g.correct ? "" : st->g.expected,
                 st->consequence[0] ? ". " : "", st->consequence,
                 answer ? ". " : "", answer ? answer : "");
    else if (expect[0])
        text_fit(buf, size, "Answer: %s%s%s", expect, answer ? ". " : "", answer ? answer : "");
    else
        text_fit(buf, size, "%s", answer ? answer : "");
}

/* Its strip hook: the slide strip on the main screen (number, title, question). */
static bool lesson_strip(struct view *v, struct cellbuf *cb, int y, int w)
{
    const struct lesson *l = v->lesson;
    if (!l)
        return false;
    const struct slide *s = &l->slides[v->slide];
    cb_fill(cb, 0, y, w, 1, ' ', R_HEAD);
    char line[1200];
    int n = snprintf(line, sizeof line, "%d/%d %s%s", v->slide + 1, l->n, v->instance ? "new instance of " : "",
                     s->title ? s->title : "");
    char asked[600];
    if (s->question && n >= 0 && (size_t)n < sizeof line) {
        char *q = paragraph(question_text(v, s, asked, sizeof asked));
        text_fit(line + n, sizeof line - (size_t)n, "%s%s%s", glyphs_for(v->ascii)->dot, q,
                 lesson_revealed(v) ? "" : slide_gradable(s) ? "  (y: answer)" : "  (a: answer)");
        free(q);
    }
    ui_put(v, cb, 1, y, w - 2, R_HEAD | AF_BOLD, line);
    return true;
}

static void draw_lesson(struct view *v, struct cellbuf *cb)
{
    const struct lesson *l = v->lesson;
    const struct slide *s = &l->slides[v->slide];
    char right[64];
    snprintf(right, sizeof right, "slide %d/%d", v->slide + 1, l->n);
    cb_fill(cb, 0, 0, cb->w, 1, ' ', R_TITLE);
    ui_put(v, cb, 1, 0, cb->w - 3 - text_width(right), R_TITLE | AF_BOLD, l->title ? l->title : "lesson");
    ui_put(v, cb, cb->w - 1 - text_width(right), 0, -1, R_TITLE | AF_BOLD, right);
    int w = cb->w - 4, y = 1;
    ui_put(v, cb, 2, y++, w, R_HEAD | AF_BOLD, s->title ? s->title : "");
    char cl[300];
    snprintf(cl, sizeof cl, "%s%s%s%s%s", v->c->name ? v->c->name : "cluster", glyphs_for(v->ascii)->dot,
             model_name(v->model), glyphs_for(v->ascii)->dot, vrun_sched_name(&v->runs[0]));
    if (v->nruns == 2)
        snprintf(cl + strlen(cl), sizeof cl - strlen(cl), " vs %s", vrun_sched_name(&v->runs[1]));
    ui_put(v, cb, 2, y++, w, R_NORMAL, cl);
    y++;
    /* The question, its choices and the answer keep the rows above the
     * status bar; the text has what is left, paragraph by paragraph, each
     * wrapped, with an ellipsis where it is cut. */
    int qx = 2 + text_width("Question: "), qw = cb->w - qx - 2;
    char choices[LESSON_MAX_CHOICES * (LESSON_CHOICE_MAX + 8)];
    choice_line(s, choices, sizeof choices);
    int crows = s->nchoices ? ui_wrap_rows(choices, qw) : 0;
    if (crows > 2)
        crows = 2;
    char a[1400] = "";   /* the verdict and the answer, once revealed: up to four rows */
    if (lesson_revealed(v) && (s->answer || slide_gradable(s)))
        verdict(v, s, a, sizeof a);
    int arows = a[0] ? ui_wrap_rows(a, qw) : 1;
    arows = arows < 2 ? 2 : arows > 4 ? 4 : arows;
    if (cb->h < 20)
        arows = 2;
    int qrows = s->question ? 2 + crows + arows : 0;
    int qy = cb->h - 1 - qrows - (v->msg[0] ? 2 : 0);
    y = room_pane_draw(v, cb, 2, y - 1, w, qy) + 1;   /* a live class: its counts, its histogram */
    char *text = v->instance ? xasprintf("A new instance of this slide (seed %d): the text below is about the "
                                         "slide's own cluster.\n\n%s", v->instance, s->text ? s->text : "")
                             : NULL;
    const char *rest = text ? text : s->text ? s->text : "";
    char *p;
    int last = -1;   /* the row of the text's last line drawn */
    while ((p = next_paragraph(&rest)) != NULL) {
        if (y >= qy) {   /* no row left: the row before says the text goes on */
            if (last >= 0)
                cb_put(cb, 2 + w - 1, last, v->ascii ? '~' : 0x2026, R_NORMAL);   /* as cb_text cuts */
            free(p);
            break;
        }
        int rows = ui_wrap_rows(p, w > 1 ? w : 1), fit = rows > qy - y ? qy - y : rows;
        ui_wrap(v, cb, 2, y, w, fit, R_NORMAL, p);   /* its last row cut with an ellipsis */
        free(p);
        y += fit;
        last = y - 1;
        if (y < qy - 1)   /* a blank row between paragraphs when there is room */
            y++;
    }
    free(text);
    if (s->question) {
        ui_put(v, cb, 2, qy, w, R_HEAD | AF_BOLD, "Question:");
        char asked[600];
        char *q = paragraph(question_text(v, s, asked, sizeof asked));
        ui_wrap(v, cb, qx, qy, qw, 2, R_NORMAL | AF_BOLD, q);
        free(q);
        int ay = qy + 2;
        if (crows) {
            ui_wrap(v, cb, qx, ay, qw, crows, R_NORMAL, choices);
            ay += crows;
        }
        const struct slide_state *st = state_of(v);
        if (a[0]) {
            char *pa = paragraph(a);
            ui_wrap(v, cb, qx, ay, qw, arows, (st && st->graded && !st->g.correct ? R_BAD : R_GOOD) | AF_BOLD, pa);
            free(pa);
        } else {
            char how[120], line[130];
            s->kind->how(s, how, sizeof how);
            snprintf(line, sizeof line, "(%s)", how);
            if (how[0])
                ui_put(v, cb, qx, ay, qw, R_NORMAL, line);
        }
    }
    if (v->msg[0])
        ui_messages(v, cb, cb->h - 3, cb->w);
    const struct hint h[] = {{"Enter", "the schedule"}, {"]", "next slide"}, {"[", "previous"}, {"a", "answer"}};
    ui_status_bar(v, cb, h, s->answer || slide_gradable(s) ? 4 : 3);
}

static unsigned lesson_request(struct view *v, enum ui_req req, int key)
{
    if ((req == REQ_CHOICE || req == REQ_REPLY) && room_pane_refuses(v))   /* a live class votes */
        return UI_HANDLED | UI_REDRAW;
    switch (req) {
    case REQ_PICK:
        view_screen_close(v);
        break;
    case REQ_SLIDE:
        if (key == 'd')
            lesson_new_instance(v);
        else
            lesson_go(v, v->slide + (key == '[' || key == UK_PGUP ? -1 : 1));
        break;
    case REQ_ANSWER:
        lesson_reveal(v);
        room_pane_request(v, req);   /* a live class sees it too */
        break;
    case REQ_CHOICE: {   /* A-H or 1-8 */
        const struct slide *s = &v->lesson->slides[v->slide];
        int i = key >= 'A' && key <= 'H' ? key - 'A' : key >= '1' && key <= '8' ? key - '1' : -1;
        if (s->nchoices == 0) {
            view_message(v, MSG_INFO, "this slide has no choices%s", slide_gradable(s) ? " (y: type the answer)" : "");
        } else if (i < 0 || i >= s->nchoices) {
            view_message(v, MSG_ERROR, "choose A-%c (or 1-%d)", 'A' + s->nchoices - 1, s->nchoices);
        } else {
            char a[4] = {(char)('A' + i), '\0'};
            lesson_answer(v, a);
        }
        break;
    }
    case REQ_REPLY:
        if (!slide_gradable(&v->lesson->slides[v->slide]))
            view_message(v, MSG_INFO, "this slide asks nothing to answer");
        else
            view_screen_open(v, &screen_prompt, 'y');
        break;
    case REQ_VOTE:
    case REQ_BARS:
    case REQ_CHALLENGE:
    case REQ_INSTANCES:
        return room_pane_request(v, req);
    default:
        return view_request(v, req, key);
    }
    return UI_HANDLED | UI_REDRAW;
}

/* Its behind hook: the main screen's slide keys -- a the answer, y answer it, w the slide,
 * ] [ the next and previous slide. */
static unsigned lesson_behind(struct view *v, enum ui_req req, int key)
{
    if (req != REQ_SLIDE || !v->lesson)
        return 0;
    if (key == 'a')   /* the answer, and what it hid */
        lesson_reveal(v);
    else if (key == 'y' && room_pane_refuses(v))
        ;
    else if (key == 'y' && !slide_gradable(&v->lesson->slides[v->slide]))
        view_message(v, MSG_INFO, "this slide asks nothing to answer");
    else if (key == 'y')
        view_screen_open(v, &screen_prompt, 'y');
    else if (key == 'w')
        view_screen_open(v, &screen_lesson, 0);
    else
        lesson_go(v, v->slide + (key == '[' ? -1 : 1));
    return UI_HANDLED | UI_REDRAW;
}

/* Its open hook: the slide's text again (w), the answer as it was. */
static int lesson_open(struct view *v, void **data, int arg)
{
    (void)v;
    (void)arg;
    if (!*data)
        *data = xcalloc(1, sizeof(struct slide_state));
    return 0;
}

const struct screen screen_lesson = {
    .name = "lesson",
    .id = SCR_LESSON,
    .open = lesson_open,
    .draw = draw_lesson,
    .request = lesson_request,
    .hold = lesson_hold,
    .hides = lesson_hides,
    .strip = lesson_strip,
    .answer = lesson_answer,
    .behind = lesson_behind,
};
