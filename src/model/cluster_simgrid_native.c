/*
 * model/cluster_simgrid_native.c - the fast path of model/cluster_simgrid.c:
 * what hetcast-simgrid's answer (model/cluster_simgrid.h's wire format) says,
 * computed without SimGrid for a file that is one <cluster> and nothing SimGrid
 * could read otherwise: the routes' times, and the links with a rule that gives
 * a route's links when asked (model/platform.h), not the n^2 routes' records.
 *
 * Read here: a <platform version="4.1"> (after an optional <?xml?> and the
 * <!DOCTYPE> of simgrid.dtd, comments) holding one <cluster/>, alone or
 * inside one <zone> of Full, Floyd or Dijkstra routing, with the attributes
 * of SimGrid 3.32's DTD, topology FLAT or FAT_TREE.  Its routes are SimGrid 3.32's, rule for rule:
 *   FLAT (src/surf/sg_platf.cpp, sg_platf_new_cluster_flat; StarZone.cpp):
 *     host r's links are [ID_link_R_limiter], ID_link_R (_UP/_DOWN when the
 *     policy is SPLITDUPLEX or FULLDUPLEX, else one link of SimGrid's default
 *     policy SHARED, FATPIPE too) and ID_backbone (when bb_bw or bb_lat > 0);
 *     q -> p goes up q's list and down p's reversed one, the backbone once.
 *   FAT_TREE (FatTreeZone.cpp): the same switches, labels, links and names
 *     (link_from_C_P_U, shared, _UP/_DOWN when split), and its get_local_route
 *     transcribed line by line, its quirks with it.
 * Hosts are prefix + radical + suffix; each route's latency is the sum of its
 * links' in route order from 0, its bandwidth the least; links are numbered
 * in the order first met, rows in SimGrid's host order (names in byte order),
 * as app/simgrid_helper.c numbers them.  Anything else - another element or
 * attribute, an entity, a value this reader would have to guess at (units
 * beyond SimGrid's table, a malformed radical, duplicate hosts, a TORUS or
 * DRAGONFLY topology, more than SIMGRID_MAX_HOSTS hosts) - returns NULL and
 * the helper reads the file, refusals and all.
 * Cost: one pass over the file, then O(n^2) times: FLAT's from per-host sums,
 * FAT_TREE's from halves of routes computed once each and kept (its links are
 * numbered along the way); O(route length) a route asked for.
 */
#include "model/cluster_simgrid.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/timing.h"

/* ---- the file: one <cluster> and its attributes ---- */

#define NAT_ATTRS 20

struct attr {
    const char *name;
    char *val;   /* NUL-terminated copy; NULL: absent */
};

struct xml {
    const char *p, *end;
};

static void skip_blank(struct xml *x)
{
    while (x->p < x->end && (*x->p == ' ' || *x->p == '\t' || *x->p == '\n' || *x->p == '\r'))
        x->p++;
}

static bool starts(const struct xml *x, const char *s)
{
    size_t n = strlen(s);
    return (size_t)(x->end - x->p) >= n && memcmp(x->p, s, n) == 0;
}

/* Past what is between elements: blanks and comments (a "--" inside one is not XML). */
static bool skip_misc(struct xml *x)
{
    for (;;) {
        skip_blank(x);
        if (!starts(x, "<!--"))
            return true;
        const char *e = x->p + 4;
        while (e + 2 < x->end && memcmp(e, "--", 2) != 0)
            e++;
        if (e + 2 >= x->end || e[2] != '>')
            return false;
        x->p = e + 3;
    }
}

/*
 * The attributes of the tag at x->p (its name already passed) into a[]
 * (names listed, values NULL), to its end: *empty says "/>".  false for an
 * attribute not listed or given twice, an entity, a control character or a
 * '<' in a value, or anything that is not a plain tag.
 */
static bool read_attrs(struct xml *x, struct attr *a, int na, bool *empty)
{
    for (;;) {
        const char *before = x->p;
        skip_blank(x);
        if (starts(x, "/>") || starts(x, ">")) {
            *empty = *x->p == '/';
            x->p += *empty ? 2 : 1;
            return true;
        }
        if (x->p == before)   /* attributes are separated by blanks */
            return false;
        const char *n0 = x->p;
        while (x->p < x->end && (*x->p == '_' || (*x->p >= 'a' && *x->p <= 'z') ||
                                 (*x->p >= 'A' && *x->p <= 'Z')))
            x->p++;
        size_t nlen = (size_t)(x->p - n0);
        skip_blank(x);
        if (nlen == 0 || x->p >= x->end || *x->p != '=')
            return false;
        x->p++;
        skip_blank(x);
        if (x->p >= x->end || (*x->p != '"' && *x->p != '\''))
            return false;
        char q = *x->p++;
        const char *v0 = x->p;
        while (x->p < x->end && *x->p != q) {
            if (*x->p == '&' || *x->p == '<' || (unsigned char)*x->p < 0x20)
                return false;
            x->p++;
        }
        if (x->p >= x->end)
            return false;
        int k = 0;
        while (k < na && (strlen(a[k].name) != nlen || memcmp(a[k].name, n0, nlen) != 0))
            k++;
        if (k == na || a[k].val)
            return false;
        a[k].val = xasprintf("%.*s", (int)(x->p - v0), v0);
        x->p++;
    }
}

/* Past <name ...> with its attributes; false unless the tag is there and reads. */
static bool open_tag(struct xml *x, const char *name, struct attr *a, int na, bool *empty)
{
    size_t n = strlen(name);
    if (x->p >= x->end || *x->p != '<' || (size_t)(x->end - x->p) <= n + 1 ||
        memcmp(x->p + 1, name, n) != 0)
        return false;
    char c = x->p[n + 1];
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '/' && c != '>')
        return false;
    x->p += n + 1;
    return read_attrs(x, a, na, empty);
}

/* Past </name>. */
static bool close_tag(struct xml *x, const char *name)
{
    size_t n = strlen(name);
    if (!starts(x, "</") || (size_t)(x->end - x->p) < n + 2 || memcmp(x->p + 2, name, n) != 0)
        return false;
    x->p += n + 2;
    skip_blank(x);
    if (x->p >= x->end || *x->p != '>')
        return false;
    x->p++;
    return true;
}

/* The prolog, in the forms SimGrid 3.32's parser is known to take: an optional <?xml?>
 * declaring version 1.0 (and UTF-8), then the DOCTYPE of simgrid.dtd, which it requires;
 * the blanks and comments after. */
static bool skip_prolog(struct xml *x)
{
    static const char *const decls[] = {
        "<?xml version=\"1.0\"?>", "<?xml version='1.0'?>",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<?xml version='1.0' encoding='UTF-8'?>"};
    static const char *const doctypes[] = {
        "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">",
        "<!DOCTYPE platform SYSTEM \"http://simgrid.gforge.inria.fr/simgrid/simgrid.dtd\">"};
    for (size_t i = 0; i < sizeof decls / sizeof decls[0]; i++)
        if (starts(x, decls[i])) {
            x->p += strlen(decls[i]);
            skip_blank(x);
            break;
        }
    for (size_t i = 0; i < sizeof doctypes / sizeof doctypes[0]; i++)
        if (starts(x, doctypes[i])) {
            x->p += strlen(doctypes[i]);
            return skip_misc(x);
        }
    return false;
}

/* The cluster's attributes, in this order (SimGrid 3.32's DTD: src/surf/xml/simgrid.dtd). */
enum {
    A_ID, A_PREFIX, A_SUFFIX, A_RADICAL, A_SPEED, A_CORE, A_BW, A_LAT, A_SHARING, A_TOPOLOGY,
    A_TOPO_PARAMS, A_BB_BW, A_BB_LAT, A_BB_SHARING, A_ROUTER_ID, A_LIMITER, A_LOOPBACK_BW,
    A_LOOPBACK_LAT, A_COUNT
};
static const char *const cluster_attr_names[A_COUNT] = {
    "id", "prefix", "suffix", "radical", "speed", "core", "bw", "lat", "sharing_policy", "topology",
    "topo_parameters", "bb_bw", "bb_lat", "bb_sharing_policy", "router_id", "limiter_link",
    "loopback_bw", "loopback_lat"};

/*
 * The file's one <cluster>'s attributes into a[] (a[k].name set by the caller),
 * or false when the file is anything else.
 */
static bool read_file_cluster(const char *text, size_t len, struct attr *a)
{
    struct xml x = {text, text + len};
    struct attr pa[1] = {{"version", NULL}}, za[2] = {{"id", NULL}, {"routing", NULL}};
    bool empty, ok = skip_prolog(&x) && open_tag(&x, "platform", pa, 1, &empty) && !empty &&
                     pa[0].val && strcmp(pa[0].val, "4.1") == 0 && skip_misc(&x);
    bool zone = ok && open_tag(&x, "zone", za, 2, &empty);
    if (zone) {
        static const char *const routings[] = {"Full", "Floyd", "Dijkstra"};
        bool known = false;
        for (size_t i = 0; za[1].val && i < sizeof routings / sizeof routings[0]; i++)
            known = known || strcmp(za[1].val, routings[i]) == 0;
        ok = !empty && za[0].val && known && skip_misc(&x);
    }
    ok = ok && open_tag(&x, "cluster", a, A_COUNT, &empty);
    if (ok && !empty) {   /* <cluster ...></cluster>: no <prop> inside */
        skip_blank(&x);
        ok = close_tag(&x, "cluster");
    }
    ok = ok && skip_misc(&x) && (!zone || (close_tag(&x, "zone") && skip_misc(&x))) &&
         close_tag(&x, "platform") && skip_misc(&x) && x.p == x.end;
    /* two zones of one name are SimGrid's to judge */
    ok = ok && (!zone || !a[A_ID].val || strcmp(za[0].val, a[A_ID].val) != 0);
    free(pa[0].val);
    free(za[0].val);
    free(za[1].val);
    return ok;
}

/* ---- values with units, as SimGrid's xbt_parse_get_value_with_unit reads them ---- */

enum unit_kind { UNIT_TIME, UNIT_BANDWIDTH, UNIT_SPEED };

/* The factor of unit u (the whole rest of the value) of its kind, SimGrid's table
 * (src/xbt/xbt_parse_units.cpp) computed as it computes it; 0 if unknown. */
static double unit_factor(enum unit_kind kind, const char *u)
{
    static const char *const times[] = {"w", "d", "h", "m", "s", "ms", "us", "ns", "ps"};
    static const double time_f[] = {7 * 24 * 60 * 60, 24 * 60 * 60, 60 * 60, 60, 1.0,
                                    1e-3, 1e-6, 1e-9, 1e-12};
    if (kind == UNIT_TIME) {
        for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
            if (strcmp(u, times[i]) == 0)
                return time_f[i];
        return 0;
    }
    static const char *const p2[] = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"};
    static const char *const p10[] = {"k", "M", "G", "T", "P", "E", "Z", "Y"};
    static const char *const p10long[] = {"kilo", "mega", "giga", "tera", "peta", "exa", "zeta", "yotta"};
    struct { const char *unit; double value; const char *const *prefixes; double mult; } gen[] = {
        {"bps", 0.125, p2, 1024.0}, {"bps", 0.125, p10, 1000.0},
        {"Bps", 1.0, p2, 1024.0},   {"Bps", 1.0, p10, 1000.0},
        {"f", 1.0, p10, 1000.0},    {"flops", 1.0, p10long, 1000.0}};
    size_t from = kind == UNIT_BANDWIDTH ? 0 : 4, to = kind == UNIT_BANDWIDTH ? 4 : 6;
    for (size_t g = from; g < to; g++) {
        double value = gen[g].value;
        if (strcmp(u, gen[g].unit) == 0)
            return value;
        size_t ul = strlen(gen[g].unit);
        for (int i = 0; i < 8; i++) {
            value *= gen[g].mult;
            size_t pl = strlen(gen[g].prefixes[i]);
            if (strlen(u) == pl + ul && strncmp(u, gen[g].prefixes[i], pl) == 0 &&
                strcmp(u + pl, gen[g].unit) == 0)
                return value;
        }
    }
    return 0;
}

/* s (a number, then a unit or none) as SimGrid reads it into *v; false for what this
 * reader leaves to SimGrid: a sign, hexadecimal, inf, out of range, an unknown unit. */
static bool unit_value(const char *s, enum unit_kind kind, double *v)
{
    const char *q = s;
    size_t digits = strspn(q, "0123456789");
    q += digits;
    if (*q == '.') {
        size_t frac = strspn(q + 1, "0123456789");
        digits += frac;
        q += 1 + frac;
    }
    if (digits == 0)
        return false;
    if (*q == 'e' || *q == 'E') {
        const char *e = q + 1 + (q[1] == '+' || q[1] == '-');
        size_t ed = strspn(e, "0123456789");
        if (ed > 0)
            q = e + ed;
    }
    char *end;
    errno = 0;
    double res = strtod(s, &end);
    if (end != q || errno == ERANGE || !isfinite(res))
        return false;
    double f = unit_factor(kind, *q ? q : kind == UNIT_TIME ? "s" : kind == UNIT_SPEED ? "f" : "Bps");
    if (!(f > 0))
        return false;
    *v = res * f;
    return isfinite(*v);
}

/* A count: plain decimal digits, 1 to 999999. */
static bool small_count(const char *s, int *v)
{
    size_t n = strspn(s, "0123456789");
    if (n == 0 || n > 6 || s[n] != '\0')
        return false;
    *v = atoi(s);
    return *v >= 1;
}

/* "0-99,200,300-399" as SimGrid's explodesRadical reads it, plain numbers only. */
static int *read_radicals(const char *s, int *count)
{
    int *r = NULL, n = 0, cap = 0;
    for (const char *g = s;;) {
        size_t a = strspn(g, "0123456789"), b = 0;
        if (a == 0 || a > 6)
            break;
        int lo = atoi(g), hi = lo;
        if (g[a] == '-') {
            b = strspn(g + a + 1, "0123456789");
            if (b == 0 || b > 6)
                break;
            hi = atoi(g + a + 1);
            b++;
        }
        for (int i = lo; i <= hi && n <= SIMGRID_MAX_HOSTS; i++) {
            if (n == cap) {
                cap = cap ? 2 * cap : 64;
                r = xrealloc(r, (size_t)cap * sizeof *r);
            }
            r[n++] = i;
        }
        g += a + b;
        if (*g == '\0') {
            *count = n;
            return r;
        }
        if (*g != ',')
            break;
        g++;
    }
    free(r);
    return NULL;
}

/* ---- the platform: hosts, links and a route rule ---- */

struct nlink {
    char *name;
    double bw, lat;
    bool shared;
};

enum topo { TOPO_FLAT, TOPO_FAT_TREE };

struct ft_node {        /* FatTreeZone's FatTreeNode */
    int id, level, position;
    int *label;         /* levels */
    int limiter;        /* a link, or -1 */
    int *children, nchildren;   /* ft links (-1: none) */
    int *parents, nparents;
};

struct ft_link {
    int up_node, down_node;   /* nodes */
    int up_link, down_link;   /* links */
};

struct nat {
    int n;                      /* hosts, in creation order */
    char **names;
    struct nlink *links;
    int nlinks, linkcap;
    enum topo topo;
    /* FLAT: each host's way up and down (links), SimGrid's links_up and links_down */
    int (*up)[3], (*down)[3], *nup;
    int bb;                     /* the backbone, or -1 */
    /* FAT_TREE */
    int levels, *fdown, *fup, *fcount;
    struct ft_node *nodes;
    int nnodes, *nodes_by_level;
    struct ft_link *ftl;
    int nftl;
    int *upchoice;   /* levels * n: the parent port d-mod-k takes at a level towards a host */
};

/* a, then b, the decimal r and c: SimGrid's names (prefix radical suffix,
 * id_link_r_UP) without printf, which took a quarter of the instructions of
 * reading a 1 000-host cluster (callgrind): the same bytes as "%s%s%ld%s". */
static char *join_num3(const char *a, const char *b, long r, const char *c)
{
    char digits[24];
    int nd = 0;
    unsigned long u = r < 0 ? 0UL - (unsigned long)r : (unsigned long)r;
    do
        digits[nd++] = (char)('0' + u % 10);
    while (u /= 10);
    size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
    char *s = xmalloc(la + lb + (r < 0) + (size_t)nd + lc + 1), *w = s;
    memcpy(w, a, la);
    memcpy(w += la, b, lb);
    w += lb;
    if (r < 0)
        *w++ = '-';
    while (nd > 0)
        *w++ = digits[--nd];
    memcpy(w, c, lc + 1);
    return s;
}

static char *join_num(const char *a, long r, const char *c)
{
    return join_num3(a, "", r, c);
}

static int add_link(struct nat *t, char *name, double bw, double lat, bool shared)
{
    if (t->nlinks == t->linkcap) {
        t->linkcap = t->linkcap ? 2 * t->linkcap : 256;
        t->links = xrealloc(t->links, (size_t)t->linkcap * sizeof *t->links);
    }
    t->links[t->nlinks] = (struct nlink){name, bw, lat, shared};
    return t->nlinks++;
}

static void nat_free(struct nat *t)
{
    for (int i = 0; i < t->n; i++)
        free(t->names[i]);
    for (int i = 0; i < t->nlinks; i++)
        free(t->links[i].name);
    for (int i = 0; i < t->nnodes; i++) {
        free(t->nodes[i].label);
        free(t->nodes[i].children);
        free(t->nodes[i].parents);
    }
    free(t->names);
    free(t->links);
    free(t->up);
    free(t->down);
    free(t->nup);
    free(t->fdown);
    free(t->fup);
    free(t->fcount);
    free(t->nodes);
    free(t->nodes_by_level);
    free(t->ftl);
    free(t->upchoice);
}

/* The cluster's values, read. */
struct spec {
    const char *id, *prefix, *suffix, *topo_params;
    int *radicals, nrad;
    double bw, lat, bb_bw, bb_lat, limiter;
    bool split, bb_shared;
    enum topo topo;
};

/* A policy among names[] (count of them) into *k; absent: def. */
static bool enum_value(const char *v, const char *const *names, int count, int def, int *k)
{
    *k = def;
    for (int i = 0; v && i < count; i++)
        if (strcmp(v, names[i]) == 0)
            *k = i;
    return !v || strcmp(v, names[*k]) == 0;
}

/* The attributes as SimGrid's ETag_surfxml_cluster reads them; false for anything left to it. */
static bool read_spec(struct attr *a, struct spec *s)
{
    static const char *const policies[] = {"SHARED", "SPLITDUPLEX", "FULLDUPLEX", "FATPIPE"};
    static const char *const bb_policies[] = {"SHARED", "FATPIPE"};
    static const char *const topologies[] = {"FLAT", "FAT_TREE"};
    int pol, bbpol, topo, core = 1;
    double speed, lb_bw = 0, lb_lat = 0;
    bool ok = a[A_ID].val && a[A_PREFIX].val && a[A_SUFFIX].val && a[A_RADICAL].val &&
              a[A_SPEED].val && a[A_BW].val && a[A_LAT].val && !a[A_ROUTER_ID].val && *a[A_ID].val &&
              unit_value(a[A_SPEED].val, UNIT_SPEED, &speed) && speed > 0 &&
              (!a[A_CORE].val || small_count(a[A_CORE].val, &core)) &&
              unit_value(a[A_BW].val, UNIT_BANDWIDTH, &s->bw) && s->bw > 0 &&
              unit_value(a[A_LAT].val, UNIT_TIME, &s->lat) &&
              enum_value(a[A_SHARING].val, policies, 4, 1, &pol) &&
              enum_value(a[A_BB_SHARING].val, bb_policies, 2, 0, &bbpol) &&
              enum_value(a[A_TOPOLOGY].val, topologies, 2, 0, &topo);
    s->bb_bw = s->bb_lat = s->limiter = 0;
    ok = ok && (!a[A_BB_BW].val || unit_value(a[A_BB_BW].val, UNIT_BANDWIDTH, &s->bb_bw)) &&
         (!a[A_BB_LAT].val || unit_value(a[A_BB_LAT].val, UNIT_TIME, &s->bb_lat)) &&
         (!a[A_LIMITER].val || unit_value(a[A_LIMITER].val, UNIT_BANDWIDTH, &s->limiter)) &&
         (!a[A_LOOPBACK_BW].val || unit_value(a[A_LOOPBACK_BW].val, UNIT_BANDWIDTH, &lb_bw)) &&
         (!a[A_LOOPBACK_LAT].val || unit_value(a[A_LOOPBACK_LAT].val, UNIT_TIME, &lb_lat));
    /* a backbone or loopback of latency alone would be a link of no bandwidth */
    ok = ok && !(s->bb_lat > 0 && !(s->bb_bw > 0)) && !(lb_lat > 0 && !(lb_bw > 0));
    if (!ok)
        return false;
    s->id = a[A_ID].val;
    s->prefix = a[A_PREFIX].val;
    s->suffix = a[A_SUFFIX].val;
    s->topo_params = a[A_TOPO_PARAMS].val ? a[A_TOPO_PARAMS].val : "";
    s->split = pol == 1 || pol == 2;
    s->bb_shared = bbpol == 0;
    s->topo = topo == 1 ? TOPO_FAT_TREE : TOPO_FLAT;
    s->radicals = read_radicals(a[A_RADICAL].val, &s->nrad);
    return s->radicals != NULL && s->nrad <= SIMGRID_MAX_HOSTS;
}

/* sg_platf_new_cluster_flat: each host, its limiter, its link (split or not), the backbone. */
static void build_flat(struct nat *t, const struct spec *s)
{
    int bb = s->bb_bw > 0 || s->bb_lat > 0
                 ? add_link(t, xasprintf("%s_backbone", s->id), s->bb_bw, s->bb_lat, s->bb_shared)
                 : -1;
    t->bb = bb;
    t->n = s->nrad;
    t->names = xcalloc((size_t)t->n, sizeof *t->names);
    t->up = xcalloc((size_t)t->n, sizeof *t->up);
    t->down = xcalloc((size_t)t->n, sizeof *t->down);
    t->nup = xcalloc((size_t)t->n, sizeof *t->nup);
    for (int h = 0; h < t->n; h++) {
        int r = s->radicals[h], k = 0, up, down;
        t->names[h] = join_num(s->prefix, r, s->suffix);
        int lim = s->limiter > 0
                      ? add_link(t, join_num3(s->id, "_link_", r, "_limiter"), s->limiter, 0, true)
                      : -1;
        if (s->split) {
            up = add_link(t, join_num3(s->id, "_link_", r, "_UP"), s->bw, s->lat, true);
            down = add_link(t, join_num3(s->id, "_link_", r, "_DOWN"), s->bw, s->lat, true);
        } else {   /* created without a policy: SimGrid's default, SHARED */
            up = down = add_link(t, join_num3(s->id, "_link_", r, ""), s->bw, s->lat, true);
        }
        int list[3];   /* the route added: limiter, link UP, backbone */
        if (lim >= 0)
            list[k++] = lim;
        list[k++] = up;
        if (bb >= 0)
            list[k++] = bb;
        t->nup[h] = k;
        for (int i = 0; i < k; i++) {   /* down: the same reversed, UP made DOWN */
            t->up[h][i] = list[i];
            t->down[h][k - 1 - i] = list[i] == up ? down : list[i];
        }
    }
}

/* The flat route q -> p into out (StarZone::get_local_route: a link met twice, once). */
static int route_flat(const struct nat *t, int q, int p, int *out)
{
    int k = 0;
    for (int i = 0; i < t->nup[q]; i++)
        out[k++] = t->up[q][i];
    for (int i = 0; i < t->nup[p]; i++) {
        int l = t->down[p][i], seen = 0;
        for (int j = 0; j < k; j++)
            seen |= out[j] == l;
        if (!seen)
            out[k++] = l;
    }
    return k;
}

/* "L;d1,..;u1,..;c1,.." (FatTreeZone::parse_topo_parameters, plain numbers only). */
static bool read_topo(const char *s, struct nat *t)
{
    int levels, *v[3] = {NULL, NULL, NULL};
    const char *p = strchr(s, ';');
    char head[8];
    if (!p || p - s >= (long)sizeof head)
        return false;
    memcpy(head, s, (size_t)(p - s));
    head[p - s] = '\0';
    if (!small_count(head, &levels) || levels > 16)
        return false;
    for (int k = 0; k < 3; k++) {
        v[k] = xcalloc((size_t)levels, sizeof *v[k]);
        for (int i = 0; i < levels; i++) {
            char num[8];
            const char *q = ++p;
            p += strspn(p, "0123456789");
            char want = i + 1 < levels ? ',' : k < 2 ? ';' : '\0';
            if (*p != want || p - q >= (long)sizeof num)
                goto bad;
            memcpy(num, q, (size_t)(p - q));
            num[p - q] = '\0';
            if (!small_count(num, &v[k][i]) || v[k][i] > SIMGRID_MAX_HOSTS)
                goto bad;
        }
    }
    t->levels = levels;
    t->fdown = v[0];
    t->fup = v[1];
    t->fcount = v[2];
    return true;
bad:
    for (int k = 0; k < 3; k++)
        free(v[k]);
    return false;
}

static void ft_node_init(struct nat *t, int k, int id, int level, int position, int limiter,
                         int nchildren, int nparents)
{
    struct ft_node *nd = &t->nodes[k];
    *nd = (struct ft_node){id, level, position, xcalloc((size_t)t->levels, sizeof(int)), limiter,
                           xmalloc((size_t)(nchildren ? nchildren : 1) * sizeof(int)), nchildren,
                           xmalloc((size_t)(nparents ? nparents : 1) * sizeof(int)), nparents};
    for (int i = 0; i < nchildren; i++)
        nd->children[i] = -1;
    for (int i = 0; i < nparents; i++)
        nd->parents[i] = -1;
}

/* FatTreeZone::generate_labels. */
static void ft_labels(struct nat *t)
{
    int L = t->levels, k = 0;
    int *max = xcalloc((size_t)L, sizeof *max), *cur = xcalloc((size_t)L, sizeof *cur);
    for (int i = 0; i <= L; i++) {
        memset(cur, 0, (size_t)L * sizeof *cur);
        for (int j = 0; j < L; j++)
            max[j] = j + 1 > i ? t->fdown[j] : t->fup[j];
        for (int j = 0; j < t->nodes_by_level[i]; j++) {
            memcpy(t->nodes[k].label, cur, (size_t)L * sizeof *cur);
            for (int pos = 0; pos < L;) {
                if (++cur[pos] >= max[pos]) {
                    cur[pos] = 0;
                    ++pos;
                } else {
                    break;
                }
            }
            k++;
        }
    }
    free(max);
    free(cur);
}

static bool ft_related(const struct nat *t, const struct ft_node *parent, const struct ft_node *child)
{
    if (parent->level != child->level + 1)
        return false;
    for (int i = 0; i < t->levels; i++)
        if (parent->label[i] != child->label[i] && i + 1 != parent->level)
            return false;
    return true;
}

/* FatTreeZone::add_link and connect_node_to_parents, for every node below the top. */
static bool ft_connect(struct nat *t, const struct spec *s)
{
    int unique = 0, first = 0;
    t->ftl = xmalloc(sizeof *t->ftl);
    for (int level = 0; level < t->levels; level++) {
        int parents_at = first + t->nodes_by_level[level];
        for (int k = first; k < parents_at; k++) {
            struct ft_node *node = &t->nodes[k];
            for (int i = 0; i < t->nodes_by_level[level + 1]; i++) {
                struct ft_node *parent = &t->nodes[parents_at + i];
                if (!ft_related(t, parent, node))
                    continue;
                for (int j = 0; j < t->fcount[level]; j++) {
                    long pport = node->label[level] + (long)j * t->fdown[level];
                    long cport = parent->label[level] + (long)j * t->fup[level];
                    if (pport >= parent->nchildren || cport >= node->nparents)
                        return false;   /* out of SimGrid's vectors */
                    char *name = xasprintf("link_from_%d_%d_%d", node->id, parent->id, unique++);
                    int up, down;
                    if (s->split) {
                        up = add_link(t, xasprintf("%s_UP", name), s->bw, s->lat, true);
                        down = add_link(t, xasprintf("%s_DOWN", name), s->bw, s->lat, true);
                        free(name);
                    } else {
                        up = down = add_link(t, name, s->bw, s->lat, true);
                    }
                    if (t->nftl > 0 && (t->nftl & (t->nftl - 1)) == 0)   /* room for 1, 2, 4...: full, double */
                        t->ftl = xrealloc(t->ftl, 2 * (size_t)t->nftl * sizeof *t->ftl);
                    t->ftl[t->nftl] = (struct ft_link){(int)(parent - t->nodes),
                                                       (int)(node - t->nodes), up, down};
                    parent->children[pport] = t->nftl;
                    node->parents[cport] = t->nftl++;
                }
            }
        }
        first = parents_at;
    }
    return true;
}

/* create_fatTree_zone: the processing nodes, then FatTreeZone::build_upper_levels. */
static bool build_fat_tree(struct nat *t, const struct spec *s)
{
    if (!read_topo(s->topo_params, t))
        return false;
    int L = t->levels;
    long tot = 1, all = 0;
    t->nodes_by_level = xcalloc((size_t)L + 1, sizeof *t->nodes_by_level);
    for (int i = 0; i < L && tot <= SIMGRID_MAX_HOSTS; i++)
        tot *= t->fdown[i];
    if (tot > SIMGRID_MAX_HOSTS || tot > s->nrad)   /* SimGrid: too many hosts, or too few radicals */
        return false;
    t->nodes_by_level[0] = (int)tot;
    for (int i = 0; i < L; i++) {
        long in_level = 1;
        for (int j = 0; j <= i && in_level <= 1000000; j++)
            in_level *= t->fup[j];
        for (int j = i + 1; j < L && in_level <= 1000000; j++)
            in_level *= t->fdown[j];
        if (in_level > 1000000)
            return false;
        t->nodes_by_level[i + 1] = (int)in_level;
        all += in_level;
    }
    if (all > 1000000 || (s->limiter > 0 && all > tot))   /* the switches' limiters would take
                                                            the hosts' names */
        return false;
    t->n = (int)tot;
    t->names = xcalloc((size_t)t->n, sizeof *t->names);
    t->nodes = xcalloc((size_t)(tot + all), sizeof *t->nodes);
    for (int i = 0; i < t->n; i++) {
        t->names[i] = join_num(s->prefix, s->radicals[i], s->suffix);
        int lim = s->limiter > 0
                      ? add_link(t, join_num3(s->id, "_link_", i, "_limiter"), s->limiter, 0, true)
                      : -1;
        ft_node_init(t, t->nnodes++, i, 0, i, lim, 0, t->fup[0] * t->fcount[0]);
    }
    long k = 2 * tot;
    for (int i = 0; i < L; i++)
        for (int j = 0; j < t->nodes_by_level[i + 1]; j++) {
            k--;
            int lim = s->limiter > 0
                          ? add_link(t, join_num3(s->id, "_link_", k, "_limiter"), s->limiter, 0, true)
                          : -1;
            ft_node_init(t, t->nnodes++, (int)k, i + 1, j, lim, t->fdown[i] * t->fcount[i],
                         i != L - 1 ? t->fup[i + 1] * t->fcount[i + 1] : 0);
        }
    ft_labels(t);
    /* get_local_route's choice going up, which depends on the level and the destination
       alone: int d = destination->position; d /= each lower level's parents; d %= k */
    t->upchoice = xmalloc((size_t)L * (size_t)t->n * sizeof *t->upchoice);
    for (int level = 0; level < L; level++)
        for (int p = 0; p < t->n; p++) {
            int d = t->nodes[p].position;
            for (int i = 0; i < level; i++)
                d /= t->fup[i];
            t->upchoice[(size_t)level * (size_t)t->n + (size_t)p] =
                d % (t->fup[level] * t->fcount[level]);
        }
    return ft_connect(t, s);
}

static bool ft_in_subtree(const struct nat *t, const struct ft_node *root, const struct ft_node *node)
{
    if (root->level <= node->level)
        return false;
    for (int i = 0; i < node->level; i++)
        if (root->label[i] != node->label[i])
            return false;
    for (int i = root->level; i < t->levels; i++)
        if (root->label[i] != node->label[i])
            return false;
    return true;
}

/* FatTreeZone::get_local_route from host q to host p, line by line, in two halves:
 * up from q until a switch above p (*top), into out (cap entries); the count, or -1
 * where SimGrid would fail or loop. */
static int ft_up(const struct nat *t, int q, int p, int *out, int cap, const struct ft_node **top)
{
    const struct ft_node *destination = &t->nodes[p], *cur = &t->nodes[q];
    int k = 0;
    while (!ft_in_subtree(t, cur, destination)) {
        if (cur->level >= t->levels || k + 2 > cap)
            return -1;
        int d = t->upchoice[(size_t)cur->level * (size_t)t->n + (size_t)p];
        if (cur->parents[d] < 0)
            return -1;
        if (cur->limiter >= 0)
            out[k++] = cur->limiter;
        const struct ft_link *l = &t->ftl[cur->parents[d]];
        out[k++] = l->up_link;
        cur = &t->nodes[l->up_node];
    }
    *top = cur;
    return k;
}

/* Then down from cur to host p, after k links: it reads of host q its position alone. */
static int ft_down(const struct nat *t, int q, const struct ft_node *cur, int p, int *out, int k,
                   int cap)
{
    const struct ft_node *source = &t->nodes[q], *destination = &t->nodes[p];
    while (cur != destination) {
        const struct ft_node *was = cur;
        int d = source->position % t->fcount[cur->level - 1];
        for (int i = d * t->fdown[cur->level - 1]; i < cur->nchildren; i++) {
            /* SimGrid's loop tries each i; those with another remainder do nothing */
            int m = t->fdown[cur->level - 1], want = destination->label[cur->level - 1];
            int r = i % m;
            i += want >= r ? want - r : want - r + m;
            if (want >= m || i >= cur->nchildren)
                break;
            if (cur->children[i] < 0 || k + 2 > cap)
                return -1;
            const struct ft_link *l = &t->ftl[cur->children[i]];
            out[k++] = l->down_link;
            if (cur->limiter >= 0)
                out[k++] = cur->limiter;
            cur = &t->nodes[l->down_node];
        }
        if (cur == was)
            return -1;
    }
    if (cur->limiter >= 0 && k < cap)
        out[k++] = cur->limiter;
    return k;
}

static int route_fat_tree(const struct nat *t, int q, int p, int *out, int cap)
{
    const struct ft_node *top;
    int k = ft_up(t, q, p, out, cap, &top);
    return k < 0 ? -1 : ft_down(t, q, top, p, out, k, cap);
}

/* ---- the cluster, as the helper's answer would give it ---- */

struct named {
    const char *name;
    int host;
};

static int by_bytes(const void *x, const void *y)
{
    return strcmp(((const struct named *)x)->name, ((const struct named *)y)->name);
}

/* The hosts in SimGrid's order (Engine::get_all_hosts: names in byte order). */
static int *byte_order(char **names, int n)
{
    struct named *v = xmalloc((size_t)(n ? n : 1) * sizeof *v);
    int *sorted = xmalloc((size_t)(n ? n : 1) * sizeof *sorted);
    for (int i = 0; i < n; i++)
        v[i] = (struct named){names[i], i};
    qsort(v, (size_t)n, sizeof *v, by_bytes);
    for (int i = 0; i < n; i++)
        sorted[i] = v[i].host;
    free(v);
    return sorted;
}

/* Are two hosts named alike?  (SimGrid refuses; sorted is in byte order.) */
static bool duplicate_names(char **names, const int *sorted, int n)
{
    for (int i = 0; i + 1 < n; i++)
        if (strcmp(names[sorted[i]], names[sorted[i + 1]]) == 0)
            return true;
    return false;
}

/* The whole file, or NULL (not a regular file, or larger than a one-cluster file is). */
static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *text = xmalloc(65536);
    size_t n = fread(text, 1, 65536, fp);
    bool whole = n < 65536 && !ferror(fp);
    fclose(fp);
    if (!whole) {
        free(text);
        return NULL;
    }
    *len = n;
    return text;
}

/* FLAT's per-node sums (flat_sums_make), each pair's time from them (flat_time). */
struct flat_sums {
    double *uplat, *upinv;   /* node a's way up: its latency, size / its bandwidth */
    double *d0, *d1, *dinv;  /* node c's way down without the backbone: its links' latencies, size / the least bandwidth */
    double size;
};

struct simgrid_native {
    struct nat t;
    struct flat_sums fs;    /* FLAT, once host_of is set */
    int *sorted;        /* SimGrid's host order: sorted[i] is a host (creation order) */
    char **names;       /* in that order (borrowed from t) */
    int *host_of;       /* node (the cluster's order) -> its host, from simgrid_native_times */
    uint32_t *wire_id;  /* link -> its number (the order first met), UINT32_MAX: not met yet */
    uint32_t *met, nmet;
    bool numbered;      /* every route's links met */
    int cap;            /* the most links of a route */
};

/* Route q -> p (hosts) into out (nv->cap entries); -1 where SimGrid would fail. */
static int route_hosts(const struct simgrid_native *nv, int q, int p, int *out)
{
    return nv->t.topo == TOPO_FLAT ? route_flat(&nv->t, q, p, out)
                                   : route_fat_tree(&nv->t, q, p, out, nv->cap);
}

/* The links of a route numbered as first met, as the helper numbers them. */
static void meet(struct simgrid_native *nv, const int *route, int len)
{
    for (int x = 0; x < len; x++)
        if (nv->wire_id[route[x]] == UINT32_MAX) {
            nv->wire_id[route[x]] = nv->nmet;
            nv->met[nv->nmet++] = (uint32_t)route[x];
        }
}

/* Route q -> p's record as the helper writes it: SimGrid's latency (the sum in route
 * order from 0), its bandwidth (the least) and its link count. */
static struct route_rec rec_of(const struct nat *t, const int *route, int len)
{
    struct route_rec r = {len, 0, -1};
    double sum = 0;   /* SimGrid's route latency: its links' in route order */
    for (int x = 0; x < len; x++) {
        const struct nlink *lk = &t->links[route[x]];
        sum += lk->lat;
        r.bandwidth = r.bandwidth < 0 || lk->bw < r.bandwidth ? lk->bw : r.bandwidth;
    }
    r.latency = sum;
    return r;
}

struct simgrid_native *simgrid_native_read(const char *path)
{
    size_t tlen;
    char *text = slurp(path, &tlen);
    if (!text)
        return NULL;
    struct attr a[A_COUNT];
    for (int k = 0; k < A_COUNT; k++)
        a[k] = (struct attr){cluster_attr_names[k], NULL};
    struct spec s = {0};
    struct simgrid_native *nv = xcalloc(1, sizeof *nv);
    bool ok = read_file_cluster(text, tlen, a) && read_spec(a, &s);
    if (ok) {
        nv->t.topo = s.topo;
        if (s.topo == TOPO_FLAT)
            build_flat(&nv->t, &s);
        else
            ok = build_fat_tree(&nv->t, &s);
    }
    if (ok) {
        nv->sorted = byte_order(nv->t.names, nv->t.n);
        ok = !duplicate_names(nv->t.names, nv->sorted, nv->t.n);
    }
    free(s.radicals);
    for (int k = 0; k < A_COUNT; k++)
        free(a[k].val);
    free(text);
    if (!ok) {
        simgrid_native_free(nv);
        return NULL;
    }
    int n = nv->t.n, nl = nv->t.nlinks ? nv->t.nlinks : 1;
    nv->names = xmalloc((size_t)n * sizeof *nv->names);
    for (int i = 0; i < n; i++)
        nv->names[i] = nv->t.names[nv->sorted[i]];
    nv->cap = nv->t.topo == TOPO_FLAT ? 6 : 4 * nv->t.levels + 4;
    nv->wire_id = xmalloc((size_t)nl * sizeof *nv->wire_id);
    nv->met = xmalloc((size_t)nl * sizeof *nv->met);
    for (int i = 0; i < nv->t.nlinks; i++)
        nv->wire_id[i] = UINT32_MAX;
    return nv;
}

int *simgrid_native_made(const struct simgrid_native *nv)
{
    int n = nv->t.n, *made = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *made);
    for (int i = 0; i < n; i++)
        made[nv->sorted[i]] = i;
    return made;
}

char *const *simgrid_native_names(const struct simgrid_native *nv, int *n)
{
    *n = nv->t.n;
    return nv->names;
}

void simgrid_native_free(struct simgrid_native *nv)
{
    if (!nv)
        return;
    nat_free(&nv->t);
    free(nv->sorted);
    free(nv->names);
    free(nv->host_of);
    free(nv->wire_id);
    free(nv->met);
    free(nv->fs.uplat);
    free(nv->fs.upinv);
    free(nv->fs.d0);
    free(nv->fs.d1);
    free(nv->fs.dinv);
    free(nv);
}

/*
 * FLAT: a route q -> p (q != p) is q's way up, then p's way down without the
 * backbone (the one link two hosts share; every other link is a host's own: its
 * link, then its limiter, of latency 0), so its latency is q's up sum plus p's
 * link's, plus 0, its bandwidth the least of q's up and p's down, and size / that
 * the larger of size / each (division rounds monotonically): each row from
 * per-node sums, as the helper's answer gives them bit for bit.
 */
/* Node a (the cluster's order) is SimGrid's host order[a]: host_of from it. */
static void number_hosts(struct simgrid_native *nv, const int *order)
{
    nv->host_of = xrealloc(nv->host_of, (size_t)nv->t.n * sizeof *nv->host_of);
    for (int a = 0; a < nv->t.n; a++)
        nv->host_of[a] = nv->sorted[order[a]];
}

static void flat_sums_make(struct simgrid_native *nv, double size)
{
    const struct nat *t = &nv->t;
    struct flat_sums *f = &nv->fs;
    int n = t->n;
    f->size = size;
    f->uplat = xrealloc(f->uplat, (size_t)n * sizeof *f->uplat);
    f->upinv = xrealloc(f->upinv, (size_t)n * sizeof *f->upinv);
    f->dinv = xrealloc(f->dinv, (size_t)n * sizeof *f->dinv);
    free(f->d0);
    free(f->d1);
    f->d0 = xcalloc((size_t)n, sizeof *f->d0);
    f->d1 = xcalloc((size_t)n, sizeof *f->d1);
    for (int a = 0; a < n; a++) {
        int h = nv->host_of[a], nd = 0;
        struct route_rec up = rec_of(t, t->up[h], t->nup[h]);
        double least = INFINITY;
        for (int i = 0; i < t->nup[h]; i++)
            if (t->down[h][i] != t->bb) {
                (nd++ ? f->d1 : f->d0)[a] = t->links[t->down[h][i]].lat;
                least = fmin(least, t->links[t->down[h][i]].bw);
            }
        f->uplat[a] = up.latency;
        f->upinv[a] = size / up.bandwidth;
        f->dinv[a] = size / least;
    }
}

/* A FLAT route's time from its parts, summed as the helper's answer has it. */
static inline double flat_sum(double uplat, double upinv, double d0, double d1, double dinv,
                              double size)
{
    double tm = (uplat + d0) + d1;
    return size > 0 ? tm + (upinv > dinv ? upinv : dinv) : tm;
}

static inline double flat_time(const struct flat_sums *f, int a, int c)
{
    return flat_sum(f->uplat[a], f->upinv[a], f->d0[c], f->d1[c], f->dinv[c], f->size);
}

static void flat_times(struct simgrid_native *nv, double size, double *time, long *bad,
                       simgrid_native_tick tick, void *ctx)
{
    int n = nv->t.n;
    flat_sums_make(nv, size);
    for (int a = 0; a < n; a++) {
        double *row = time + (size_t)a * (size_t)n, worst = 0;
        for (int c = 0; c < n; c++) {
            double tm = flat_time(&nv->fs, a, c);
            row[c] = tm;
            worst = tm > worst ? tm : worst;
        }
        row[a] = 0;
        for (int c = 0; c < n && *bad < 0 && !(worst <= CLUSTER_MAX_TIME); c++)
            if (c != a && !(row[c] <= CLUSTER_MAX_TIME))
                *bad = (long)a * n + c;
        if (tick)
            tick(ctx, (double)(a + 1) / n);
    }
}

/* The rule's time a -> c (nodes): flat_times' entry. */
double simgrid_native_time(const void *ctx, int a, int c)
{
    const struct simgrid_native *nv = ctx;
    return a == c ? 0 : flat_time(&nv->fs, a, c);
}

/* The least and the most of each part of the per-node sums through flat_sum
 * (+ and max round monotonically: every pair's time lies between the two), and
 * the least a chain pays at a node between (its way down and up). */
static void flat_extremes(const struct flat_sums *f, int n, double *lo, double *hi, double *gap)
{
    const double *part[5] = {f->uplat, f->upinv, f->d0, f->d1, f->dinv};
    double least[5], most[5];
    for (int k = 0; k < 5; k++) {
        least[k] = INFINITY;
        most[k] = -INFINITY;
        for (int i = 0; i < n; i++) {
            least[k] = fmin(least[k], part[k][i]);
            most[k] = fmax(most[k], part[k][i]);
        }
    }
    *gap = INFINITY;
    for (int i = 0; i < n; i++)
        *gap = fmin(*gap, (f->d0[i] + f->d1[i]) + f->uplat[i]);
    *lo = flat_sum(least[0], least[1], least[2], least[3], least[4], f->size);
    *hi = flat_sum(most[0], most[1], most[2], most[3], most[4], f->size);
    for (int k = 0; k < 5; k++)
        for (int i = 0; i < n; i++)
            if (isnan(part[k][i]))   /* fmin and fmax pass over it */
                *lo = *hi = NAN;
}

/*
 * FLAT without the n*n times: false unless every pair's time lies in
 * [DBL_MIN, CLUSTER_MAX_TIME] (cluster_finish's checks and the tiny-is-zero rule
 * then change nothing).  *direct: no chain beats a direct route.  A chain a -> i
 * -> c pays uplat[a] + (d0[i] + d1[i] + uplat[i]) + d0[c] + d1[c] and two maxima
 * of which the first is >= upinv[a] and the second >= dinv[c]: the direct time
 * plus node i's gap, >= the least gap.  Each time is at most 4 roundings from its
 * exact sum (a relative error under 2^-50), a chain's sum one more: a least gap
 * of 2^-40 of the largest time leaves the chain the longer in doubles too.
 */
bool simgrid_native_by_rule(struct simgrid_native *nv, const int *order, double size, bool *direct)
{
    int n = nv->t.n;
    if (nv->t.topo != TOPO_FLAT || n < 2)
        return false;
    number_hosts(nv, order);
    flat_sums_make(nv, size);
    double lo, hi, gap;
    flat_extremes(&nv->fs, n, &lo, &hi, &gap);
    *direct = gap >= ldexp(hi, -40);
    return lo >= DBL_MIN && hi <= CLUSTER_MAX_TIME;
}

/* FLAT's links in the order first met: row 0's routes meet every host's way down,
 * and each other row's first route its host's way up; the rest meet nothing new. */
static void flat_number(struct simgrid_native *nv)
{
    int n = nv->t.n, route[6];
    for (int a = 0; a < n; a++)
        for (int b = 0; b < (a == 0 ? n : 1); b++)
            if (a != b)
                meet(nv, route, route_flat(&nv->t, nv->sorted[a], nv->sorted[b], route));
    nv->numbered = true;
}

/*
 * FAT_TREE's ways kept.  Down: from a switch reached going up (its level says how
 * many links the way up took, every node having a limiter or none) to host p, for
 * sources whose positions leave the same remainders by fcount below that level (all
 * that ft_down reads of them); down[at[...]] is the way's length (-1: SimGrid fails)
 * then its links, at[] -1 when not yet computed, len[] the length again (-2: not yet;
 * a byte: most routes need no more, and the bytes stay in the caches).  Up, for the row of one source: the
 * way up ft_up takes depends on p only through the level it stops at (the first
 * whose switches' labels from there up are p's: a parent's label is its child's but
 * at the child's level) and upchoice below it, p's class ucls; by class, its length
 * uk (-1: fails), top utop, links ulinks and where the ways down from its top begin
 * for this source ue, valid when ustamp is this row's gen.
 */
struct ft_kept {
    long *base;       /* by level: where its switches' entries begin */
    int *first;       /* by level: its first node */
    long *keys;       /* by level: the sources' classes */
    int *at, *down, ndown, capdown;
    signed char *len;
    int *label;       /* n * levels: the hosts' labels */
    long *ubase;      /* by level: where its classes begin; NULL: no ways up kept */
    int *ucls, *ustamp, *uk, *utop, *ulinks, gen;
    long *ue;
};

/* The ways kept for t, or false when the ways down would take more than 2^20 entries
 * (the ways up are kept up to 2^16 classes); ft_kept_free after either. */
static bool ft_kept_init(const struct nat *t, struct ft_kept *w)
{
    int L = t->levels, n = t->n;
    *w = (struct ft_kept){xcalloc((size_t)L + 2, sizeof(long)), xcalloc((size_t)L + 1, sizeof(int)),
                          xcalloc((size_t)L + 1, sizeof(long)), NULL, NULL, 0, 0, NULL, NULL,
                          NULL, NULL, NULL, NULL, NULL, NULL, 1, NULL};
    long total = 0, keys = 1, up = 0, classes = 1;
    int first = t->n;
    for (int h = 1; h <= L && total <= 1L << 20; h++) {
        keys *= t->fcount[h - 1];
        w->base[h] = total;
        w->first[h] = first;
        w->keys[h] = keys;
        first += t->nodes_by_level[h];
        total += keys > 1L << 20 ? 1L << 21 : (long)t->nodes_by_level[h] * keys * n;
    }
    if (total > 1L << 20)
        return false;
    w->at = xmalloc((size_t)(total ? total : 1) * sizeof *w->at);
    for (long i = 0; i < total; i++)
        w->at[i] = -1;
    w->len = xmalloc((size_t)(total ? total : 1));
    memset(w->len, -2, (size_t)total);
    w->ubase = xcalloc((size_t)L + 1, sizeof *w->ubase);
    for (int h = 1; h <= L && up <= 1L << 16; h++) {   /* classes of h levels: prod of choices */
        classes *= (long)t->fup[h - 1] * t->fcount[h - 1];
        w->ubase[h] = up;
        up += classes;
    }
    if (up > 1L << 16) {
        free(w->ubase);
        w->ubase = NULL;
        return true;
    }
    w->label = xmalloc((size_t)n * (size_t)L * sizeof *w->label);
    w->ucls = xcalloc((size_t)(L + 1) * (size_t)n, sizeof *w->ucls);
    for (int p = 0; p < n; p++) {
        memcpy(w->label + (size_t)p * (size_t)L, t->nodes[p].label, (size_t)L * sizeof(int));
        long c = 0, mult = 1;
        for (int h = 1; h <= L; h++) {
            c += (long)t->upchoice[(size_t)(h - 1) * (size_t)n + (size_t)p] * mult;
            mult *= (long)t->fup[h - 1] * t->fcount[h - 1];
            w->ucls[(size_t)h * (size_t)n + (size_t)p] = (int)c;
        }
    }
    w->ustamp = xcalloc((size_t)up, sizeof *w->ustamp);
    w->uk = xmalloc((size_t)up * sizeof *w->uk);
    w->utop = xmalloc((size_t)up * sizeof *w->utop);
    w->ulinks = xmalloc((size_t)up * 2 * (size_t)L * sizeof *w->ulinks);
    w->ue = xmalloc((size_t)up * sizeof *w->ue);
    return true;
}

static void ft_kept_free(struct ft_kept *w)
{
    free(w->base);
    free(w->first);
    free(w->keys);
    free(w->at);
    free(w->down);
    free(w->len);
    free(w->label);
    free(w->ubase);
    free(w->ucls);
    free(w->ustamp);
    free(w->uk);
    free(w->utop);
    free(w->ulinks);
    free(w->ue);
}

/* ft_up through the ways kept for this row (its links in out when whole or *fresh:
 * computed now); -1 also where the level ft_up stops at is not the one its labels say
 * (then the helper reads the file).  Inline: it runs once a route. */
static inline int ft_up_kept(const struct nat *t, struct ft_kept *w, const long *key, int q, int p,
                      int *out, int cap, bool whole, const struct ft_node **top, long *e, bool *fresh)
{
    *fresh = true;
    if (!w->ubase) {
        int k = ft_up(t, q, p, out, cap, top), h = k < 0 ? 0 : (*top)->level;
        *e = k < 0 ? 0 : w->base[h] + (((long)(*top - t->nodes) - w->first[h]) * w->keys[h] + key[h]) * t->n + p;
        return k;
    }
    int L = t->levels, h = 1;
    const int *lq = w->label + (size_t)q * (size_t)L, *lp = w->label + (size_t)p * (size_t)L;
    for (int i = L - 1; i >= 1 && h == 1; i--)
        h = lq[i] != lp[i] ? i + 1 : 1;
    long c = w->ubase[h] + w->ucls[(size_t)h * (size_t)t->n + (size_t)p];
    int *links = w->ulinks + c * 2 * L;
    if (w->ustamp[c] != w->gen) {
        int k = ft_up(t, q, p, out, cap, top);
        w->ustamp[c] = w->gen;
        w->uk[c] = k >= 0 && (*top)->level != h ? -1 : k;
        w->utop[c] = k >= 0 ? (int)(*top - t->nodes) : -1;
        w->ue[c] = w->uk[c] < 0 ? 0 : w->base[h] + ((w->utop[c] - w->first[h]) * w->keys[h] + key[h]) * t->n;
        for (int x = 0; x < w->uk[c]; x++)
            links[x] = out[x];
        *e = w->ue[c] + p;
        return w->uk[c];
    }
    *fresh = false;
    *e = w->ue[c] + p;
    *top = w->utop[c] >= 0 ? &t->nodes[w->utop[c]] : NULL;
    for (int x = 0; whole && x < w->uk[c]; x++)
        out[x] = links[x];
    return w->uk[c];
}

/* Route q -> p through the ways kept, as route_fat_tree, its links in out when whole
 * or *fresh: either half computed now (a route of halves met before meets no new link);
 * key[h]: q's class below level h. */
static int ft_route_kept(const struct nat *t, struct ft_kept *w, const long *key, int q, int p,
                         int *out, int cap, bool whole, bool *fresh)
{
    const struct ft_node *top;
    long e;
    int k = ft_up_kept(t, w, key, q, p, out, cap, whole, &top, &e, fresh);
    if (k < 0)
        return -1;
    if (w->len[e] != -2 && !whole && !*fresh)   /* a route of halves met before */
        return w->len[e] < 0 ? -1 : k + w->len[e];
    if (w->at[e] < 0 && !*fresh && !whole)   /* the way up's links, kept */
        ft_up_kept(t, w, key, q, p, out, cap, true, &top, &e, fresh);
    bool down_now = w->at[e] < 0;
    if (down_now) {
        *fresh = true;
        int len = ft_down(t, q, top, p, out, k, cap);
        if (w->ndown + 1 + cap > w->capdown) {
            w->capdown = 2 * (w->ndown + 1 + cap);
            w->down = xrealloc(w->down, (size_t)w->capdown * sizeof *w->down);
        }
        w->at[e] = w->ndown;
        w->len[e] = (signed char)(len < 0 ? -1 : len - k);
        w->down[w->ndown++] = len < 0 ? -1 : len - k;
        for (int x = k; x < len; x++)
            w->down[w->ndown++] = out[x];
    }
    const int *way = w->down + w->at[e];
    if (way[0] < 0)
        return -1;
    for (int x = 1; (whole || *fresh) && !down_now && x <= way[0]; x++)
        out[k + x - 1] = way[x];
    return k + way[0];
}

/* Host q's classes: key[h] for each level h, the remainders of its position by the
 * fcount of the levels below h (mixed radix). */
static void ft_keys(const struct nat *t, int q, long *key)
{
    int pos = t->nodes[q].position;
    long mult = 1;
    key[0] = 0;
    for (int l = 0; l < t->levels; l++) {
        key[l + 1] = key[l] + (long)(pos % t->fcount[l]) * mult;
        mult *= t->fcount[l];
    }
}

/* Do the tree's links share one bandwidth and latency, and its limiters (on every node or
 * none) another of latency 0?  (As build_fat_tree makes them.)  Then a route, (limiter,
 * link) up each level, (link, limiter) down, a limiter at the end, has the latency and
 * bandwidth of any other route of its length. */
static bool ft_uniform(const struct nat *t)
{
    bool ok = t->nftl > 0;
    const struct nlink *l0 = ok ? &t->links[t->ftl[0].up_link] : NULL, *m0 = NULL;
    for (int i = 0; ok && i < t->nftl; i++) {
        const struct nlink *u = &t->links[t->ftl[i].up_link], *d = &t->links[t->ftl[i].down_link];
        ok = u->bw == l0->bw && u->lat == l0->lat && d->bw == l0->bw && d->lat == l0->lat;
    }
    for (int i = 0; ok && i < t->nnodes; i++) {
        const struct nlink *m = t->nodes[i].limiter >= 0 ? &t->links[t->nodes[i].limiter] : NULL;
        m0 = i == 0 ? m : m0;
        ok = (m == NULL) == (m0 == NULL) && (!m || (m->bw == m0->bw && m->lat == 0));
    }
    return ok;
}

/* FAT_TREE: every route, row by row in SimGrid's order, its links numbered as met (until
 * every link is); false where SimGrid would fail on one. */
static bool fat_tree_times(struct simgrid_native *nv, const int *node_of, double size,
                           double *time, long *bad, simgrid_native_tick tick, void *ctx)
{
    const struct nat *t = &nv->t;
    int n = t->n, route[4 * 16 + 4];
    struct ft_kept w;
    bool kept = ft_kept_init(t, &w), ok = true, uniform = ft_uniform(t);
    long key[16 + 1];
    double by_len[4 * 16 + 5];   /* uniform: the time of a route by its length, once met */
    for (int i = 0; i <= nv->cap; i++)
        by_len[i] = -1;
    for (int a = 0; a < n && ok; a++) {
        int q = nv->sorted[a];
        double *row = time + (size_t)node_of[q] * (size_t)n;
        if (kept)
            ft_keys(t, q, key);
        w.gen++;
        for (int b = 0; b < n && ok; b++) {
            int p = nv->sorted[b];
            if (a == b)
                continue;
            bool fresh = true;
            int len = kept ? ft_route_kept(t, &w, key, q, p, route, nv->cap, !uniform, &fresh)
                           : route_fat_tree(t, q, p, route, nv->cap);
            ok = len > 0;
            if (!ok)
                break;
            if (fresh && nv->nmet < (uint32_t)t->nlinks)
                meet(nv, route, len);
            double tm = uniform ? by_len[len] : -1;
            if (tm < 0 && !fresh)   /* a length not met yet: the route's links, again */
                len = route_fat_tree(t, q, p, route, nv->cap);
            if (tm < 0) {
                struct route_rec r = rec_of(t, route, len);
                tm = timing_route(r.latency, size, r.bandwidth);
                by_len[len] = tm;
            }
            row[node_of[p]] = tm;
            long k = (long)node_of[q] * n + node_of[p];
            if (!(tm <= CLUSTER_MAX_TIME) && (*bad < 0 || k < *bad))
                *bad = k;
        }
        row[node_of[q]] = 0;
        if (tick)
            tick(ctx, (double)(a + 1) / n);
    }
    ft_kept_free(&w);
    nv->numbered = ok;
    return ok;
}

bool simgrid_native_times(struct simgrid_native *nv, const int *order, double size, double *time,
                          long *bad, simgrid_native_tick tick, void *ctx)
{
    int n = nv->t.n;
    int *node_of = xmalloc((size_t)n * sizeof *node_of);
    number_hosts(nv, order);
    for (int a = 0; a < n; a++)
        node_of[nv->host_of[a]] = a;
    *bad = -1;
    bool ok = true;
    if (nv->t.topo == TOPO_FLAT)
        flat_times(nv, size, time, bad, tick, ctx);
    else
        ok = fat_tree_times(nv, node_of, size, time, bad, tick, ctx);
    free(node_of);
    return ok;
}

struct route_rec simgrid_native_rec(const struct simgrid_native *nv, int a, int c)
{
    int route[4 * 16 + 4];
    int len = route_hosts(nv, nv->host_of[a], nv->host_of[c], route);
    return rec_of(&nv->t, route, len);
}

/* The platform's rule: route q -> p (nodes) by the reader's hosts, in its numbering. */
static int rule_route(const void *ctx, int q, int p, uint32_t *out)
{
    const struct simgrid_native *nv = ctx;
    int route[4 * 16 + 4];
    if (q == p)
        return 0;
    int len = route_hosts(nv, nv->host_of[q], nv->host_of[p], route);
    for (int x = 0; x < len; x++)
        out[x] = nv->wire_id[route[x]];
    return len;
}

static void rule_free(void *ctx)
{
    simgrid_native_free(ctx);
}

static const struct platform_rule native_rule = {rule_route, rule_free};

struct platform *simgrid_native_platform(struct simgrid_native *nv)
{
    if (!nv->numbered)
        flat_number(nv);
    struct platform *pl = xcalloc(1, sizeof *pl);
    pl->n = nv->t.n;
    pl->nlinks = (int)nv->nmet;
    pl->link = xcalloc(nv->nmet ? nv->nmet : 1, sizeof *pl->link);
    for (uint32_t i = 0; i < nv->nmet; i++) {
        const struct nlink *lk = &nv->t.links[nv->met[i]];
        pl->link[i] = (struct platform_link){lk->name, lk->bw, lk->lat, lk->shared};
    }
    pl->names_lent = true;   /* nv goes with pl */
    pl->rule = &native_rule;
    pl->rule_ctx = nv;
    pl->route_max = nv->cap;
    return pl;
}
