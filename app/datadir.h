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

/*
 * Point the core at what the data directory and the helpers hold: the
 * bundled Lua heuristics by bare name (-s fnf.lua) and the SimGrid reader.
 * What every program of hetcast's does first (hetcast, hetcast-mpi).
 */
void app_find_data(void);

#endif
