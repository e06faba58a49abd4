/*
 * experiment.h - the studies of the papers, rerun by one command
 * (hetcast experiment NAME).  Every study is seeded and prints its seed.
 */
#ifndef HETCAST_EXPERIMENT_H
#define HETCAST_EXPERIMENT_H

/* argv[0] is NAME (or --list); returns an exit status. */
int experiment_main(int argc, char **argv);

#endif
