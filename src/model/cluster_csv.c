/*
 * model/cluster_csv.c - cluster files: CSV in (through libcsv) and CSV out (docs/formats.md).
 *
 * The reader strips comment lines itself, feeds the other lines to libcsv
 * one at a time and remembers the line on which every record starts, so each
 * problem names the true file line and the column.  It keeps going after an
 * error, so that one run lists every problem (one diag line each), and it
 * returns a cluster only when there were none; cluster_finish() then does the
 * checks that every front door shares.  Nearly every line has no quote:
 * on the fast path (model/cluster_csv_fast.h, support/fastpath.h) such a line is split by hand,
 * exactly as libcsv would split it, and its short decimals are read
 * without strtod.  The writer produces files that this reader loads back to
 * the same model, and saving goes through support/atomic.h (a temporary file,
 * fsync, rename), so a reader never sees half a file.  docs/formats.md
 * describes the format for users.
 *
 * Numbers are read and written in the C locale whatever the program's
 * locale is (curses front ends call setlocale()).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "support/atomic.h"
#include "model/cluster.h"
#include "model/targets.h"
#include "model/cluster_csv_fast.h"
#include "model/csvread.h"
#include "model/csvread_fast.h"
#include "support/csvfield.h"
#include "support/fastpath.h"
#include "model/nameidx.h"
#include "support/hugemem.h"
#include "support/numfmt.h"
#include "model/timing.h"

#include <csv.h>
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define MAX_NODES CLUSTER_MAX_NODES   /* nodes in one cluster, `count` expansion included */
#define MAX_MATRIX CLUSTER_MAX_MATRIX_NODES   /* nodes in a latency matrix (n*n doubles) */
#define CSV_OPTIONS (CSV_STRICT | CSV_STRICT_FINI)

/* Columns of node tables and platform graphs; `send` belongs to both. */
enum col_id {
    COL_NAME, COL_SEND, COL_RECV, COL_COUNT, COL_CLASS, COL_GROUP,
    COL_FROM, COL_TO, COL_TIME, COL_BIDIR, COL_ALPHA, COL_BETA,
    COL_NCOLS
};

static const char *const col_names[COL_NCOLS] = {
    "name", "send", "recv", "count", "class", "group",
    "from", "to", "time", "bidirectional", "alpha", "beta",
};

#define NODE_COLS ((1u << COL_NAME) | (1u << COL_SEND) | (1u << COL_RECV) | \
                   (1u << COL_COUNT) | (1u << COL_CLASS) | (1u << COL_GROUP))
#define GRAPH_COLS ((1u << COL_FROM) | (1u << COL_TO) | (1u << COL_TIME) | \
                    (1u << COL_SEND) | (1u << COL_BIDIR) | (1u << COL_ALPHA) | (1u << COL_BETA))

/* Edge (from, to) -> edge index, for duplicate edges. Key 0 is empty. */
struct pair_index {
    uint64_t *key;
    int *val;
    size_t cap;
    size_t len;
};

/* A `# key: value` parameter; line is 0 when the file does not give it. */
struct param {
    int line;
    double num;
    char *str;
};

struct loader {
    const char *file;       /* name used in messages */
    struct diag *d;
    int errors;             /* d->errors when loading started */
    locale_t c_locale;      /* (locale_t)0 if it could not be made */

    /* Feeding libcsv: the line being fed, the line where the record being
     * assembled started, and whether one is being assembled. */
    int cur_line;
    int rec_line;
    bool pending;
    struct csv_record rec;  /* the record's fields (model/cluster_csv_fast.h) */
    bool fast;              /* FAST_PATH: plain lines by hand, short decimals without strtod */

    /* The header row. */
    int header_line;        /* 0 until the header was read */
    bool too_many;          /* "too many nodes" was said (it is said once) */
    bool rows_ok;           /* header usable: data rows are checked */
    int ncols;              /* fields in every row */
    int col[COL_NCOLS];     /* where each known column is, or -1 */
    struct cluster *c;      /* made when the header decides the kind */
    struct nameidx names;   /* the nodes' names, while loading */
    const char *ahead;      /* the next line whose name slot to prefetch */
    size_t done, total;     /* bytes before the line being read, bytes in all */

    /* Latency matrix: node of each column (-1: a reserved column), where
     * the reserved columns are (-1: absent; CLUSTER_MATRIX_SEND .. CLUSTER_MATRIX_GROUP),
     * and the line of each node's row (0: none yet). */
    int *mcol;
    int mres[CLUSTER_MATRIX_WORDS];
    int *row_line;

    /* Platform graph: the per-node multi-port send time and where it was
     * given (0: not given), and the edges seen. */
    double *node_send;
    int *node_send_line;
    int node_send_cap;
    struct pair_index edges;

    struct param latency, unit, source, name, targets;
    struct cluster_segment *segments;   /* `# segment:` lines, as read (in order) */
    int nsegments;
    int time_unit, time_unit_line;   /* `# unit: us` (enum time_unit) and its line */
    char *description;      /* the `# description:` lines so far, joined by '\n' */
    size_t desc_len, desc_cap;
};

/* ---- small helpers ---- */

static bool is_blank_char(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\f' || ch == '\v';
}

static bool is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

static bool is_key_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || is_digit(ch) ||
           ch == '_' || ch == '-';
}

static char *str_ndup(const char *s, size_t n)
{
    char *t = xmalloc(n + 1);
    if (n)
        memcpy(t, s, n);
    t[n] = '\0';
    return t;
}

static uint64_t hash_u64(uint64_t x)
{
    x ^= x >> 33;                          /* splitmix64's finalizer */
    x *= 0xff51afd7ed558ccdu;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53u;
    x ^= x >> 33;
    return x;
}

static uint64_t pair_key(int from, int to)
{
    return ((uint64_t)(uint32_t)from << 32 | (uint32_t)to) + 1;
}

static size_t pair_slot(const uint64_t *keys, size_t cap, uint64_t key)
{
    size_t mask = cap - 1, i = hash_u64(key) & mask;
    while (keys[i] != 0 && keys[i] != key)
        i = (i + 1) & mask;
    return i;
}

/* The edge index stored for (from, to), or -1. */
static int pair_find(const struct pair_index *px, int from, int to)
{
    if (px->cap == 0)
        return -1;
    size_t i = pair_slot(px->key, px->cap, pair_key(from, to));
    return px->key[i] ? px->val[i] : -1;
}

static void pair_insert(struct pair_index *px, int from, int to, int val)
{
    if (2 * (px->len + 1) > px->cap) {
        size_t cap = px->cap ? 2 * px->cap : 64;
        uint64_t *key = xcalloc(cap, sizeof *key);
        int *v = xmalloc(cap * sizeof *v);
        for (size_t i = 0; i < px->cap; i++)
            if (px->key[i]) {
                size_t j = pair_slot(key, cap, px->key[i]);
                key[j] = px->key[i];
                v[j] = px->val[i];
            }
        free(px->key);
        free(px->val);
        px->key = key;
        px->val = v;
        px->cap = cap;
    }
    uint64_t k = pair_key(from, to);
    size_t i = pair_slot(px->key, px->cap, k);
    px->key[i] = k;
    px->val[i] = val;
    px->len++;
}

/* ---- numbers ---- */

/* The numbers of docs/formats.md (model/csvread.h: the syntax every CSV reader of hetcast shares). */
static bool number_syntax(const char *s)
{
    return csvread_number_syntax(s);
}

/* strtod in the C locale (the short decimals without it, on the fast path);
 * s has passed number_syntax(). */
static double c_strtod(const struct loader *ld, const char *s, int *err)
{
    locale_t loc = ld->c_locale;
    double fast;
    if (ld->fast && csvread_fast_decimal(s, &fast)) {
        *err = 0;
        return fast;
    }
    locale_t old = loc ? uselocale(loc) : (locale_t)0;
    errno = 0;
    double v = strtod(s, NULL);
    *err = errno;
    if (loc)
        uselocale(old);
    return v;
}

/*
 * Reads field s of column col as a time: a number >= 0 (> 0 if positive).
 * Any problem is one error on line; returns false then.
 */
static bool get_time(struct loader *ld, int line, const char *col, const char *s,
                     bool positive, double *out)
{
    char buf[64];
    if (*s == '\0') {
        diag_error(ld->d, ld->file, line, col, "missing value (a number is needed)");
        return false;
    }
    int err = 0;
    double v;
    if (!(ld->fast && csvread_fast_decimal(s, &v))) {   /* the short decimals: one pass */
        if (!number_syntax(s)) {
            diag_error(ld->d, ld->file, line, col, "\"%s\" is not a number", SHOWN(s, buf));
            return false;
        }
        v = c_strtod(ld, s, &err);
    }
    if (!isfinite(v) || (err == ERANGE && fabs(v) == HUGE_VAL) || fabs(v) > CLUSTER_MAX_TIME) {
        diag_error(ld->d, ld->file, line, col, "\"%s\" is out of range (times are at most %g)",
                   SHOWN(s, buf), CLUSTER_MAX_TIME);
        return false;
    }
    if (err == ERANGE || fabs(v) < DBL_MIN)
        v = 0;      /* too small for a double (1e-400): it reads as 0 */
    if (v < 0) {
        diag_error(ld->d, ld->file, line, col, "\"%s\" is negative (times cannot be negative)",
                   SHOWN(s, buf));
        return false;
    }
    if (positive && v == 0) {
        diag_error(ld->d, ld->file, line, col, "\"%s\" must be greater than 0", SHOWN(s, buf));
        return false;
    }
    *out = v;
    return true;
}

/* Reads a `count` cell: empty means 1, otherwise an integer 1..MAX_NODES. */
static bool get_count(struct loader *ld, int line, const char *s, int *out)
{
    char buf[64];
    if (*s == '\0') {
        *out = 1;
        return true;
    }
    int err;
    double v = number_syntax(s) ? c_strtod(ld, s, &err) : NAN;
    if (!(v >= 1) || v != floor(v)) {
        diag_error(ld->d, ld->file, line, "count", "\"%s\" is not a positive integer",
                   SHOWN(s, buf));
        return false;
    }
    if (v > MAX_NODES) {
        diag_error(ld->d, ld->file, line, "count", "\"%s\" is too large (at most %d nodes)",
                   SHOWN(s, buf), MAX_NODES);
        return false;
    }
    *out = (int)v;
    return true;
}

/* ---- comment lines and parameters ---- */

static void set_param_str(struct loader *ld, int line, const char *key, struct param *p,
                          const char *value)
{
    if (p->line) {
        diag_error(ld->d, ld->file, line, key, "given twice (first on line %d)", p->line);
        return;
    }
    if (*value == '\0') {
        diag_error(ld->d, ld->file, line, key, "missing value");
        return;
    }
    p->line = line;
    p->str = xstrdup(value);
}

static void set_param_num(struct loader *ld, int line, const char *key, struct param *p,
                          const char *value)
{
    if (p->line) {
        diag_error(ld->d, ld->file, line, key, "given twice (first on line %d)", p->line);
        return;
    }
    if (get_time(ld, line, key, value, false, &p->num))
        p->line = line;
}

/*
 * `# unit: WORD`, `# unit: NUMBER` or `# unit: NUMBER WORD`: the clock's unit
 * (s, ms, us, ns or none) and a latency matrix's time of one distance unit.
 */
static void unit_param(struct loader *ld, int line, const char *value)
{
    const char *sp = strchr(value, ' ');
    const char *word = sp ? sp + 1 + strspn(sp + 1, " ") : value;
    char *num = sp ? str_ndup(value, (size_t)(sp - value)) : NULL;
    int u = time_unit_word(word);
    if (!sp && u < 0 && (isdigit((unsigned char)*value) || *value == '.' || *value == '-' ||
                         *value == '+')) {
        set_param_num(ld, line, "unit", &ld->unit, value);   /* a matrix's number alone */
        return;
    }
    if (u < 0) {
        char buf[64];
        diag_error(ld->d, ld->file, line, "unit", "\"%s\" is not a unit of time: s, ms, us, ns "
                   "or none (the papers' abstract units), after a latency matrix's number if "
                   "any (# unit: 0.5 ms)", SHOWN(word, buf));
    } else if (ld->time_unit_line) {
        diag_error(ld->d, ld->file, line, "unit", "given twice (first on line %d)",
                   ld->time_unit_line);
    } else {
        ld->time_unit = u;
        ld->time_unit_line = line;
    }
    if (num)
        set_param_num(ld, line, "unit", &ld->unit, num);
    free(num);
}

/*
 * `# segment: LO..HI latency=L per-byte=G` (model/cluster.h): sizes in bytes,
 * whole numbers, LO <= HI, after the previous segment's HI; L and G times
 * (G per byte).  Each problem is one error on line.
 */
static void segment_param(struct loader *ld, int line, const char *value)
{
    char buf[64];
    const char *want = "expected LO..HI latency=L per-byte=G (sizes in bytes: "
                       "# segment: 0..4096 latency=0.2 per-byte=0.0001)";
    char *v = xstrdup(value), *save = NULL;
    char *range = strtok_r(v, " \t", &save);
    const char *dots = range ? strstr(range, "..") : NULL;
    double lo = -1, hi = -1, lat = -1, per = -1;
    bool ok = dots != NULL;
    if (ok) {
        char *end = NULL;   /* whole numbers of digits (strtoull saturates: refused below) */
        lo = isdigit((unsigned char)range[0]) ? (double)strtoull(range, &end, 10) : -1;
        ok = lo >= 0 && end == dots;
        hi = ok && isdigit((unsigned char)dots[2]) ? (double)strtoull(dots + 2, &end, 10) : -1;
        ok = ok && hi >= 0 && *end == '\0';
    }
    if (!ok) {
        diag_error(ld->d, ld->file, line, "segment", "\"%s\" is not a range of sizes: %s",
                   SHOWN(range ? range : "", buf), want);
        goto bad;
    }
    if (hi < lo || hi > CLUSTER_MAX_SEGMENT_BYTES || lo > CLUSTER_MAX_SEGMENT_BYTES) {
        diag_error(ld->d, ld->file, line, "segment", "%s: %s", SHOWN(range, buf),
                   hi < lo ? "the range ends before it starts"
                           : "sizes are at most 2^53 bytes");
        goto bad;
    }
    for (char *kv; (kv = strtok_r(NULL, " \t", &save)) != NULL;) {
        char *eq = strchr(kv, '=');
        double *slot = NULL;
        if (eq) {
            *eq = '\0';
            slot = strcasecmp(kv, "latency") == 0    ? &lat
                   : strcasecmp(kv, "per-byte") == 0 ? &per
                                                     : NULL;
        }
        if (!slot) {
            diag_error(ld->d, ld->file, line, "segment", "\"%s\" is not latency=L or "
                       "per-byte=G: %s", SHOWN(kv, buf), want);
            goto bad;
        }
        if (*slot >= 0) {
            diag_error(ld->d, ld->file, line, "segment", "%s given twice", kv);
            goto bad;
        }
        if (!get_time(ld, line, kv, eq + 1, false, slot))
            goto bad;
    }
    if (lat < 0 || per < 0) {
        diag_error(ld->d, ld->file, line, "segment", "%s missing: %s",
                   lat < 0 ? "latency=L" : "per-byte=G", want);
        goto bad;
    }
    if (ld->nsegments > 0 && lo <= ld->segments[ld->nsegments - 1].hi) {
        const struct cluster_segment *p = &ld->segments[ld->nsegments - 1];
        diag_error(ld->d, ld->file, line, "segment", "%s does not start after the segment of "
                   "line %d (%.0f..%.0f): segments go up in size without overlap",
                   SHOWN(range, buf), p->line, p->lo, p->hi);
        goto bad;
    }
    if (ld->nsegments == CLUSTER_MAX_SEGMENTS) {
        diag_error(ld->d, ld->file, line, "segment", "more than %d segments",
                   CLUSTER_MAX_SEGMENTS);
        goto bad;
    }
    if (!ld->segments)
        ld->segments = xmalloc(CLUSTER_MAX_SEGMENTS * sizeof *ld->segments);
    ld->segments[ld->nsegments++] = (struct cluster_segment){lo, hi, lat, per, line};
bad:
    free(v);
}

/*
 * A line starting with '#' (s, n bytes, without its line end).  It sets a
 * parameter when it reads `# key: value` -- key one word of letters, digits,
 * '_' or '-', the colon right after it and then a blank or the line end --
 * and is a plain comment otherwise.
 */
static void comment_line(struct loader *ld, int line, const char *s, size_t n)
{
    size_t i = 1;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    size_t k0 = i;
    while (i < n && is_key_char(s[i]))
        i++;
    if (i == k0 || i >= n || s[i] != ':' || (i + 1 < n && s[i + 1] != ' ' && s[i + 1] != '\t'))
        return;
    size_t k1 = i++;
    char *key = str_ndup(s + k0, k1 - k0);
    /* A value is one line of text: control characters read as blanks (as the
     * writer writes them), then blanks around it go. */
    char *value = str_ndup(s + i, n - i);
    size_t a = 0, b = n - i;
    for (size_t j = 0; j < b; j++)
        if ((unsigned char)value[j] < 0x20)
            value[j] = ' ';
    while (a < b && value[a] == ' ')
        a++;
    while (b > a && value[b - 1] == ' ')
        b--;
    memmove(value, value + a, b - a);
    value[b - a] = '\0';
    if (strcasecmp(key, "name") == 0) {
        set_param_str(ld, line, "name", &ld->name, value);
    } else if (strcasecmp(key, "source") == 0) {
        set_param_str(ld, line, "source", &ld->source, value);
    } else if (strcasecmp(key, "targets") == 0) {
        set_param_str(ld, line, "targets", &ld->targets, value);
    } else if (strcasecmp(key, "latency") == 0) {
        set_param_num(ld, line, "latency", &ld->latency, value);
    } else if (strcasecmp(key, "unit") == 0) {
        unit_param(ld, line, value);
    } else if (strcasecmp(key, "segment") == 0) {
        segment_param(ld, line, value);
    } else if (strcasecmp(key, "description") == 0) {
        /* Each `# description:` line adds one line to the description; the
         * buffer doubles, so a description of many lines costs O(its length). */
        size_t vlen = strlen(value), sep = ld->description != NULL;
        if (ld->desc_len + sep + vlen + 1 > ld->desc_cap) {
            size_t cap = ld->desc_cap ? ld->desc_cap : 64;
            while (ld->desc_len + sep + vlen + 1 > cap)
                cap *= 2;
            ld->description = xrealloc(ld->description, cap);
            ld->desc_cap = cap;
        }
        if (sep)
            ld->description[ld->desc_len++] = '\n';
        memcpy(ld->description + ld->desc_len, value, vlen + 1);
        ld->desc_len += vlen;
    } else {
        char buf[64];
        diag_warn(ld->d, ld->file, line, SHOWN(key, buf),
                  "unknown parameter, ignored (known: name, description, source, targets, latency, unit, "
                  "segment)");
    }
    free(key);
    free(value);
}

/* ---- the header row ---- */

static int col_lookup(const char *name)
{
    for (int i = 0; i < COL_NCOLS; i++)
        if (strcasecmp(name, col_names[i]) == 0)
            return i;
    return -1;
}

static void table_header(struct loader *ld, int line)
{
    char buf[64];
    int *ids = xmalloc((size_t)ld->rec.n * sizeof *ids);
    unsigned present = 0;
    for (int i = 0; i < ld->rec.n; i++) {
        ids[i] = col_lookup(ld->rec.field[i]);
        if (ids[i] >= 0)
            present |= 1u << ids[i];
    }
    const unsigned graph_only = (1u << COL_FROM) | (1u << COL_TO) | (1u << COL_TIME) |
                                (1u << COL_BIDIR) | (1u << COL_ALPHA) | (1u << COL_BETA);
    enum cluster_kind kind;
    if ((present & graph_only) && !(present & (1u << COL_NAME)))
        kind = CLUSTER_GRAPH;
    else if (present & NODE_COLS)
        kind = CLUSTER_NODES;
    else {
        diag_error(ld->d, ld->file, line, NULL,
                   "missing header: expected name,send,recv (node table), from,to,time "
                   "(platform graph) or an empty first cell (latency matrix), found \"%s\"",
                   SHOWN(ld->rec.field[0], buf));
        free(ids);
        return;
    }
    const unsigned allowed = kind == CLUSTER_GRAPH ? GRAPH_COLS : NODE_COLS;
    const char *kind_cols = kind == CLUSTER_GRAPH
        ? "a platform graph has from, to, time, send, bidirectional, alpha, beta"
        : "a node table has name, send, recv, count, class, group";
    ld->c = cluster_new(kind);
    ld->ncols = ld->rec.n;
    ld->rows_ok = true;
    const char *cands[COL_NCOLS];   /* the columns this kind allows: a slip's nearest */
    int ncands = 0;
    for (int k = 0; k < COL_NCOLS; k++)
        if (allowed & (1u << k))
            cands[ncands++] = col_names[k];
    unsigned told = 0;   /* missing columns a "did you mean" already named */
    for (int i = 0; i < ld->rec.n; i++) {
        const char *f = ld->rec.field[i];
        const char *near;
        if (*f == '\0') {
            diag_error(ld->d, ld->file, line, "header", "column %d has no name", i + 1);
        } else if ((ids[i] < 0 || !(allowed & (1u << ids[i]))) &&
                   (near = text_nearest(f, cands, ncands)) != NULL) {
            diag_error(ld->d, ld->file, line, SHOWN(f, buf), "unknown column; did you mean "
                       "\"%s\"? (%s)", near, kind_cols);
            told |= 1u << col_lookup(near);
            ld->rows_ok = false;
        } else if (ids[i] < 0 || !(allowed & (1u << ids[i]))) {
            diag_error(ld->d, ld->file, line, SHOWN(f, buf), "unknown column (%s)", kind_cols);
        } else if (ld->col[ids[i]] >= 0) {
            diag_error(ld->d, ld->file, line, "header", "column \"%s\" appears twice",
                       col_names[ids[i]]);
            ld->rows_ok = false;
        } else {
            ld->col[ids[i]] = i;
        }
    }
    static const int node_req[] = {COL_NAME, COL_SEND, COL_RECV};
    static const int graph_req[] = {COL_FROM, COL_TO, COL_TIME};
    const int *req = kind == CLUSTER_GRAPH ? graph_req : node_req;
    for (int i = 0; i < 3; i++)
        if (ld->col[req[i]] < 0 && (told & (1u << req[i]))) {
            ld->rows_ok = false;   /* the slip's message named it */
        } else if (ld->col[req[i]] < 0 &&
            !(req[i] == COL_TIME && ld->col[COL_ALPHA] >= 0)) {   /* or the affine alpha */
            diag_error(ld->d, ld->file, line, "header", "missing column \"%s\" (%s)",
                       col_names[req[i]],
                       kind == CLUSTER_GRAPH ? "a platform graph needs from, to and time "
                                               "(or alpha, for times alpha + size x beta)"
                                             : "a node table needs name, send and recv");
            ld->rows_ok = false;
        }
    if (kind == CLUSTER_GRAPH && ld->col[COL_BETA] >= 0 && ld->col[COL_ALPHA] < 0 &&
        ld->col[COL_TIME] >= 0) {
        diag_error(ld->d, ld->file, line, "header",
                   "column \"beta\" without \"alpha\" (an affine time is alpha + size x beta)");
        ld->rows_ok = false;
    }
    free(ids);
}

/*
 * `,a,b,c[,send][,recv][,class][,group]`: the first cell is empty, the others
 * name the nodes in order; cells named `send`, `recv`, `class` and `group`
 * (reserved, not node names) hold each row's node's overheads and labels and
 * come after every node column.
 */
static void matrix_header(struct loader *ld, int line)
{
    char buf[64];
    int errors = ld->d->errors;
    struct cluster *c = ld->c = cluster_new(CLUSTER_MATRIX);
    ld->ncols = ld->rec.n;
    ld->mcol = xmalloc((size_t)ld->rec.n * sizeof *ld->mcol);
    ld->mcol[0] = -1;
    bool reserved_seen = false;
    for (int i = 1; i < ld->rec.n; i++) {
        const char *f = ld->rec.field[i];
        int r = cluster_matrix_word(f);
        ld->mcol[i] = -1;
        if (r >= 0) {
            if (ld->mres[r] >= 0)
                diag_error(ld->d, ld->file, line, "header", "column \"%s\" appears twice",
                           cluster_matrix_word_name(r));
            else
                ld->mres[r] = i;
            reserved_seen = true;
        } else if (*f == '\0') {
            diag_error(ld->d, ld->file, line, "header", "column %d has no node name", i + 1);
        } else if (reserved_seen) {
            diag_error(ld->d, ld->file, line, "header",
                       "node column \"%s\" after the send/recv/class/group columns (they come "
                       "last)", SHOWN(f, buf));
        } else if (nameidx_find(&ld->names, c->nodes, f) >= 0) {
            diag_error(ld->d, ld->file, line, "header", "node \"%s\" is named twice",
                       SHOWN(f, buf));
        } else if (c->n >= MAX_MATRIX) {
            if (!ld->too_many)
                diag_error(ld->d, ld->file, line, "header",
                           "too many nodes (a latency matrix has at most %d)", MAX_MATRIX);
            ld->too_many = true;
        } else {
            int k = cluster_add_node(c, f, 0, 0);
            cluster_set_line(c, k, line);
            nameidx_add(&ld->names, c->nodes, k);
            ld->mcol[i] = k;
        }
    }
    if (c->n == 0 && ld->d->errors == errors)
        diag_error(ld->d, ld->file, line, "header",
                   "a latency matrix names its nodes in the header (first cell empty)");
    ld->rows_ok = ld->d->errors == errors;
    c->dist = xcalloc((size_t)c->n * (size_t)c->n, sizeof *c->dist);
    ld->row_line = xcalloc((size_t)c->n, sizeof *ld->row_line);
}

/* ---- data rows ---- */

static bool check_field_count(struct loader *ld, int line)
{
    if (ld->rec.n == ld->ncols)
        return true;
    diag_error(ld->d, ld->file, line, NULL, "expected %d fields (as in the header), found %d",
               ld->ncols, ld->rec.n);
    return false;
}

static const char *field(const struct loader *ld, enum col_id id)
{
    return ld->col[id] >= 0 ? ld->rec.field[ld->col[id]] : "";
}

/* Adds a node of a node table or graph; false (and an error) if the name is taken. */
static bool add_named_node(struct loader *ld, int line, const char *col, const char *name,
                           size_t len, double send, double recv, int *out)
{
    char buf[64];
    struct cluster *c = ld->c;
    struct nameidx *ix = &ld->names;
    uint32_t h = nameidx_hash(name, len);
    /* First, so that the slot found stays the one to fill.  The guess: as
     * many names a byte in the rest of the file as so far. */
    size_t expect = ld->done ? (size_t)((double)c->n * (double)ld->total / (double)ld->done) : 0;
    nameidx_reserve(ix, expect < MAX_NODES ? expect : MAX_NODES);
    size_t at = nameidx_probe(ix, c->nodes, name, h);
    int k = ix->slot[at].node;
    if (k >= 0) {
        diag_error(ld->d, ld->file, line, col, "duplicate node name \"%s\" (first on line %d)",
                   SHOWN(name, buf), cluster_line(c, k));
        return false;
    }
    int max = c->kind == CLUSTER_GRAPH ? CLUSTER_MAX_GRAPH_NODES : MAX_NODES;
    if (c->n >= max) {
        if (!ld->too_many)
            diag_error(ld->d, ld->file, line, NULL, "too many nodes (a %s has at most %d)",
                       cluster_kind_name(c->kind), max);
        ld->too_many = true;
        return false;
    }
    k = cluster_add_node(c, name, send, recv);
    cluster_set_line(c, k, line);
    nameidx_set(ix, at, k, h);
    if (out)
        *out = k;
    return true;
}

/* Node k's class or group label, by set (cluster_set_class or
 * cluster_set_group) from column col; false after a message if there are
 * too many distinct labels. */
static bool set_label(struct loader *ld, int line, const char *col,
                      int (*set)(struct cluster *, int, const char *), int k, const char *label)
{
    if (set(ld->c, k, label) == 0)
        return true;
    diag_error(ld->d, ld->file, line, col,
               "too many distinct class and group labels (a cluster has at most %d)",
               CLUSTER_MAX_LABELS);
    return false;
}

static void node_row(struct loader *ld, int line)
{
    if (!check_field_count(ld, line))
        return;
    struct cluster *c = ld->c;
    const char *name = field(ld, COL_NAME);
    size_t name_len = ld->col[COL_NAME] >= 0 ? ld->rec.len[ld->col[COL_NAME]] : 0;
    double send = 0, recv = 0;
    int count = 1;
    bool ok = true;
    if (*name == '\0') {
        diag_error(ld->d, ld->file, line, "name", "missing node name");
        ok = false;
    }
    ok &= get_time(ld, line, "send", field(ld, COL_SEND), false, &send);
    ok &= get_time(ld, line, "recv", field(ld, COL_RECV), false, &recv);
    ok &= get_count(ld, line, field(ld, COL_COUNT), &count);
    if (!ok)
        return;
    const char *klass = field(ld, COL_CLASS), *group = field(ld, COL_GROUP);
    if (count > MAX_NODES - c->n) {   /* refused before any copy is made */
        if (!ld->too_many)
            diag_error(ld->d, ld->file, line, NULL, "too many nodes (a %s has at most %d)",
                       cluster_kind_name(c->kind), MAX_NODES);
        ld->too_many = true;
        return;
    }
    for (int i = 1; i <= count; i++) {
        char *full = count == 1 ? NULL : xasprintf("%s-%d", name, i);
        int k;
        bool added = full ? add_named_node(ld, line, "name", full, strlen(full), send, recv, &k)
                          : add_named_node(ld, line, "name", name, name_len, send, recv, &k);
        free(full);
        if (!added)
            break;     /* one message per row, not one per copy */
        if ((*klass && !set_label(ld, line, "class", cluster_set_class, k, klass)) ||
            (*group && !set_label(ld, line, "group", cluster_set_group, k, group)))
            break;
    }
}

static void matrix_row(struct loader *ld, int line)
{
    char buf[64];
    if (!check_field_count(ld, line))
        return;
    struct cluster *c = ld->c;
    const char *name = ld->rec.field[0];
    if (*name == '\0') {
        diag_error(ld->d, ld->file, line, NULL, "row without a node name (its first cell)");
        return;
    }
    int k = nameidx_find(&ld->names, c->nodes, name);
    if (k < 0) {
        diag_error(ld->d, ld->file, line, NULL, "unknown node \"%s\" (not named in the header)",
                   SHOWN(name, buf));
        return;
    }
    if (ld->row_line[k]) {
        diag_error(ld->d, ld->file, line, NULL, "second row for node \"%s\" (first on line %d)",
                   SHOWN(name, buf), ld->row_line[k]);
        return;
    }
    ld->row_line[k] = line;
    cluster_set_line(c, k, line);
    size_t n = (size_t)c->n;
    for (int i = 1; i < ld->ncols; i++) {
        const char *f = ld->rec.field[i];
        if (i == ld->mres[CLUSTER_MATRIX_SEND]) {
            get_time(ld, line, "send", f, false, &c->nodes[k].send);
        } else if (i == ld->mres[CLUSTER_MATRIX_RECV]) {
            get_time(ld, line, "recv", f, false, &c->nodes[k].recv);
        } else if (i == ld->mres[CLUSTER_MATRIX_CLASS]) {
            if (*f)
                set_label(ld, line, "class", cluster_set_class, k, f);
        } else if (i == ld->mres[CLUSTER_MATRIX_GROUP]) {
            if (*f)
                set_label(ld, line, "group", cluster_set_group, k, f);
        } else {
            int j = ld->mcol[i];
            char col[64];
            double v;
            SHOWN(c->nodes[j].name, col);
            if (!get_time(ld, line, col, f, false, &v))
                continue;
            if (j == k && v != 0)
                diag_error(ld->d, ld->file, line, col,
                           "distance from \"%s\" to itself must be 0, found %s",
                           SHOWN(name, buf), f);
            else
                c->dist[(size_t)k * n + (size_t)j] = v;
        }
    }
}

/* The index of graph node `name`, added (first seen on line) if new. */
static int graph_node(struct loader *ld, int line, const char *name)
{
    int k = nameidx_find(&ld->names, ld->c->nodes, name);
    if (k < 0 && !add_named_node(ld, line, NULL, name, strlen(name), 0, 0, &k))
        return -1;
    if (k >= ld->node_send_cap) {
        int cap = ld->node_send_cap ? 2 * ld->node_send_cap : 16;
        while (cap <= k)
            cap *= 2;
        ld->node_send = xrealloc(ld->node_send, (size_t)cap * sizeof *ld->node_send);
        ld->node_send_line = xrealloc(ld->node_send_line, (size_t)cap * sizeof *ld->node_send_line);
        for (int i = ld->node_send_cap; i < cap; i++) {
            ld->node_send[i] = -1;
            ld->node_send_line[i] = 0;
        }
        ld->node_send_cap = cap;
    }
    return k;
}

static void set_node_send(struct loader *ld, int line, int k, double send, const char *text)
{
    char buf[64];
    if (ld->node_send_line[k] == 0) {
        ld->node_send[k] = send;
        ld->node_send_line[k] = line;
    } else if (ld->node_send[k] != send) {
        char was[32];
        snprintf(was, sizeof was, "%g", ld->node_send[k]);
        diag_error(ld->d, ld->file, line, "send",
                   "%s conflicts with %s given for node \"%s\" on line %d", text, was,
                   SHOWN(ld->c->nodes[k].name, buf), ld->node_send_line[k]);
    }
}

static void add_graph_edge(struct loader *ld, int line, int from, int to, double time,
                           double alpha, double beta, bool reverse)
{
    char b1[64], b2[64];
    struct cluster *c = ld->c;
    int first = pair_find(&ld->edges, from, to);
    if (first >= 0) {
        diag_error(ld->d, ld->file, line, NULL, "duplicate edge %s -> %s (%sfirst on line %d)",
                   SHOWN(c->nodes[from].name, b1), SHOWN(c->nodes[to].name, b2),
                   reverse ? "the reverse of this bidirectional row; " : "",
                   c->edges[first].line);
        return;
    }
    int k = cluster_add_edge(c, from, to, time, -1);
    c->edges[k].line = line;
    c->edges[k].alpha = alpha;
    c->edges[k].beta = beta;
    pair_insert(&ld->edges, from, to, k);
}

/*
 * from,to,time[,send][,bidirectional].  A row whose `to` (and `time`) is
 * empty declares the node in `from` without an edge: the writer uses it to
 * keep the node order, and it can carry the node's send time.
 */
static void graph_row(struct loader *ld, int line)
{
    char buf[64];
    if (!check_field_count(ld, line))
        return;
    const char *from = field(ld, COL_FROM), *to = field(ld, COL_TO);
    const char *time_s = field(ld, COL_TIME), *send_s = field(ld, COL_SEND);
    const char *bidir_s = field(ld, COL_BIDIR);
    const char *alpha_s = field(ld, COL_ALPHA), *beta_s = field(ld, COL_BETA);
    bool ok = true, bidir = false, has_send = *send_s != '\0';
    bool affine = *alpha_s || *beta_s;
    double time = 0, send = -1, alpha = 0, beta = -1;
    if (*from == '\0') {
        diag_error(ld->d, ld->file, line, "from", "missing node name");
        ok = false;
    }
    if (strcmp(bidir_s, "1") == 0) {
        bidir = true;
    } else if (*bidir_s && strcmp(bidir_s, "0") != 0) {
        diag_error(ld->d, ld->file, line, "bidirectional", "\"%s\" must be 1, 0 or empty",
                   SHOWN(bidir_s, buf));
        ok = false;
    }
    if (has_send)
        ok &= get_time(ld, line, "send", send_s, false, &send);
    if (*to == '\0') {
        if (*time_s || bidir || affine) {
            diag_error(ld->d, ld->file, line, "to",
                       "missing node name (a row without `to` only declares the node "
                       "`from` and has no time)");
            return;
        }
        if (!ok)
            return;
        int k = graph_node(ld, line, from);
        if (k >= 0 && has_send)
            set_node_send(ld, line, k, send, send_s);
        return;
    }
    if (affine && *time_s) {
        diag_error(ld->d, ld->file, line, "time",
                   "an edge has a time or an affine alpha and beta, not both");
        ok = false;
    } else if (affine) {
        ok &= get_time(ld, line, "alpha", alpha_s, true, &alpha);
        beta = 0;
        if (*beta_s)
            ok &= get_time(ld, line, "beta", beta_s, false, &beta);
        if (ok)
            time = timing_affine(alpha, beta, 1);   /* a message of 1 unit until --size */
        if (ok && !isfinite(time)) {
            diag_error(ld->d, ld->file, line, "beta", "alpha + beta is out of range");
            ok = false;
        }
    } else {
        ok &= get_time(ld, line, "time", time_s, true, &time);
    }
    if (ok && strcmp(from, to) == 0) {
        diag_error(ld->d, ld->file, line, "to", "self loop %s -> %s", SHOWN(from, buf),
                   SHOWN(from, buf));
        ok = false;
    }
    if (!ok)
        return;
    int a = graph_node(ld, line, from), b = graph_node(ld, line, to);
    if (a < 0 || b < 0)
        return;
    if (has_send)
        set_node_send(ld, line, a, send, send_s);
    add_graph_edge(ld, line, a, b, time, alpha, beta, false);
    if (bidir)
        add_graph_edge(ld, line, b, a, time, alpha, beta, true);
}

/* One complete record of libcsv's, which started on `line`. */
static void record(struct loader *ld, int line)
{
    bool empty = true;
    for (int i = 0; i < ld->rec.n && empty; i++)
        empty = ld->rec.field[i][0] == '\0';
    if (empty)
        return;    /* `,,,` rows, as spreadsheets write blank lines */
    if (!ld->header_line) {
        ld->header_line = line;
        if (ld->rec.field[0][0] == '\0')
            matrix_header(ld, line);
        else
            table_header(ld, line);
        return;
    }
    if (!ld->c || !ld->rows_ok)
        return;
    switch (ld->c->kind) {
    case CLUSTER_NODES: node_row(ld, line); break;
    case CLUSTER_MATRIX: matrix_row(ld, line); break;
    case CLUSTER_GRAPH: graph_row(ld, line); break;
    }
}

static void drop_record(struct loader *ld)
{
    ld->rec.n = 0;
    ld->rec.text_len = 0;
    ld->pending = false;
}

/* The fields go into one reused buffer: no allocation per field or row. */
static void add_field(struct loader *ld, const char *s, size_t len)
{
    if (!ld->pending) {     /* a record after a bare CR on the same line */
        ld->pending = true;
        ld->rec_line = ld->cur_line;
    }
    csvread_record_room(&ld->rec, (size_t)ld->rec.n + 1);
    if (!s)
        len = 0;
    csvread_record_text_room(&ld->rec, ld->rec.text_len + len + 1);
    ld->rec.len[ld->rec.n] = len;
    ld->rec.off[ld->rec.n++] = ld->rec.text_len;
    if (len)
        memcpy(ld->rec.text + ld->rec.text_len, s, len);
    ld->rec.text[ld->rec.text_len + len] = '\0';
    ld->rec.text_len += len + 1;
}

static void on_field(void *s, size_t len, void *data)
{
    add_field(data, s, len);
}

static void on_record(int term, void *data)
{
    struct loader *ld = data;
    (void)term;
    for (int i = 0; i < ld->rec.n; i++) {   /* the text is complete: point into it */
        ld->rec.field[i] = ld->rec.text + ld->rec.off[i];
        ld->rec.len[i] = strlen(ld->rec.field[i]);
    }
    if (ld->rec.n > 0)
        record(ld, ld->rec_line);
    drop_record(ld);
}

/*
 * The fast path's usual row (model/cluster_csv_fast.h): a line without a quote or a bare
 * CR, fed when no record is pending, split by hand exactly as libcsv would
 * split it and handed to record() as libcsv's callbacks would.  Returns the
 * bytes the line took with its line end, or 0 (nothing done) to give the
 * line to libcsv.
 */
static size_t plain_line(struct loader *ld, int line, const char *s, size_t avail)
{
    /* A line beyond the limit is split no further than the limit (a line of
     * 10^8 commas would take 24 bytes a comma): its length, as the libcsv
     * path gives it, goes to the caller, which refuses it. */
    size_t cut = avail > (size_t)CLUSTER_MAX_CSV_LINE ? (size_t)CLUSTER_MAX_CSV_LINE + 1 : avail;
    size_t took = cluster_csv_fast_split(&ld->rec, s, cut);
    if (took > (size_t)CLUSTER_MAX_CSV_LINE) {
        const char *nl = memchr(s, '\n', avail);
        return nl ? (size_t)(nl - s) + 1 : avail;
    }
    if (took) {
        ld->cur_line = ld->rec_line = line;
        record(ld, line);
        ld->rec.n = 0;
        ld->pending = false;
    }
    return took;
}

/* ---- looking ahead for the name table ---- */

#define PREFETCH_LINES 8            /* lines looked ahead */
#define PREFETCH_MIN_SLOTS (1u << 15) /* smaller tables stay in the cache */

/*
 * The name table is read at random, so on a large node table nearly every
 * row's lookup misses the caches and the TLB, and waits for memory.  The
 * loader therefore hashes the name of the line PREFETCH_LINES ahead and asks
 * for its slot early: by the time that row is read the slot is there.  Only
 * a hint: it changes nothing, and a line it misreads (a quote, a comment)
 * costs one useless prefetch.  Returns where the line after it starts.
 */
static const char *prefetch_line(const struct loader *ld, const char *s, const char *end)
{
    const char *a, *b;
    const char *next = cluster_csv_fast_field(s, end, ld->col[COL_NAME], &a, &b);
    if (a)
        nameidx_prefetch(&ld->names, nameidx_hash(a, (size_t)(b - a)));
    return next;
}

/* Called with the line at s about to be read: keeps the prefetches ahead. */
static void prefetch_names(struct loader *ld, const char *s, const char *end)
{
    if (!ld->fast || !ld->c || ld->c->kind != CLUSTER_NODES || !ld->rows_ok ||
        ld->names.cap < PREFETCH_MIN_SLOTS)
        return;
    if (!ld->ahead || ld->ahead <= s) {   /* starting, or after lines read the other way */
        ld->ahead = s;
        for (int i = 0; i < PREFETCH_LINES && ld->ahead < end; i++)
            ld->ahead = prefetch_line(ld, ld->ahead, end);
    } else if (ld->ahead < end) {
        ld->ahead = prefetch_line(ld, ld->ahead, end);
    }
}

/* ---- putting it together ---- */

static void apply_params(struct loader *ld)
{
    struct cluster *c = ld->c;
    if (ld->latency.line) {
        if (c->kind == CLUSTER_NODES)
            c->latency = ld->latency.num;
        else
            diag_warn(ld->d, ld->file, ld->latency.line, "latency",
                      "ignored: only node tables have one latency (a %s gives every link)",
                      cluster_kind_name(c->kind));
    }
    if (ld->unit.line) {
        if (c->kind == CLUSTER_MATRIX)
            c->unit = ld->unit.num;
        else
            diag_warn(ld->d, ld->file, ld->unit.line, "unit",
                      "ignored: a number is a latency matrix's time of one distance unit (a "
                      "clock's unit is a word: s, ms, us, ns or none)");
    }
    c->time_unit = (enum time_unit)ld->time_unit;
    if (ld->nsegments > 0 && c->kind != CLUSTER_NODES) {
        diag_error(ld->d, ld->file, ld->segments[0].line, "segment",
                   "size segments are for node tables (a %s gives every link its time)",
                   cluster_kind_name(c->kind));
    } else if (ld->nsegments > 0) {
        c->segments = ld->segments;
        c->nsegments = ld->nsegments;
        ld->segments = NULL;
    }
    if (ld->name.line) {
        c->name = ld->name.str;
        ld->name.str = NULL;
    } else {
        const char *base = strrchr(ld->file, '/');
        base = base ? base + 1 : ld->file;
        const char *dot = strrchr(base, '.');
        c->name = str_ndup(base, dot && dot != base ? (size_t)(dot - base) : strlen(base));
    }
    c->description = ld->description;
    ld->description = NULL;
    if (ld->source.line) {
        c->source_name = ld->source.str;
        ld->source.str = NULL;
        c->source_line = ld->source.line;
    }
    if (ld->targets.line) {
        c->targets_spec = ld->targets.str;
        ld->targets.str = NULL;
        c->targets_line = ld->targets.line;
    }
    cluster_set_str(&c->path, ld->file);
}

static void finish_loading(struct loader *ld)
{
    char buf[64];
    struct cluster *c = ld->c;
    if (!ld->header_line) {
        diag_error(ld->d, ld->file, 0, NULL,
                   "no header row (the file is empty or holds only comments)");
        return;
    }
    if (!c)
        return;
    if (c->kind == CLUSTER_MATRIX && ld->rows_ok)
        for (int k = 0; k < c->n; k++)
            if (!ld->row_line[k])
                diag_error(ld->d, ld->file, ld->header_line, NULL,
                           "no row for node \"%s\" (the matrix must be square)",
                           SHOWN(c->nodes[k].name, buf));
    if (c->kind == CLUSTER_GRAPH)
        for (int k = 0; k < c->nedges; k++) {
            int u = c->edges[k].from;
            c->edges[k].send = ld->node_send_line[u] ? ld->node_send[u] : -1;
        }
    apply_params(ld);
}

static void loader_free(struct loader *ld)
{
    drop_record(ld);
    csvread_record_free(&ld->rec);
    nameidx_free(&ld->names);
    free(ld->mcol);
    free(ld->row_line);
    free(ld->node_send);
    free(ld->node_send_line);
    free(ld->edges.key);
    free(ld->edges.val);
    free(ld->latency.str);
    free(ld->unit.str);
    free(ld->source.str);
    free(ld->targets.str);
    free(ld->name.str);
    free(ld->description);
    free(ld->segments);
    if (ld->c_locale)
        freelocale(ld->c_locale);
}

struct cluster *cluster_load_csv_buffer(const char *name, const char *buf, size_t len,
                                        struct diag *d)
{
    struct loader ld;
    memset(&ld, 0, sizeof ld);
    ld.file = name;
    ld.d = d;
    ld.total = len;
    ld.errors = d->errors;
    ld.c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    ld.fast = FAST_PATH(true);
    for (int r = 0; r < CLUSTER_MATRIX_WORDS; r++)
        ld.mres[r] = -1;
    for (int i = 0; i < COL_NCOLS; i++)
        ld.col[i] = -1;

    struct csv_parser p;
    if (csv_init(&p, CSV_OPTIONS) != 0) {
        diag_error(d, name, 0, NULL, "cannot set up the CSV parser");
        loader_free(&ld);
        return NULL;
    }
    size_t pos = 0;
    int line = 0;
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
        pos = 3;    /* a UTF-8 byte order mark, as some editors write */
    while (pos < len) {
        const char *s = buf + pos;
        /* libcsv may hold the start of a record without a field of it yet (a quote
         * opened after a bare CR): then the line is its, not the fast path's.
         * pstate is libcsv's public parser state; 0 is its ROW_NOT_BEGUN. */
        bool libcsv_idle = p.pstate == 0;
        if (ld.fast && libcsv_idle && !ld.pending && s[0] != '#' && !is_blank_char(s[0])) {
            /* A record starts here, not a comment or a blank line: the usual row. */
            prefetch_names(&ld, s, buf + len);
            ld.done = pos;
            size_t took = plain_line(&ld, line + 1, s, len - pos);
            if (took > (size_t)CLUSTER_MAX_CSV_LINE) {   /* not a cluster: stop here */
                diag_error(d, name, line + 1, NULL, "line longer than %ld KiB (%zu bytes): "
                           "refused (docs/reliability.md, \"Limits\")", CLUSTER_MAX_CSV_LINE >> 10,
                           took);
                break;
            }
            if (took) {
                pos += took;
                line++;
                continue;
            }
        }
        ld.done = pos;
        const char *nl = memchr(s, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - s) + 1 : len - pos;
        pos += n;
        line++;
        if (n > (size_t)CLUSTER_MAX_CSV_LINE) {   /* not a cluster: stop here */
            diag_error(d, name, line, NULL, "line longer than %ld KiB (%zu bytes): refused "
                       "(docs/reliability.md, \"Limits\")", CLUSTER_MAX_CSV_LINE >> 10, n);
            break;
        }
        bool fresh = !ld.pending;   /* libcsv is between records */
        if (!ld.pending) {
            if (s[0] == '#' && memchr(s, '\0', n)) {
                diag_error(d, name, line, NULL, "NUL byte in the line (is this a text file?)");
                continue;
            }
            if (s[0] == '#') {
                size_t m = n;
                while (m > 0 && (s[m - 1] == '\n' || s[m - 1] == '\r'))
                    m--;
                comment_line(&ld, line, s, m);
                continue;
            }
            size_t i = 0;
            while (i < n && is_blank_char(s[i]))
                i++;
            if (i == n)
                continue;
            ld.pending = true;
            ld.rec_line = line;
        }
        ld.cur_line = line;
        if (fresh && ld.fast && libcsv_idle && plain_line(&ld, line, s, n) == n) {   /* 0 for a line with a NUL, too */
            continue;
        } else if (memchr(s, '\0', n)) {
            diag_error(d, name, line, NULL, "NUL byte in the line (is this a text file?)");
        } else if (csv_parse(&p, s, n, on_field, on_record, &ld) == n) {
            continue;
        } else {
            diag_error(d, name, line, NULL,
                       "malformed quoting (a \" inside an unquoted field, or text after "
                       "a closing \"; write \"\" for a quote inside a quoted field)");
        }
        /* Start over on the next line with a fresh parser. */
        csv_free(&p);
        csv_init(&p, CSV_OPTIONS);
        drop_record(&ld);
    }
    ld.cur_line = line;
    if (csv_fini(&p, on_field, on_record, &ld) != 0) {
        diag_error(d, name, ld.rec_line, NULL, "quoted field not closed (a \" is missing)");
        drop_record(&ld);
    }
    csv_free(&p);

    finish_loading(&ld);
    struct cluster *c = ld.c;
    ld.c = NULL;
    loader_free(&ld);
    if (d->errors > ld.errors || !c || cluster_finish(c, d) != 0 || cluster_resolve_targets(c, d) != 0) {
        cluster_free(c);
        return NULL;
    }
    return c;
}

struct cluster *cluster_load_csv_stream(FILE *fp, const char *name, struct diag *d)
{
    size_t len;
    char *buf = csvread_text(fp, name, &len, d);
    if (!buf)
        return NULL;
    struct cluster *c = cluster_load_csv_buffer(name, buf, len, d);
    free(buf);
    return c;
}

struct cluster *cluster_load_csv(const char *path, struct diag *d)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        diag_error(d, path, 0, NULL, "cannot open: %s", strerror(errno));
        return NULL;
    }
    struct cluster *c = cluster_load_csv_stream(fp, path, d);
    fclose(fp);
    return c;
}

/* ---- writing ---- */

static void put_num(FILE *fp, double v)
{
    char buf[NUMFMT_SIZE];
    fputs(numfmt_plain(buf, v), fp);
}

/* `# key: value`, with line ends and other control characters as blanks. */
static void put_param(FILE *fp, const char *key, const char *value)
{
    fprintf(fp, "# %s: ", key);
    for (; *value; value++)
        fputc((unsigned char)*value < 0x20 ? ' ' : *value, fp);
    fputc('\n', fp);
}

/* Can a `# key: value` line carry s exactly? */
static bool param_safe(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || is_blank_char(s[0]) || is_blank_char(s[n - 1]))
        return false;
    for (; *s; s++)
        if ((unsigned char)*s < 0x20)
            return false;
    return true;
}

/* The multi-port send time of node u's edges, or -1; false if they differ. */
static bool graph_node_send(const struct cluster *c, int u, double *out)
{
    bool seen = false;
    *out = -1;
    for (int k = 0; k < c->nedges; k++) {
        const struct edge *e = &c->edges[k];
        if (e->from != u)
            continue;
        double s = e->send >= 0 ? e->send : -1;
        if (seen && s != *out)
            return false;
        seen = true;
        *out = s;
    }
    return true;
}

/* What the file format cannot say; NULL if c can be written exactly. */
static char *unwritable(const struct cluster *c)
{
    for (int i = 0; i < c->n; i++) {
        const struct node *nd = &c->nodes[i];
        if (!nd->name || !*nd->name)
            return xasprintf("node %d has no name", i + 1);
        if (!isfinite(nd->send) || !isfinite(nd->recv))
            return xasprintf("node %s: send and recv must be finite", nd->name);
        if (c->kind == CLUSTER_MATRIX && cluster_matrix_word(nd->name) >= 0)
            return xasprintf("node name \"%s\" is reserved in latency matrices (send, recv, "
                             "class and group are column names there)", nd->name);
    }
    if (c->n > 0 && c->source > 0 && !param_safe(c->nodes[c->source].name))
        return xasprintf("the source's name cannot be written in a \"# source:\" line");
    for (int p = 0; c->target && p < c->n; p++)
        if (c->target[p] && (!param_safe(c->nodes[p].name) || strchr(c->nodes[p].name, ',')))
            return xasprintf("the target %s cannot be written in a \"# targets:\" line", c->nodes[p].name);
    if (!isfinite(c->latency) || !isfinite(c->unit))
        return xasprintf("latency and unit must be finite");
    if (c->kind == CLUSTER_MATRIX) {
        if (!c->dist && !c->dist_of && c->n > 0)
            return xasprintf("latency matrix without distances");
        for (int i = 0; (c->dist || c->dist_of) && i < c->n; i++)
            for (int j = 0; j < c->n; j++)
                if (!isfinite(cluster_dist(c, i, j)))
                    return xasprintf("distances must be finite");
    }
    if (c->kind == CLUSTER_GRAPH)
        for (int u = 0; u < c->n; u++) {
            double s;
            if (!graph_node_send(c, u, &s))
                return xasprintf("node %s has different multi-port send times on its edges "
                                 "(the file gives one per node)", c->nodes[u].name);
        }
    if (c->kind == CLUSTER_GRAPH)
        for (int k = 0; k < c->nedges; k++) {
            const struct edge *e = &c->edges[k];
            if (e->from < 0 || e->from >= c->n || e->to < 0 || e->to >= c->n)
                return xasprintf("edge %d names an unknown node", k + 1);
            if (!isfinite(e->time) || !isfinite(e->send))
                return xasprintf("edge times must be finite");
        }
    return NULL;
}

/* A class or group label to write: label if it is not empty, else NULL. */
static const char *put_label(const char *label)
{
    return label && *label ? label : NULL;
}

/* Whether some node has a class, a group: the columns to write. */
static void label_columns(const struct cluster *c, bool *klass, bool *group)
{
    *klass = *group = false;
    for (int i = 0; i < c->n; i++) {
        *klass |= put_label(cluster_class(c, i)) != NULL;
        *group |= put_label(cluster_group(c, i)) != NULL;
    }
}

/* Node i's class and group cells, each after its comma, for the columns written. */
static void put_labels(FILE *fp, const struct cluster *c, int i, bool klass, bool group)
{
    const char *k = put_label(cluster_class(c, i)), *g = put_label(cluster_group(c, i));
    if (klass) {
        fputc(',', fp);
        if (k)
            csvfield_put(fp, k);
    }
    if (group) {
        fputc(',', fp);
        if (g)
            csvfield_put(fp, g);
    }
}

static void write_nodes(const struct cluster *c, FILE *fp)
{
    bool klass, group;
    label_columns(c, &klass, &group);
    fprintf(fp, "name,send,recv%s%s\n", klass ? ",class" : "", group ? ",group" : "");
    for (int i = 0; i < c->n; i++) {
        const struct node *nd = &c->nodes[i];
        csvfield_put(fp, nd->name);
        fputc(',', fp);
        put_num(fp, nd->send);
        fputc(',', fp);
        put_num(fp, nd->recv);
        put_labels(fp, c, i, klass, group);
        fputc('\n', fp);
    }
}

static void write_matrix(const struct cluster *c, FILE *fp)
{
    bool send = false, recv = false, klass, group;
    for (int i = 0; i < c->n; i++) {
        send |= c->nodes[i].send != 0;
        recv |= c->nodes[i].recv != 0;
    }
    label_columns(c, &klass, &group);
    for (int j = 0; j < c->n; j++) {
        fputc(',', fp);
        csvfield_put(fp, c->nodes[j].name);
    }
    fprintf(fp, "%s%s%s%s\n", send ? ",send" : "", recv ? ",recv" : "", klass ? ",class" : "",
            group ? ",group" : "");
    for (int i = 0; i < c->n; i++) {
        csvfield_put(fp, c->nodes[i].name);
        for (int j = 0; j < c->n; j++) {
            fputc(',', fp);
            put_num(fp, cluster_dist(c, i, j));
        }
        if (send) {
            fputc(',', fp);
            put_num(fp, c->nodes[i].send);
        }
        if (recv) {
            fputc(',', fp);
            put_num(fp, c->nodes[i].recv);
        }
        put_labels(fp, c, i, klass, group);
        fputc('\n', fp);
    }
}

/*
 * Edges as rows, in order.  Declaration rows for every node come first when
 * the order in which the edges name the nodes is not the model's node order
 * (or some node has no edge), so the node indexes load back unchanged.
 */
static void write_graph(const struct cluster *c, FILE *fp)
{
    bool has_send = false, declare = false, affine = false;
    for (int k = 0; k < c->nedges; k++) {
        has_send |= c->edges[k].send >= 0;
        affine |= c->edges[k].beta >= 0;
    }
    char *seen = xcalloc((size_t)c->n + 1, 1);
    int next = 0;
    for (int k = 0; k < c->nedges && !declare; k++) {
        int ends[2] = {c->edges[k].from, c->edges[k].to};
        for (int e = 0; e < 2 && !declare; e++)
            if (!seen[ends[e]]) {
                seen[ends[e]] = 1;
                declare = ends[e] != next++;
            }
    }
    declare |= next != c->n;
    free(seen);
    /* affine edges keep alpha and beta (their time is the size's) */
    fprintf(fp, "from,to,time%s%s\n", has_send ? ",send" : "", affine ? ",alpha,beta" : "");
    for (int u = 0; declare && u < c->n; u++) {
        double s;
        graph_node_send(c, u, &s);
        csvfield_put(fp, c->nodes[u].name);
        fputs(",,", fp);
        if (has_send) {
            fputc(',', fp);
            if (s >= 0)
                put_num(fp, s);
        }
        if (affine)
            fputs(",,", fp);
        fputc('\n', fp);
    }
    for (int k = 0; k < c->nedges; k++) {
        const struct edge *e = &c->edges[k];
        csvfield_put(fp, c->nodes[e->from].name);
        fputc(',', fp);
        csvfield_put(fp, c->nodes[e->to].name);
        fputc(',', fp);
        if (e->beta < 0)
            put_num(fp, e->time);
        if (has_send) {
            fputc(',', fp);
            if (e->send >= 0)
                put_num(fp, e->send);
        }
        if (affine) {
            fputc(',', fp);
            if (e->beta >= 0) {
                put_num(fp, e->alpha);
                fputc(',', fp);
                put_num(fp, e->beta);
            } else {
                fputc(',', fp);
            }
        }
        fputc('\n', fp);
    }
}

/* Writes c to fp; 0, or -1 with *cause set (if cause is not NULL) and errno. */
static int write_csv(const struct cluster *c, FILE *fp, char **cause)
{
    char *why = unwritable(c);
    if (why) {
        set_cause(cause, "cannot write this cluster as CSV: %s", why);
        free(why);
        errno = EINVAL;
        return -1;
    }
    if (c->name && *c->name)
        put_param(fp, "name", c->name);
    if (c->description) {
        const char *s = c->description;
        for (;;) {
            const char *nl = strchr(s, '\n');
            size_t n = nl ? (size_t)(nl - s) : strlen(s);
            char *part = str_ndup(s, n);
            put_param(fp, "description", part);
            free(part);
            if (!nl)
                break;
            s = nl + 1;
        }
    }
    if (c->kind == CLUSTER_NODES) {
        fputs("# latency: ", fp);
        put_num(fp, c->latency);
        fputc('\n', fp);
        for (int k = 0; k < c->nsegments; k++) {
            const struct cluster_segment *g = &c->segments[k];
            fprintf(fp, "# segment: %.0f..%.0f latency=", g->lo, g->hi);
            put_num(fp, g->latency);
            fputs(" per-byte=", fp);
            put_num(fp, g->per_byte);
            fputc('\n', fp);
        }
    }
    const char *clock = time_unit_name(c->time_unit);
    if (c->kind == CLUSTER_MATRIX && c->unit != 1) {
        fputs("# unit: ", fp);
        put_num(fp, c->unit);
        if (clock)
            fprintf(fp, " %s", clock);
        fputc('\n', fp);
    } else if (clock) {
        fprintf(fp, "# unit: %s\n", clock);
    }
    if (c->n > 0 && c->source >= 0 && c->source < c->n && param_safe(c->nodes[c->source].name))
        put_param(fp, "source", c->nodes[c->source].name);
    char *targets = cluster_targets_text(c);
    if (targets)
        put_param(fp, "targets", targets);
    free(targets);
    switch (c->kind) {
    case CLUSTER_NODES: write_nodes(c, fp); break;
    case CLUSTER_MATRIX: write_matrix(c, fp); break;
    case CLUSTER_GRAPH: write_graph(c, fp); break;
    }
    if (fflush(fp) != 0 || ferror(fp)) {
        int err = errno ? errno : EIO;
        set_cause(cause, "write error: %s", strerror(err));
        errno = err;
        return -1;
    }
    return 0;
}

int cluster_write_csv(const struct cluster *c, FILE *fp)
{
    return write_csv(c, fp, NULL);
}

int cluster_save_csv(const struct cluster *c, const char *path, char **cause)
{
    struct atomic_file af;
    if (atomic_open(&af, path) != 0) {
        if (errno == EISDIR)
            return set_cause(cause, "%s: not a file name", path);
        if (af.refused)
            return set_cause(cause, "%s %s", path, af.refused);
        return set_cause(cause, "%s: cannot create a temporary file: %s", path, strerror(errno));
    }
    char *why = NULL;
    if (write_csv(c, af.fp, &why) != 0) {
        atomic_abort(&af);
        set_cause(cause, "%s: %s", path, why);
        free(why);
        return -1;
    }
    if (atomic_commit(&af) != 0)
        return set_cause(cause, "%s: cannot save: %s", path, strerror(errno));
    return 0;
}
