/*
 * session/lesson.h - a lesson: a Lua file (the cluster scripts' sandbox) that
 * returns {title=, slides={...}}; each slide names a cluster file (relative
 * to the lesson) or builds one inline (a table of nodes, or CSV text), its
 * --param values, one or two schedulers, a model, the
 * step to open at, the instructor's text, and optionally a question with
 * its answer.  A question may be one a student answers and hetcast grades:
 * choices with the right one, or a prediction of the slide's own run (its
 * makespan, or the next transfer booked).  hetcast lesson FILE presents it
 * (ui/screen_lesson.c), and
 * --print writes the handout with the numbers hetcast computed
 * (app/cmd_lesson.c).  Loading never prints; errors name the file and line.
 *
 * A lesson is shared between courses, so it reads only its own files: a
 * slide's cluster and trace must lie in the lesson's folder (or below it)
 * or among the bundled clusters (session_confined), and be regular files.
 * lesson_load refuses any other at FILE:LINE (the line that names it),
 * never quoting the file; opening a slide checks again (the folder may have
 * changed since).
 */
#ifndef HETCAST_LESSON_H
#define HETCAST_LESSON_H

#include <stdbool.h>
#include <stddef.h>

#include "session/run.h"
#include "session/session.h"

#define LESSON_MAX_SLIDES 64
#define LESSON_MAX_PARAMS 8
#define LESSON_MAX_CHOICES 8
#define LESSON_CHOICE_MAX 80    /* bytes of one choice's text */
#define LESSON_MAX_SHOW 8       /* names in a slide's show = {...} */

/* A question whose answer hetcast computes from the slide's run (of its first scheduler). */
enum slide_predict {
    PREDICT_NONE,
    PREDICT_MAKESPAN,   /* predict = "makespan": a number */
    PREDICT_NEXT,       /* predict = "next": "SENDER -> RECEIVER" of booking `decision` */
};

struct slide {
    char *title;
    char *text;             /* what the instructor says; may be NULL */
    char *question;         /* for the class; NULL if none */
    char *answer;           /* revealed on a key; NULL if none */
    char *choices[LESSON_MAX_CHOICES];   /* choices = {...}: what a student picks from */
    int nchoices;
    int correct;            /* the right choice, 0-based (correct = K is 1-based); -1: no choices */
    enum slide_predict predict;
    int decision;           /* PREDICT_NEXT: the booking asked about, 0-based (decision = K, 1-based) */
    char *cluster;          /* the file, resolved against the lesson's directory; for an
                               inline cluster "LESSON (slide N, inline)", what messages name */
    char *cluster_text;     /* an inline cluster as CSV text (cluster = {...}); NULL: a file */
    char *params[LESSON_MAX_PARAMS];   /* "k=v" */
    int nparams;
    char *sched[2];         /* one or two schedulers (two: compare) */
    int nsched;
    char *model;            /* NULL: the cluster's default */
    char *pattern;          /* "all-to-all": a personalized exchange; NULL: a broadcast */
    int slices;             /* pipelined broadcasts: --slices; 0 none */
    int step;               /* the step to open at; -1: the end */
    char *show[LESSON_MAX_SHOW];   /* show = {...}: the nodes and summary values the slide is
                                      about, never left off the screen */
    int nshow;
    char *trace;            /* a measured run of the one scheduler (session/trace.h), resolved against
                               the lesson's directory; NULL: none */
};

struct lesson {
    char *path;
    char *dir;      /* the lesson's folder: its files lie there or among the bundled clusters */
    char *title;
    int n;
    struct slide *slides;
};

/* The summary values a slide may name in show = {...}, as the view labels them. */
extern const char *const lesson_show_values[];
/* Does slide s name value (one of lesson_show_values, or a node's name) in show? */
bool slide_shows(const struct slide *s, const char *name);

/* Load a lesson file.  0, or -1 with *cause (file:line: problem). */
int lesson_load(const char *path, struct lesson *out, char **cause);
void lesson_free(struct lesson *l);

/* Does slide s ask something a student answers and hetcast grades (choices or predict)? */
bool slide_gradable(const struct slide *s);

struct lesson_grade {
    bool correct;
    char expected[160];     /* the right answer as a class sees it: "B: p2", "5", "p0 -> p2" */
    char given[160];        /* the answer as read, text only (diag.h's SHOWN) */
};

/* Grade a student's answer to slide s against r, the slide's run of its
 * first scheduler (NULL is enough for choices).  Choices: a letter A-H, a
 * number 1-8 or the choice's text (case and surrounding spaces ignored).
 * makespan: a number, right when it equals the makespan to the digits the
 * student gave (within half a unit of the last digit written, never looser
 * than that nor tighter than 1e-9 relative).  next: "SENDER -> RECEIVER"
 * (also "S->R", "S R", "S,R").  0 with *g filled, or -1 with *cause when the
 * answer cannot be read (it says how to write one); an answer that names no
 * node or no choice is read, and wrong. */
int lesson_grade(const struct slide *s, const struct run *r, const char *answer, struct lesson_grade *g,
                 char **cause);
/* The right answer as text (what lesson_grade puts in expected): for the reveal and handouts.
 * A prediction needs r; without it (or when the run is too short) buf says "(not known)". */
void lesson_expected(const struct slide *s, const struct run *r, char *buf, size_t size);

/* The session options of slide k (pointers into the lesson: keep it alive), confined
 * to the lesson's files (session_opts.confine). */
void lesson_session(const struct lesson *l, int k, struct session_opts *o);

#endif
