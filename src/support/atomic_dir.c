/*
 * support/atomic_dir.c - the one way directories of files are saved
 * (support/atomic_dir.h): a fresh directory beside the target, every write
 * checked, then syncfs, one exchange of the two, and the old one removed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* renameat2, syncfs */
#endif

#include "support/atomic_dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/atomic.h"
#include "support/diag.h"

#define TMP_TAG ".hetcast-"   /* .BASE.hetcast-PID-XXXXXX */
enum { TMP_BASE_MAX = 180 };   /* bytes of the target's name kept in the temporary name */

/* The directory that holds path (support/atomic.h), and its last part. */
static char *parent_of(const char *path, const char **base)
{
    const char *slash = strrchr(path, '/');
    *base = slash ? slash + 1 : path;
    return atomic_parent(path);
}

/* Removes name in the directory dfd and everything below it; links are removed, never followed. */
static void remove_tree_at(int dfd, const char *name)
{
    if (unlinkat(dfd, name, 0) == 0 || (errno != EISDIR && errno != EPERM))
        return;
    int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (d) {
        for (struct dirent *e; (e = readdir(d));)
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
                remove_tree_at(dirfd(d), e->d_name);
        closedir(d);
    } else if (fd >= 0) {
        close(fd);
    }
    unlinkat(dfd, name, AT_REMOVEDIR);
}

static void remove_tree(const char *path)
{
    remove_tree_at(AT_FDCWD, path);
}

void atomic_dir_remove(const char *path)
{
    remove_tree(path);
}

/* The new directories of saves beside base in parent whose process is gone. */
static void sweep_leftovers(const char *parent, const char *base)
{
    DIR *d = opendir(parent);
    if (!d)
        return;
    size_t keep = strlen(base) > TMP_BASE_MAX ? TMP_BASE_MAX : strlen(base);
    for (struct dirent *e; (e = readdir(d));) {
        const char *n = e->d_name;
        if (n[0] != '.' || strncmp(n + 1, base, keep) != 0 ||
            strncmp(n + 1 + keep, TMP_TAG, strlen(TMP_TAG)) != 0)
            continue;
        char *end;
        long pid = strtol(n + 1 + keep + strlen(TMP_TAG), &end, 10);
        if (pid <= 0 || *end != '-')   /* "-XXXXXX", or "-XXXXXX-old" (swap_in) */
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)   /* alive, or not ours to tell */
            continue;
        remove_tree_at(dirfd(d), n);
    }
    closedir(d);
}

/* Is every entry of dir accepted by ours?  Else *stray names the first that is not. */
static bool all_ours(const char *dir, atomic_dir_ours ours, char **stray)
{
    DIR *d = opendir(dir);
    if (!d) {
        *stray = xasprintf("cannot be read: %s", strerror(errno));
        return false;
    }
    bool ok = true;
    for (struct dirent *e; ok && (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        struct stat st;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;   /* gone meanwhile */
        bool is_dir = S_ISDIR(st.st_mode);
        if (!(is_dir || S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) || !ours(e->d_name, is_dir)) {
            char *shown = text_escape(e->d_name);
            *stray = xasprintf("holds %s%s, which", shown,
                               is_dir || S_ISREG(st.st_mode) || S_ISLNK(st.st_mode) ? ""
                                                                                    : " (not a file)");
            free(shown);
            ok = false;
        }
    }
    closedir(d);
    return ok;
}

/* Where path leads (a symbolic link followed), malloc'd; *exists whether it does.  0, or -1
 * with *why. */
static int resolve(const char *path, char **real, bool *exists, char **why)
{
    struct stat st;
    *real = NULL;
    *exists = false;
    if (lstat(path, &st) != 0) {
        if (errno != ENOENT)
            return *why = xasprintf("cannot be read: %s", strerror(errno)), -1;
        *real = xstrdup(path);
        return 0;
    }
    if (S_ISLNK(st.st_mode)) {
        *real = realpath(path, NULL);
        if (!*real)
            return *why = xstrdup(errno == ENOENT ? "is a symbolic link to nothing (a dangling "
                                                    "link): refused; give the directory itself"
                                                  : "is a symbolic link that cannot be followed"), -1;
        if (stat(*real, &st) != 0) {
            free(*real);
            *real = NULL;
            return *why = xasprintf("cannot be read: %s", strerror(errno)), -1;
        }
    } else {
        *real = xstrdup(path);
    }
    if (!S_ISDIR(st.st_mode)) {
        free(*real);
        *real = NULL;
        return *why = xstrdup("exists and is not a directory"), -1;
    }
    *exists = true;
    return 0;
}

/* path without its trailing slashes ("out/" is "out": the new directory goes beside it). */
static char *trimmed(const char *path)
{
    char *p = xstrdup(path);
    for (size_t n = strlen(p); n > 1 && p[n - 1] == '/'; n--)
        p[n - 1] = '\0';
    return p;
}

/* The target's real path and whether it exists; 0, or -1 with *why. */
static int check(const char *path, atomic_dir_ours ours, const char *what, char **real,
                 bool *exists, char **why)
{
    char *p = trimmed(path);
    int rc = resolve(p, real, exists, why);
    free(p);
    if (rc != 0)
        return -1;
    char *stray = NULL;
    if (*exists && !all_ours(*real, ours, &stray)) {
        *why = xasprintf("%s is not part of %s; give a new or empty directory", stray, what);
        free(stray);
        free(*real);
        *real = NULL;
        return -1;
    }
    return 0;
}

int atomic_dir_check(const char *path, atomic_dir_ours ours, const char *what, char **why)
{
    char *real;
    bool exists;
    if (check(path, ours, what, &real, &exists, why) != 0)
        return -1;
    free(real);
    return 0;
}

/* Permissions for the new directory: those of the one it replaces, else 0777 & ~umask. */
static mode_t new_mode(const char *path, bool exists)
{
    struct stat st;
    if (exists && stat(path, &st) == 0)
        return st.st_mode & 07777;
    mode_t mask = umask(022);   /* umask can only be read by setting it */
    umask(mask);
    return 0777 & ~mask;
}

int atomic_dir_open(struct atomic_dir *ad, const char *path, atomic_dir_ours ours,
                    const char *what, char **why)
{
    memset(ad, 0, sizeof *ad);
    char *real;
    bool exists;
    if (check(path, ours, what, &real, &exists, why) != 0)
        return -1;
    const char *base;
    char *parent = parent_of(real, &base);
    sweep_leftovers(parent, base);
    int keep = (int)strlen(base) > TMP_BASE_MAX ? TMP_BASE_MAX : (int)strlen(base);
    char *tmp = xasprintf("%s/.%.*s" TMP_TAG "%ld-XXXXXX", strcmp(parent, "/") == 0 ? "" : parent,
                          keep, base, (long)getpid());
    free(parent);
    if (!mkdtemp(tmp) || chmod(tmp, new_mode(real, exists)) != 0) {
        int err = errno;
        *why = xasprintf("cannot make a directory beside it: %s", strerror(err));
        rmdir(tmp);
        free(tmp);
        free(real);
        errno = err;
        return -1;
    }
    ad->path = real;
    ad->tmp = tmp;
    ad->exists = exists;
    return 0;
}

FILE *atomic_dir_fopen(struct atomic_dir *ad, const char *name)
{
    char *p = xasprintf("%s/%s", ad->tmp, name);
    int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    free(p);
    if (fd < 0)
        return NULL;
    FILE *fp = fdopen(fd, "w");
    if (!fp) {
        int err = errno;
        close(fd);
        errno = err;
    }
    return fp;
}

int atomic_dir_fclose(FILE *fp)
{
    int err = 0;
    errno = 0;
    if (fflush(fp) != 0 || ferror(fp))
        err = errno ? errno : EIO;
    if (fclose(fp) != 0 && !err)
        err = errno ? errno : EIO;
    errno = err;
    return err ? -1 : 0;
}

static void finish(struct atomic_dir *ad)
{
    free(ad->path);
    free(ad->tmp);
    ad->path = ad->tmp = NULL;
}

/* The new directory in place of the old: exchanged in one step, or (a file system without
 * RENAME_EXCHANGE) the old renamed to the temporary name's twin, the new one in.  Afterwards
 * ad->tmp names the old directory (or nothing).  0, or -1 with errno. */
static int swap_in(struct atomic_dir *ad)
{
    if (!ad->exists)
        return rename(ad->tmp, ad->path);
    if (renameat2(AT_FDCWD, ad->tmp, AT_FDCWD, ad->path, RENAME_EXCHANGE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS)
        return -1;
    char *old = xasprintf("%s-old", ad->tmp);   /* still a leftover name: swept if we die */
    if (rename(ad->path, old) != 0) {
        free(old);
        return -1;
    }
    if (rename(ad->tmp, ad->path) != 0) {
        int err = errno;
        rename(old, ad->path);
        free(old);
        errno = err;
        return -1;
    }
    free(ad->tmp);
    ad->tmp = old;
    return 0;
}

int atomic_dir_commit(struct atomic_dir *ad)
{
    if (!ad->tmp) {
        errno = EBADF;
        return -1;
    }
    int fd = open(ad->tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int err = fd < 0 ? errno : 0;
    if (fd >= 0 && syncfs(fd) != 0)   /* the files are on disk before the swap */
        err = errno;
    if (fd >= 0)
        close(fd);
    if (!err && swap_in(ad) != 0)
        err = errno;
    if (err) {
        atomic_dir_abort(ad);
        errno = err;
        return -1;
    }
    if (ad->exists)
        remove_tree(ad->tmp);   /* the old directory, now under the temporary name */
    atomic_sync_parent(ad->path);   /* the swap itself durable */
    finish(ad);
    return 0;
}

void atomic_dir_abort(struct atomic_dir *ad)
{
    int err = errno;
    if (ad->tmp)
        remove_tree(ad->tmp);
    finish(ad);
    errno = err;
}
