/*
 * ui/screen_exercise.h - the exercise's state (screen_exercise.c): the
 * student's choices, the engine they are booked on, the pick list and
 * the feedback.  The view keeps it for the screen without reading it; it
 * lives from the first x to view_close, and the choices outlast leaving
 * the exercise (x resumes them) until the cluster or the source changes.
 * The tests read it through exercise_of; the other files of ui/ through its
 * hooks (moves, booked: ui/view.h), never by name.
 */
#ifndef HETCAST_SCREEN_EXERCISE_H
#define HETCAST_SCREEN_EXERCISE_H

#include <stdbool.h>

#include "engine/engine.h"

enum ex_phase { EX_SENDER = 0, EX_RECEIVER, EX_DONE };

/* view_screen_open's arg for the exercise: 0 as x opens it, with its hints (the best makespan
 * still reachable, the optimum, what each choice cost); EX_NO_HINTS without them (a class
 * challenge opened with C, until the answer is revealed: ui/join.c). */
#define EX_NO_HINTS 1

struct exercise {
    struct engine eng;
    bool live;          /* eng is initialised */
    int *from, *to;     /* the student's choices, in order (kept when the exercise is left) */
    int nchoices;
    enum ex_phase phase;
    int sender;         /* chosen in EX_RECEIVER */
    int *cand;          /* the nodes listed for the current pick */
    int ncand, cursor, top;
    bool nohints;       /* opened with EX_NO_HINTS: no search, no optimum, no recap of the costs */
    bool search;        /* the cluster is small enough for the best-completion search */
    bool best_known;
    bool best_exact;
    bool cancelled;     /* the last search was cancelled (q, Ctrl-C) */
    double best;        /* best makespan still reachable from the current state */
    int best_from, best_to; /* a first choice that keeps it (-1: none known) */
    struct ex_memo {    /* the best reachable after the first k choices, k < nmemo and set:
                           undo needs no search (a resumed exercise has none before its
                           last kept choice) */
        double best;
        bool set, known, exact;
        int from, to;
    } *memo;
    int nmemo;
    double optimum;     /* best reachable from the start (when optimum_known) */
    bool optimum_known;
    char feedback[2048];
    unsigned feedback_role;
};

struct view;

/* The exercise v keeps, or NULL before the first x. */
struct exercise *exercise_of(const struct view *v);

#endif
