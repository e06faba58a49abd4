/*
 * app/mpi/measure.h - the measuring of `hetcast-mpi calibrate` (app/mpi/measure.c):
 * one size's measurement of every pair of ranks, and checking and saving the
 * cluster; used by calibrate at one size (app/mpi/calibrate.c) and by its
 * sweep over sizes (app/mpi/sizes.c).
 */
#ifndef HETCAST_MPI_MEASURE_H
#define HETCAST_MPI_MEASURE_H

#include <stddef.h>

#include "model/cluster.h"
#include "app/mpi/common.h"

/* What one size measured: n*n matrices, row = the measuring rank's side. */
struct cal_meas {
    double *rtt;   /* rtt[p*n+q], both orders */
    double *os;    /* os[p*n+q]: MPI_Send on p to q */
    double *orv;   /* orv[q*n+p]: MPI_Recv on q from p */
    double *lat;   /* lat[p*n+q], both orders: the median over repetitions of the split */
};

struct cal_meas cal_meas_new(size_t nn);
void cal_meas_free(struct cal_meas *m);
/* The median of v[0..n) (sorts v); NAN for n = 0. */
double cal_median(double *v, int n);
/* Every pair at `size` bytes, `iters` repetitions each, one pair at a time (collective);
 * rank 0 ends with every rank's rows. */
void cal_measure_all(const struct hm *h, long size, int iters, struct cal_meas *m);
/* Rank 0: can path be written?  Says why not; the status (0 or 2) on every rank. */
int cal_check_output(struct hm *h, const char *path);
/* Rank 0: finish c and save it to path, saying hetcast's warnings; 0, or 1 said. */
int cal_save(struct hm *h, struct cluster *c, const char *path);

#endif
