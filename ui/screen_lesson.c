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
 * whether the answer is revealed (struct slide_state), which w finds again.
 */
#include "ui/drawkit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"
#include "session/lesson.h"
#include "ui/room_pane.h"

/* The slide screen's state. */
struct slide_state {
    bool answer;        /* the answer is revealed */
};

static struct slide_state *slide_of(const struct view *v)
{
    return view_screen_data(v, &screen_lesson);
}

/* Open slide k into v (closed or fresh), keeping what the terminal set. */
static int open_slide(struct view *v, const struct lesson *l, int k, char **cause)
{
    struct view keep = *v;
    struct session_opts o;
    lesson_session(l, k, &o);
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
    char note[sizeof v->msg];   /* what view_open said (a cancelled scheduler) outlives the step */
    enum msg_kind note_kind = v->msg_kind;
    memcpy(note, v->msg, sizeof note);
    view_step_to(v, s->step < 0 || s->step > v->nsteps ? v->nsteps : s->step);
    memcpy(v->msg, note, sizeof note);
    v->msg_kind = note_kind;
    view_screen_open(v, &screen_lesson, 0);   /* the view is fresh: the answer hidden */
    return 0;
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
    struct view next = {0};   /* the slide shown stays until the next one is ready */
    next.colour = v->colour;
    next.ascii = v->ascii;
    next.busy = v->busy;
    next.busy_ctx = v->busy_ctx;
    next.computing = v->computing;
    next.cancel = v->cancel;
    next.room = v->room;
    next.room_bars = v->room_bars;
    char *cause = NULL;
    if (open_slide(&next, l, k, &cause) != 0) {
        view_resume(v);
        if (v->cancel && *v->cancel)
            view_message(v, MSG_ERROR, "slide %d: " SCHED_CANCELLED_TEXT "; slide %d stays", k + 1,
                         v->slide + 1);
        else
            view_message(v, MSG_ERROR, "slide %d does not open: %s", k + 1, cause ? cause : "failed");
        free(cause);
        return;
    }
    view_replace(v, &next);
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
    /* The question and its answer keep the rows above the status bar (two
     * each); the text has what is left, its lines as written, each wrapped. */
    int qy = cb->h - 1 - (s->question ? 4 : 0) - (v->msg[0] ? 2 : 0);
    y = room_pane_draw(v, cb, 2, y - 1, w, qy) + 1;   /* a live class: its counts, its histogram */
    char *text = xstrdup(s->text ? s->text : "");
    for (char *line = text; line && y < qy;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        int rows = text_width(line) / (w > 1 ? w : 1) + 1;
        if (rows > qy - y)
            rows = qy - y;
        ui_wrap(v, cb, 2, y, w, rows, R_NORMAL, line);
        y += rows;
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    if (s->question) {
        int qx = 2 + text_width("Question: ");
        ui_put(v, cb, 2, qy, w, R_HEAD | AF_BOLD, "Question:");
        char *q = paragraph(s->question);
        ui_wrap(v, cb, qx, qy, cb->w - qx - 2, 2, R_NORMAL | AF_BOLD, q);
        free(q);
        if (slide_of(v)->answer && s->answer) {
            char *a = paragraph(s->answer);
            ui_wrap(v, cb, qx, qy + 2, cb->w - qx - 2, 2, R_GOOD | AF_BOLD, a);
            free(a);
        } else if (s->answer)
            ui_put(v, cb, qx, qy + 2, w, R_NORMAL, "(a: the answer)");
    }
    if (v->msg[0])
        ui_messages(v, cb, cb->h - 3, cb->w);
    const struct hint h[] = {{"Enter", "the schedule"}, {"]", "next slide"}, {"[", "previous"}, {"a", "answer"}};
    ui_status_bar(v, cb, h, s->answer ? 4 : 3);
}

static unsigned lesson_request(struct view *v, enum ui_req req, int key)
{
    switch (req) {
    case REQ_PICK:
        view_screen_close(v);
        break;
    case REQ_SLIDE:
        lesson_go(v, v->slide + (key == '[' || key == UK_PGUP ? -1 : 1));
        break;
    case REQ_ANSWER:
        if (v->lesson->slides[v->slide].answer)
            slide_of(v)->answer = true;
        else if (!v->room)
            view_message(v, MSG_INFO, "this slide asks no question");
        room_pane_request(v, req);   /* a live class sees it too */
        break;
    case REQ_VOTE:
    case REQ_BARS:
        return room_pane_request(v, req);
    default:
        return view_request(v, req, key);
    }
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
};
