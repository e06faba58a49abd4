/*
 * sched/mpibcast.c - scatter + allgather and two trees as segmented plans
 * (see sched/mpibcast.h; the plans run through sched/segment.h).
 */
#include "sched/mpibcast.h"

#include <stdlib.h>

#include "sched/pipeline.h"
#include "sched/segment.h"
#include "sched/trees.h"

enum { ROLE_SCATTER = 0, ROLE_RING, ROLE_DOUBLING, ROLE_TREE };

/* Node of rank r (counted from the source) and the rank of node v. */
static int node_of(const struct cluster *c, int r)
{
    return (c->source + r) % c->n;
}
static int rank_of(const struct cluster *c, int v)
{
    return (v - c->source + c->n) % c->n;
}

/* ---- scatter + allgather ---- */

int scatter_subtree(int r, int n)
{
    if (r <= 0)
        return n;
    int low = r & -r;
    return r + low > n ? n - r : low;
}

/* Piece x's segments: [x * size, min((x + 1) * size, K)), maybe empty. */
static void piece(int x, int n, int k, int *lo, int *hi)
{
    int size = (k + n - 1) / n;
    *lo = x * size < k ? x * size : k;
    *hi = (x + 1) * size < k ? (x + 1) * size : k;
}

/* Does rank q hold piece x from the scatter (the source holds them all)? */
static bool scattered_to(int q, int x, int n)
{
    return q == 0 || (x >= q && x < q + scatter_subtree(q, n));
}

static char *sa_reason(const void *ctx, const struct cluster *c, int u, const struct seg_send *x)
{
    (void)ctx;
    int r = rank_of(c, u), to = rank_of(c, x->to);
    if (x->role == ROLE_SCATTER)
        return xasprintf("scatter along the binomial tree: rank %d passes rank %d (its subtree, ranks "
                         "%d to %d) the piece of rank %d", r, to, to,
                         to + scatter_subtree(to, c->n) - 1, x->arg);
    return xasprintf("ring allgather, step %d: rank %d passes the piece of rank %d to rank %d",
                     (r - x->arg + c->n) % c->n + 1, r, x->arg, to);
}

/* The binomial scatter, then the ring allgather when `ring`. */
static void sa_plan(struct segplan *p, const struct cluster *c, bool ring)
{
    int n = c->n, k = p->segments, kids[32], lo, hi;
    /* The scatter: every rank passes each child the pieces of its subtree. */
    for (int r = 0; r < n; r++) {
        int nk = binomial_children(r, n, kids);
        for (int i = 0; i < nk; i++)
            for (int x = kids[i]; x < kids[i] + scatter_subtree(kids[i], n); x++) {
                piece(x, n, k, &lo, &hi);
                for (int s = lo; s < hi; s++)
                    seg_plan_add(p, node_of(c, r), s, node_of(c, kids[i]), ROLE_SCATTER, x);
            }
    }
    /* The ring: step i, rank r passes piece r - i + 1 to rank r + 1, unless
     * r + 1 holds it from the scatter (the source, or x in its subtree). */
    for (int r = 0; ring && r < n; r++) {
        int q = (r + 1) % n;
        for (int i = 1; i < n; i++) {
            int x = (r - i + 1 + n) % n;
            if (scattered_to(q, x, n))
                continue;
            piece(x, n, k, &lo, &hi);
            for (int s = lo; s < hi; s++)
                seg_plan_add(p, node_of(c, r), s, node_of(c, q), ROLE_RING, x);
        }
    }
}

/* ---- scatter + recursive-doubling allgather ---- */

bool rdb_applies(int n)
{
    return n >= 1 && (n & (n - 1)) == 0;
}

static char *rdb_reason(const void *ctx, const struct cluster *c, int u, const struct seg_send *x)
{
    if (x->role == ROLE_SCATTER)
        return sa_reason(ctx, c, u, x);
    int r = rank_of(c, u), q = rank_of(c, x->to), mask = r ^ q, step = 1;
    while ((1 << step) <= mask)
        step++;
    return xasprintf("recursive-doubling allgather, step %d: rank %d passes rank %d (rank %d XOR %d) "
                     "the piece of rank %d, from its block of ranks %d to %d", step, r, q, r, mask, x->arg,
                     r & ~(mask - 1), (r & ~(mask - 1)) + mask - 1);
}

static void rdb_plan(struct segplan *p, const struct cluster *c)
{
    int n = c->n, k = p->segments, lo, hi;
    sa_plan(p, c, false);
    /* Step i (mask 2^i): rank r sends its block of mask pieces, those of
     * ranks r & ~(mask - 1) on, to rank r XOR mask, less what that rank
     * holds from the scatter; it holds the block from the steps before. */
    for (int mask = 1; mask < n; mask <<= 1)
        for (int r = 0; r < n; r++) {
            int q = r ^ mask, first = r & ~(mask - 1);
            for (int x = first; x < first + mask; x++) {
                if (scattered_to(q, x, n))
                    continue;
                piece(x, n, k, &lo, &hi);
                for (int s = lo; s < hi; s++)
                    seg_plan_add(p, node_of(c, r), s, node_of(c, q), ROLE_DOUBLING, x);
            }
        }
}

/* ---- two trees ---- */

/* The in-order tree on positions [lo, lo + cnt) under `up`: its root. */
static int inorder(int lo, int cnt, int up, int *parent, int *left, int *right)
{
    if (cnt <= 0)
        return -1;
    int j = 1;
    while (2 * j <= cnt)
        j *= 2;
    int root = lo + j - 1;
    parent[root] = up;
    left[root] = inorder(lo, j - 1, root, parent, left, right);
    right[root] = inorder(root + 1, cnt - j, root, parent, left, right);
    return root;
}

int twotree_build(int m, int t, int *parent, int *left, int *right)
{
    int root = inorder(0, m, -1, parent, left, right);
    if (t == 0)
        return root;
    /* T2: position i plays T1's position role(i); back maps a T1 position
     * to the T2 position that plays it. */
    int *p1 = xmalloc((size_t)m * sizeof *p1), *l1 = xmalloc((size_t)m * sizeof *l1),
        *r1 = xmalloc((size_t)m * sizeof *r1);
    for (int i = 0; i < m; i++)
        p1[i] = parent[i], l1[i] = left[i], r1[i] = right[i];
    bool mirror = m % 2 == 0;
#define ROLE(i) (mirror ? m - 1 - (i) : ((i) - 1 + m) % m)
#define BACK(x) ((x) < 0 ? -1 : mirror ? m - 1 - (x) : ((x) + 1) % m)
    for (int i = 0; i < m; i++) {
        int o = ROLE(i);
        parent[i] = BACK(p1[o]);
        left[i] = BACK(mirror ? r1[o] : l1[o]);
        right[i] = BACK(mirror ? l1[o] : r1[o]);
    }
    root = BACK(root);
#undef ROLE
#undef BACK
    free(p1);
    free(l1);
    free(r1);
    return root;
}

/*
 * Why a colouring: a rank has two in-edges (its parents in T1 and T2, the
 * source for a root) and at most two out-edges (its children in the one
 * tree where it is inner; the source's two go to the roots).  To let every
 * rank receive once and send once a step, Sanders, Speck & Träff give each
 * edge a colour 0 or 1, the two in-edges of a rank different and the two
 * out-edges of a sender different, and run the edges of colour t mod 2 in
 * step t.  With each rank split into an out-copy and an in-copy the edges
 * form a bipartite multigraph of degree at most 2: paths and even cycles,
 * coloured by alternating along each.  Edge t * m + i enters position i in
 * tree t; colour[] gets 0 or 1 for each of the 2m.  The source's edge to
 * T1's root is coloured first, 0, so the source sends segments in order.
 */
void twotree_colour(int m, int *const par[2], int *const left[2], int *const right[2],
                    const int root[2], unsigned char *colour)
{
    for (int e = 0; e < 2 * m; e++)
        colour[e] = 2;   /* not yet */
    for (int k = -1; k < 2 * m; k++) {
        int first = k < 0 ? root[0] : k;   /* edge root[0]: the source's into T1 */
        if (colour[first] != 2)
            continue;
        colour[first] = 0;
        /* walk both ways from first: through the in-copy (the edge of the
         * other tree into the same position), then through the out-copy
         * (the sender's other edge), and so on, alternating the colour */
        for (int dir = 0; dir < 2; dir++) {
            int e = first, side = dir;
            for (;;) {
                int t = e / m, i = e % m, next;
                if (side == 0)
                    next = (1 - t) * m + i;
                else if (par[t][i] < 0)
                    next = (1 - t) * m + root[1 - t];
                else {
                    int p = par[t][i], sib = left[t][p] == i ? right[t][p] : left[t][p];
                    next = sib < 0 ? -1 : t * m + sib;
                }
                if (next < 0 || colour[next] != 2)
                    break;
                colour[next] = (unsigned char)(1 - colour[e]);
                e = next;
                side = 1 - side;
            }
        }
    }
}

static char *tt_reason(const void *ctx, const struct cluster *c, int u, const struct seg_send *x)
{
    (void)ctx;
    int t = x->arg % 2, step = x->arg / 2;
    if (u == c->source)
        return xasprintf("two trees, step %d (colour %d): the source sends segments %s to rank %d, "
                         "the root of T%d", step + 1, step % 2,
                         t == 0 ? "1, 3, 5 ..." : "2, 4, 6 ...", rank_of(c, x->to), t + 1);
    return xasprintf("two trees, step %d (colour %d): rank %d passes its child in T%d, rank %d, "
                     "the next segment of T%d", step + 1, step % 2, rank_of(c, u), t + 1,
                     rank_of(c, x->to), t + 1);
}

/*
 * The paper's steps: in step j (colour j mod 2) each edge of that colour
 * carries the next segment of its tree that the receiver lacks, if its
 * sender held it before the step (the source holds all; T1 carries the
 * segments 0, 2, 4 ..., T2 1, 3, 5 ...).  Each rank's sends go into the
 * plan in step order; the engine books them as early as the ports allow,
 * the earlier step first among sends that could start at once.  O(2m) a
 * step, K + O(log m) steps; returns how many.
 */
static int tt_plan(struct segplan *p, const struct cluster *c)
{
    int m = c->n - 1, k = p->segments, step = 0;
    if (m < 1)
        return 0;
    int *par[2], *l[2], *r[2], root[2], *got[2];
    for (int t = 0; t < 2; t++) {
        par[t] = xmalloc((size_t)m * sizeof *par[t]);
        l[t] = xmalloc((size_t)m * sizeof *l[t]);
        r[t] = xmalloc((size_t)m * sizeof *r[t]);
        got[t] = xcalloc((size_t)m, sizeof *got[t]);   /* segments of tree t held */
        root[t] = twotree_build(m, t, par[t], l[t], r[t]);
    }
    unsigned char *colour = xmalloc((size_t)(2 * m));
    int *go = xmalloc((size_t)m * sizeof *go);   /* the edges that run this step */
    twotree_colour(m, par, l, r, root, colour);
    long todo = (long)m * k;
    /* a proper colouring moves a segment at least every other step: two
     * idle steps in a row would be a bug, and seg_choose reports the stall */
    for (int idle = 0; todo > 0 && idle < 2; step++) {
        int ngo = 0;
        for (int e = 0; e < 2 * m; e++) {
            int t = e / m, i = e % m, u = par[t][i], j = got[t][i];
            if (colour[e] == step % 2 && t + 2 * j < k && (u < 0 || got[t][u] > j))
                go[ngo++] = e;
        }
        for (int g = 0; g < ngo; g++) {
            int t = go[g] / m, i = go[g] % m, u = par[t][i];
            seg_plan_add_at(p, u < 0 ? c->source : node_of(c, u + 1), step, t + 2 * got[t][i],
                            node_of(c, i + 1), ROLE_TREE, 2 * step + t);
            got[t][i]++;
            todo--;
        }
        idle = ngo > 0 ? 0 : idle + 1;
    }
    for (int t = 0; t < 2; t++)
        free(par[t]), free(l[t]), free(r[t]), free(got[t]);
    free(colour);
    free(go);
    return step;
}

/* ---- the schedulers ---- */

bool mpibcast_segmented(const struct sched_ops *ops)
{
    static const struct sched_ops *const segmented[] = {
        &sched_scatter_allgather, &sched_scatter_rdb, &sched_two_tree, &sched_binomial,
        &sched_depth_first, &sched_breadth_first, &sched_balanced_path, &sched_flat, &sched_magpie,
        &sched_chain, &sched_knomial, &sched_binomial_any,
    };
    for (size_t i = 0; i < sizeof segmented / sizeof segmented[0]; i++)
        if (ops == segmented[i])
            return true;
    return false;
}

int mpibcast_check(const struct sched_ops *ops, const struct cluster *c, int slices, char **cause)
{
    if (!mpibcast_segmented(ops) || slices <= 1 || c->kind == CLUSTER_GRAPH)
        return 0;
    if ((double)slices * (double)(c->n - 1) > SEG_MAX_TRANSFERS)
        return set_cause(cause, "--slices %d on %d nodes would book %.0f transfers (at most %d: "
                         "each is kept with its reason, about 400 bytes)",
                         slices, c->n, (double)slices * (double)(c->n - 1), SEG_MAX_TRANSFERS);
    return 0;
}

static int mpi_prepare(struct sched *s, struct engine *e, char **cause)
{
    const struct cluster *c = e->c;
    int n = c->n;
    /* scatter-rdb on a number of ranks that is no power of two: the ring
     * allgather, as MPICH falls back */
    bool rdb = s->ops == &sched_scatter_rdb && rdb_applies(n),
         sa = s->ops == &sched_scatter_allgather || (s->ops == &sched_scatter_rdb && !rdb);
    struct segplan *p = xcalloc(1, sizeof *p);
    seg_plan_init(p, n, seg_count(s));
    int steps = 0;
    if (rdb)
        rdb_plan(p, c);
    else if (sa)
        sa_plan(p, c, true);
    else
        steps = tt_plan(p, c);
    p->reason = rdb ? rdb_reason : sa ? sa_reason : tt_reason;
    if (seg_start(p, s, e, cause) < 0) {
        seg_plan_free(p);
        free(p);
        return -1;
    }
    s->state = p;
    int k = p->segments;
    if (rdb || sa)
        text_fit(s->note, sizeof s->note,
                 "%s: %d segment%s in %d pieces of %d (binomial scatter, %s allgather)%s%s",
                 s->ops->name, k, k == 1 ? "" : "s", n, (k + n - 1) / n,
                 rdb ? "recursive-doubling" : "ring",
                 sa && s->ops == &sched_scatter_rdb ? "; the ranks are no power of two, so the ring "
                 "allgather, as MPICH falls back" : "",
                 k < n ? "; fewer segments than ranks: some ranks get no piece" : "");
    else
        text_fit(s->note, sizeof s->note,
                 "two-tree: %d segment%s, 1, 3, 5 ... down T1 and 2, 4, 6 ... down T2 (T2 is T1 "
                 "%s), in %d steps of the paper's edge colouring (a rank receives once and "
                 "sends once a step)", k, k == 1 ? "" : "s", (n - 1) % 2 == 0 ? "mirrored" : "shifted",
                 steps);
    return 0;
}

static int mpi_choose(struct sched *s, const struct engine *e, struct decision *d, char **cause)
{
    return seg_choose(s->state, e, d, cause);
}

static void mpi_finish(struct sched *s)
{
    seg_plan_free(s->state);
    free(s->state);
    s->state = NULL;
}

#define MPI_SCHED(var, nm, text)                                                            \
    const struct sched_ops var = {                                                          \
        .name = nm,                                                                         \
        .summary = text,                                                                    \
        .kinds = CLUSTER_KIND_BIT(CLUSTER_MATRIX) | CLUSTER_KIND_BIT(CLUSTER_NODES),        \
        .models = MODEL_ALL,                                                                \
        .prepare = mpi_prepare,                                                             \
        .choose = mpi_choose,                                                               \
        .finish = mpi_finish,                                                               \
    }

MPI_SCHED(sched_scatter_allgather, "scatter-allgather",
          "van de Geijn's broadcast: the segments scattered along the binomial tree, then a ring "
          "allgather (--slices K segments)");
MPI_SCHED(sched_scatter_rdb, "scatter-rdb",
          "MPICH's medium-message broadcast: the segments scattered along the binomial tree, then a "
          "recursive-doubling allgather (the ring's on a number of ranks no power of two; --slices K)");
MPI_SCHED(sched_two_tree, "two-tree",
          "Sanders, Speck & Träff's two binary trees, each carrying half the segments "
          "(--slices K segments)");
