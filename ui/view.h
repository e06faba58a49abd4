/*
 * ui/view.h - the interactive view's state and screens, without curses.
 *
 * Layer: above the core (it calls run_schedule, engine_snapshot,
 * engine_narrate, engine_book and never computes a schedule itself) and
 * below term.c (which owns the terminal).  Each screen (screen_*.c) is a
 * state of its own, as tmux's window modes are: hooks to open and close it
 * over data only it reads, a draw function that writes into a cell buffer
 * and a request function that returns UI_* bits.  view_key finds the key's
 * row in the one key table (ui/keys.h), view_draw the screen, and
 * view_screen_open / view_screen_close go from one screen to another
 * through the hooks: the view names no screen's functions and keeps no
 * screen's state but as an opaque pointer.  Tests drive a view with keys
 * and read what it drew, with no terminal at all.
 */
#ifndef HETCAST_VIEW_H
#define HETCAST_VIEW_H

#include <signal.h>
#include <stdbool.h>

#include "ui/cellbuf.h"
#include "session/question.h"
#include "session/session.h"
#include "engine/engine.h"
#include "ui/keys.h"
#include "ui/vkind.h"
#include "session/run.h"
#include "session/trace.h"

#define UI_HANDLED 1u   /* the key meant something here */
#define UI_REDRAW 2u    /* the screen must be drawn again */
#define UI_QUIT 4u      /* leave the view */

#define UI_MIN_W 60     /* smaller terminals get a "too small" notice */
#define UI_MIN_H 16

struct view;

/*
 * A screen: its rows in the key table (ui/keys.h) are those with its id; the
 * requests they make reach its request function, which answers UI_* bits
 * (0: not here) and hands the requests every screen shares to view_request.
 * What it keeps is its own: one block (malloc) the view holds for it from
 * its first opening to view_close, and passes to its hooks; the screen
 * reads it with view_screen_data.  Every hook may be NULL.
 */
struct screen {
    const char *name;
    unsigned id;        /* SCR_* */
    bool over;          /* opened over the screen shown, which stays open under it and comes
                           back when it closes (the help, a list, the prompt) */
    /* Entering it (view_screen_open): *data is what it kept from the last
     * time (NULL the first time: it allocates it), made ready for this
     * entry; arg is the opener's (a list's kind, the prompt's '/' or ':',
     * the log rather than the facts).  0, or -1 with the message saying
     * why, and the screen shown stays. */
    int (*open)(struct view *v, void **data, int arg);
    /* Leaving it (view_screen_close), the screen under it already shown:
     * what it keeps for the next time stays in data. */
    void (*close)(struct view *v, void *data);
    /* Let go of what it made on the view's cluster (the exercise's
     * choices, a list): the cluster or the source changed, or the view
     * closes (which then frees data). */
    void (*forget)(struct view *v, void *data);
    void (*draw)(struct view *v, struct cellbuf *cb);
    unsigned (*request)(struct view *v, enum ui_req req, int key);
    /* A screen the view keeps while it is that screen's (a lesson's slide: v->lesson)
     * rules the other screens through these, which they reach through the view
     * (view_hold, view_hides, view_strip, view_answer, view_behind), never by name.
     * The step the view is held at until the answer is revealed, -1 none: */
    int (*hold)(const struct view *v);
    /* What the main screen hides until then (HIDE_*, session/question.h): */
    unsigned (*hides)(const struct view *v);
    /* Its strip on the main screen at row y, w wide; false: none drawn. */
    bool (*strip)(struct view *v, struct cellbuf *cb, int y, int w);
    /* An answer typed at the prompt (y): 0, or -1 with the message saying why. */
    int (*answer)(struct view *v, const char *answer);
    /* A request about it made on the main screen (its REQ_SLIDE keys): UI_* bits, 0 not its. */
    unsigned (*behind)(struct view *v, enum ui_req req, int key);
};
extern const struct screen screen_main, screen_help, screen_chooser, screen_exercise, screen_facts,
    screen_prompt, screen_lesson;

struct exchange;

/*
 * One scheduler run shown by the view: a broadcast (one message, or K
 * pipelined slices) in run, or a personalized exchange in x (the view was
 * opened with --pattern; run is then unused).  vrun_engine() gives the
 * engine either way: the Gantt, the stepping and the narration only need it.
 */
struct vrun {
    struct run run;
    struct exchange *x; /* a personalized exchange, or NULL */
    char *name;         /* what the user chose: a built-in name or a .lua path */
    bool ok;
    bool you;           /* the student's own schedule from the exercise (x), not a scheduler's */
    int *from, *to;     /* you: the student's moves, booked in order (view_show_you) */
    int nmoves;
};

const struct engine *vrun_engine(const struct vrun *r);
/* The scheduler's name: the broadcast scheduler's, or the exchange order's. */
const char *vrun_sched_name(const struct vrun *r);
/* When the last node holds its last message: the makespan, or an exchange's completion. */
double vrun_end(const struct vrun *r);
/* Is it a measured run (--trace), not a prediction? */
bool vrun_measured(const struct vrun *r);
/* Is it a pipelined run (K slices along a tree of a platform graph)? */
bool vrun_pipelined(const struct vrun *r);

/* What kind of run v shows (ui/vkind.h), from its first run. */
const struct vkind *view_kind(const struct view *v);

/* Up to three timelines: one, two in compare mode, and the student's ("you") after an exercise. */
#define VIEW_MAX_RUNS 3

/* Compare mode steps through the timelines merged by time. */
struct vstep {
    int run;            /* 0 .. nruns-1 */
    int ev;             /* event index in that run's timeline */
};

enum msg_kind { MSG_NONE = 0, MSG_INFO, MSG_ERROR };

struct room;

struct view {
    struct session_opts opts;
    bool exchange;      /* a personalized exchange (--pattern): every run has x */
    struct cluster *c;
    char *source_name;  /* the source chosen in the view, kept across reloads */
    enum model model;
    struct vrun runs[VIEW_MAX_RUNS];
    int nruns;          /* 1, or 2 in compare mode; the student's schedule ("you") comes last */
    bool traced;        /* opened with --trace: compare mode's second pane is the measured
                           run of trace (session/trace.h), made from the first pane's prediction */
    struct trace trace;
    struct vstep *order;
    int nsteps, step;   /* steps are events (merged in compare mode) */
    struct snapshot snap[VIEW_MAX_RUNS];
    int applied[VIEW_MAX_RUNS];     /* events applied per run at this step */

    bool colour, ascii; /* display capabilities, set by term.c (tests set them) */
    bool tree;          /* the side pane is open: the tree, or an exchange's sending orders */
    int zoom;           /* time scale: 2^zoom times the fitted one */
    double t0;          /* first time shown (follows the cursor when zoomed) */
    int sel, top;       /* selected node, first lane shown */
    bool flows;         /* f: the shared links' lanes in place of the nodes' (link_lanes.c) */
    int flow_top;       /* their first row shown */
    int page;           /* lanes that fit on the screen (set when drawn) */
    int *pick, npick;   /* a lesson's lanes that matter, shown instead of a page (gantt_pick) */
    bool playing;
    int speed;          /* index into the play delays */

    char msg[1024];     /* a transient message shown instead of the narration */
    enum msg_kind msg_kind;
    int lua_lines;      /* lines a Lua script printed, not yet shown */
    char lua_last[256]; /* the last of them, "script: text" */
    bool export_ok;     /* a large export was announced: e again writes it */
    const struct screen *screen;    /* shown */
    const struct screen *back;      /* under it, when it was opened over it */
    struct kept_data {  /* what each screen opened keeps (its own type; the view never reads it) */
        const struct screen *screen;
        void *data;
    } *kept;
    int nkept;
    /* A lesson (hetcast lesson FILE; screen_lesson.c): its slides, the one
     * the view shows (lesson_go opens the view anew on another). */
    const struct lesson *lesson;
    int slide;
    struct slide_moves {    /* the exercise's choices kept on each slide left (lesson_go), given
                               back when x opens there again; nmoves slides (the lesson's) */
        int *from, *to;
        int n;
    } *moves;
    int nmoves;
    int instance;           /* d: the seed of the random instance shown instead of the slide's
                               cluster; 0: the slide's own */
    char *instance_owned;   /* what the instance's options point to (a seed param, CSV text) */
    /* A live class (--class ROOM; ui/room_pane.c): the room, and whether its histogram shows. */
    struct room *room;
    bool room_bars;
    /* Called before a computation that may take a while (may be NULL). */
    void (*busy)(struct view *v, const char *what);
    void *busy_ctx;
    /* Around every computation (may be NULL): on, then off.  The front door
     * watches for q, Ctrl-C and signals meanwhile and sets *cancel, which
     * the core polls (sched_opts.cancel); a cancelled computation leaves
     * what was shown as it was. */
    void (*computing)(struct view *v, bool on);
    volatile sig_atomic_t *cancel;
};

/*
 * Load o->file and run the scheduler(s) of o (fnf by default; two -s open
 * compare mode).  Returns 0, or the exit status (2: bad input, 1: runtime
 * failure) with *cause holding the messages and v left empty (nothing to
 * close).
 */
int view_open(struct view *v, const struct session_opts *o, char **cause);
/*
 * The same with the front door's hooks (busy, busy_ctx, computing, cancel
 * copied from *hooks; NULL: none), so the first computation shows its
 * progress and can be cancelled too.  Cancelled, the view opens on the
 * default scheduler instead (fnf, or the caterpillar for an exchange) with
 * a message saying so; if that is what was cancelled, or it is cancelled
 * too, it returns 1 with *cause "cancelled".  Compare mode's second
 * scheduler cancelled: one pane, and the message says so.
 */
int view_open_hooked(struct view *v, const struct session_opts *o, const struct view *hooks,
                     char **cause);

/*
 * Around a computation the view starts itself (the exercise's search):
 * what (may be NULL) goes on the progress line, the front door watches the
 * keyboard and signals, and the flag to poll is returned (v->cancel, may
 * be NULL).  end: was it cancelled?
 */
volatile sig_atomic_t *view_compute_begin(struct view *v, const char *what);
bool view_compute_end(struct view *v);
void view_close(struct view *v);
/*
 * Show fresh, a view opened beside v (view_open_hooked), in v's place: v
 * closed, fresh moved into it and left empty.  Until then v is untouched,
 * so a change that fails or is cancelled keeps what v shows; view_resume
 * then gives v back what the open beside it took (Lua's print()).
 */
void view_replace(struct view *v, struct view *fresh);
void view_resume(struct view *v);

/* Dispatch to the current screen: the key's row in the key table, then the screen's request. */
unsigned view_key(struct view *v, int key);
/* The requests every screen that binds them shares: zoom, reload, help, quit. */
unsigned view_request(struct view *v, enum ui_req req, int key);
void view_draw(struct view *v, struct cellbuf *cb);
/* Milliseconds until the next play step, or -1 when not playing. */
int view_play_delay(const struct view *v);
/* The delay between play steps at the current speed, playing or not. */
int view_play_ms(const struct view *v);
/* Open the help screen over the current one. */
void view_help(struct view *v);
/*
 * Show screen s: its open hook makes its data ready (arg is for it); then
 * the screen shown is closed (its close hook), unless s opens over it.
 * 0, or -1 when s refused (the message says why; the screen shown stays).
 */
int view_screen_open(struct view *v, const struct screen *s, int arg);
/* Leave the screen shown for the one it was opened over, else the main screen. */
void view_screen_close(struct view *v);
/* What screen s keeps (its own type), or NULL before its first opening. */
void *view_screen_data(const struct view *v, const struct screen *s);
/* The kept screens' rule over the others (struct screen's hold .. behind), asked of every
 * screen the view keeps: the step held at (-1 none), what is hidden (HIDE_*), the strip
 * drawn (false: none), an answer taken (-1 with a message when no screen takes it), a
 * main screen's request handled (0: no screen's). */
int view_hold(const struct view *v);
unsigned view_hides(const struct view *v);
bool view_strip(struct view *v, struct cellbuf *cb, int y, int w);
int view_answer(struct view *v, const char *answer);
unsigned view_behind(struct view *v, enum ui_req req, int key);
/* The play timer fired: one step forward (stops at the end). */
unsigned view_tick(struct view *v);

/* Actions behind the keys (also used by tests). 0 or -1 with the message set. */
void view_step_to(struct view *v, int k);
/* The step that shows everything up to time t. */
int view_step_at_time(const struct view *v, double t);
int view_set_scheduler(struct view *v, const char *name);
/* The same for compare mode's second pane (the first with one pane). */
int view_set_second_scheduler(struct view *v, const char *name);
int view_set_model(struct view *v, enum model m);
int view_set_compare(struct view *v, bool on);
int view_set_source(struct view *v, int node);
int view_reload(struct view *v);
int view_export(struct view *v, const char *stem);
void view_message(struct view *v, enum msg_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void view_clear_message(struct view *v);
double view_now(const struct view *v);
/* Play one speed slower (delta < 0) or faster, within the speeds there are. */
void view_change_speed(struct view *v, int delta);
/* A single-message broadcast (not an exchange, not pipelined): it has a critical path and an exercise. */
bool view_single_message(const struct view *v);

/*
 * Compare mode on a broadcast: the "first difference: ..." text (engine/explain.h)
 * into buf, when the cursor time now has reached the decision where the two
 * schedules part (INFINITY: whenever); a shorter form when the full one is
 * wider than width (0: never).  False when there is none to show.
 */
bool view_first_difference(const struct view *v, char *buf, size_t size, double now, int width);
/*
 * With --trace: how far the measurement is from the prediction for what
 * has been received by time now (INFINITY: all), "measured - predicted,
 * held: p1 +0.004 · p2 +0.01", into buf; false before anything is held.
 */
bool view_trace_shift(const struct view *v, char *buf, size_t size, double now);
/* The facts of node p as lines of text (screen_facts.c): what i shows; free with free(). */
char *view_facts(const struct view *v, int p);
/* The node whose name best matches q (a prefix first, then anywhere, ignoring case); -1 if none. */
int view_find_node(const struct view *v, const char *q);
/* n and N after /: select the next (dir 1) or previous (dir -1) node after the selected one whose
 * name holds the last search's text (ignoring case), round the end; says which, or that there
 * is no search yet.  O(nodes). */
void view_find_again(struct view *v, int dir);

struct lesson;
/* Open lesson l at slide k on its slide screen.  0, or the exit status with *cause. */
int lesson_view_open(struct view *v, const struct lesson *l, int k, char **cause);
/* The same with the front door's hooks (view_open_hooked): its first run is watched. */
int lesson_view_open_hooked(struct view *v, const struct lesson *l, int k, const struct view *hooks,
                            char **cause);
/*
 * A slide's question, answered in one place whatever asks (the slide's keys,
 * the prompt's y, a live class): lesson_answer grades answer with
 * lesson_grade against the slide's run (its first scheduler), keeps the
 * verdict, reveals the answer and says it on the message line (0, or -1 with
 * the message saying why it cannot be read); lesson_reveal reveals it
 * ungraded (a).  lesson_revealed: true without a lesson.
 */
int lesson_answer(struct view *v, const char *answer);
void lesson_reveal(struct view *v);
bool lesson_revealed(const struct view *v);
/* d: a new random instance of the slide's kind in its place -- the slide's Lua cluster
 * with another seed (when the script reads one), or a node table of its size where fnf
 * loses to the optimum; ] then [ go back to the slide's own. */
void lesson_new_instance(struct view *v);
/* Go to slide k (clamped).  The next slide is opened beside the one shown, which
 * stays as it was, with a message, when that fails or is cancelled. */
void lesson_go(struct view *v, int k);

/*
 * The student's finished schedule (the exercise, x): the n moves from[i] ->
 * to[i] booked in order on the view's cluster and model, shown as the last
 * run ("you") beside the schedulers in compare mode, replacing one shown
 * already.  The view keeps the moves, so a change of model books them
 * again.  0, or -1 with the message saying why.
 */
int view_show_you(struct view *v, const int *from, const int *to, int n);
/* Take the "you" timeline off the screen; true if there was one. */
bool view_drop_you(struct view *v);

#endif
