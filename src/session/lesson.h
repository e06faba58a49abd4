/*
 * session/lesson.h - a lesson: a Lua file (the cluster scripts' sandbox) that
 * returns {title=, slides={...}}; each slide names a cluster file (relative
 * to the lesson) or builds one inline (a table of nodes, or CSV text), its
 * --param values, one or two schedulers, a model, the
 * step to open at, the instructor's text, and optionally a question with
 * its answer.  A question may be one a student answers and hetcast grades:
 * choices with the right one, or a prediction of the slide's own run (its
 * makespan, or the next transfer booked): its kind, a row of
 * session/question.h.  hetcast lesson FILE presents it
 * (ui/screen_lesson.c), and
 * --print writes the handout with the numbers hetcast computed
 * (app/cmd_lesson.c).  Loading never prints; errors name the file and line.
 *
 * A lesson is shared between courses, so it reads only its own files: a
 * slide's cluster, trace and Lua heuristics (schedulers = "NAME.lua", resolved
 * against the lesson's folder; a bare name not beside the lesson is a bundled
 * heuristic) must lie in the lesson's folder (or below it) or among the
 * bundled clusters (session_confined), and be regular files.
 * lesson_load refuses any other at FILE:LINE (the line that names it),
 * never quoting the file; opening a slide checks again (the folder may have
 * changed since).
 */
#ifndef HETCAST_LESSON_H
#define HETCAST_LESSON_H

#include <stdbool.h>
#include <stddef.h>

#include "session/question.h"
#include "session/run.h"
#include "session/slide.h"
#include "session/session.h"

struct lesson {
    char *path;
    char *dir;      /* the lesson's folder: its files lie there or among the bundled clusters */
    char *title;
    int n;
    struct slide *slides;
    char *warnings;     /* what the loader found suspect but loads (an unknown field), a line each
                           "FILE:LINE: warning: slide N: ...", or NULL */
};

/* The summary values a slide may name in show = {...}, as the view labels them. */
extern const char *const lesson_show_values[];
/* Does slide s name value (one of lesson_show_values, or a node's name) in show? */
bool slide_shows(const struct slide *s, const char *name);

/* Load a lesson file.  0, or -1 with *cause (file:line: problem). */
int lesson_load(const char *path, struct lesson *out, char **cause);
void lesson_free(struct lesson *l);

/* The line of lesson l's file a message about slide k (0-based) points to: the line of the
 * first of the slide's fields the message names (about: "choices need correct = K"), else
 * the slide's first line; 0 when the file does not write its slides out in slides = {...}. */
int lesson_line(const struct lesson *l, int k, const char *about);

/* Does slide s ask something a student answers and hetcast grades (its kind grades)? */
bool slide_gradable(const struct slide *s);

/* Grade a student's answer to slide s against r, the slide's run of its
 * first scheduler (NULL is enough for choices).  Choices: a letter A-H, a
 * number 1-8 or the choice's text (case and surrounding spaces ignored).
 * makespan: a number, right within the slide's tolerance of the makespan
 * (tolerance = X, 0.005 when not given: the GIFT export's rule too).  next: "SENDER -> RECEIVER"
 * (also "S->R", "S R", "S,R"); each kind's rule is its row's (session/question.h).
 * 0 with *g filled, or -1 with *cause when the
 * answer cannot be read (it says how to write one); an answer that names no
 * node or no choice is read, and wrong. */
int lesson_grade(const struct slide *s, const struct run *r, const char *answer, struct lesson_grade *g,
                 char **cause);
/* The right answer as text (what lesson_grade puts in expected): for the reveal and handouts.
 * A prediction needs r; without it (or when the run is too short) buf says "(not known)" and
 * the answer is false. */
bool lesson_expected(const struct slide *s, const struct run *r, char *buf, size_t size);

/* Why slide s, gradable, has no right answer in r (lesson_expected false), allocated: a
 * question no one can be graded on. */
char *lesson_unanswerable(const struct slide *s, const struct run *r);

/* The session options of slide k (pointers into the lesson: keep it alive), confined
 * to the lesson's files (session_opts.confine). */
void lesson_session(const struct lesson *l, int k, struct session_opts *o);

#endif
