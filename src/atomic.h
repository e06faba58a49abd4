/*
 * atomic.h - saving a file so that a reader sees the old file or the new
 * one, never half of one (cluster files, exports).
 *
 * The caller writes to a temporary file beside the target; committing
 * flushes it, checks the stream for errors, syncs it to disk, renames it
 * over the target and syncs the directory, so the rename itself survives a
 * crash.  The new file keeps the permissions of the file it replaces, else
 * gets 0666 & ~umask (an ordinary file, not mkstemp's 0600).  Any failure
 * removes the temporary file and leaves the target as it was.
 */
#ifndef HETCAST_ATOMIC_H
#define HETCAST_ATOMIC_H

#include <stdio.h>

struct atomic_file {
    FILE *fp;       /* the temporary file: write here */
    char *path;     /* the target */
    char *tmp;      /* the temporary file's name: DIR/.BASE.XXXXXX */
};

/* Opens a temporary file beside path.  0, or -1 with errno (nothing is
 * left behind; EISDIR when path ends in '/'). */
int atomic_open(struct atomic_file *af, const char *path);

/* fflush + ferror + fsync + fclose + rename over the target + fsync of
 * the directory.  0, or -1 with errno: then as atomic_abort.  Either way
 * af is finished (its memory freed). */
int atomic_commit(struct atomic_file *af);

/* Closes and removes the temporary file; the target is untouched.  Keeps
 * errno.  Safe on a finished af. */
void atomic_abort(struct atomic_file *af);

#endif
