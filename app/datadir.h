/*
 * app/datadir.h - where hetcast's data is: the bundled Lua heuristics (lua/)
 * and example clusters (clusters/).  An installed hetcast finds them in its
 * prefix's share/hetcast, found from where the binary is (so a relocated
 * prefix or a DESTDIR still works); an uninstalled build (build/hetcast)
 * finds the source tree through the file hetcast-uninstalled that Meson
 * writes beside it.  No source path is compiled into the program.
 */
#ifndef HETCAST_DATADIR_H
#define HETCAST_DATADIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * The data directory (holding lua/ and clusters/), in this order:
 * $HETCAST_DATADIR; the source tree named by hetcast-uninstalled beside the
 * binary; share/hetcast of the binary's prefix; the configured install
 * directory.  The first that holds clusters/ wins; NULL if none does.
 */
const char *app_datadir(void);

/*
 * A helper program of hetcast's (hetcast-simgrid) into buf: beside the
 * binary in an uninstalled build, PREFIX/libexec/hetcast installed, or the
 * configured install directory.  False when none is there.
 */
bool app_helper(const char *name, char *buf, size_t size);

/* The running binary's path into buf (Linux: /proc/self/exe); false if unknown. */
bool app_exe_path(char *buf, size_t size);

/*
 * Point the core at what the data directory and the helpers hold: the
 * bundled Lua heuristics by bare name (-s fnf.lua) and the SimGrid reader.
 * What every program of hetcast's does first (hetcast, hetcast-mpi).
 */
void app_find_data(void);

/* The endings of a cluster FILE: .csv, .lua, .xml (NULL-terminated). */
extern const char *const app_cluster_exts[];

/*
 * A file the user named by its bare name, found in the data directory's
 * folder sub ("clusters", "lua/lessons"): name itself when it exists or
 * holds a '/', else DATADIR/sub/name, else DATADIR/sub/name followed by one
 * of exts (NULL-terminated, may be NULL) when that exists; else name.  The
 * path returned lives until the program ends.
 */
const char *app_bundled(const char *sub, const char *name, const char *const *exts);

/*
 * The bundled files of the data directory's folder sub ending in one of exts,
 * each with its first "# description:" or "-- NAME - " line, printed to fp
 * as "  NAME  what it is" in name order; 0, or 1 when there is no data
 * directory (after a message).
 */
int app_list_bundled(FILE *fp, const char *sub, const char *const *exts);

#endif
