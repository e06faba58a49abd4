/*
 * ui/screen_chooser.h - the list of schedulers or port models
 * (screen_chooser.c, opened over the screen shown): which list
 * view_screen_open opens, and its state, which the view keeps for it
 * without reading it (the tests read it through chooser_of).
 */
#ifndef HETCAST_SCREEN_CHOOSER_H
#define HETCAST_SCREEN_CHOOSER_H

/* Which list: view_screen_open(v, &screen_chooser, kind). */
enum chooser_kind {
    CH_SCHED = 0,       /* the scheduler of the first pane */
    CH_MODEL,           /* the port model */
    CH_SECOND,          /* the scheduler of compare mode's second pane (S) */
};

struct chooser {
    enum chooser_kind kind;
    int n, sel, top;
    char **items;       /* scheduler names / paths, or model names */
    char **notes;       /* one line each */
};

struct view;

/* The list v keeps (the last one opened), or NULL before the first. */
struct chooser *chooser_of(const struct view *v);

#endif
