/*
 * support/atomic.h - saving a file so that a reader sees the old file or the new
 * one, never half of one (cluster files, exports).
 *
 * The caller writes to a temporary file beside the target; committing
 * flushes it, checks the stream for errors, syncs it to disk, renames it
 * over the target and syncs the directory, so the rename itself survives a
 * crash.  The new file keeps the permissions of the file it replaces, else
 * gets 0666 & ~umask (an ordinary file, not mkstemp's 0600).  Any failure
 * removes the temporary file and leaves the target as it was.
 *
 * The target: a symbolic link is followed and the file it names is
 * replaced (the link stays a link); a dangling link, and a target that
 * exists and is not a regular file (directory, device, FIFO, socket), are
 * refused before anything is written.  atomic_open_nofollow never follows
 * a link: the link itself is replaced by the new file (rename(2) does not
 * follow it), the file it names stays as it was (files written inside a
 * directory where someone else may have planted links).
 *
 * A signal that ends the process mid-save: the front door's handler calls
 * atomic_remove_pending (async-signal-safe), which removes the temporary
 * files of the saves in progress; the target is the old file, whole.
 */
#ifndef HETCAST_ATOMIC_H
#define HETCAST_ATOMIC_H

#include <stdio.h>

struct atomic_file {
    FILE *fp;       /* the temporary file: write here */
    char *path;     /* the target */
    char *tmp;      /* the temporary file's name: DIR/.BASE.XXXXXX */
    const char *refused;   /* why atomic_open refused the target, or NULL */
    int pending;    /* 1 + its slot among the saves atomic_remove_pending sees, 0: none */
};

/* Opens a temporary file beside path (beside the file a symlink names).
 * 0, or -1 with errno (nothing is left behind; EISDIR when path ends in
 * '/'), or with af->refused saying what the target is. */
int atomic_open(struct atomic_file *af, const char *path);

/* atomic_open, but a symbolic link at path is replaced, never followed. */
int atomic_open_nofollow(struct atomic_file *af, const char *path);

/* Why atomic_open or atomic_commit failed: af->refused, else strerror(err). */
const char *atomic_why(const struct atomic_file *af, int err);

/* fflush + ferror + fsync + fclose + rename over the target + fsync of
 * the directory.  0, or -1 with errno: then as atomic_abort.  Either way
 * af is finished (its memory freed). */
int atomic_commit(struct atomic_file *af);

/* Closes and removes the temporary file; the target is untouched.  Keeps
 * errno.  Safe on a finished af. */
void atomic_abort(struct atomic_file *af);

/* Removes the temporary file of every save this process has in progress
 * (up to 8 at once): for a handler of a signal that ends the process.
 * Async-signal-safe (getpid, unlink); the saves stay registered, so call
 * it only on the way out. */
void atomic_remove_pending(void);

/* The directory that holds path ("." for a bare name, "/" for the root), malloc'd. */
char *atomic_parent(const char *path);

/* fsync of the directory that holds path, so that a rename in it survives a crash; a failure
 * loses nothing and is not reported. */
void atomic_sync_parent(const char *path);

#endif
