/*
 * model/targets.h - a multicast: the nodes that must receive the message
 * (`# targets:` in a CSV file, `targets = {...}` in a Lua script,
 * --targets on the command line).  The other nodes may relay the message
 * but need not hold it; the makespan is the time the last target holds it
 * (engine/engine.h).  A cluster without targets is a broadcast.
 */
#ifndef HETCAST_TARGETS_H
#define HETCAST_TARGETS_H

#include "model/cluster.h"

/*
 * Make the nodes named in list (NAME,NAME,...: blanks around a name go) the
 * targets of c, in place of any before.  0, or -1 with *cause naming the
 * first name that is not a node, or saying the list names none; c is then
 * unchanged.  O(n + length of list) after the name index is made.
 */
int cluster_set_targets(struct cluster *c, const char *list, char **cause);

/* After cluster_finish: make c->targets_spec (`# targets:`, a script's
 * targets) the targets.  0, or -1 with an error in d naming its line. */
int cluster_resolve_targets(struct cluster *c, struct diag *d);

/* Make c a broadcast again (no targets). */
void cluster_clear_targets(struct cluster *c);

/* Is c a multicast (some node is not a target)? */
static inline bool cluster_multicast(const struct cluster *c)
{
    return c->target != NULL;
}

/* The targets as a list cluster_set_targets reads back ("A,B,C"), heap text;
 * NULL for a broadcast. */
char *cluster_targets_text(const struct cluster *c);

/*
 * The cluster of the nodes p with keep[p] (and the source), a broadcast
 * with c's costs among them: map[i] gets the node of c that its node i is
 * (map: room for c->n).  NULL if that cluster cannot broadcast (a platform
 * graph whose source cannot reach every kept node).  O(n + kept^2 + edges).
 */
struct cluster *cluster_subset(const struct cluster *c, const unsigned char *keep, int *map);

#endif
