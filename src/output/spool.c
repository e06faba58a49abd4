/*
 * output/spool.c - a lean run's bookings in an unlinked temporary file, read
 * back in booking order (output/spool.h).
 *
 * A record: the two nodes (4 bytes each), a byte of flags, then the eight
 * times but those the flags name: bit k set says time k is bit for bit the
 * time it is compared with (SAME_AS[k]: a link that starts when the send
 * ends, a receive when the link ends, a hold when the receive ends, a port
 * free when its send ends), so it is not written.  9 to 73 bytes.
 */
#include "output/spool.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/diag.h"
#include "support/timekey.h"

enum { NTIMES = 8 };

struct spool_rec {
    int from, to;
    double time[NTIMES];   /* start, send_end, link_start, link_end, recv_start, recv_end, hold, free */
};

/* The time each time is compared with (-1: none, always written). */
static const int SAME_AS[NTIMES] = {-1, 0, 1, 2, 3, 4, 5, 1};

#define REC_MAX (9 + 8 * NTIMES)    /* a record's most bytes */
#define OUT_SIZE (1 << 18)          /* records gathered before a write */

int spool_open(struct spool *sp, char **cause)
{
    memset(sp, 0, sizeof *sp);
    sp->blk_no = -1;
    const char *dir = getenv("TMPDIR");
    if (!dir || !dir[0])
        dir = "/tmp";
    char *path = xasprintf("%s/hetcast-spool-XXXXXX", dir);
    int fd = mkstemp(path);
    if (fd < 0) {
        set_cause(cause, "cannot make a temporary file in %s: %s", dir, strerror(errno));
        free(path);
        return -1;
    }
    unlink(path);   /* the file lives while it is open, and no longer */
    free(path);
    sp->fp = fdopen(fd, "w+b");
    if (!sp->fp) {
        int err = errno;
        close(fd);
        return set_cause(cause, "cannot open a temporary file: %s", strerror(err));
    }
    sp->out = xmalloc(OUT_SIZE);
    return 0;
}

/* r's bytes at p; how many. */
static size_t encode(unsigned char *p, const struct spool_rec *r)
{
    memcpy(p, &r->from, 4);
    memcpy(p + 4, &r->to, 4);
    unsigned flags = 0;
    size_t n = 9;
    for (int k = 0; k < NTIMES; k++) {
        if (SAME_AS[k] >= 0 && time_bits(r->time[k]) == time_bits(r->time[SAME_AS[k]])) {
            flags |= 1u << k;
            continue;
        }
        memcpy(p + n, &r->time[k], 8);
        n += 8;
    }
    p[8] = (unsigned char)flags;
    return n;
}

/* The record at p (at most `left` bytes) into *r; its bytes, or 0 when it is cut short. */
static size_t decode(const unsigned char *p, size_t left, struct spool_rec *r)
{
    if (left < 9)
        return 0;
    memcpy(&r->from, p, 4);
    memcpy(&r->to, p + 4, 4);
    unsigned flags = p[8];
    size_t n = 9;
    for (int k = 0; k < NTIMES; k++) {
        if (flags >> k & 1) {
            r->time[k] = r->time[SAME_AS[k]];
            continue;
        }
        if (left < n + 8)
            return 0;
        memcpy(&r->time[k], p + n, 8);
        n += 8;
    }
    return n;
}

/* Write the gathered records to the file. */
static void put_out(struct spool *sp)
{
    if (sp->nout > 0 && fwrite(sp->out, 1, sp->nout, sp->fp) != sp->nout && !sp->err)
        sp->err = errno ? errno : EIO;
    sp->nout = 0;
}

void spool_book(void *ctx, int seq, int from, int to, const struct timing *tm)
{
    struct spool *sp = ctx;
    (void)seq;
    struct spool_rec r = {from, to, {tm->start, tm->send_end, tm->link_start, tm->link_end,
                                     tm->recv_start, tm->recv_end, tm->hold, tm->free}};
    double m = tm->start;   /* the earliest time of the booking, for spool_least */
    for (int k = 1; k < NTIMES - 1; k++)
        m = r.time[k] < m ? r.time[k] : m;
    long long b = sp->n / SPOOL_BLOCK;
    if (b >= sp->cap) {
        sp->cap = sp->cap ? 2 * sp->cap : 64;
        sp->least = xrealloc(sp->least, (size_t)sp->cap * sizeof *sp->least);
        sp->start = xrealloc(sp->start, (size_t)sp->cap * sizeof *sp->start);
    }
    if (sp->n % SPOOL_BLOCK == 0) {
        sp->least[b] = m;
        sp->start[b] = sp->bytes;
    } else if (m < sp->least[b]) {
        sp->least[b] = m;
    }
    if (sp->nout + REC_MAX > OUT_SIZE)
        put_out(sp);
    size_t len = encode(sp->out + sp->nout, &r);
    sp->nout += len;
    sp->bytes += (long long)len;
    sp->n++;
}

double spool_least(const struct spool *sp, long long b)
{
    return sp->least[b];
}

int spool_check(const struct spool *sp, char **cause)
{
    if (sp->err || ferror(sp->fp))
        return set_cause(cause, "cannot keep the schedule in a temporary file: %s",
                         strerror(sp->err ? sp->err : EIO));
    return 0;
}

void spool_close(struct spool *sp)
{
    if (sp->fp)
        fclose(sp->fp);
    sp->fp = NULL;
    free(sp->least);
    free(sp->start);
    free(sp->out);
    free(sp->blk);
    sp->least = NULL;
    sp->start = NULL;
    sp->out = NULL;
    sp->blk = NULL;
}

/*
 * Block b's records (up to SPOOL_BLOCK) decoded into recs, read through raw (REC_MAX bytes a
 * record): how many, or 0 with sp->err set when the file cannot be read or is cut short.
 */
static int read_block(struct spool *sp, long long b, struct spool_rec *recs, unsigned char *raw)
{
    long long first = b * SPOOL_BLOCK, left = sp->n - first;
    int want = left < SPOOL_BLOCK ? (int)left : SPOOL_BLOCK;
    if (want <= 0)
        return 0;
    put_out(sp);
    long long blocks = (sp->n + SPOOL_BLOCK - 1) / SPOOL_BLOCK;
    long long from = sp->start[b], to = b + 1 < blocks ? sp->start[b + 1] : sp->bytes;
    size_t len = (size_t)(to - from), got = 0;
    if (fflush(sp->fp) != 0) {
        if (!sp->err)
            sp->err = errno ? errno : EIO;
        return 0;
    }
    while (got < len) {
        ssize_t k = pread(fileno(sp->fp), raw + got, len - got, (off_t)(from + (long long)got));
        if (k <= 0) {   /* an error, or the file is shorter than what was written */
            if (!sp->err)
                sp->err = k < 0 ? errno : ENODATA;
            return 0;
        }
        got += (size_t)k;
    }
    size_t at = 0;
    for (int i = 0; i < want; i++) {
        size_t used = decode(raw + at, len - at, &recs[i]);
        if (used == 0) {
            if (!sp->err)
                sp->err = ENODATA;
            return 0;
        }
        at += used;
    }
    return want;
}

void spool_cursor_start(struct spool_cursor *c, const struct engine *e, struct spool *sp)
{
    memset(c, 0, sizeof *c);
    c->e = e;
    c->sp = sp;
    c->n = sp ? sp->n : e->ntr;
    c->names = true;
    if (!sp)
        return;
    c->buf = xmalloc(SPOOL_BLOCK * sizeof *c->buf);
    c->raw = xmalloc((size_t)SPOOL_BLOCK * REC_MAX);
}

/* A writer that reads each booking's two names (names) reads them at random
 * places of the name pool: fetch the nodes of the booking 16 ahead (far) and
 * the names of the one 8 ahead (near); nodes NULL: nothing.  Always inlined: GCC finds a helper that only
 * prefetches free of effects and drops its calls. */
static inline __attribute__((always_inline)) void fetch_ahead(const struct node *nodes, bool far,
                                                              int from16, int to16, bool near,
                                                              int from8, int to8)
{
    if (!nodes)   /* the writer reads no node (spool_cursor.names false) */
        return;
    if (far) {
        __builtin_prefetch(&nodes[from16]);
        __builtin_prefetch(&nodes[to16]);
    }
    if (near) {
        __builtin_prefetch(nodes[from8].name);
        __builtin_prefetch(nodes[to8].name);
    }
}

/* A record as the transfer the writers read (booking i). */
static void to_transfer(struct transfer *t, const struct spool_rec *r, long long i)
{
    *t = (struct transfer){.from = r->from, .to = r->to, .msg = 0, .seq = (int)i,
                           .start = r->time[0], .send_end = r->time[1], .link_start = r->time[2],
                           .link_end = r->time[3], .recv_start = r->time[4], .recv_end = r->time[5],
                           .hold = r->time[6], .free = r->time[7], .wait_start = r->time[0]};
}

const struct transfer *spool_cursor_next(struct spool_cursor *c)
{
    if (c->i >= c->n)
        return NULL;
    const struct node *nodes = c->names ? c->e->c->nodes : NULL;
    if (!c->sp) {
        const struct transfer *tr = c->e->tr;
        long long i = c->i, n = c->n;
        bool far = i + 16 < n, near = i + 8 < n;
        fetch_ahead(nodes, far, far ? tr[i + 16].from : 0, far ? tr[i + 16].to : 0, near,
                    near ? tr[i + 8].from : 0, near ? tr[i + 8].to : 0);
        return &tr[c->i++];
    }
    if (c->at == c->have) {
        c->have = read_block(c->sp, c->i / SPOOL_BLOCK, c->buf, c->raw);
        c->at = 0;
        if (c->have == 0) {   /* read_block set sp->err */
            c->i = c->n;
            return NULL;
        }
    }
    const struct spool_rec *b = c->buf;
    int at = c->at, have = c->have;
    bool far = at + 16 < have, near = at + 8 < have;
    fetch_ahead(nodes, far, far ? b[at + 16].from : 0, far ? b[at + 16].to : 0, near,
                near ? b[at + 8].from : 0, near ? b[at + 8].to : 0);
    to_transfer(&c->t, &c->buf[c->at++], c->i);
    c->i++;
    return &c->t;
}

int spool_read(struct spool *sp, long long i, struct transfer *t)
{
    if (i < 0 || i >= sp->n) {
        if (!sp->err)
            sp->err = EIO;
        return -1;
    }
    long long b = i / SPOOL_BLOCK;
    if (sp->blk_no != b) {   /* a block at a time: a walk back reads each block once */
        if (!sp->blk)
            sp->blk = xmalloc(SPOOL_BLOCK * sizeof *sp->blk);
        unsigned char *raw = xmalloc((size_t)SPOOL_BLOCK * REC_MAX);
        int have = read_block(sp, b, sp->blk, raw);
        free(raw);
        sp->blk_no = have > 0 ? b : -1;
        if (have == 0)
            return -1;
    }
    to_transfer(t, &sp->blk[i % SPOOL_BLOCK], i);
    return 0;
}

void spool_cursor_end(struct spool_cursor *c)
{
    free(c->buf);
    free(c->raw);
    c->buf = NULL;
    c->raw = NULL;
}
