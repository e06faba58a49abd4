/*
 * output/spool.c - a lean run's bookings in an unlinked temporary file, read
 * back in booking order (output/spool.h).
 */
#include "output/spool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/diag.h"

struct spool_rec {
    int from, to;
    double start, send_end, link_start, link_end, recv_start, recv_end, hold, free;
};

/* SPOOL_BLOCK records are read at a time: 288 KB */

int spool_open(struct spool *sp, char **cause)
{
    memset(sp, 0, sizeof *sp);
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
    setvbuf(sp->fp, NULL, _IOFBF, 1 << 20);   /* a write a MB, not a write a 4 KB page */
    return 0;
}

void spool_book(void *ctx, int seq, int from, int to, const struct timing *tm)
{
    struct spool *sp = ctx;
    (void)seq;
    struct spool_rec r = {from, to, tm->start, tm->send_end, tm->link_start, tm->link_end,
                          tm->recv_start, tm->recv_end, tm->hold, tm->free};
    if (fwrite(&r, sizeof r, 1, sp->fp) != 1 && !sp->err)
        sp->err = errno ? errno : EIO;
    const double v[] = {tm->send_end, tm->link_start, tm->link_end, tm->recv_start, tm->recv_end, tm->hold};
    double m = tm->start;
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        m = v[i] < m ? v[i] : m;
    long long b = sp->n / SPOOL_BLOCK;
    if (b >= sp->cap) {
        sp->cap = sp->cap ? 2 * sp->cap : 64;
        sp->least = xrealloc(sp->least, (size_t)sp->cap * sizeof *sp->least);
    }
    if (sp->n % SPOOL_BLOCK == 0 || m < sp->least[b])
        sp->least[b] = m;
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
    sp->least = NULL;
}

void spool_cursor_start(struct spool_cursor *c, const struct engine *e, struct spool *sp)
{
    memset(c, 0, sizeof *c);
    c->e = e;
    c->sp = sp;
    c->n = sp ? sp->n : e->ntr;
    if (!sp)
        return;
    c->buf = xmalloc(SPOOL_BLOCK * sizeof *c->buf);
    if (fflush(sp->fp) != 0 || fseek(sp->fp, 0, SEEK_SET) != 0) {
        if (!sp->err)
            sp->err = errno ? errno : EIO;
        c->n = 0;
    }
}

/* The writers read each booking's two names, at random places of the name
 * pool: fetch the nodes of the booking 16 ahead (far) and the names of the
 * one 8 ahead (near).  Always inlined: GCC finds a helper that only
 * prefetches free of effects and drops its calls. */
static inline __attribute__((always_inline)) void fetch_ahead(const struct node *nodes, bool far,
                                                              int from16, int to16, bool near,
                                                              int from8, int to8)
{
    if (far) {
        __builtin_prefetch(&nodes[from16]);
        __builtin_prefetch(&nodes[to16]);
    }
    if (near) {
        __builtin_prefetch(nodes[from8].name);
        __builtin_prefetch(nodes[to8].name);
    }
}

const struct transfer *spool_cursor_next(struct spool_cursor *c)
{
    if (c->i >= c->n)
        return NULL;
    const struct node *nodes = c->e->c->nodes;
    if (!c->sp) {
        const struct transfer *tr = c->e->tr;
        long long i = c->i, n = c->n;
        bool far = i + 16 < n, near = i + 8 < n;
        fetch_ahead(nodes, far, far ? tr[i + 16].from : 0, far ? tr[i + 16].to : 0, near,
                    near ? tr[i + 8].from : 0, near ? tr[i + 8].to : 0);
        return &tr[c->i++];
    }
    if (c->at == c->have) {
        long long left = c->n - c->i;
        size_t want = left < SPOOL_BLOCK ? (size_t)left : SPOOL_BLOCK;
        c->have = (int)fread(c->buf, sizeof *c->buf, want, c->sp->fp);
        c->at = 0;
        if (c->have == 0) {   /* the file is shorter than what was written */
            if (!c->sp->err)
                c->sp->err = ferror(c->sp->fp) ? EIO : ENODATA;
            c->i = c->n;
            return NULL;
        }
    }
    const struct spool_rec *b = c->buf;
    int at = c->at, have = c->have;
    bool far = at + 16 < have, near = at + 8 < have;
    fetch_ahead(nodes, far, far ? b[at + 16].from : 0, far ? b[at + 16].to : 0, near,
                near ? b[at + 8].from : 0, near ? b[at + 8].to : 0);
    const struct spool_rec *r = &c->buf[c->at++];
    c->t = (struct transfer){.from = r->from, .to = r->to, .msg = 0, .seq = (int)c->i,
                             .start = r->start, .send_end = r->send_end,
                             .link_start = r->link_start, .link_end = r->link_end,
                             .recv_start = r->recv_start, .recv_end = r->recv_end,
                             .hold = r->hold, .free = r->free, .wait_start = r->start};
    c->i++;
    return &c->t;
}

int spool_read(struct spool *sp, long long i, struct transfer *t)
{
    struct spool_rec r;
    if (i < 0 || i >= sp->n || fflush(sp->fp) != 0 ||
        pread(fileno(sp->fp), &r, sizeof r, (off_t)(i * (long long)sizeof r)) != (ssize_t)sizeof r) {
        if (!sp->err)
            sp->err = EIO;
        return -1;
    }
    *t = (struct transfer){.from = r.from, .to = r.to, .msg = 0, .seq = (int)i, .start = r.start,
                           .send_end = r.send_end, .link_start = r.link_start, .link_end = r.link_end,
                           .recv_start = r.recv_start, .recv_end = r.recv_end, .hold = r.hold,
                           .free = r.free, .wait_start = r.start};
    return 0;
}

void spool_cursor_end(struct spool_cursor *c)
{
    free(c->buf);
    c->buf = NULL;
}
