/*
 * app/mpi/cmd.h - the commands of hetcast-mpi (app/mpi/main.c): calibrate
 * (app/mpi/calibrate.c; --sizes: app/mpi/sizes.c; the measuring: app/mpi/measure.c), exec (app/mpi/exec.c) and experiment (app/mpi/farm.c).  Each takes the whole command
 * line (argv[0] the program, argv[1] the command) and h, or NULL when the
 * program was started without mpirun; each returns the exit status, the
 * same on every rank.
 */
#ifndef HETCAST_MPI_CMD_H
#define HETCAST_MPI_CMD_H

#include "app/mpi/common.h"
#include "app/opts.h"

int mpi_calibrate(struct hm *h, int argc, char **argv);
int mpi_exec(struct hm *h, int argc, char **argv);
int mpi_experiment(struct hm *h, int argc, char **argv);   /* app/mpi/farm.c */

/* Started without mpirun: say the command to run with np ranks (and that
 * mpirun is missing, when it is); returns 2. */
int hm_not_launched(int np, int argc, char **argv);

/* opts_parse, with ranks other than 0 quiet (every rank parses, rank 0 speaks). */
int hm_parse(int rank, const char *prog, const struct opt *tab, int argc, char **argv, opts_fn fn,
             void *ctx, const char **operands, int max, int *noperands);

#endif
