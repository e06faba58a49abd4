/*
 * session/question.h - the kinds of question a lesson's slide asks, one row
 * each (struct question_kind): its name on the wire, how a lesson file
 * writes it, how an answer is read and graded, the right answer as text, how
 * a student answers, what the view hides and where it holds until the answer
 * is revealed, and its lines in the GIFT export and the handout.  A slide
 * points to its row (slide.kind); the loader, the room, the view, GIFT and
 * the handout read the row, never the kind's name.  Adding a kind is one row
 * in question.c and its tests.
 *
 * The writers write to a FILE * they are handed, each text through the
 * caller's escaper (GIFT's, or the terminal-safe one of the handout): this
 * layer never prints.
 */
#ifndef HETCAST_QUESTION_H
#define HETCAST_QUESTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct slide;
struct run;
struct engine;
struct lesson_grade;
struct lua_State;

/* What the main screen hides until a slide's answer is revealed. */
#define HIDE_OPTIMUM 1u     /* the optimum (the summary) */
#define HIDE_OTHER 2u       /* compare mode: the other schedule's end, and the difference */
#define HIDE_END 4u         /* the first schedule's end (a makespan prediction) */

/* Where a kind's writers write: fp, each text from the lesson through text (it escapes, and
 * marks up where the format is HTML), and an answer the student types (a short answer,
 * compared as typed) through answer (it escapes only). */
struct question_out {
    FILE *fp;
    void (*text)(FILE *fp, const char *s);
    void (*answer)(FILE *fp, const char *s);
};

struct question_kind {
    const char *name;       /* on the wire (the room's KIND line), and predict = "NAME" when predicts */
    bool predicts;          /* the answer is computed from the slide's run of its first scheduler */
    bool one_run;           /* asks about one broadcast: one scheduler, no pattern */
    /* Its own fields of the slide's table at index t (slide no), checked: a mistake is a Lua
     * error naming the slide.  NULL: none. */
    void (*parse)(struct lua_State *L, struct slide *s, int t, int no);
    const char *field;      /* a field only this kind takes, or NULL, */
    const char *stray;      /* and what a slide of another kind that sets it is told */
    /* Grade answer a (trimmed, one line; "" gets how to answer) into g->correct: 0, or -1
     * with *cause saying how to answer.  r is the slide's run when predicts.  NULL: takes
     * no answer. */
    int (*grade)(const struct slide *s, const struct run *r, const char *a, struct lesson_grade *g,
                 char **cause);
    /* The right answer as the class sees it, into buf; false when not known (r missing). */
    bool (*expected)(const struct slide *s, const struct run *r, char *buf, size_t size);
    /* Why expected finds no right answer in r (the slide asks for more than the run has),
     * into buf.  NULL: expected fails only without r. */
    void (*unknown)(const struct slide *s, const struct run *r, char *buf, size_t size);
    /* How a student answers, for the slide and its strip ("y: type the makespan; a: the answer"). */
    void (*how)(const struct slide *s, char *buf, size_t size);
    const char *asks;       /* the view's hold message: "slide 2 asks <asks>" (with a hold) */
    unsigned hides;         /* hidden until revealed, beyond any question's HIDE_OPTIMUM | HIDE_OTHER */
    /* The step of e (nsteps steps) the view holds at until the answer is revealed; -1: none.
     * NULL: never held. */
    int (*hold)(const struct slide *s, const struct engine *e, int nsteps);
    /* The transfers the students' handout may show before the answer.  NULL: as many as
     * the slide's step shows. */
    int (*shown)(const struct slide *s);
    /* How to answer, for the GIFT question's stem (a short answer's spelling); NULL: nothing. */
    const char *gift_asks;
    /* The question's body in GIFT, from " {" on, expected the right answer (lesson_expected),
     * r the slide's run when predicts. */
    void (*gift)(const struct slide *s, const struct run *r, const char *expected,
                 const struct question_out *o);
    /* The handout's lines after the question: the choices, or what to predict. */
    void (*handout)(const struct slide *s, const struct question_out *o);
    /* The question asked of another run r of the slide's family (a new instance,
     * session/instance.h): what r makes true before it (the premise) and the question,
     * into buf.  NULL: the question is about the slide's own cluster, never asked of another. */
    void (*ask)(const struct slide *s, const struct run *r, char *buf, size_t size);
    /* Why the right answer on r is what it is, from r's facts (the reason its scheduler gave
     * for the booking asked about, the node that ends last), into buf.  NULL: none. */
    void (*reason)(const struct slide *s, const struct run *r, char *buf, size_t size);
};

/* Every kind, the last row's name NULL; the first row is the slide that asks nothing to grade. */
extern const struct question_kind question_kinds[];
#define QUESTION_NONE (&question_kinds[0])

/* The kind predict = "name" asks for, or NULL. */
const struct question_kind *question_predict(const char *name);
/* The kind of choices = {...}. */
const struct question_kind *question_choices(void);
/* The choice of a slide with choices an answer names (a letter A-H, a number 1-8 or the
 * choice's text), or -1. */
int question_choice(const struct slide *s, const char *answer);
/* "\"makespan\" or \"next\"": the predictions, for the loader's message, into buf. */
void question_predict_names(char *buf, size_t size);

#endif
