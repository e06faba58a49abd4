/*
 * session/slide.h - one slide of a lesson (session/lesson.h loads them) and
 * a student's graded answer: the data the lesson's loader fills and the
 * question kinds (session/question.h) read.  Only types: no functions.
 */
#ifndef HETCAST_SLIDE_H
#define HETCAST_SLIDE_H

#include <stdbool.h>

struct question_kind;

#define LESSON_MAX_SLIDES 64
#define LESSON_MAX_PARAMS 8
#define LESSON_MAX_CHOICES 8
#define LESSON_CHOICE_MAX 80    /* bytes of one choice's text */
#define LESSON_MAX_SHOW 8
#define LESSON_TOLERANCE 0.005  /* a makespan's answer is right within this, unless the slide says */       /* names in a slide's show = {...} */

struct slide {
    char *title;
    char *text;             /* what the instructor says; may be NULL */
    char *question;         /* for the class; NULL if none */
    char *answer;           /* revealed on a key; NULL if none */
    char *choices[LESSON_MAX_CHOICES];   /* choices = {...}: what a student picks from */
    int nchoices;
    int correct;            /* the right choice, 0-based (correct = K is 1-based); -1: no choices */
    const struct question_kind *kind;   /* what the question is (session/question.h); never NULL
                                           once loaded */
    double tolerance;       /* predict = "makespan": how far from the makespan an answer is right
                               (tolerance = X; LESSON_TOLERANCE when not given), in the view, the
                               room and the GIFT export alike */
    int decision;           /* predict = "next": the booking asked about, 0-based (decision = K, 1-based) */
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
    double size;            /* the message's bytes (size = X): --size; 0 not given */
    int step;               /* the step to open at; -1: the end */
    char *show[LESSON_MAX_SHOW];   /* show = {...}: the nodes and summary values the slide is
                                      about, never left off the screen */
    int nshow;
    char *trace;            /* a measured run of the one scheduler (session/trace.h), resolved against
                               the lesson's directory; NULL: none */
};

struct lesson_grade {
    bool correct;
    char expected[160];     /* the right answer as a class sees it: "B: p2", "5", "p0 -> p2" */
    char given[160];        /* the answer as read, text only (diag.h's SHOWN) */
};

#endif
