/*
 * model/cluster_simgrid.c - SimGrid platforms in (model/cluster_simgrid.h): a child process
 * runs the helper hetcast-simgrid (app/simgrid_helper.c, the one program
 * that links libsimgrid), which asks SimGrid for the hosts and routes and
 * writes them to a pipe; the parent builds the cluster.  The child's stderr
 * is a second pipe, so what SimGrid says on a bad file becomes the message
 * and nothing reaches the terminal (or the view's screen).  The wire format
 * is in model/cluster_simgrid.h.  A file of one <cluster> skips the child:
 * model/cluster_simgrid_native.c gives the same cluster (a fast path), its
 * routes by a rule (model/platform.h) instead of the answer's n^2 records.
 */
#include "model/cluster_simgrid.h"
#include "model/timing.h"
#include "support/fastpath.h"
#include "support/hugemem.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char *helper;   /* simgrid_set_helper */
static _Thread_local simgrid_progress_fn progress_fn;   /* simgrid_set_progress */
static _Thread_local void *progress_ctx;

void simgrid_set_progress(simgrid_progress_fn fn, void *ctx)
{
    progress_fn = fn;
    progress_ctx = ctx;
}

/* ---- the parent ---- */

struct buf {
    char *p;
    size_t len, cap;
};

static void buf_add(struct buf *b, const char *data, size_t len)
{
    if (b->len + len + 1 > b->cap) {
        b->cap = (b->len + len + 1) * 2;
        b->p = xrealloc(b->p, b->cap);
    }
    memcpy(b->p + b->len, data, len);
    b->len += len;
    b->p[b->len] = '\0';
}

/* What a load in progress tells progress_fn. */
struct progress {
    const char *path;   /* NULL: nothing to tell */
    double t0, last;
    bool told;
};

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The part done (0 to 1) to progress_fn, once the load has taken SIMGRID_PROGRESS_AFTER
 * seconds and at most five times a second. */
static void progress_show(struct progress *pg, double done)
{
    if (!pg || !pg->path || !progress_fn)
        return;
    double t = now_seconds();
    if (t - pg->t0 < SIMGRID_PROGRESS_AFTER || t - pg->last < 0.2)
        return;
    progress_fn(progress_ctx, pg->path, done < 1 ? done : 1, t - pg->t0);
    pg->last = t;
    pg->told = true;
}

/* The part of the routes in the answer so far (its rows' bytes against n (n - 1) of them). */
static void progress_tell(struct progress *pg, const struct buf *b)
{
    if (!pg || !pg->path || !progress_fn || b->len < sizeof(uint32_t))
        return;
    uint32_t n32;
    memcpy(&n32, b->p, sizeof n32);
    double want = (double)n32 * (double)(n32 > 0 ? n32 - 1 : 0) * (double)sizeof(struct route_rec);
    progress_show(pg, want > 0 ? (double)b->len / want : 0);
}

/* The native reader's rows done (model/cluster_simgrid_native.c), told as the helper's. */
static void native_tick(void *pg, double done)
{
    progress_show(pg, done);
}

void simgrid_set_helper(const char *path)
{
    free(helper);
    helper = path ? strdup(path) : NULL;
}

/* Read both pipes to their end (the child may fill either first); pg (may be NULL) hears. */
static int drain(int data, int err, struct buf *out, struct buf *msg, struct progress *pg)
{
    struct pollfd fds[2] = {{data, POLLIN, 0}, {err, POLLIN, 0}};
    struct buf *to[2] = {out, msg};
    int open = 2;
    char chunk[65536];
    while (open > 0) {
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        for (int k = 0; k < 2; k++) {
            if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t r = read(fds[k].fd, chunk, sizeof chunk);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0) {
                fds[k].fd = -1;
                open--;
            } else if (k == 0 || msg->len < 65536) {   /* SimGrid's words: the first 64 KiB */
                buf_add(to[k], chunk, (size_t)r);
                if (k == 0)
                    progress_tell(pg, out);
            }
        }
    }
    return 0;
}

/*
 * Is SimGrid's line (len bytes) the text of a C++ library's error rather
 * than a reason about the file ("unordered_map::at", "vector::_M_range_check",
 * xbt's "dynar is not that long.")?  Such a line says where SimGrid failed,
 * not what is wrong with the platform.
 */
static bool internal_text(const char *p, size_t len)
{
    static const char *const words[] = {"dynar is ", "basic_string", "_M_", "std::", "bad_alloc",
                                        "bad_function_call", "stoi", "stod"};
    if (len > 2 && memchr(p, ' ', len) == NULL && memchr(p, ':', len))   /* "map::at" */
        return true;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t w = strlen(words[i]);
        for (size_t k = 0; k + w <= len; k++)
            if (memcmp(p + k, words[i], w) == 0)
                return true;
    }
    return false;
}

/*
 * SimGrid's first line that says what went wrong, without the exception's
 * class ("Uncaught exception std::invalid_argument: No route from ..."),
 * shown as messages show a user's text (SHOWN: control characters and
 * bytes that are not UTF-8 made '?', cut between characters).  NULL if it
 * said nothing.
 */
static char *simgrid_said(const char *text)
{
    const char *s = text;
    while (*s) {
        const char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len > 0 && strncmp(s, "Exiting now.", 12) != 0 && strncmp(s, "Current backtrace", 17) != 0) {
            const char *p = s;
            const char *un = "Uncaught exception ";
            if (len > strlen(un) && strncmp(p, un, strlen(un)) == 0) {
                const char *colon = memchr(p, ':', len);
                while (colon && colon + 1 < s + len && colon[1] == ':')   /* std::x */
                    colon = memchr(colon + 2, ':', (size_t)(s + len - colon - 2));
                if (colon && colon + 2 <= s + len) {
                    len -= (size_t)(colon + 2 - p);
                    p = colon + 2;
                }
            }
            if (internal_text(p, len))
                return xstrdup("it failed inside (an error of its C++ code, not a reason about "
                               "the file): is it a platform SimGrid can simulate?");
            size_t keep = len;   /* without an address " (0x55d0...)" at the end */
            const char *open = keep > 4 ? memchr(p, '(', keep) : NULL;
            if (open && open > p && open[-1] == ' ' && strncmp(open, "(0x", 3) == 0 &&
                p[keep - 1] == ')')
                keep = (size_t)(open - 1 - p);
            len = keep;
            char *raw = xasprintf("%.*s", (int)(len > 1000 ? 1000 : len), p), shown[404];
            char *line = xstrdup(SHOWN(raw, shown));
            free(raw);
            return line;
        }
        s = e ? e + 1 : s + len;
    }
    return NULL;
}

/* Digits compare as numbers: node-2 < node-10; otherwise byte order. */
static int natural_cmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
            while (*a == '0')
                a++;
            while (*b == '0')
                b++;
            size_t la = strspn(a, "0123456789"), lb = strspn(b, "0123456789");
            if (la != lb)
                return la < lb ? -1 : 1;
            int c = strncmp(a, b, la);
            if (c)
                return c;
            a += la;
            b += lb;
        } else {
            if (*a != *b)
                return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
            a++;
            b++;
        }
    }
    return *a ? 1 : *b ? -1 : 0;
}

struct host_ref {
    const char *name;
    int index;   /* in SimGrid's order */
};

static int by_name(const void *x, const void *y)
{
    const struct host_ref *a = x, *b = y;
    int c = natural_cmp(a->name, b->name);
    return c ? c : strcmp(a->name, b->name);
}

/* The record of route q -> p (SimGrid's host order) in the rows (bytes: maybe unaligned). */
static struct route_rec route_of(const char *recs, int n, int q, int p)
{
    struct route_rec r;
    size_t k = (size_t)q * (size_t)(n - 1) + (size_t)(p < q ? p : p - 1);
    memcpy(&r, recs + k * sizeof r, sizeof r);
    return r;
}

/* Do the single-link routes (a graph on the nodes, sorted order) reach every node from node 0? */
static bool single_links_reach_all(const unsigned char *single, int n)
{
    int *stack = xmalloc((size_t)n * sizeof *stack);
    unsigned char *seen = xcalloc((size_t)n, 1);
    int top = 0, reached = 1;
    stack[top++] = 0;
    seen[0] = 1;
    while (top > 0) {
        int q = stack[--top];
        for (int p = 0; p < n; p++)
            if (!seen[p] && single[(size_t)q * (size_t)n + (size_t)p]) {
                seen[p] = 1;
                reached++;
                stack[top++] = p;
            }
    }
    free(stack);
    free(seen);
    return reached == n;
}

/* Take a u32 at *p if it lies before end. */
static bool take_u32(const char **p, const char *end, uint32_t *v)
{
    if ((size_t)(end - *p) < sizeof *v)
        return false;
    memcpy(v, *p, sizeof *v);
    *p += sizeof *v;
    return true;
}

/* The links section after the rows (from p to end), for the nodes in sorted
 * order (node a is SimGrid's host order[a]); NULL when there is none, or with
 * an error in d when it cannot be read. */
static struct platform *read_links(const char *path, const char *p, const char *end, int n,
                                   const int *order, struct diag *d)
{
    uint32_t magic, nl;
    if (p == end)
        return NULL;
    struct platform *pl = xcalloc(1, sizeof *pl);
    pl->n = n;
    const char *bad = NULL;
    if (!take_u32(&p, end, &magic) || magic != SIMGRID_LINKS_MAGIC || !take_u32(&p, end, &nl) ||
        nl > (size_t)(end - p) / sizeof(struct link_rec))
        bad = "its links";
    pl->link = xcalloc(bad || !nl ? 1 : nl, sizeof *pl->link);
    for (uint32_t i = 0; !bad && i < nl; i++) {
        struct link_rec r;
        if ((size_t)(end - p) < sizeof r) {
            bad = "its links";
            break;
        }
        memcpy(&r, p, sizeof r);
        p += sizeof r;
        if (r.namelen > (size_t)(end - p) || !(r.bandwidth > 0) || !(r.latency >= 0) ||
            !isfinite(r.latency)) {
            bad = "a link";
            break;
        }
        pl->link[i] = (struct platform_link){xasprintf("%.*s", (int)r.namelen, p), r.bandwidth,
                                             r.latency, r.shared != 0};
        pl->nlinks++;
        p += r.namelen;
    }
    /* the routes in SimGrid's order: where each begins */
    size_t nn = (size_t)n * (size_t)n;
    size_t *sg_at = xcalloc(nn, sizeof *sg_at);
    uint32_t *sg_len = xcalloc(nn, sizeof *sg_len);
    const char *ids = p;
    for (int q = 0; q < n && !bad; q++)
        for (int r = 0; r < n && !bad; r++) {
            uint32_t len, id = 0;
            if (q == r)
                continue;
            if (!take_u32(&p, end, &len) || len > (size_t)(end - p) / sizeof id) {
                bad = "its routes";
                break;
            }
            sg_at[(size_t)q * (size_t)n + (size_t)r] = (size_t)(p - ids);
            sg_len[(size_t)q * (size_t)n + (size_t)r] = len;
            pl->route_max = (int)len > pl->route_max ? (int)len : pl->route_max;
            for (uint32_t k = 0; k < len && !bad; k++) {
                take_u32(&p, end, &id);
                if (id >= nl)
                    bad = "its routes";
            }
        }
    if (!bad && p != end)
        bad = "its end";
    if (!bad) {
        pl->off = xmalloc((nn + 1) * sizeof *pl->off);
        size_t total = 0;
        for (int a = 0; a < n; a++)
            for (int c = 0; c < n; c++) {
                pl->off[(size_t)a * (size_t)n + (size_t)c] = total;
                total += sg_len[(size_t)order[a] * (size_t)n + (size_t)order[c]];
            }
        pl->off[nn] = total;
        pl->ids = xmalloc((total ? total : 1) * sizeof *pl->ids);
        for (int a = 0; a < n; a++)
            for (int c = 0; c < n; c++) {
                size_t k = (size_t)order[a] * (size_t)n + (size_t)order[c];
                memcpy(pl->ids + pl->off[(size_t)a * (size_t)n + (size_t)c], ids + sg_at[k],
                       sg_len[k] * sizeof *pl->ids);
            }
    }
    free(sg_at);
    free(sg_len);
    if (bad) {
        diag_error(d, path, 0, NULL, "the answer of hetcast-simgrid is not whole (%s): it "
                   "cannot be read", bad);
        platform_free(pl);
        return NULL;
    }
    return pl;
}

/* The n host names at *p (moved past them); NULL with an error in d when one holds a NUL. */
static char **read_names(const char *path, const char **at, int n, struct diag *d)
{
    const char *p = *at;
    char **names = xcalloc((size_t)n, sizeof *names);
    int cut = -1;   /* a host whose name holds a NUL byte: as a C string it would be cut */
    for (int i = 0; i < n; i++) {
        uint32_t len;
        memcpy(&len, p, sizeof len);
        p += sizeof len;
        names[i] = xmalloc((size_t)len + 1);
        memcpy(names[i], p, len);
        names[i][len] = '\0';
        if (cut < 0 && memchr(p, '\0', len))
            cut = i;
        p += len;
    }
    *at = p;
    if (cut < 0)
        return names;
    char b[64];
    diag_error(d, path, 0, NULL, "host %d (\"%s...\") has a name holding a NUL byte: a name must "
               "be UTF-8 text without control characters", cut + 1, SHOWN(names[cut], b));
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return NULL;
}

/* The hosts in natural order of their names: order[a] is SimGrid's number of node a. */
static int *natural_order(char **names, int n)
{
    struct host_ref *refs = xmalloc((size_t)n * sizeof *refs);
    for (int i = 0; i < n; i++)
        refs[i] = (struct host_ref){names[i], i};
    qsort(refs, (size_t)n, sizeof *refs, by_name);
    int *order = xmalloc((size_t)n * sizeof *order);
    for (int i = 0; i < n; i++)
        order[i] = refs[i].index;
    free(refs);
    return order;
}

/* The same, when hint (n indices, NULL: none) already lists the names in that
 * order: n - 1 comparisons check it instead of sorting (a <cluster>'s hosts
 * are made in their radicals' order, most often the natural one). */
static int *natural_order_hinted(char **names, int n, const int *hint)
{
    bool sorted = hint != NULL;
    for (int i = 1; sorted && i < n; i++) {
        struct host_ref a = {names[hint[i - 1]], hint[i - 1]}, b = {names[hint[i]], hint[i]};
        sorted = by_name(&a, &b) < 0;
    }
    if (!sorted)
        return natural_order(names, n);
    int *order = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *order);
    memcpy(order, hint, (size_t)n * sizeof *order);
    return order;
}

/* The time of a message of size bytes on route r from host a to host b
 * (latency + size / bandwidth), or -1 after a message naming them. */
static double route_time(const struct route_rec *r, double size, const char *path,
                         const char *a, const char *b, struct diag *d)
{
    char b1[128], b2[128];   /* names are checked later (cluster_finish) */
    /* a route of no link (Vivaldi coordinates: a latency alone) has no bandwidth to
       divide by; SimGrid delivers its message after the latency, whatever its size */
    bool bounded = r->links != 0;
    if (!bounded && !(r->latency > 0)) {   /* SimGrid's own test of "no path" */
        diag_error(d, path, 0, NULL, "no route from %s to %s: SimGrid cannot send a "
                   "message between them (a platform must route every pair of hosts)",
                   SHOWN(a, b1), SHOWN(b, b2));
        return -1;
    }
    if (bounded && size > 0 && !(r->bandwidth > 0)) {
        diag_error(d, path, 0, NULL, "the route from %s to %s has no bandwidth (%g)",
                   SHOWN(a, b1), SHOWN(b, b2), r->bandwidth);
        return -1;
    }
    double t = bounded ? timing_route(r->latency, size, r->bandwidth) : r->latency;
    if (!(t <= CLUSTER_MAX_TIME)) {   /* the message's size, not the platform */
        diag_error(d, path, 0, NULL, "--size %g: the route from %s to %s would take %g s "
                   "(latency + size / bandwidth), beyond %g", size, SHOWN(a, b1), SHOWN(b, b2),
                   t, CLUSTER_MAX_TIME);
        return -1;
    }
    return t;
}

/* Are the hosts' names (node a is host order[a]) each unique?  Else an error in d. */
static bool names_unique(const char *path, char *const *names, const int *order, int n,
                         struct diag *d)
{
    for (int a = 0; a + 1 < n; a++)   /* equal names sort next to each other */
        if (strcmp(names[order[a]], names[order[a + 1]]) == 0) {
            char b1[128];
            diag_error(d, path, 0, NULL, "two hosts are named %s: a host's name must be "
                       "unique on a platform", SHOWN(names[order[a]], b1));
            return false;
        }
    return true;
}

/*
 * The cluster of the n hosts (names in SimGrid's order, node a is host order[a]):
 * a platform graph of the routes marked in single, with times from time (n*n, by
 * node), or a latency matrix of time (taken); pl (taken, may be NULL) its links.
 * NULL with d filled.
 */
/* time NULL (a matrix): each pair's time by the native reader's rule, pl's context
 * (simgrid_native_by_rule said yes; direct: its answer). */
static struct cluster *assemble(const char *path, double size, char *const *names, int n,
                                const int *order, double *time, const unsigned char *single,
                                bool graph, bool direct, struct platform *pl, struct diag *d)
{
    struct cluster *c = cluster_new(graph ? CLUSTER_GRAPH : CLUSTER_MATRIX);
    c->time_unit = TIME_S;   /* SimGrid's times are seconds */
    for (int a = 0; a < n; a++)
        cluster_add_node(c, names[order[a]], 0, 0);
    if (graph) {
        for (int a = 0; a < n; a++)
            for (int b2 = 0; b2 < n; b2++)
                if (single[(size_t)a * (size_t)n + (size_t)b2])
                    cluster_add_edge(c, a, b2, time[(size_t)a * (size_t)n + (size_t)b2], -1);
        free(time);
    } else if (time) {
        c->dist = time;
    } else {
        c->dist_of = simgrid_native_time;
        c->dist_ctx = pl->rule_ctx;
        c->direct_shortest = direct;
    }
    c->plat = pl;
    cluster_set_str(&c->path, path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t blen = strlen(base);
    if (blen > 4 && strcmp(base + blen - 4, ".xml") == 0)
        blen -= 4;
    c->name = xasprintf("%.*s", (int)blen, base);
    char sz[64];
    snprintf(sz, sizeof sz, "%.17g", size);
    c->description = xasprintf("SimGrid platform %s, a %s-byte message: %s "
                               "(latency + size / bandwidth)", base, sz,
                               graph ? "a platform graph of its single-link routes"
                                     : "a latency matrix of its routes");
    if (cluster_finish(c, d) < 0) {
        cluster_free(c);
        c = NULL;
    }
    return c;
}

/* The cluster from the child's answer; NULL with d filled. */
static struct cluster *build(const char *path, double size, const struct buf *b, struct diag *d)
{
    const char *p = b->p;
    uint32_t n32;
    memcpy(&n32, p, sizeof n32);
    p += sizeof n32;
    int n = (int)n32;
    if (n == 0) {
        diag_error(d, path, 0, NULL, "no hosts: the platform is empty");
        return NULL;
    }
    char **names = read_names(path, &p, n, d);
    if (!names)
        return NULL;
    const char *recs = p;
    const char *after = recs + (size_t)n * (size_t)(n - 1) * sizeof(struct route_rec);
    int *order = natural_order(names, n);   /* node a is SimGrid's host order[a] */
    int errors = d->errors;
    names_unique(path, names, order, n, d);
    size_t nn = (size_t)n * (size_t)n;
    double *time = xcalloc(nn, sizeof *time);
    unsigned char *single = xcalloc(nn, 1);
    bool all_single = true;
    for (int a = 0; a < n && d->errors == errors; a++)
        for (int c = 0; c < n; c++) {
            if (a == c)
                continue;
            struct route_rec r = route_of(recs, n, order[a], order[c]);
            double t = route_time(&r, size, path, names[order[a]], names[order[c]], d);
            if (t < 0)
                break;
            time[(size_t)a * (size_t)n + (size_t)c] = t;
            single[(size_t)a * (size_t)n + (size_t)c] = r.links == 1;
            all_single = all_single && r.links == 1;
        }
    struct cluster *c = NULL;
    struct platform *pl = d->errors == errors ? read_links(path, after, b->p + b->len, n, order, d)
                                              : NULL;
    if (pl) {
        pl->size = size;
        pl->latency = xmalloc(nn * sizeof(double));   /* each route's latency */
        for (int a = 0; a < n; a++)
            for (int c2 = 0; c2 < n; c2++)
                pl->latency[(size_t)a * (size_t)n + (size_t)c2] =
                    a == c2 ? 0 : route_of(recs, n, order[a], order[c2]).latency;
    }
    if (d->errors == errors) {
        bool graph = n > 1 && !all_single && single_links_reach_all(single, n);
        c = assemble(path, size, names, n, order, time, single, graph, false, pl, d);
        time = NULL;
        pl = NULL;
    }
    platform_free(pl);
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(order);
    free(time);
    free(single);
    return c;
}

/* Is the child's answer complete?  Sets *rows to the route rows that arrived. */
static bool complete(const struct buf *b, int *rows)
{
    *rows = -1;
    if (b->len < sizeof(uint32_t))
        return false;
    uint32_t n32;
    memcpy(&n32, b->p, sizeof n32);
    if (n32 > SIMGRID_MAX_HOSTS)   /* the helper never says more; n^2 routes would overflow */
        return false;
    size_t at = sizeof n32;
    for (uint32_t i = 0; i < n32; i++) {
        uint32_t len;
        if (b->len - at < sizeof len)
            return false;
        memcpy(&len, b->p + at, sizeof len);
        at += sizeof len;
        if (b->len - at < len)
            return false;
        at += len;
    }
    size_t per_row = (n32 > 0 ? n32 - 1 : 0) * sizeof(struct route_rec);
    size_t got = per_row ? (b->len - at) / per_row : n32;
    *rows = (int)(got < n32 ? got : n32);
    /* the rows, then nothing or the links section (read by read_links) */
    return b->len - at == per_row * n32 ||
           (b->len - at >= per_row * n32 + sizeof(uint32_t) && n32 > 0 &&
            memcmp(b->p + at + per_row * n32, &(uint32_t){SIMGRID_LINKS_MAGIC}, 4) == 0);
}

/* The name of the host whose row of routes was being read (SimGrid's order), or NULL. */
static char *host_at(const struct buf *b, int row)
{
    uint32_t n32;
    memcpy(&n32, b->p, sizeof n32);
    size_t at = sizeof n32;
    for (uint32_t i = 0; i < n32; i++) {
        uint32_t len;
        memcpy(&len, b->p + at, sizeof len);
        at += sizeof len;
        if ((int)i == row)
            return xasprintf("%.*s", (int)text_cut_len(b->p + at, len > 200 ? 200 : len), b->p + at);
        at += len;
    }
    return NULL;
}

/* ---- the depth of zones, before SimGrid reads the file ---- */

/* The next byte of fp (EOF at the end), counting lines in *line. */
static int next_byte(FILE *fp, int *line)
{
    int c = getc(fp);
    if (c == '\n' && *line < INT_MAX)
        ++*line;
    return c;
}

/* Skip to the end of `end` (a comment's "-->", "?>", "]]>"); 0 at EOF. */
static int skip_past(FILE *fp, int *line, const char *end)
{
    size_t n = strlen(end), got = 0;
    for (int c; (c = next_byte(fp, line)) != EOF;) {
        /* the ends have no repeating prefix but their first byte ("--", "]]") */
        if (c == end[got])
            got++;
        else
            got = c == end[0] ? (got > 0 && end[got - 1] == c ? got : 1) : 0;
        if (got == n)
            return 1;
    }
    return 0;
}

/* A tag's attributes as the scan keeps them: the first bytes of the text after its name. */
struct tag_text {
    char text[1024];
    size_t len;
};

/* Skip a tag's rest to its '>', outside quoted values; *last: the byte
 * before it ('/' for an empty element); the text on the way in *t (cut at
 * its size).  0 at EOF. */
static int skip_tag(FILE *fp, int *line, int *last, struct tag_text *t)
{
    int quote = 0;
    *last = 0;
    t->len = 0;
    for (int c; (c = next_byte(fp, line)) != EOF;) {
        if (!quote && c == '>')
            break;
        if (t->len < sizeof t->text - 1)
            t->text[t->len++] = (char)c;
        if (quote) {
            quote = c == quote ? 0 : quote;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
            *last = c;
        }
    }
    t->text[t->len] = '\0';
    return feof(fp) ? 0 : 1;
}

/* The value of attribute `name` in a tag's text (blanks around '=' allowed) into val; 0 if
 * absent. */
static int attr_of(const struct tag_text *t, const char *name, char *val, size_t size)
{
    size_t nlen = strlen(name);
    for (const char *p = t->text; (p = strstr(p, name)) != NULL; p += nlen) {
        if (p > t->text && !strchr(" \t\n\r", p[-1]))
            continue;
        const char *q = p + nlen;
        q += strspn(q, " \t\n\r");
        if (*q != '=')
            continue;
        q++;
        q += strspn(q, " \t\n\r");
        if (*q != '"' && *q != '\'')
            continue;
        const char *end = strchr(q + 1, *q);
        size_t len = end ? (size_t)(end - q - 1) : strlen(q + 1);
        text_fit(val, size, "%.*s", (int)len, q + 1);
        return 1;
    }
    return 0;
}

/* A declaration (<!DOCTYPE ...>, its internal subset in brackets) to its '>'. */
static int skip_decl(FILE *fp, int *line)
{
    int quote = 0, brackets = 0;
    for (int c; (c = next_byte(fp, line)) != EOF;) {
        if (quote)
            quote = c == quote ? 0 : quote;
        else if (c == '"' || c == '\'')
            quote = c;
        else if (c == '[')
            brackets++;
        else if (c == ']' && brackets > 0)
            brackets--;
        else if (c == '>' && brackets == 0)
            return 1;
    }
    return 0;
}

/* What the scan of the file's tags found, before SimGrid reads it. */
enum scan_what {
    SCAN_OK,
    SCAN_DEEP,        /* a zone nested more than SIMGRID_MAX_ZONES deep */
    SCAN_WIFI_ZONE,   /* <zone routing="Wifi"> */
    SCAN_WIFI_LINK,   /* <link sharing_policy="WIFI"> */
};

struct scan {
    enum scan_what what;
    int line;       /* of the tag */
    char id[128];   /* its id attribute, as written (shown through SHOWN) */
    char val[32];   /* the attribute that says wifi, as written */
};

/*
 * The first tag that keeps the file from being read: a zone (<zone> or
 * SimGrid 3's <AS>) nested more than SIMGRID_MAX_ZONES deep, a wifi zone or
 * a wifi link.  Tags only: comments, processing instructions, declarations
 * and CDATA are skipped, quoted values may hold '>'.  What is not
 * well-formed is left to SimGrid to say.  Cost: one pass.
 */
static struct scan scan_platform(FILE *fp)
{
    struct scan r = {SCAN_OK, 0, "", ""};
    int line = 1, depth = 0;
    struct tag_text t;
    for (int c; (c = next_byte(fp, &line)) != EOF;) {
        if (c != '<')
            continue;
        int at = line, last;
        c = next_byte(fp, &line);
        if (c == '?') {
            if (!skip_past(fp, &line, "?>"))
                return r;
            continue;
        }
        if (c == '!') {
            int c2 = next_byte(fp, &line);
            int ok = c2 == '-' ? skip_past(fp, &line, "-->")
                     : c2 == '[' ? skip_past(fp, &line, "]]>")
                                 : skip_decl(fp, &line);
            if (!ok)
                return r;
            continue;
        }
        bool closing = c == '/';
        if (closing)
            c = next_byte(fp, &line);
        char name[8];
        size_t k = 0;
        while (c != EOF && c != '>' && c != '/' && c != ' ' && c != '\t' && c != '\n' &&
               c != '\r') {
            if (k < sizeof name - 1)
                name[k++] = (char)c;
            c = next_byte(fp, &line);
        }
        name[k] = '\0';
        if (c == EOF)
            return r;
        t.len = 0;
        t.text[0] = '\0';
        if (c == '>')
            last = 0;
        else if (!skip_tag(fp, &line, &last, &t))
            return r;
        if (c == '/')
            last = '/';
        bool zone = strcmp(name, "zone") == 0 || strcmp(name, "AS") == 0;
        char *val = r.val;
        if (!closing && zone && attr_of(&t, "routing", val, sizeof r.val) &&
            strcasecmp(val, "Wifi") == 0)
            r.what = SCAN_WIFI_ZONE;
        else if (!closing && strcmp(name, "link") == 0 &&
                 attr_of(&t, "sharing_policy", val, sizeof r.val) && strcasecmp(val, "WIFI") == 0)
            r.what = SCAN_WIFI_LINK;
        else if (zone && closing)
            depth -= depth > 0;
        else if (zone && last != '/' && ++depth > SIMGRID_MAX_ZONES)
            r.what = SCAN_DEEP;
        if (r.what != SCAN_OK) {
            r.line = at;
            if (!attr_of(&t, "id", r.id, sizeof r.id))
                r.id[0] = '\0';
            return r;
        }
    }
    return r;
}

struct cluster *simgrid_reply_cluster(const char *path, double size, const char *data, size_t len,
                                      struct diag *d)
{
    struct buf b = {0};
    buf_add(&b, data, len);
    int rows;
    struct cluster *c = NULL;
    if (complete(&b, &rows))
        c = build(path, size, &b, d);
    else if (rows < 0)
        diag_error(d, path, 0, NULL, "the answer of hetcast-simgrid is cut short in its host names "
                   "or names more than %d hosts: it cannot be read", SIMGRID_MAX_HOSTS);
    else
        diag_error(d, path, 0, NULL, "the answer of hetcast-simgrid is not whole (%d complete "
                   "rows of routes): it cannot be read", rows);
    free(b.p);
    return c;
}

/* Why the helper gave no answer: what SimGrid said, or how it crashed and where. */
static void helper_failed(const char *path, int status, const struct buf *out,
                          const struct buf *msg, int rows, struct diag *d)
{
    char *said = msg->p ? simgrid_said(msg->p) : NULL;
    char *host = rows >= 0 ? host_at(out, rows) : NULL;
    /* SIGABRT is SimGrid's way to refuse a file; any other signal is a crash, and so is
       a sanitizer's report of one (hetcast built with -Db_sanitize catches the signal
       in the child and exits instead) */
    bool sanitized = msg->p && strstr(msg->p, "DEADLYSIGNAL");
    bool crashed = sanitized || (WIFSIGNALED(status) && WTERMSIG(status) != SIGABRT);
    const char *why = sanitized && strstr(msg->p, "SEGV") ? strsignal(SIGSEGV)
                      : WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "no answer";
    char hb[210];
    if (said && !crashed)
        diag_error(d, path, 0, NULL, "SimGrid refused it: %s", said);
    else if (host)
        diag_error(d, path, 0, NULL, "SimGrid crashed (%s) while reading the routes from host "
                   "%s: does the platform give a route between every pair of hosts?", why,
                   SHOWN(host, hb));
    else
        diag_error(d, path, 0, NULL, "SimGrid crashed (%s) while loading it: is it a SimGrid "
                   "platform (version 4.1)?", why);
    free(said);
    free(host);
}

/* The fast path: the platform read without the helper (model/cluster_simgrid_native.c),
 * built as the helper's answer is into *c; false when that reader leaves the file to
 * SimGrid. */
static bool read_native(const char *path, double size, struct diag *d, struct cluster **c)
{
    struct simgrid_native *nv;
    if (!FAST_PATH((nv = simgrid_native_read(path)) != NULL))
        return false;
    int n;
    char *const *names = simgrid_native_names(nv, &n);
    int *hint = simgrid_native_made(nv);
    int *order = natural_order_hinted((char **)names, n, hint);   /* node a is SimGrid's host order[a] */
    free(hint);
    bool direct;
    if (simgrid_native_by_rule(nv, order, size, &direct)) {   /* no n*n times */
        *c = NULL;
        if (names_unique(path, names, order, n, d)) {
            struct platform *pl = simgrid_native_platform(nv);
            pl->size = size;
            *c = assemble(path, size, names, n, order, NULL, NULL, false, direct, pl, d);
            nv = NULL;   /* it went with pl */
        }
        simgrid_native_free(nv);
        free(order);
        return true;
    }
    size_t bytes = (size_t)n * (size_t)n * sizeof(double);
    double *time = xmalloc(bytes);   /* written whole: on huge pages, far fewer faults */
    mem_advise_huge(time, bytes);
    struct progress pg = {path, now_seconds(), 0, false};
    long bad;
    if (!simgrid_native_times(nv, order, size, time, &bad, native_tick, &pg)) {
        simgrid_native_free(nv);
        free(order);
        free(time);
        return false;
    }
    if (pg.told && progress_fn)
        progress_fn(progress_ctx, path, -1, now_seconds() - pg.t0);
    *c = NULL;
    if (bad >= 0) {   /* its message, as the helper's answer gives it */
        int a = (int)(bad / n), c2 = (int)(bad % n);
        struct route_rec r = simgrid_native_rec(nv, a, c2);
        route_time(&r, size, path, names[order[a]], names[order[c2]], d);
    } else if (names_unique(path, names, order, n, d)) {
        struct platform *pl = simgrid_native_platform(nv);
        pl->size = size;
        *c = assemble(path, size, names, n, order, time, NULL, false, false, pl, d);   /* nv goes with pl */
        nv = NULL;
        time = NULL;
    }
    simgrid_native_free(nv);
    free(order);
    free(time);
    return true;
}

struct cluster *cluster_load_simgrid(const char *path, double size, struct diag *d)
{
    FILE *probe = fopen(path, "r");
    if (!probe) {
        diag_error(d, path, 0, NULL, "cannot open: %s", strerror(errno));
        return NULL;
    }
    struct stat st;
    struct scan sc = {SCAN_OK, 0, "", ""};
    if (fstat(fileno(probe), &st) == 0 && S_ISREG(st.st_mode))
        sc = scan_platform(probe);
    fclose(probe);
    char idb[160], valb[48];
    if (sc.what == SCAN_DEEP) {
        diag_error(d, path, sc.line, NULL, "zones nested more than %d deep: not read (SimGrid's "
                   "parser fails on deep nesting)", SIMGRID_MAX_ZONES);
        return NULL;
    }
    if (sc.what != SCAN_OK) {
        diag_error(d, path, sc.line, NULL, "%s \"%s\" is wifi (%s=\"%s\"): its stations share one radio "
                   "medium at rates SimGrid sets per station, so a message's time depends on "
                   "who else transmits and is no point-to-point cost: not read",
                   sc.what == SCAN_WIFI_ZONE ? "zone" : "link", SHOWN(sc.id, idb),
                   sc.what == SCAN_WIFI_ZONE ? "routing" : "sharing_policy", SHOWN(sc.val, valb));
        return NULL;
    }
    if (!(size >= 0) || !isfinite(size)) {
        diag_error(d, path, 0, NULL, "--size: %g is not a message size in bytes (a number >= 0)",
                   size);
        return NULL;
    }
    if (!helper || access(helper, X_OK) != 0) {
        diag_error(d, path, 0, NULL, "cannot read it with SimGrid: the helper hetcast-simgrid "
                   "is not installed beside hetcast%s%s", helper ? " (" : "", helper ? helper : "");
        if (helper)
            diag_error(d, path, 0, NULL, "(looked for %s)", helper);
        return NULL;
    }
    struct cluster *native;
    if (read_native(path, size, d, &native))
        return native;
    int data[2], err[2];
    if (pipe(data) < 0) {
        diag_error(d, path, 0, NULL, "cannot read it with SimGrid: %s", strerror(errno));
        return NULL;
    }
    if (pipe(err) < 0) {
        diag_error(d, path, 0, NULL, "cannot read it with SimGrid: %s", strerror(errno));
        close(data[0]);
        close(data[1]);
        return NULL;
    }
    pid_t pid = fork();
    if (pid < 0) {
        diag_error(d, path, 0, NULL, "cannot read it with SimGrid: fork: %s", strerror(errno));
        close(data[0]);
        close(data[1]);
        close(err[0]);
        close(err[1]);
        return NULL;
    }
    if (pid == 0) {
        /* stdout to /dev/null: whatever the parent left in its stdio buffers
           and SimGrid writes there goes nowhere; stderr to the message pipe. */
        close(data[0]);
        close(err[0]);
        struct rlimit no_core = {0, 0};   /* a crash of SimGrid leaves no core file behind */
        setrlimit(RLIMIT_CORE, &no_core);
        /* not the front door's handlers (the view restores its terminal on these) */
        static const int sigs[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT, SIGWINCH, SIGUSR1, SIGUSR2,
                                   SIGALRM, SIGPIPE, SIGSEGV, SIGABRT, SIGBUS,   SIGFPE,  SIGILL,
                                   SIGTRAP, SIGSYS};
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
            signal(sigs[i], SIG_DFL);
        dup2(data[1], STDOUT_FILENO);   /* the helper writes the platform there */
        dup2(err[1], STDERR_FILENO);
        char *argv[] = {helper, (char *)path, NULL};
        execv(helper, argv);
        _exit(SIMGRID_EXIT_NO_HELPER);
    }
    close(data[1]);
    close(err[1]);
    struct buf out = {0}, msg = {0};
    struct progress pg = {path, now_seconds(), 0, false};
    int rc = drain(data[0], err[0], &out, &msg, &pg);
    close(data[0]);
    close(err[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (pg.told && progress_fn)
        progress_fn(progress_ctx, path, -1, now_seconds() - pg.t0);
    struct cluster *c = NULL;
    int rows;
    bool whole = complete(&out, &rows);
    if (rc == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 && whole) {
        c = build(path, size, &out, d);
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == SIMGRID_EXIT_NO_HELPER) {
        diag_error(d, path, 0, NULL, "cannot read it with SimGrid: cannot run %s", helper);
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == SIMGRID_EXIT_TOO_MANY) {
        diag_error(d, path, 0, NULL, "more than %d hosts: too many for a latency matrix",
                   SIMGRID_MAX_HOSTS);
    } else {
        helper_failed(path, status, &out, &msg, rows, d);
    }
    free(out.p);
    free(msg.p);
    return c;
}

/* ---- a schedule replayed in SimGrid ---- */

/* The helper's answer to a replay: NAME<TAB>TIME lines into hold[]. */
static int read_holds(const struct cluster *c, const char *text, double *hold, char **cause)
{
    for (int p = 0; p < c->n; p++)
        hold[p] = INFINITY;
    for (const char *s = text; *s;) {
        const char *nl = strchr(s, '\n'), *tab = strchr(s, '\t');
        if (!nl || !tab || tab > nl)
            return set_cause(cause, "the answer of hetcast-simgrid --replay cannot be read");
        char *name = xasprintf("%.*s", (int)(tab - s), s);
        int p = cluster_find(c, name);
        free(name);
        if (p < 0)
            return set_cause(cause, "hetcast-simgrid --replay names a host not in the cluster");
        hold[p] = strtod(tab + 1, NULL);
        s = nl + 1;
    }
    return 0;
}

int simgrid_replay(const struct cluster *c, const char *path, double size, bool multi_port,
                   const int *from, const int *to, int ntr, double *hold, char **cause)
{
    if (!helper || access(helper, X_OK) != 0)
        return set_cause(cause, "%s: cannot replay it in SimGrid: the helper hetcast-simgrid is "
                         "not installed beside hetcast", path);
    FILE *sched = tmpfile();
    if (!sched)
        return set_cause(cause, "cannot replay it in SimGrid: %s", strerror(errno));
    for (int i = 0; i < ntr; i++)
        fprintf(sched, "%s\t%s\n", c->nodes[from[i]].name, c->nodes[to[i]].name);
    fflush(sched);
    rewind(sched);
    int data[2], err[2];
    if (pipe(data) < 0) {
        fclose(sched);
        return set_cause(cause, "cannot replay it in SimGrid: %s", strerror(errno));
    }
    if (pipe(err) < 0) {
        close(data[0]);
        close(data[1]);
        fclose(sched);
        return set_cause(cause, "cannot replay it in SimGrid: %s", strerror(errno));
    }
    char sz[64];
    snprintf(sz, sizeof sz, "%.17g", size);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(data[0]);
        close(err[0]);
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core);
        dup2(fileno(sched), STDIN_FILENO);
        dup2(data[1], STDOUT_FILENO);
        dup2(err[1], STDERR_FILENO);
        char *argv[] = {helper, "--replay", (char *)path,
                        multi_port ? "multi-port" : "one-port", sz, NULL};
        execv(helper, argv);
        _exit(SIMGRID_EXIT_NO_HELPER);
    }
    close(data[1]);
    close(err[1]);
    fclose(sched);
    if (pid < 0) {
        close(data[0]);
        close(err[0]);
        return set_cause(cause, "cannot replay it in SimGrid: fork: %s", strerror(errno));
    }
    struct buf out = {0}, msg = {0};
    int rc = drain(data[0], err[0], &out, &msg, NULL);
    close(data[0]);
    close(err[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (rc == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
        rc = read_holds(c, out.p ? out.p : "", hold, cause);
    else {
        char *said = msg.p ? simgrid_said(msg.p) : NULL;
        rc = set_cause(cause, "%s: SimGrid's replay failed: %s", path, said ? said : "no answer");
        free(said);
    }
    free(out.p);
    free(msg.p);
    return rc;
}
