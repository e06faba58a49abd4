/*
 * atomic.c - the one way files are saved (atomic.h): a temporary file
 * beside the target, then fsync, rename and fsync of the directory.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"

/* Permissions for the new file: those of the file it replaces, else 0666 & ~umask. */
static mode_t new_mode(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return st.st_mode & 07777;
    mode_t mask = umask(022);    /* umask can only be read by setting it */
    umask(mask);
    return 0666 & ~mask;
}

/* The directory that holds path ("." for a bare name, "/" for the root). */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    char *d = xmalloc(n + 1);
    memcpy(d, path, n);
    d[n] = '\0';
    return d;
}

static void finish(struct atomic_file *af)
{
    free(af->path);
    free(af->tmp);
    af->path = af->tmp = NULL;
    af->fp = NULL;
}

int atomic_open(struct atomic_file *af, const char *path)
{
    memset(af, 0, sizeof *af);
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    if (*base == '\0') {
        errno = EISDIR;
        return -1;
    }
    char *dir = dir_of(path);
    char *tmp = xasprintf("%s/.%s.XXXXXX", strcmp(dir, "/") == 0 ? "" : dir, base);
    free(dir);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int err = errno;
        free(tmp);
        errno = err;
        return -1;
    }
    FILE *fp = NULL;
    if (fchmod(fd, new_mode(path)) != 0 || !(fp = fdopen(fd, "w"))) {
        int err = errno;
        close(fd);
        unlink(tmp);
        free(tmp);
        errno = err;
        return -1;
    }
    af->fp = fp;
    af->tmp = tmp;
    af->path = xstrdup(path);
    return 0;
}

int atomic_commit(struct atomic_file *af)
{
    if (!af->fp) {
        errno = EBADF;
        return -1;
    }
    int err = 0;
    errno = 0;
    if (fflush(af->fp) != 0 || ferror(af->fp))
        err = errno ? errno : EIO;
    else if (fsync(fileno(af->fp)) != 0)   /* the data is on disk before the rename */
        err = errno;
    if (fclose(af->fp) != 0 && !err)
        err = errno ? errno : EIO;
    af->fp = NULL;
    if (!err && rename(af->tmp, af->path) != 0)
        err = errno;
    if (err) {
        unlink(af->tmp);
        finish(af);
        errno = err;
        return -1;
    }
    /* Make the rename itself durable; a failure here loses nothing. */
    char *dir = dir_of(af->path);
    int dfd = open(dir, O_RDONLY);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    free(dir);
    finish(af);
    return 0;
}

void atomic_abort(struct atomic_file *af)
{
    int err = errno;
    if (af->fp)
        fclose(af->fp);
    if (af->tmp)
        unlink(af->tmp);
    finish(af);
    errno = err;
}
