/*
 * app/mpi/farm.c - hetcast-mpi experiment NAME [options]: a study's trials
 * (app/study/trials.h) farmed over the ranks of one MPI job (docs/studies.md).
 * Rank 0 hands out blocks of trials, one at a time, to whichever rank asks
 * (a rank whose trials are slow asks less often); between two of its
 * requests it runs trials of its own, one at a time, so that -n 2 puts both
 * ranks to work.  The rows come back to rank 0, which prints the run as
 * `hetcast experiment` prints it: the same bytes.
 *
 * A worker's message to rank 0: {block, rows...} as doubles, block -1 for
 * the first request and -2 for a trial that failed (said by that rank).
 * Rank 0's answer: the next block, or -1: no more.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/mpi/cmd.h"
#include "app/mpi/common.h"
#include "app/study/experiment.h"
#include "app/study/trials.h"
#include "support/diag.h"

#define HM_TAG_FARM 4

static struct hm *farm_hm;
static int farm_stderr = -1;   /* a worker's stderr while options are parsed quietly */

/* The blocks of rows [lo, hi): block b is [max(lo, (b0 + b) bs), ...). */
struct blocks {
    long lo, hi, bs, b0, nb;
};

static void block_of(const struct blocks *B, long b, long *a, long *z)
{
    long blo = (B->b0 + b) * B->bs, bhi = blo + B->bs;
    *a = blo > B->lo ? blo : B->lo;
    *z = bhi < B->hi ? bhi : B->hi;
}

static void nap(void)
{
    struct timespec t = {0, 200000};
    nanosleep(&t, NULL);
}

static int farm_root(const struct trial_study *s, const void *ctx, const struct trial_head *h,
                     const struct blocks *B, double *v)
{
    int workers = farm_hm->size - 1, stopped = 0;
    bool failed = false;
    long next = 0, own_k = 0, own_end = 0;
    size_t cap = (size_t)B->bs * (size_t)s->nv + 1;
    double *buf = xmalloc(cap * sizeof(double));
    while (stopped < workers || (!failed && (own_k < own_end || next < B->nb))) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, HM_TAG_FARM, MPI_COMM_WORLD, &flag, &st);
        if (flag) {
            int count;
            MPI_Get_count(&st, MPI_DOUBLE, &count);
            if (count < 1 || (size_t)count > cap)
                count = (int)cap;
            MPI_Recv(buf, count, MPI_DOUBLE, st.MPI_SOURCE, HM_TAG_FARM, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            long b = (long)buf[0];
            if (b == -2) {
                failed = true;
            } else if (b >= 0 && b < B->nb) {
                long a, z;
                block_of(B, b, &a, &z);
                memcpy(v + (a - B->lo) * s->nv, buf + 1, (size_t)(z - a) * (size_t)s->nv * sizeof(double));
            }
            long give = !failed && next < B->nb ? next++ : -1;
            if (give < 0)
                stopped++;
            MPI_Send(&give, 1, MPI_LONG, st.MPI_SOURCE, HM_TAG_FARM, MPI_COMM_WORLD);
            continue;
        }
        if (!failed && own_k >= own_end && next < B->nb)
            block_of(B, next++, &own_k, &own_end);
        if (!failed && own_k < own_end) {
            if (trials_block(s, ctx, h, own_k, own_k + 1, v + (own_k - B->lo) * s->nv) < 0)
                failed = true;
            own_k++;
        } else {
            nap();
        }
    }
    free(buf);
    return failed ? 1 : 0;
}

static int farm_worker(const struct trial_study *s, const void *ctx, const struct trial_head *h,
                       const struct blocks *B)
{
    size_t cap = (size_t)B->bs * (size_t)s->nv + 1;
    double *buf = xmalloc(cap * sizeof(double));
    buf[0] = -1;
    int count = 1;
    for (;;) {
        long b;
        MPI_Send(buf, count, MPI_DOUBLE, 0, HM_TAG_FARM, MPI_COMM_WORLD);
        MPI_Request rq;
        MPI_Irecv(&b, 1, MPI_LONG, 0, HM_TAG_FARM, MPI_COMM_WORLD, &rq);
        hm_idle_wait(&rq);
        if (b < 0)
            break;
        long a, z;
        block_of(B, b, &a, &z);
        buf[0] = (double)b;
        count = 1 + (int)((z - a) * s->nv);
        if (trials_block(s, ctx, h, a, z, buf + 1) < 0) {
            buf[0] = -2;
            count = 1;
        }
    }
    free(buf);
    return 0;
}

static int farm(const struct trial_study *s, const void *ctx, const struct trial_head *h, long lo,
                long hi, double *v, bool *printer)
{
    if (farm_stderr >= 0) {   /* the options were read: a worker's trials may speak */
        fflush(stderr);
        dup2(farm_stderr, STDERR_FILENO);
        close(farm_stderr);
        farm_stderr = -1;
    }
    struct blocks B = {lo, hi, trials_block_size(h->trials), 0, 0};
    B.b0 = lo / B.bs;
    B.nb = hi > lo ? (hi - 1) / B.bs - B.b0 + 1 : 0;
    int rc = farm_hm->rank == 0 ? farm_root(s, ctx, h, &B, v) : farm_worker(s, ctx, h, &B);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    *printer = farm_hm->rank == 0;
    return rc;
}

int mpi_experiment(struct hm *h, int argc, char **argv)
{
    if (!h) {   /* --help needs no ranks; anything else does */
        for (int i = 2; i < argc; i++)
            if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
                printf("usage: mpirun -n N hetcast-mpi experiment NAME [options]\n\n"
                       "Runs a study of numbered trials (fnf-vs-optimal, fnf-vs-random, fnf-theorems)\n"
                       "over the ranks: rank 0 hands out blocks of trials and prints what `hetcast\n"
                       "experiment NAME [options]` prints, the same bytes.  The study's options\n"
                       "(`hetcast experiment --list`), without --jobs and --resume.  Manual:\n"
                       "docs/studies.md.\n");
                return 0;
            }
        return hm_not_launched(2, argc, argv);
    }
    farm_hm = h;
    trials_set_farm(farm);
    if (h->rank != 0) {   /* every rank reads the options; rank 0 speaks and prints */
        fflush(NULL);
        farm_stderr = dup(STDERR_FILENO);
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, STDOUT_FILENO);
        if (farm_stderr >= 0 && null >= 0)
            dup2(null, STDERR_FILENO);
        if (null >= 0)
            close(null);
    }
    int rc = experiment_main(argc - 2, argv + 2);
    if (farm_stderr >= 0) {
        fflush(stderr);
        dup2(farm_stderr, STDERR_FILENO);
        close(farm_stderr);
        farm_stderr = -1;
    }
    return rc;
}
