/*
 * app/study/trials.h - a study as numbered trials (docs/studies.md).  Trial
 * k draws from its own stream, seeded from (seed, k) alone
 * (rng_seed_trial), and gives a fixed row of numbers; the study's output is
 * a function of every row in trial order.  So any split of the trials gives
 * the same rows, and one printing function serves the whole run, the merge
 * of its parts (--shard I/N), local processes (--jobs N), a resumed run
 * (--resume DIR) and hetcast-mpi's task farm: the same bytes.
 *
 * A part file is CSV: `#` lines of provenance (hetcast's version, the study,
 * every parameter as options, the seed, the trials, the part), then one row
 * a trial, every number in its shortest exact form.
 */
#ifndef HETCAST_TRIALS_H
#define HETCAST_TRIALS_H

#include <stdbool.h>
#include <stdio.h>

#include "support/rng.h"

#define TRIALS_MAXV 16         /* numbers a trial's row holds at most */
#define TRIALS_MAX_BLOCKS 512  /* a run is cut into at most this many blocks */

enum trial_format { TF_TEXT, TF_CSV, TF_JSON };

/* Where a run comes from: what its output and its parts carry. */
struct trial_head {
    char study[64];
    char options[640];            /* every parameter, as the study's options */
    unsigned long long seed;
    long trials;
};

struct trial_study {
    int nv;                       /* numbers a row */
    const char *const *cols;      /* their names (part files) */
    /* Trial k, drawing from r: its row v[0..nv).  0, or -1 after a message. */
    int (*trial)(const void *ctx, long k, struct rng *r, double *v);
    /* The whole run's output from every row (v[k * nv ..]), trial order. */
    void (*print)(const void *ctx, const struct trial_head *h, const double *v,
                  enum trial_format f);
};

/* How to run: all of it or part I of N, on how many processes. */
struct trial_ctl {
    int shard_i, shard_n;         /* 1..N of N; shard_n 0: the whole run */
    int jobs;                     /* local processes (1: this one) */
    const char *resume;           /* a folder of finished blocks, or NULL */
    bool quiet;                   /* no progress line */
    enum trial_format format;
};

/* A farm of other processes (hetcast-mpi): computes rows [lo, hi) into v
 * with trials_block; returns 0 (with *printer true on the one process that
 * prints) or an exit status, the same everywhere. */
typedef int (*trial_farm)(const struct trial_study *s, const void *ctx,
                          const struct trial_head *h, long lo, long hi, double *v,
                          bool *printer);
void trials_set_farm(trial_farm farm);
bool trials_farmed(void);   /* a farm was set */

/* The trials per block of a run of n trials, the same for every launcher. */
long trials_block_size(long n);

/* Rows [lo, hi) of the run into v (v[0] is trial lo's); 0, or -1 (said). */
int trials_block(const struct trial_study *s, const void *ctx, const struct trial_head *h,
                 long lo, long hi, double *v);

/* Runs and prints (the output, or with a shard its part file); an exit status. */
int trials_run(const struct trial_study *s, const void *ctx, const struct trial_head *h,
               const struct trial_ctl *c);

/* Reads part files into h (study, options, seed, trials: the same in every
 * part, or one message naming the file) and their rows (*v, malloc'd, nv
 * numbers a trial): they must be the parts 1..N of one N, each once, each
 * ending with a newline and holding every row of its range.  *format: the
 * --format the first part was made with (enum trial_format), -1 if it does
 * not say.  The caller checks the columns against its study.  0 or 2 (said). */
int trials_read_parts(int nfiles, char **files, struct trial_head *h, int *nv,
                      char cols[TRIALS_MAXV][32], double **v, int *format);

/* The provenance lines: `# key: value` (CSV) or JSON fields (no braces). */
void trials_head_csv(FILE *fp, const struct trial_head *h);
void trials_head_json(FILE *fp, const struct trial_head *h);

#endif
