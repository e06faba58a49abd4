/*
 * vkind.c - the kinds of run the view shows (ui/vkind.h): one row each of
 * what differs -- the word for its end, its side pane, links or not,
 * compare's partner, why x or o do not apply, the help texts.
 */
#include "ui/vkind.h"

#include <stddef.h>

static const struct vkind kinds[] = {
    [VK_BROADCAST] = {VK_BROADCAST, "makespan", "tree", true, "optimal", "fnf", NULL, NULL,
                      "scheduler: built-ins and lua/ (S: the second in compare)", "port model",
                      "tree pane: who sent to whom, receive times, critical path",
                      "select a node: its bars and its path in the tree",
                      "export: SVG (Gantt and tree) and CSV (schedule)"},
    [VK_TREE] = {VK_TREE, "makespan", "tree", true, "binomial", "balanced-path", NULL, NULL,
                 "scheduler: built-ins and lua/ (S: the second in compare)", "port model",
                 "tree pane: positions, distances, heaviest path",
                 "select a node: its bars and its path in the tree",
                 "export: SVG (Gantt and tree) and CSV (schedule)"},
    [VK_PIPELINE] = {VK_PIPELINE, "makespan", "tree", true, "lp-grow", "prune-simple",
                     "the exercise builds a single-message broadcast; choose a broadcast scheduler (s) "
                     "to try it on this platform", NULL,
                     "scheduler: built-ins and lua/ (S: the second in compare)", "port model",
                     "tree pane: edge times T, the LP's n(u,v), slices held",
                     "select a node: its bars and its path in the tree",
                     "export: SVG (Gantt and tree) and CSV (schedule)"},
    [VK_EXCHANGE] = {VK_EXCHANGE, "completion", "orders", false, "random", "caterpillar",
                     "the exercise builds a broadcast; an exchange is a table of sending orders (t shows it)",
                     "an exchange has no source: every node sends its own messages",
                     "the exchange's order (S: the second pane's in compare)",
                     "model: sync (rendezvous) or async",
                     "the table of sending orders, each sender's row marked",
                     "select a node: its bars and its column of orders",
                     "export: CSV (the transfers, with the idle waits)"},
};

const struct vkind *vkind_get(enum vkind_id id)
{
    return &kinds[id];
}
