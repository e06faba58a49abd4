/*
 * app/mpi/calibrate.h - the options of `hetcast-mpi calibrate`
 * (app/mpi/calibrate.c) and its sweep over sizes (app/mpi/sizes.c, --sizes),
 * which calibrate calls; both measure through app/mpi/measure.h.
 */
#ifndef HETCAST_MPI_CALIBRATE_H
#define HETCAST_MPI_CALIBRATE_H

#include <stdbool.h>

#include "app/mpi/common.h"

struct cal_opts {
    long size;
    int iters;
    bool per_rank;
    const char *output;
    const char *name;
    double timeout;
    const char *sizes;   /* --sizes LIST, or NULL: one size */
    int rounds;          /* --rounds: the sweep's rounds over every size */
    double noise;        /* --noise PCT: a size whose rounds spread more is named noisy */
};

/* Read --sizes spec into sizes[] (room for 64); how many, or -1 with *why (to free). */
int cal_sizes_parse(const char *spec, long *sizes, char **why);
/* The sweep of --sizes (app/mpi/sizes.c): the whole command after the options; the status. */
int cal_sizes(struct hm *h, const struct cal_opts *o);

#endif
