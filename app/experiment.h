/*
 * experiment.h - the studies of the papers, rerun by one command
 * (hetcast experiment NAME).  Every study is seeded and prints its seed.
 * The clusters they draw come from the core's generators (generate.h).
 */
#ifndef HETCAST_EXPERIMENT_H
#define HETCAST_EXPERIMENT_H

/* argv[0] is NAME (or --list); returns an exit status. */
int experiment_main(int argc, char **argv);

/* The studies of their own files; argv[0] is the study's name. */
int exp_alltoall_main(int argc, char **argv);   /* Chen & Liu, Table 7's four groups */
int exp_figueira_main(int argc, char **argv);   /* Figueira, Figures 10-15 */
int exp_pipeline_main(int argc, char **argv);   /* Beaumont, Marchal & Robert, §5 */

#endif
