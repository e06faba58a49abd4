/*
 * model/cluster.h - the one in-memory model of a cluster (SPEC §5).
 *
 * Three kinds share one structure: a node table (per-node send/recv times
 * and one latency), a latency matrix (distances between every pair, optional
 * per-node send/recv), and a platform graph (directed edges with a time).
 * CSV files and Lua scripts both build this structure; nothing else knows
 * where a cluster came from.
 */
#ifndef HETCAST_CLUSTER_H
#define HETCAST_CLUSTER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/node.h"
#include "support/diag.h"

enum cluster_kind {
    CLUSTER_NODES = 0,   /* node table: name,send,recv */
    CLUSTER_MATRIX = 1,  /* latency matrix */
    CLUSTER_GRAPH = 2,   /* platform graph: from,to,time */
};
#define CLUSTER_KIND_BIT(k) (1u << (k))

/*
 * Limits every front door shares (cluster_finish checks them; the CSV loader
 * also names the line).  Times above CLUSTER_MAX_TIME are refused so that no
 * sum or product of them (the engine's clocks, unit * distance, bounds) can
 * overflow to infinity.  A platform graph keeps an n*n edge index, hence its
 * node limit.
 */
#define CLUSTER_MAX_TIME 1e100
#define CLUSTER_MAX_GRAPH_NODES 4096
#define CLUSTER_MAX_NODES 10000000    /* a node table: what a cluster file may hold */
#define CLUSTER_MAX_MATRIX_NODES 4096 /* a latency matrix (n*n distances) */
/* A CSV input (file or standard input) is refused beyond this size (a 4096-node
 * latency matrix of 24-character numbers is 400 MB), and any of its lines
 * beyond CLUSTER_MAX_CSV_LINE, while it is read: /dev/zero is refused after
 * 1 MiB, not read until memory runs out. */
#define CLUSTER_MAX_CSV_BYTES (1024L * 1024 * 1024)
#define CLUSTER_MAX_CSV_LINE (1024L * 1024)
/* A name, a class or group label, or a line of a description, as a Lua script
 * sets it: at most this many bytes, so that every line the CSV writer makes of
 * them (a row holds three, each quoted at worst to twice its length, and at
 * most 4096 numbers) stays within CLUSTER_MAX_CSV_LINE and loads back. */
#define CLUSTER_MAX_TEXT (128L * 1024)

/* Distinct class and group labels a cluster can hold (ids 1..this). */
#define CLUSTER_MAX_LABELS 65535

struct edge {
    int from, to;
    double time;   /* T(from,to) */
    double send;   /* multi-port send time of `from`; < 0 means "= time" */
    int line;
    /* The affine cost model (Beaumont, Marchal & Robert §2.1): the edge's
     * time for a message of size L is alpha + L beta; beta < 0: not affine,
     * `time` is as given.  timing_set_message_size sets `time` from them. */
    double alpha, beta;
};

/* Node names, packed one after another (cluster_add_node copies them here). */
struct name_chunk {
    struct name_chunk *next;
    size_t used, cap;
    char text[];
};

/*
 * The clock a cluster's times are read on (`# unit: s|ms|us|ns|none`,
 * docs/formats.md): none for the papers' abstract units, the default.  A
 * SimGrid platform is in seconds, hetcast-mpi calibrate writes microseconds.
 * Outputs name it only when it is known, so a unit-less cluster's outputs
 * stay as they were.
 */
enum time_unit {
    TIME_NONE,   /* abstract units */
    TIME_S,
    TIME_MS,
    TIME_US,
    TIME_NS,
};

/*
 * A size segment of a node table (`# segment: LO..HI latency=L per-byte=G`,
 * docs/formats.md; hetcast-mpi calibrate --sizes writes them): a message of
 * m bytes, LO <= m <= HI, has the latency L + m G, the nodes' send and
 * receive times staying as the rows give them.  timing_set_message_size
 * picks the segment of --size.
 */
struct cluster_segment {
    double lo, hi;       /* bytes, lo <= hi; segments go up without overlap */
    double latency;      /* L, in the cluster's unit */
    double per_byte;     /* G, in the cluster's unit per byte */
    int line;            /* its line in the file (0: none) */
};
#define CLUSTER_MAX_SEGMENTS 64
#define CLUSTER_MAX_SEGMENT_BYTES 9007199254740992.0   /* 2^53: a size a double holds exactly */

struct cluster {
    enum cluster_kind kind;
    enum time_unit time_unit;   /* "# unit: us" (TIME_NONE: abstract units) */
    char *path;         /* file it came from, or NULL */
    char *name;         /* "# name:" or the file's base name */
    char *description;  /* "# description:" or NULL */
    int n;
    int cap;
    struct node *nodes;
    double latency;     /* L, node tables (default 0) */
    double unit;        /* u, latency matrices (default 1) */
    double *dist;       /* n*n distances, latency matrices only (row = from); NULL
                         * when dist_of gives them (read them with cluster_dist) */
    /* A matrix's distances by rule instead of n*n numbers: a platform read
     * without SimGrid computes each pair from per-host sums (its context goes
     * with plat).  direct_shortest: its reader proved that no chain of two or
     * more routes is as short as the direct one, by a margin above rounding
     * (bound_lower needs then no shortest paths). */
    double (*dist_of)(const void *ctx, int q, int p);
    const void *dist_ctx;
    bool direct_shortest;
    int nedges;
    int edgecap;
    struct edge *edges; /* platform graphs only */
    int *edge_of;       /* n*n edge index or -1, graphs only (see cluster_finish) */
    int source;         /* index of the source node */
    char *source_name;  /* "# source:" as written, resolved by cluster_finish */
    int source_line;
    struct name_chunk *names;   /* the name pool, newest chunk first; cluster_free frees it */
    struct nameidx *index;      /* name -> node (model/nameidx.h): made by the second
                                 * cluster_find of a cluster of more than 8 nodes, kept
                                 * up to date by cluster_add_node; NULL until then */
    int finds;                  /* cluster_find calls before the index was made */
    /* The class and group labels, each once (a node keeps its labels' ids):
     * labels[id] for id 1..nlabels; label_slot: an open-addressing table of
     * ids (0: empty), at most half full, label_cap slots (a power of two). */
    char **labels;
    int nlabels, labelcap;
    uint16_t *label_slot;
    size_t label_cap;
    uint16_t *klass, *group;    /* each node's label ids (0: none), cap long; NULL
                                 * until a node gets a label of that kind */
    /* Each node's line in its source (cluster_line).  While lines is NULL,
     * node k < lines_ruled is on line line0 + k * line_step and the others
     * on none (0): a CSV table's rows one a line, or a script's loop on one
     * line, keep no array.  The first line off that rule makes the array. */
    int *lines;
    int line0, line_step, lines_ruled;
    /* A multicast (model/targets.h): target[p] is 1 when p must receive the
     * message, 0 when it may relay it but need not; NULL: every node (a
     * broadcast).  ntargets counts them, the source among them if it is one.
     * targets_spec: `# targets:` as written, resolved by cluster_finish. */
    unsigned char *target;
    int ntargets;
    char *targets_spec;
    int targets_line;
    struct platform *plat;      /* a SimGrid platform's links and routes (model/platform.h):
                                   transfers in flight share its links; NULL: none */
    struct cluster_segment *segments;   /* node tables: size segments, increasing (or NULL) */
    int nsegments;
};

struct cluster *cluster_new(enum cluster_kind kind);
/* d(q, p) of a latency matrix, from its numbers or its rule. */
static inline double cluster_dist(const struct cluster *c, int q, int p)
{
    return c->dist ? c->dist[(size_t)q * (size_t)c->n + (size_t)p] : c->dist_of(c->dist_ctx, q, p);
}
void cluster_free(struct cluster *c);
/* Returns the index of the new node.  Name is copied into the cluster's name
 * pool (no allocation per name; the names go with cluster_free). */
int cluster_add_node(struct cluster *c, const char *name, double send, double recv);
/* Renames node i (a copy in the pool; the old name's bytes stay there until cluster_free). */
void cluster_set_node_name(struct cluster *c, int i, const char *name);
int cluster_add_edge(struct cluster *c, int from, int to, double time, double send);
/* The first node named name, or -1.  The first call scans the nodes, O(n);
 * the second makes c->index (for a cluster of more than 8 nodes: a cache,
 * so c stays const to the caller), and from then on a lookup is O(1)
 * expected: one lookup (the source) costs no index, many (a Lua script's
 * names) cost one. */
int cluster_find(const struct cluster *c, const char *name);
void cluster_set_str(char **field, const char *value);           /* copy or clear */
/* A latency matrix's reserved column words (send, recv, class, group: any
 * case), after its node columns: they hold each row's node's overheads and
 * labels, and cannot name a node there. */
enum cluster_matrix_word {
    CLUSTER_MATRIX_SEND,
    CLUSTER_MATRIX_RECV,
    CLUSTER_MATRIX_CLASS,
    CLUSTER_MATRIX_GROUP,
    CLUSTER_MATRIX_WORDS
};
/* Which of them name is, or -1. */
int cluster_matrix_word(const char *name);
/* Word w as a header writes it ("send"). */
const char *cluster_matrix_word_name(int w);
/* Node p's class and group label ids (equal labels, equal ids; 0: none). */
static inline unsigned cluster_class_id(const struct cluster *c, int p)
{
    return c->klass ? c->klass[p] : 0;
}
static inline unsigned cluster_group_id(const struct cluster *c, int p)
{
    return c->group ? c->group[p] : 0;
}
/* Node p's class and group labels, or NULL if it has none. */
static inline const char *cluster_class(const struct cluster *c, int p)
{
    unsigned id = cluster_class_id(c, p);
    return id ? c->labels[id] : NULL;
}
static inline const char *cluster_group(const struct cluster *c, int p)
{
    unsigned id = cluster_group_id(c, p);
    return id ? c->labels[id] : NULL;
}
/* Must node p receive the message?  Every node of a broadcast must. */
static inline bool cluster_is_target(const struct cluster *c, int p)
{
    return !c->target || c->target[p];
}
/* Node p's line in its source file or script, 0 if none was given. */
static inline int cluster_line(const struct cluster *c, int p)
{
    if (c->lines)
        return c->lines[p];
    return p < c->lines_ruled ? (int)(c->line0 + (long long)p * c->line_step) : 0;
}
/* Give node p its line (see struct cluster: O(1), an array only when needed). */
void cluster_set_line(struct cluster *c, int p, int line);
/* Set (a copy, kept once however many nodes have it) or clear (NULL) node
 * p's class or group label.  Returns 0, or -1 if the cluster holds
 * CLUSTER_MAX_LABELS labels already and this is a new one (nothing set). */
int cluster_set_class(struct cluster *c, int p, const char *label);
int cluster_set_group(struct cluster *c, int p, const char *label);

/*
 * Resolve the source, allocate the matrix/graph index and check the model:
 * errors (no nodes, unknown source, ...) and warnings (inconsistent speeds)
 * go to d. Returns 0, or -1 if an error was added.
 */
int cluster_finish(struct cluster *c, struct diag *d);

/*
 * The source that clusters finished on this thread take in place of their
 * own (`--source`), NULL for none: cluster_finish makes it the source when
 * it names a node, and checks a platform graph's reachability from it, so
 * that a file whose own source cannot reach every node still loads with a
 * source that can.  When it names no node the graph is not checked (the
 * caller refuses the name).  The caller sets it around a load and clears it.
 */
void cluster_source_override(const char *name);

/*
 * Do the speeds satisfy s(p) <= s(q) iff r(p) <= r(q)? (SPEC §5)  Two times
 * that differ by at most CLUSTER_SPEED_RTOL of the larger count as equal
 * here, so that noise in a measured cluster's last digits does not make it
 * inconsistent; an exactly consistent cluster is always consistent.
 */
#define CLUSTER_SPEED_RTOL 1e-3
bool cluster_speeds_consistent(const struct cluster *c, int *bad_p, int *bad_q);
/* Sort the node indices in order[] (increasing) by send time, then receive
 * time, then index (by_recv_first: receive time first); descending reverses
 * the times' order, never the index's.  fnf's and slowest-first's receivers,
 * and the consistency check's order.  Times must not be NaN. */
void cluster_sort_nodes(const struct node *nodes, int *order, int n, bool by_recv_first,
                        bool descending);

const char *cluster_kind_name(enum cluster_kind k);
/* "s", "ms", "us", "ns", or NULL for TIME_NONE. */
const char *time_unit_name(enum time_unit u);
/* The unit a word names ("s", "ms", "us", "ns", "none"), or -1. */
int time_unit_word(const char *w);
/* Seconds in one u (0 for TIME_NONE). */
double time_unit_seconds(enum time_unit u);

/* Load a CSV cluster (model/cluster_csv.c). Returns NULL and fills d on failure. */
struct cluster *cluster_load_csv(const char *path, struct diag *d);
/* Same, from an open stream read to its end (standard input); name is used
 * in messages.  The caller closes fp. */
struct cluster *cluster_load_csv_stream(FILE *fp, const char *name, struct diag *d);
/* Same, from a buffer (for tests and fuzzing); name is used in messages. */
struct cluster *cluster_load_csv_buffer(const char *name, const char *buf,
                                        size_t len, struct diag *d);
/* Write any cluster as CSV that cluster_load_csv reads back to the same model. */
int cluster_write_csv(const struct cluster *c, FILE *fp);
/* Write to path through a temporary file and rename (never a half file). */
int cluster_save_csv(const struct cluster *c, const char *path, char **cause);

#endif
