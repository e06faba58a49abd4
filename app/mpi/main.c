/*
 * app/mpi/main.c - hetcast-mpi, the bridge from the model to a real cluster
 * (docs/mpi.md): `calibrate` measures s, r and the latency of every rank
 * and writes a hetcast cluster; `exec` runs a schedule of hetcast's engine
 * as real MPI messages, one rank per node, and writes the measured
 * transfers beside the prediction; `experiment` farms a study's trials over
 * the ranks (app/mpi/farm.c).
 *
 * Started by mpirun.  Started directly, it says the mpirun command to use
 * (and that mpirun is missing, when it is) and exits with status 2.
 * Exit status: 0 success, 1 a runtime failure (a rank died or hung, a clock
 * that cannot be aligned, a measurement that cannot be split), 2 bad usage
 * or bad input.  Every rank exits with the same status.
 *
 * As in hetcast (app/main.c), a signal whose default ends the process first
 * removes the temporary file of an output being written (support/atomic.h),
 * and SIGXFSZ is ignored, so that a write past `ulimit -f` fails with a
 * message instead of killing the rank half way through its file.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "app/datadir.h"
#include "support/atomic.h"
#include "support/lua_sandbox.h"
#include "support/sigend.h"
#include "sched/lua_sched.h"
#include "app/mpi/cmd.h"
#include "app/mpi/common.h"
#include "app/opts.h"
#if HETCAST_HAVE_SIMGRID
#include "model/cluster_simgrid.h"
#endif

#define HM_START_TIMEOUT 120   /* s: MPI_Init and the names of the ranks */

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: mpirun -n N hetcast-mpi calibrate [--sizes LO:HI] [options] -o CLUSTER.csv\n"
            "                     measure every rank's send and receive overheads and the latency\n"
            "                     between ranks (--sizes: over a range of message sizes, a fit\n"
            "                     per segment); write them as a hetcast cluster (microseconds)\n"
            "       mpirun -n N hetcast-mpi exec CLUSTER -s NAME [options] [-o MEASURED.csv]\n"
            "                     run the schedule of `hetcast run CLUSTER -s NAME` as real MPI\n"
            "                     messages, rank i playing node i; print predicted and measured\n"
            "                     makespans and write the measured transfers\n"
            "       mpirun -n N hetcast-mpi experiment NAME [options]\n"
            "                     a study of hetcast experiment (fnf-vs-optimal, fnf-vs-random,\n"
            "                     fnf-theorems) farmed over the ranks, printed as one process\n"
            "                     prints it\n"
            "       hetcast-mpi COMMAND --help | hetcast-mpi --version\n"
            "\n"
            "As root, Open MPI's mpirun needs --allow-run-as-root; above the core count,\n"
            "--oversubscribe.  Started without mpirun, hetcast-mpi prints the command to run.\n"
            "Manual: docs/mpi.md.\n");
}

/* Is prog an executable file in a directory of $PATH? */
static bool on_path(const char *prog)
{
    const char *path = getenv("PATH");
    if (!path)
        return false;
    char buf[4096];
    while (*path) {
        size_t n = strcspn(path, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)(n ? n : 1), n ? path : ".", prog);
        if (access(buf, X_OK) == 0)
            return true;
        path += n + (path[n] == ':');
    }
    return false;
}

int hm_not_launched(int np, int argc, char **argv)
{
    char *cmd = hm_mpirun_command(np, argc, argv);
    if (!on_path("mpirun"))
        hm_say(NULL, true, "mpirun not found in PATH: hetcast-mpi runs under MPI (Debian: "
               "apt-get install openmpi-bin); then run: %s", cmd);
    else
        hm_say(NULL, true, "started without mpirun: it runs one process per rank; run: %s", cmd);
    free(cmd);
    return 2;
}

/* Ranks other than 0 parse the same options but keep quiet: rank 0 speaks. */
static int quiet_begin(int rank)
{
    if (rank == 0)
        return -1;
    fflush(stderr);
    int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);
    if (saved >= 0 && null >= 0)
        dup2(null, STDERR_FILENO);
    if (null >= 0)
        close(null);
    return saved;
}

static void quiet_end(int saved)
{
    if (saved < 0)
        return;
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
}

int hm_parse(int rank, const char *prog, const struct opt *tab, int argc, char **argv, opts_fn fn,
             void *ctx, const char **operands, int max, int *noperands)
{
    int saved = quiet_begin(rank);
    int rc = opts_parse(prog, tab, argc, argv, fn, ctx, operands, max, noperands);
    quiet_end(saved);
    return rc;
}

/* Lua print() from a cluster script or heuristic: "script: text" on stderr. */
static void print_to_stderr(const char *script, const char *text, void *ud)
{
    (void)ud;
    opts_say(script, text);
}

/* What `hetcast run` finds, hetcast-mpi finds: the bundled Lua heuristics
 * by bare name (-s fnf.lua) and the SimGrid reader (app/datadir.c). */
static void find_data(void)
{
    sandbox_set_print(print_to_stderr, NULL);
    app_find_data();
}

int main(int argc, char **argv)
{
    signal(SIGXFSZ, SIG_IGN);
    sigend_catch(atomic_remove_pending);
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("hetcast-mpi %s\nLicense: MIT (the source, LICENSE); the binary links GLPK "
               "(GPL-3.0-or-later) and is therefore\ndistributed under GPL-3.0-or-later as a "
               "whole.\n", HETCAST_VERSION);
        return 0;
    }
    int (*cmd)(struct hm *, int, char **) = NULL;
    if (strcmp(argv[1], "calibrate") == 0)
        cmd = mpi_calibrate;
    else if (strcmp(argv[1], "exec") == 0)
        cmd = mpi_exec;
    else if (strcmp(argv[1], "experiment") == 0)
        cmd = mpi_experiment;
    if (!cmd) {
        hm_say(NULL, true, "unknown command \"%s\"; valid commands: calibrate, exec, experiment "
               "(hetcast-mpi "
               "--help)", argv[1]);
        return 2;
    }
    find_data();
    if (!hm_launched())
        return cmd(NULL, argc, argv);
    /* Open MPI yields the core on every empty poll when it sees more ranks than
       cores: two ranks sharing a core then measure context switches (3.4 us a
       round trip instead of 0.9 here).  calibrate puts a measuring pair on two
       cores and lets the waiting ranks sleep, so it measures without yielding
       where it has two cores, unless the user chose (docs/mpi.md, "Limits"). */
    struct hm_cpus cpus;
    if (cmd == mpi_calibrate && hm_cpus_get(&cpus) && hm_cpus_count(&cpus) >= 2)
        setenv("OMPI_MCA_mpi_yield_when_idle", "0", 0);
    int provided;
    hm_watchdog_start(HM_START_TIMEOUT);
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
    struct hm h;
    hm_init(&h, 60);
    hm_watchdog(&h, NULL, 0);
    int status = cmd(&h, argc, argv);
    hm_watchdog(&h, NULL, 0);
    hm_free(&h);
    MPI_Finalize();
    return status;
}
