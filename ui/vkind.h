/*
 * ui/vkind.h - what kind of run the view shows -- a broadcast, a Figueira
 * tree on a latency matrix, a pipelined broadcast, a personalized exchange
 * -- and everything the screens and the key table say or do differently
 * for it, in one table (vkind.c), so they read a field instead of
 * branching on the kind.  view_kind (ui/view.h) tells which kind a view
 * shows.  A leaf of ui/; no curses.
 */
#ifndef HETCAST_VKIND_H
#define HETCAST_VKIND_H

#include <stdbool.h>

enum vkind_id { VK_BROADCAST = 0, VK_TREE, VK_PIPELINE, VK_EXCHANGE };

struct vkind {
    enum vkind_id id;
    const char *end_word;       /* "makespan", or an exchange's "completion" */
    const char *pane_word;      /* the side pane: "tree", or "orders" */
    bool links;                 /* the Gantt draws link rows (not an exchange's) */
    const char *partner, *partner_else;   /* compare's second scheduler (else when current) */
    const char *no_exercise;    /* why x does not apply, or NULL */
    const char *no_source;      /* why o does not apply, or NULL */
    const char *help_sched, *help_model, *help_pane, *help_select, *help_export;
};

/* The table's row for id. */
const struct vkind *vkind_get(enum vkind_id id);

#endif
