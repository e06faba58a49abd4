/*
 * app/study/trials.c - running a study's numbered trials anywhere: in this
 * process, in --jobs N forked processes that take blocks from a shared
 * counter, in a shard of N, in hetcast-mpi's farm; keeping finished blocks
 * in a --resume folder; a progress line on a terminal; part files written
 * and read back (docs/studies.md).
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE   /* MAP_ANONYMOUS */
#endif
#include "app/study/trials.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "app/opts.h"
#include "output/report.h"
#include "support/atomic.h"
#include "support/diag.h"
#include "support/numfmt.h"

#define PART_MAGIC "hetcast-part: 1"

static trial_farm the_farm;

void trials_set_farm(trial_farm farm)
{
    the_farm = farm;
}

bool trials_farmed(void)
{
    return the_farm != NULL;
}

long trials_block_size(long n)
{
    long b = (n + TRIALS_MAX_BLOCKS - 1) / TRIALS_MAX_BLOCKS;
    return b < 1 ? 1 : b;
}

int trials_block(const struct trial_study *s, const void *ctx, const struct trial_head *h,
                 long lo, long hi, double *v)
{
    for (long k = lo; k < hi; k++) {
        struct rng r;
        rng_seed_trial(&r, h->seed, (uint64_t)k);
        if (s->trial(ctx, k, &r, v + (k - lo) * s->nv) < 0)
            return -1;
    }
    return 0;
}

/* ---- provenance and part files ---- */

static void head_csv(FILE *fp, const struct trial_head *h, int shard, int nshards)
{
    fprintf(fp, "# hetcast: %s\n# study: %s\n# options: %s\n# seed: %llu\n# trials: %ld\n"
                "# shard: %d/%d\n", HETCAST_VERSION, h->study, h->options, h->seed, h->trials,
            shard, nshards);
}

void trials_head_csv(FILE *fp, const struct trial_head *h)
{
    head_csv(fp, h, 1, 1);   /* a whole run, or every part merged */
}

void trials_head_json(FILE *fp, const struct trial_head *h)
{
    /* study and options are hetcast's own words and numbers: no escaping needed */
    fprintf(fp, "\"format_version\": %d, \"hetcast\": \"%s\", \"study\": \"%s\", \"options\": \"%s\", "
                "\"seed\": %llu, \"trials\": %ld, \"shard\": \"1/1\"", REPORT_FORMAT_VERSION, HETCAST_VERSION,
            h->study, h->options, h->seed, h->trials);
}

static const char *const format_names[] = {"text", "csv", "json", NULL};   /* enum trial_format */

/* A part file; format: the run's --format, which merge prints by default
 * (-1: none, a --resume block). */
static void write_part(FILE *fp, const struct trial_study *s, const struct trial_head *h,
                       int part, int nparts, long lo, long hi, const double *v, int format)
{
    fprintf(fp, "# %s\n", PART_MAGIC);
    head_csv(fp, h, part, nparts);
    fprintf(fp, "# range: %ld:%ld\n", lo, hi);
    if (format >= 0)
        fprintf(fp, "# format: %s\n", format_names[format]);
    fputs("trial", fp);
    for (int j = 0; j < s->nv; j++)
        fprintf(fp, ",%s", s->cols[j]);
    fputc('\n', fp);
    for (long k = lo; k < hi; k++) {
        fprintf(fp, "%ld", k);
        for (int j = 0; j < s->nv; j++) {
            char b[NUMFMT_SIZE];
            fprintf(fp, ",%s", numfmt_shortest(b, v[(k - lo) * s->nv + j]));
        }
        fputc('\n', fp);
    }
}

/* One part file as read. */
struct part {
    const char *file;
    struct trial_head h;
    char version[64];
    int part, nparts;
    int format;   /* the run's --format (enum trial_format), or -1 if the part does not say */
    long lo, hi;
    int nv;
    char cols[TRIALS_MAXV][32];
    double *v;
};

static const char *part_prog = "hetcast experiment merge";   /* who says a part's flaw */

static int part_fail(const char *file, long line, const char *what)
{
    char msg[4800];
    if (line > 0)
        snprintf(msg, sizeof msg, "%s: line %ld: %s", file, line, what);
    else
        snprintf(msg, sizeof msg, "%s: %s", file, what);
    opts_say(part_prog, msg);
    return 2;
}

/* A provenance line "KEY: VALUE" of a part (kv at KEY, colon at ": "): read into p
 * and marked in *seen (one bit a key; unknown keys are skipped).  0 if VALUE
 * cannot be read. */
static int part_key(struct part *p, const char *kv, const char *colon, int *seen)
{
    size_t kl = (size_t)(colon - kv);
    const char *val = colon + 2;
    int ok = 1;
    if (kl == 7 && strncmp(kv, "hetcast", kl) == 0)
        ok = text_fit(p->version, sizeof p->version, "%s", val) >= 0, *seen |= 1;
    else if (kl == 5 && strncmp(kv, "study", kl) == 0)
        ok = text_fit(p->h.study, sizeof p->h.study, "%s", val) >= 0, *seen |= 2;
    else if (kl == 7 && strncmp(kv, "options", kl) == 0)
        ok = text_fit(p->h.options, sizeof p->h.options, "%s", val) >= 0, *seen |= 4;
    else if (kl == 4 && strncmp(kv, "seed", kl) == 0)
        ok = sscanf(val, "%llu", &p->h.seed) == 1, *seen |= 8;
    else if (kl == 6 && strncmp(kv, "trials", kl) == 0)
        ok = sscanf(val, "%ld", &p->h.trials) == 1 && p->h.trials >= 0, *seen |= 16;
    else if (kl == 5 && strncmp(kv, "shard", kl) == 0)
        ok = sscanf(val, "%d/%d", &p->part, &p->nparts) == 2 && p->nparts >= 1 &&
             p->part >= 1 && p->part <= p->nparts, *seen |= 32;
    else if (kl == 5 && strncmp(kv, "range", kl) == 0)
        ok = sscanf(val, "%ld:%ld", &p->lo, &p->hi) == 2 && p->lo >= 0 && p->hi >= p->lo,
        *seen |= 64;
    else if (kl == 6 && strncmp(kv, "format", kl) == 0) {
        ok = 0;
        for (int f = 0; format_names[f]; f++)
            if (strcmp(val, format_names[f]) == 0)
                p->format = f, ok = 1;
    }
    return ok;
}

/* Row `rows` of a part (line ln): its trial number, then p->nv numbers into
 * p->v.  0, or part_fail's status. */
static int part_row(struct part *p, long ln, const char *line, long rows)
{
    char *end;
    errno = 0;
    long k = strtol(line, &end, 10);
    if (end == line || *end != ',' || k != p->lo + rows) {
        char msg[128];
        snprintf(msg, sizeof msg, "expected the row of trial %ld", p->lo + rows);
        return part_fail(p->file, ln, msg);
    }
    const char *q = end;
    for (int j = 0; j < p->nv; j++) {
        if (*q != ',')
            return part_fail(p->file, ln, "fewer numbers than the header names");
        double x = strtod(q + 1, &end);
        if (end == q + 1 || (*end != ',' && *end != '\0') || isnan(x))
            return part_fail(p->file, ln, "a field that is not a number");
        p->v[rows * p->nv + j] = x;
        q = end;
    }
    return *q != '\0' ? part_fail(p->file, ln, "more numbers than the header names") : 0;
}

/* Reads one part file into p (rows malloc'd).  0 or 2 (said). */
static int read_part(const char *file, struct part *p)
{
    memset(p, 0, sizeof *p);
    p->file = file;
    p->lo = p->hi = -1;
    p->format = -1;
    FILE *fp = fopen(file, "r");
    if (!fp) {
        char msg[256];
        snprintf(msg, sizeof msg, "cannot read it (%s)", strerror(errno));
        return part_fail(file, 0, msg);
    }
    char line[4096];
    long ln = 0, rows = 0, cap = 0;
    bool magic = false, header = false, unended = false;
    int seen = 0;
    int rc = 0;
    while (fgets(line, sizeof line, fp)) {
        ln++;
        size_t len = strlen(line);
        if (len && line[len - 1] == '\n')
            line[--len] = '\0';
        else if (!feof(fp)) {
            rc = part_fail(file, ln, "a line too long for a part file");
            break;
        } else {
            unended = true;   /* the file stops inside this line: a copy cut short */
        }
        if (line[0] == '#') {
            if (header) {
                rc = part_fail(file, ln, "a comment among the rows");
                break;
            }
            const char *kv = line + (line[1] == ' ' ? 2 : 1);
            const char *colon = strstr(kv, ": ");
            if (strcmp(kv, PART_MAGIC) == 0) {
                magic = true;
                continue;
            }
            if (!magic || !colon) {
                rc = part_fail(file, ln, "not a part file of hetcast experiment (it starts "
                                         "with \"# " PART_MAGIC "\": hetcast experiment NAME "
                                         "--shard I/N writes them)");
                break;
            }
            if (!part_key(p, kv, colon, &seen)) {
                rc = part_fail(file, ln, "a provenance line that cannot be read");
                break;
            }
            continue;
        }
        if (!magic || seen != 127) {
            rc = part_fail(file, ln, magic ? "the provenance lines are incomplete (hetcast, "
                                             "study, options, seed, trials, shard, range)"
                                           : "not a part file of hetcast experiment (it starts "
                                             "with \"# " PART_MAGIC "\": hetcast experiment NAME "
                                             "--shard I/N writes them)");
            break;
        }
        if (!header) {
            header = true;
            char *save = NULL, *tok = strtok_r(line, ",", &save);
            if (!tok || strcmp(tok, "trial") != 0) {
                rc = part_fail(file, ln, "the header row does not start with \"trial\"");
                break;
            }
            while ((tok = strtok_r(NULL, ",", &save)) && p->nv < TRIALS_MAXV)
                text_fit(p->cols[p->nv++], sizeof p->cols[0], "%s", tok);
            if (p->hi - p->lo > 0) {
                cap = p->hi - p->lo;
                if ((size_t)cap > SIZE_MAX / sizeof(double) / TRIALS_MAXV) {
                    rc = part_fail(file, ln, "a range too large");
                    break;
                }
                p->v = xmalloc((size_t)cap * (size_t)p->nv * sizeof(double));
            }
            continue;
        }
        if (rows >= cap) {
            rc = part_fail(file, ln, "more rows than its range holds");
            break;
        }
        if ((rc = part_row(p, ln, line, rows)) != 0)
            break;
        rows++;
    }
    if (rc == 0 && ferror(fp))
        rc = part_fail(file, 0, "a read error");
    if (rc == 0 && unended)
        rc = part_fail(file, ln, "cut short inside its last line (a part file ends with a "
                                 "newline; its last number may be cut)");
    if (rc == 0 && (!magic || seen != 127 || !header))
        rc = part_fail(file, 0, magic ? "cut short: its header or provenance is incomplete"
                                      : "not a part file of hetcast experiment (hetcast "
                                        "experiment NAME --shard I/N writes them)");
    if (rc == 0 && rows != p->hi - p->lo) {
        char msg[160];
        snprintf(msg, sizeof msg, "cut short: %ld of the %ld trials of its range %ld:%ld", rows,
                 p->hi - p->lo, p->lo, p->hi);
        rc = part_fail(file, 0, msg);
    }
    if (rc == 0 && p->hi > p->h.trials)
        rc = part_fail(file, 0, "its range goes past the run's trials");
    fclose(fp);
    if (rc) {
        free(p->v);
        p->v = NULL;
    }
    return rc;
}

/* Is q a part of p's run?  NULL, or what differs. */
static const char *foreign(const struct part *p, const struct part *q)
{
    if (strcmp(p->version, q->version) != 0)
        return "hetcast version";
    if (strcmp(p->h.study, q->h.study) != 0)
        return "study";
    if (strcmp(p->h.options, q->h.options) != 0)
        return "options";
    if (p->h.seed != q->h.seed)
        return "seed";
    if (p->h.trials != q->h.trials)
        return "number of trials";
    if (p->nparts != q->nparts)
        return "number of parts";
    if (p->nv != q->nv)
        return "columns";
    for (int j = 0; j < p->nv; j++)
        if (strcmp(p->cols[j], q->cols[j]) != 0)
            return "columns";
    return NULL;
}

int trials_read_parts(int nfiles, char **files, struct trial_head *h, int *nv,
                      char cols[TRIALS_MAXV][32], double **v, int *format)
{
    struct part *ps = xcalloc((size_t)nfiles, sizeof *ps);
    int rc = 0, n = 0;
    for (; n < nfiles && rc == 0; n++)
        rc = read_part(files[n], &ps[n]);
    if (rc == 0 && strcmp(ps[0].version, HETCAST_VERSION) != 0) {
        char msg[256];
        snprintf(msg, sizeof msg, "made by hetcast %s, and this is hetcast %s: run the parts "
                                  "and the merge with one version", ps[0].version,
                 HETCAST_VERSION);
        rc = part_fail(files[0], 0, msg);
    }
    for (int i = 1; i < nfiles && rc == 0; i++) {
        const char *d = foreign(&ps[0], &ps[i]);
        if (d) {
            char msg[512];
            snprintf(msg, sizeof msg, "a part of another run (another %s than %s)", d,
                     files[0]);
            rc = part_fail(files[i], 0, msg);
        }
    }
    /* each part 1..N once, their ranges end to end from 0 to the trials */
    struct part **by = NULL;
    if (rc == 0) {
        int np = ps[0].nparts;
        by = xcalloc((size_t)np, sizeof *by);
        for (int i = 0; i < nfiles && rc == 0; i++) {
            struct part *q = &ps[i];
            if (by[q->part - 1]) {
                char msg[512];
                snprintf(msg, sizeof msg, "part %d/%d again (%s is that part too)", q->part, np,
                         by[q->part - 1]->file);
                rc = part_fail(q->file, 0, msg);
            }
            by[q->part - 1] = q;
        }
        for (int i = 0; i < np && rc == 0; i++)
            if (!by[i]) {
                char msg[512];
                snprintf(msg, sizeof msg, "part %d/%d of this run is missing (the parts given "
                                          "start with %s)", i + 1, np, files[0]);
                opts_say(diag_who(), msg);
                rc = 2;
            }
        long at = 0;
        for (int i = 0; i < np && rc == 0; i++) {
            if (by[i]->lo != at) {
                char msg[256];
                snprintf(msg, sizeof msg, "part %d/%d holds trials %ld:%ld, where %ld:... was "
                                          "expected", i + 1, np, by[i]->lo, by[i]->hi, at);
                rc = part_fail(by[i]->file, 0, msg);
            }
            at = by[i]->hi;
        }
        if (rc == 0 && at != ps[0].h.trials) {
            char msg[256];
            snprintf(msg, sizeof msg, "the parts end at trial %ld of %ld", at, ps[0].h.trials);
            rc = part_fail(by[np - 1]->file, 0, msg);
        }
    }
    if (rc == 0) {
        *h = ps[0].h;
        *nv = ps[0].nv;
        *format = ps[0].format;
        memcpy(cols, ps[0].cols, sizeof ps[0].cols);
        size_t row = (size_t)ps[0].nv;
        *v = xmalloc(((size_t)h->trials ? (size_t)h->trials : 1) * row * sizeof(double));
        for (int i = 0; i < nfiles; i++)
            if (ps[i].hi > ps[i].lo)
                memcpy(*v + (size_t)ps[i].lo * row, ps[i].v,
                       (size_t)(ps[i].hi - ps[i].lo) * row * sizeof(double));
    }
    for (int i = 0; i < n; i++)
        free(ps[i].v);
    free(by);
    free(ps);
    return rc;
}

/* ---- the progress line ---- */

struct progress {
    bool on;
    long total, resumed;
    double start, last;
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void progress_show(struct progress *pg, long done, bool force)
{
    if (!pg->on)
        return;
    double t = now();
    if (!force && t - pg->last < 0.25)
        return;
    pg->last = t;
    double rate = t > pg->start && done > pg->resumed ? (double)(done - pg->resumed) / (t - pg->start) : 0;
    char left[32] = "?";
    if (rate > 0) {
        double s = (double)(pg->total - done) / rate;
        if (s < 360000)
            snprintf(left, sizeof left, "%d:%02d:%02d", (int)(s / 3600), (int)fmod(s / 60, 60),
                     (int)fmod(s, 60));
    }
    fprintf(stderr, "\r\033[K%ld/%ld trials, %.3g a second, %s left", done, pg->total, rate, left);
    fflush(stderr);
}

static void progress_end(struct progress *pg)
{
    if (pg->on) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
    }
}

/* ---- local runs: blocks, --jobs, --resume ---- */

/* What the processes of one run share (MAP_SHARED when --jobs > 1). */
struct shared {
    long next;        /* the next block to take */
    long done;        /* trials finished (progress) */
    long failed;      /* a process whose trial failed */
    unsigned char fin[TRIALS_MAX_BLOCKS + 1];   /* block finished (resumed or run) */
};

struct local {
    const struct trial_study *s;
    const void *ctx;
    const struct trial_head *h;
    const char *resume;
    long lo, hi, bs, nb, b0;   /* range, block size, blocks in the range, first block */
    long total_blocks;         /* blocks of the whole run: resume files' part numbers */
    double *v;                 /* rows [lo, hi) */
    struct shared *sh;
};

static void block_range(const struct local *L, long b, long *a, long *z)
{
    long blo = (L->b0 + b) * L->bs, bhi = blo + L->bs;
    *a = blo > L->lo ? blo : L->lo;
    *z = bhi < L->hi ? bhi : L->hi;
}

static void block_file(const struct local *L, long b, char *buf, size_t n)
{
    snprintf(buf, n, "%s/block-%04ld.csv", L->resume, L->b0 + b + 1);
}

/* The saved block b, if it is there: 1 (its rows into L->v), 0 (absent), or
 * -1 when the file is not a block of this run (said: the folder is another
 * run's, and its blocks are not this run's to overwrite). */
static int resume_block(const struct local *L, long b)
{
    char path[4096];
    block_file(L, b, path, sizeof path);
    if (access(path, F_OK) != 0)
        return 0;
    struct part p;
    part_prog = diag_who();   /* the study run with --resume, not merge */
    int rc = read_part(path, &p);
    if (rc) {
        part_prog = "hetcast experiment merge";
        return -1;
    }
    long a, z;
    block_range(L, b, &a, &z);
    bool ok = strcmp(p.version, HETCAST_VERSION) == 0 && strcmp(p.h.study, L->h->study) == 0 &&
              strcmp(p.h.options, L->h->options) == 0 && p.h.seed == L->h->seed &&
              p.h.trials == L->h->trials && p.lo == a && p.hi == z && p.nv == L->s->nv;
    for (int j = 0; ok && j < p.nv; j++)
        ok = strcmp(p.cols[j], L->s->cols[j]) == 0;
    if (ok && z > a)
        memcpy(L->v + (a - L->lo) * L->s->nv, p.v, (size_t)(z - a) * (size_t)p.nv * sizeof(double));
    free(p.v);
    if (!ok)
        part_fail(path, 0, "a block of another run (another version, study, options, seed or "
                           "trials): give each run a --resume folder of its own");
    part_prog = "hetcast experiment merge";
    return ok ? 1 : -1;
}

/* Is name a block's temporary file, ".block-NNNN.csv.XXXXXX" (support/atomic.h
 * names it so until the block is saved whole)? */
static bool block_leftover(const char *name)
{
    if (strncmp(name, ".block-", 7) != 0)
        return false;
    const char *q = name + 7, *digits = q;
    while (isdigit((unsigned char)*q))
        q++;
    if (q - digits < 4 || strncmp(q, ".csv.", 5) != 0)
        return false;
    q += 5;
    int tail = 0;
    for (; isalnum((unsigned char)*q); q++)
        tail++;
    return *q == '\0' && tail == 6;
}

/* The temporary files of blocks a run killed while saving them (kill -9)
 * left in the --resume folder: removed before the run, which saves those
 * blocks again.  Nothing else in the folder is touched. */
static void remove_leftovers(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *de;
    char path[4096];
    while ((de = readdir(d)) != NULL)
        if (block_leftover(de->d_name) &&
            snprintf(path, sizeof path, "%s/%s", dir, de->d_name) < (int)sizeof path)
            unlink(path);
    closedir(d);
}

static int save_block(const struct local *L, long b)
{
    char path[4096];
    long a, z;
    block_range(L, b, &a, &z);
    block_file(L, b, path, sizeof path);
    struct atomic_file af;
    if (atomic_open(&af, path) < 0) {
        char msg[4200];
        snprintf(msg, sizeof msg, "%s: %s", path, atomic_why(&af, errno));
        opts_say(diag_who(), msg);
        return -1;
    }
    write_part(af.fp, L->s, L->h, (int)(L->b0 + b + 1), (int)L->total_blocks, a, z,
               L->v + (a - L->lo) * L->s->nv, -1);
    if (atomic_commit(&af) < 0) {
        char msg[4200];
        snprintf(msg, sizeof msg, "%s: %s", path, strerror(errno));
        opts_say(diag_who(), msg);
        return -1;
    }
    return 0;
}

/* Takes blocks until none is left: the work of each process.  0 or -1. */
static int work(struct local *L, struct progress *pg)
{
    for (;;) {
        long b = __atomic_fetch_add(&L->sh->next, 1, __ATOMIC_SEQ_CST);
        if (b >= L->nb || __atomic_load_n(&L->sh->failed, __ATOMIC_SEQ_CST))
            return 0;
        if (L->sh->fin[b])
            continue;
        long a, z;
        block_range(L, b, &a, &z);
        for (long k = a; k < z; k++) {
            if (trials_block(L->s, L->ctx, L->h, k, k + 1, L->v + (k - L->lo) * L->s->nv) < 0) {
                __atomic_store_n(&L->sh->failed, 1, __ATOMIC_SEQ_CST);
                return -1;
            }
            long d = __atomic_add_fetch(&L->sh->done, 1, __ATOMIC_SEQ_CST);
            if (pg)
                progress_show(pg, d, false);
        }
        if (L->resume && save_block(L, b) < 0) {
            __atomic_store_n(&L->sh->failed, 1, __ATOMIC_SEQ_CST);
            return -1;
        }
        __atomic_store_n(&L->sh->fin[b], 1, __ATOMIC_SEQ_CST);
    }
}

static void *shared_alloc(size_t n, bool across)
{
    if (!across)
        return xcalloc(1, n);
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void shared_free(void *p, size_t n, bool across)
{
    if (across)
        munmap(p, n);
    else
        free(p);
}

/* Rows [lo, hi) computed here (jobs processes) into v.  0 or an exit status. */
static int run_local(const struct trial_study *s, const void *ctx, const struct trial_head *h,
                     const struct trial_ctl *c, long lo, long hi, double **vout)
{
    struct local L = {s, ctx, h, c->resume, lo, hi, trials_block_size(h->trials), 0, 0, 0,
                      NULL, NULL};
    L.total_blocks = (h->trials + L.bs - 1) / L.bs;
    L.b0 = lo / L.bs;
    L.nb = hi > lo ? (hi - 1) / L.bs - L.b0 + 1 : 0;
    bool across = c->jobs > 1;
    size_t vbytes = ((size_t)(hi - lo) + 1) * (size_t)s->nv * sizeof(double);
    L.v = shared_alloc(vbytes, across);
    L.sh = shared_alloc(sizeof *L.sh, across);
    if (!L.v || !L.sh) {
        opts_say(diag_who(), "cannot map memory for the processes of --jobs");
        return 1;
    }
    if (c->resume && mkdir(c->resume, 0777) < 0 && errno != EEXIST) {
        char msg[4200];
        snprintf(msg, sizeof msg, "--resume: %s: %s", c->resume, strerror(errno));
        opts_say(diag_who(), msg);
        shared_free(L.v, vbytes, across);
        shared_free(L.sh, sizeof *L.sh, across);
        return 2;
    }
    if (c->resume)
        remove_leftovers(c->resume);
    long resumed = 0;
    for (long b = 0; c->resume && b < L.nb; b++) {
        int got = resume_block(&L, b);
        if (got < 0) {
            shared_free(L.v, vbytes, across);
            shared_free(L.sh, sizeof *L.sh, across);
            return 2;
        }
        if (got) {
            long a, z;
            block_range(&L, b, &a, &z);
            L.sh->fin[b] = 1;
            resumed += z - a;
        }
    }
    L.sh->done = resumed;
    struct progress pg = {!c->quiet && isatty(STDERR_FILENO), hi - lo, resumed, now(), 0};
    int rc = 0;
    if (!across) {
        rc = work(&L, &pg) < 0 ? 1 : 0;
    } else {
        pid_t kids[256];
        int nk = 0;
        fflush(NULL);
        for (; nk < c->jobs; nk++) {
            pid_t pid = fork();
            if (pid < 0)
                break;
            if (pid == 0)
                _exit(work(&L, NULL) < 0 ? 1 : 0);
            kids[nk] = pid;
        }
        if (nk == 0) {
            opts_say(diag_who(), "cannot start the processes of --jobs");
            rc = 1;
        }
        int alive = nk;
        bool said = false;   /* a process that failed said why (status 1) */
        while (alive > 0) {
            for (int i = 0; i < nk; i++) {
                int st;
                if (kids[i] <= 0 || waitpid(kids[i], &st, WNOHANG) != kids[i])
                    continue;
                kids[i] = 0;
                alive--;
                if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
                    continue;
                rc = 1;
                __atomic_store_n(&L.sh->failed, 1, __ATOMIC_SEQ_CST);
                if (WIFEXITED(st))
                    said = true;
                else if (!said) {
                    char msg[96];
                    snprintf(msg, sizeof msg, "a process of --jobs was ended by signal %d",
                             WIFSIGNALED(st) ? WTERMSIG(st) : 0);
                    opts_say(diag_who(), msg);
                    said = true;
                }
            }
            if (alive == 0)
                break;
            progress_show(&pg, __atomic_load_n(&L.sh->done, __ATOMIC_SEQ_CST), false);
            struct timespec nap = {0, 50000000};
            nanosleep(&nap, NULL);
        }
        for (long b = 0; rc == 0 && b < L.nb; b++)
            if (!L.sh->fin[b])
                rc = 1;
        if (rc && !said)
            opts_say(diag_who(), "a process of --jobs ended before its trials were done");
    }
    if (rc == 0)
        progress_show(&pg, L.sh->done, true);
    progress_end(&pg);
    if (rc == 0) {
        *vout = xmalloc(vbytes);
        memcpy(*vout, L.v, vbytes);
    }
    shared_free(L.v, vbytes, across);
    shared_free(L.sh, sizeof *L.sh, across);
    return rc;
}

int trials_run(const struct trial_study *s, const void *ctx, const struct trial_head *h,
               const struct trial_ctl *c)
{
    long lo = 0, hi = h->trials;
    if (c->shard_n) {
        lo = (long)((long long)h->trials * (c->shard_i - 1) / c->shard_n);
        hi = (long)((long long)h->trials * c->shard_i / c->shard_n);
    }
    double *v = NULL;
    bool printer = true;
    int rc;
    if (the_farm) {
        v = xmalloc(((size_t)(hi - lo) + 1) * (size_t)s->nv * sizeof(double));
        rc = the_farm(s, ctx, h, lo, hi, v, &printer);
    } else {
        rc = run_local(s, ctx, h, c, lo, hi, &v);
    }
    if (rc == 0 && printer) {
        if (c->shard_n)
            write_part(stdout, s, h, c->shard_i, c->shard_n, lo, hi, v, (int)c->format);
        else
            s->print(ctx, h, v, c->format);
    }
    free(v);
    return rc;
}
