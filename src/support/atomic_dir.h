/*
 * support/atomic_dir.h - saving a directory of files so that a reader sees
 * the old directory or the new one, never a mix (the OTF2 archive, the SMPI
 * replay): the directory version of support/atomic.h.
 *
 * The files are written into a fresh directory beside the target,
 * .BASE.hetcast-PID-XXXXXX; every write and close is checked (a full disk
 * fails the save, never leaves an empty file).  Committing syncs the file
 * system, then swaps the new directory with the old one in one step
 * (renameat2's RENAME_EXCHANGE; two renames where the file system has no
 * exchange) and removes the old one.  Any failure removes the new directory
 * and leaves the target as it was.
 *
 * The target: a new name, an empty directory, or a directory whose every
 * entry the caller's `ours` accepts (what the writer itself writes there);
 * anything else is refused before anything is written, as is a target that
 * is not a directory.  A symbolic link to a directory is followed: the
 * directory it names is replaced, the link stays a link (as atomic.h does
 * for a file); a dangling link is refused.
 *
 * A process ended by a signal mid-save leaves its new directory beside the
 * target; the next save beside that target removes every such directory
 * whose process is gone (its PID is in the name).
 */
#ifndef HETCAST_ATOMIC_DIR_H
#define HETCAST_ATOMIC_DIR_H

#include <stdbool.h>
#include <stdio.h>

/* May a directory holding an entry `name` be replaced?  is_dir: the entry is a directory. */
typedef bool (*atomic_dir_ours)(const char *name, bool is_dir);

struct atomic_dir {
    char *path;   /* the directory to replace (where a symbolic link led) */
    char *tmp;    /* the new directory, beside it: write here */
    bool exists;  /* path exists (it is swapped out at the commit) */
};

/* Could path be replaced (above)?  0, or -1 with *why (malloc'd) saying what path is:
 * "exists and is not a directory", "holds notes.txt, which ..." and so on. */
int atomic_dir_check(const char *path, atomic_dir_ours ours, const char *what, char **why);

/* atomic_dir_check, the leftovers of dead saves beside path removed, then the new directory
 * made (permissions: those of the directory replaced, else 0777 & ~umask).  what names the
 * files ours accepts, for the refusal ("an OTF2 archive of hetcast").  0, or -1 with *why. */
int atomic_dir_open(struct atomic_dir *ad, const char *path, atomic_dir_ours ours,
                    const char *what, char **why);

/* A new file `name` in the new directory (no link followed), for writing; NULL with errno. */
FILE *atomic_dir_fopen(struct atomic_dir *ad, const char *name);

/* fflush + ferror + fclose, each checked: 0, or -1 with errno (EIO when the stream failed
 * without one).  fp is closed either way. */
int atomic_dir_fclose(FILE *fp);

/* syncfs + swap into place + the old directory removed + fsync of the parent.  0, or -1 with
 * errno: then as atomic_dir_abort.  Either way ad is finished. */
int atomic_dir_commit(struct atomic_dir *ad);

/* Removes path and everything below it (links removed, never followed). */
void atomic_dir_remove(const char *path);

/* Removes the new directory; the target is untouched.  Keeps errno.  Safe on a finished ad. */
void atomic_dir_abort(struct atomic_dir *ad);

#endif
