/*
 * session/lesson.h - a lesson: a Lua file (the cluster scripts' sandbox) that
 * returns {title=, slides={...}}; each slide names a cluster file (relative
 * to the lesson) or builds one inline (a table of nodes, or CSV text), its
 * --param values, one or two schedulers, a model, the
 * step to open at, the instructor's text, and optionally a question with
 * its answer.  hetcast lesson FILE presents it (ui/screen_lesson.c), and
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

#include "session/session.h"

#define LESSON_MAX_SLIDES 64
#define LESSON_MAX_PARAMS 8

struct slide {
    char *title;
    char *text;             /* what the instructor says; may be NULL */
    char *question;         /* for the class; NULL if none */
    char *answer;           /* revealed on a key; NULL if none */
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

/* Load a lesson file.  0, or -1 with *cause (file:line: problem). */
int lesson_load(const char *path, struct lesson *out, char **cause);
void lesson_free(struct lesson *l);

/* The session options of slide k (pointers into the lesson: keep it alive), confined
 * to the lesson's files (session_opts.confine). */
void lesson_session(const struct lesson *l, int k, struct session_opts *o);

#endif
