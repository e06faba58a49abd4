/*
 * support/atomic.c - the one way files are saved (support/atomic.h): a temporary file
 * beside the target, then fsync, rename and fsync of the directory.
 */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700   /* realpath */
#endif
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "support/atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/diag.h"

enum { TMP_BASE_MAX = 200 };   /* bytes of the target's name kept in the temporary name */

/*
 * The temporary files of the saves in progress, for atomic_remove_pending
 * (a signal handler): a slot is filled (name and pid, then used = 1) after
 * mkstemp and emptied (used = 0) once the name is gone (renamed or
 * unlinked).  The handler only reads.  A save beyond the last slot, or
 * whose name does not fit, is left out (it is still removed on every
 * other way out).
 */
enum { PENDING_MAX = 8 };
static struct {
    volatile sig_atomic_t used;
    pid_t pid;   /* a child made by fork() leaves its parent's files alone */
    char tmp[PATH_MAX];
} pending[PENDING_MAX];

/* 1 + the slot that now holds tmp, or 0 when none is free. */
static int pending_add(const char *tmp)
{
    size_t len = strlen(tmp);
    if (len >= sizeof pending[0].tmp)
        return 0;
    for (int i = 0; i < PENDING_MAX; i++)
        if (!pending[i].used) {
            memcpy(pending[i].tmp, tmp, len + 1);
            pending[i].pid = getpid();
            atomic_signal_fence(memory_order_seq_cst);   /* the name before the flag */
            pending[i].used = 1;
            return i + 1;
        }
    return 0;
}

static void pending_drop(int slot)
{
    if (slot > 0)
        pending[slot - 1].used = 0;
}

void atomic_remove_pending(void)
{
    pid_t me = getpid();
    for (int i = 0; i < PENDING_MAX; i++)
        if (pending[i].used && pending[i].pid == me)
            unlink(pending[i].tmp);
}

/* Permissions for the new file: those of the regular file it replaces, else 0666 & ~umask. */
static mode_t new_mode(const char *path)
{
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
        return st.st_mode & 07777;
    mode_t mask = umask(022);    /* umask can only be read by setting it */
    umask(mask);
    return 0666 & ~mask;
}

/*
 * What the target is, before anything is written: a symlink is followed (to
 * the file it names, which is then replaced; the link stays a link), or
 * with follow false taken as it is (the rename replaces the link itself), a
 * target that exists and is not a regular file is refused.  Sets *real to
 * the path to replace (malloc'd).  0, or -1 with af->refused set (or errno).
 */
static int check_target(struct atomic_file *af, const char *path, bool follow, char **real)
{
    struct stat st;
    *real = NULL;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT) {
            *real = xstrdup(path);
            return 0;
        }
        return -1;
    }
    if (S_ISLNK(st.st_mode) && !follow) {
        *real = xstrdup(path);
        return 0;
    }
    if (S_ISLNK(st.st_mode)) {
        char *r = realpath(path, NULL);
        if (!r) {
            af->refused = errno == ENOENT ? "is a symbolic link to nothing (a dangling link): "
                                            "refused; save to the file itself"
                                          : "is a symbolic link that cannot be followed: refused";
            return -1;
        }
        if (stat(r, &st) != 0) {
            free(r);
            return -1;
        }
        *real = r;
    } else {
        *real = xstrdup(path);
    }
    if (S_ISREG(st.st_mode))
        return 0;
    af->refused = S_ISDIR(st.st_mode)                       ? "is a directory: refused"
                  : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "is a device, not a regular file: refused"
                  : S_ISFIFO(st.st_mode)                    ? "is a FIFO, not a regular file: refused"
                  : S_ISSOCK(st.st_mode)                    ? "is a socket, not a regular file: refused"
                                                            : "is not a regular file: refused";
    free(*real);
    *real = NULL;
    return -1;
}

const char *atomic_why(const struct atomic_file *af, int err)
{
    return af->refused ? af->refused : strerror(err);
}

char *atomic_parent(const char *path)
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

/* Called once the temporary name is gone (renamed or unlinked). */
static void finish(struct atomic_file *af)
{
    pending_drop(af->pending);
    af->pending = 0;
    free(af->path);
    free(af->tmp);
    af->path = af->tmp = NULL;
    af->fp = NULL;
}

static int open_target(struct atomic_file *af, const char *target, bool follow)
{
    memset(af, 0, sizeof *af);
    const char *slash = strrchr(target, '/'), *base = slash ? slash + 1 : target;
    if (*base == '\0') {
        errno = EISDIR;
        return -1;
    }
    char *path;
    if (check_target(af, target, follow, &path) != 0) {
        if (af->refused)
            errno = EINVAL;
        return -1;
    }
    slash = strrchr(path, '/');
    base = slash ? slash + 1 : path;
    /* ".BASE.XXXXXX" must fit in a file name (NAME_MAX, 255 on Linux): a
     * long BASE is cut in the temporary name only. */
    int keep = (int)strlen(base) > TMP_BASE_MAX ? TMP_BASE_MAX : (int)strlen(base);
    char *dir = atomic_parent(path);
    char *tmp = xasprintf("%s/.%.*s.XXXXXX", strcmp(dir, "/") == 0 ? "" : dir, keep, base);
    free(dir);
    /* No signal between the file's making and its slot: blocked meanwhile. */
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    int fd = mkstemp(tmp);
    int slot = fd >= 0 ? pending_add(tmp) : 0;   /* a signal that ends us now removes it */
    int made = errno;
    sigprocmask(SIG_SETMASK, &old, NULL);
    errno = made;
    if (fd < 0) {
        int err = errno;
        free(tmp);
        free(path);
        errno = err;
        return -1;
    }
    FILE *fp = NULL;
    if (fchmod(fd, new_mode(path)) != 0 || !(fp = fdopen(fd, "w"))) {
        int err = errno;
        close(fd);
        unlink(tmp);
        pending_drop(slot);
        free(tmp);
        free(path);
        errno = err;
        return -1;
    }
    af->fp = fp;
    af->tmp = tmp;
    af->path = path;
    af->pending = slot;
    return 0;
}

int atomic_open(struct atomic_file *af, const char *target)
{
    return open_target(af, target, true);
}

int atomic_open_nofollow(struct atomic_file *af, const char *target)
{
    return open_target(af, target, false);
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
    atomic_sync_parent(af->path);   /* the rename itself durable */
    finish(af);
    return 0;
}

void atomic_sync_parent(const char *path)
{
    char *dir = atomic_parent(path);
    int dfd = open(dir, O_RDONLY);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    free(dir);
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
