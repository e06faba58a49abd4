/*
 * sched/exercise.h - the core side of the view's exercise mode, where a student
 * builds a broadcast by hand: what fnf would pick from any state of the
 * engine, and the best makespan still reachable from it.
 *
 * The best completion is an exact search: it replays the engine's bookings
 * on an engine of its own and tries every remaining (sender, receiver)
 * choice through engine_book, so the answer uses the same port models as
 * everything else.  Both functions take an engine built by engine_init and
 * engine_book (a broadcast), as the view's exercise engine is.  It is meant for
 * small clusters (EXERCISE_MAX_NODES); a search that hits its node limit
 * says so and never calls its best schedule the best.
 */
#ifndef HETCAST_EXERCISE_H
#define HETCAST_EXERCISE_H

#include <signal.h>
#include <stdbool.h>

#include "engine/engine.h"

#define EXERCISE_MAX_NODES 8              /* the view offers the search up to this size */
#define EXERCISE_NODE_LIMIT 20000000LL    /* default search nodes before giving up */

enum best_status {
    BEST_EXACT = 0,     /* makespan is the best reachable, proven */
    BEST_GAVE_UP,       /* the node limit stopped the search: makespan is only an upper bound */
};

struct best_result {
    double makespan;    /* the best reachable makespan (see status) */
    enum best_status status;
    long long explored; /* search nodes */
    int from, to;       /* a first choice on a best completion; -1 if no node waits */
};

/*
 * What fnf would book next from this state (message 0): the fnf policy
 * itself is prepared on a copy of e and asked once.  reason (may be NULL)
 * receives its explanation.  Returns 0, or -1 with *cause when no node
 * waits or fnf does not apply to the cluster.
 */
int exercise_fnf_pick(const struct engine *e, int *from, int *to, char *reason,
                      size_t reason_size, char **cause);

/*
 * The smallest makespan any sequence of further bookings can reach from the
 * state of e (a broadcast: one message).  Exhaustive branch and bound over
 * the remaining (sender, receiver) choices, booked in order of start time
 * (every schedule the engine can build is found in that order), identical
 * waiting nodes of a node table tried once, fnf's completion as the first
 * incumbent.  node_limit <= 0 means EXERCISE_NODE_LIMIT.  cancel: NULL, or
 * a flag polled every 4096 search nodes (the view's q, Esc, Ctrl-C); set,
 * the search fails with SCHED_CANCELLED_TEXT.  Cost: exponential in the
 * number of waiting nodes; fast up to EXERCISE_MAX_NODES nodes.
 * Returns 0, or -1 with *cause (several messages, a waiting node that no
 * holder can ever reach, or cancelled).
 */
int exercise_best_completion(const struct engine *e, long long node_limit,
                             const volatile sig_atomic_t *cancel, struct best_result *out,
                             char **cause);

/*
 * The same search within limits: node_limit (<= 0: EXERCISE_NODE_LIMIT), a
 * wall-clock time_limit in seconds (<= 0: none), and lower, a proven lower
 * bound on every completion from e (the optimum from the start, which no
 * state reached from it can beat; -INFINITY if none): a completion that
 * reaches it is the best, so the search stops there, exact.  A search that
 * hits a limit returns BEST_GAVE_UP (makespan an upper bound, never called
 * the best).  cancel (may be NULL) is polled with the clock: set, the
 * search stops and returns -1 with *cause SCHED_CANCELLED_TEXT.
 */
struct best_opts {
    long long node_limit;
    double time_limit;
    double lower;
    const volatile sig_atomic_t *cancel;
};
int exercise_best_completion_opts(const struct engine *e, const struct best_opts *o,
                                  struct best_result *out, char **cause);

/*
 * Finish the broadcast on e with a best completion: book, one at a time,
 * the first choice of exercise_best_completion until no node waits (each a
 * search with node_limit and cancel).  What a student's pick is measured
 * against.  Returns 0, or -1 with *cause.
 */
int exercise_complete_best(struct engine *e, long long node_limit,
                           const volatile sig_atomic_t *cancel, char **cause);

#endif
