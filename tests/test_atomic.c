/*
 * test_atomic.c - support/atomic.h, the one way files are saved: the new content
 * replaces the old whole, the old file's permissions are kept (a new file
 * gets 0666 & ~umask), an abort or a failed write (the disk full half way,
 * RLIMIT_FSIZE) leaves the old file exactly as it was and no temporary
 * file behind; atomic_open_nofollow replaces a link instead of following
 * it; atomic_remove_pending removes a save's temporary file (a forked
 * child's call leaves it).  TAP.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/atomic.h"
#include "support/diag.h"
#include "tap.h"

static char dir[] = "/tmp/hetcast-atomic.XXXXXX";

/* Entries of dir, hidden ones (the temporary files) included. */
static int entries(void)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL)
        n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
    if (d)
        closedir(d);
    return n;
}

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *s = xcalloc(1, 1 << 16);
    size_t n = fread(s, 1, (1 << 16) - 1, fp);
    s[n] = '\0';
    fclose(fp);
    return s;
}

static int save(const char *path, const char *text)
{
    struct atomic_file af;
    if (atomic_open(&af, path) != 0)
        return -1;
    fputs(text, af.fp);
    return atomic_commit(&af);
}

static mode_t mode_of(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? st.st_mode & 07777 : (mode_t)-1;
}

static void test_replace_and_mode(const char *path)
{
    mode_t was = umask(027);
    is_int(save(path, "first\n"), 0, "a new file is saved");
    is_int(mode_of(path), 0640, "a new file gets 0666 & ~umask (umask 027: 0640)");
    umask(was);
    char *s = slurp(path);
    is_string(s, "first\n", "it holds what was written");
    free(s);
    chmod(path, 0604);
    is_int(save(path, "second, longer\n"), 0, "saved over the existing file");
    s = slurp(path);
    is_string(s, "second, longer\n", "the content is replaced whole");
    free(s);
    is_int(mode_of(path), 0604, "the existing file's mode is kept (0604)");
    is_int(entries(), 1, "no temporary file left behind");
}

static void test_abort(const char *path)
{
    struct atomic_file af;
    is_int(atomic_open(&af, path), 0, "open for an abort");
    ok(af.fp && af.tmp && strncmp(af.tmp, dir, strlen(dir)) == 0,
       "the temporary file is beside the target: %s", af.tmp ? af.tmp : "(null)");
    is_int(entries(), 2, "while writing: the target and the temporary file");
    fputs("never seen\n", af.fp);
    atomic_abort(&af);
    is_int(entries(), 1, "abort removes the temporary file");
    char *s = slurp(path);
    is_string(s, "second, longer\n", "abort leaves the target untouched");
    free(s);
    atomic_abort(&af);   /* twice: harmless */
    ok(af.fp == NULL && af.tmp == NULL, "an aborted file is finished");
}

/* Writes beyond 64 KiB fail (EFBIG) as if the disk were full half way. */
static void test_write_error(const char *path)
{
    struct rlimit was, small = {65536, 65536};
    getrlimit(RLIMIT_FSIZE, &was);
    small.rlim_max = was.rlim_max;
    if (small.rlim_cur > was.rlim_max)
        small.rlim_cur = was.rlim_max;
    signal(SIGXFSZ, SIG_IGN);
    struct atomic_file af;
    int rc = atomic_open(&af, path);
    if (rc == 0) {
        setrlimit(RLIMIT_FSIZE, &small);
        for (int i = 0; i < 20000; i++)
            fprintf(af.fp, "row %d of a file too big for the disk\n", i);
        errno = 0;
        rc = atomic_commit(&af);
        setrlimit(RLIMIT_FSIZE, &was);
    }
    ok(rc < 0 && errno == EFBIG, "a write that fills the disk: commit fails with EFBIG (%s)",
       strerror(errno));
    char *s = slurp(path);
    is_string(s, "second, longer\n", "the old file is intact");
    free(s);
    is_int(entries(), 1, "the temporary file is removed");

    /* A stream that went bad before the commit (here: its descriptor closed). */
    is_int(atomic_open(&af, path), 0, "open for a broken stream");
    close(fileno(af.fp));
    fputs("lost\n", af.fp);
    ok(atomic_commit(&af) < 0, "a stream whose writes fail: commit fails (%s)", strerror(errno));
    s = slurp(path);
    is_string(s, "second, longer\n", "the old file is intact");
    free(s);
    is_int(entries(), 1, "the temporary file is removed");
}

static void test_refusals(void)
{
    struct atomic_file af;
    char *missing = xasprintf("%s/no/such/x.txt", dir);
    errno = 0;
    ok(atomic_open(&af, missing) < 0 && errno == ENOENT, "a missing directory: ENOENT");
    free(missing);
    char *slash = xasprintf("%s/", dir);
    errno = 0;
    ok(atomic_open(&af, slash) < 0 && errno == EISDIR, "a path ending in '/': EISDIR");
    free(slash);
    is_int(entries(), 1, "nothing created");
}

/* atomic_open_nofollow: a link at the target is replaced, the file it names untouched. */
static void test_nofollow(const char *path)
{
    char *link = xasprintf("%s/link.txt", dir);
    is_int(symlink(path, link), 0, "a link planted beside the target");
    struct atomic_file af;
    is_int(atomic_open_nofollow(&af, link), 0, "atomic_open_nofollow onto a link");
    fputs("fresh\n", af.fp);
    is_int(atomic_commit(&af), 0, "committed");
    struct stat st;
    ok(lstat(link, &st) == 0 && S_ISREG(st.st_mode), "the link is now a regular file");
    char *s = slurp(path);
    is_string(s, "second, longer\n", "the file the link named is untouched");
    free(s);
    s = slurp(link);
    is_string(s, "fresh\n", "the new file holds what was written");
    free(s);
    unlink(link);
    free(link);
    is_int(entries(), 1, "no temporary file left behind");
}

/* atomic_remove_pending: what a signal handler calls on the way out. */
static void test_pending(const char *path)
{
    struct atomic_file af;
    is_int(atomic_open(&af, path), 0, "open for a save in progress");
    pid_t child = fork();
    if (child == 0) {   /* a child made by fork() leaves its parent's temporary alone */
        atomic_remove_pending();
        _exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    is_int(entries(), 2, "a forked child's atomic_remove_pending: the temporary stays");
    atomic_remove_pending();
    is_int(entries(), 1, "atomic_remove_pending removes the temporary file");
    char *s = slurp(path);
    is_string(s, "second, longer\n", "the target is untouched");
    free(s);
    atomic_abort(&af);   /* the name is gone already: harmless */
    is_int(entries(), 1, "then an abort: nothing else removed");
}

int main(void)
{
    if (!mkdtemp(dir)) {
        printf("not ok 1 - cannot make a temporary directory\n1..1\n");
        return 1;
    }
    char *path = xasprintf("%s/file.txt", dir);
    test_replace_and_mode(path);
    test_abort(path);
    test_write_error(path);
    test_refusals();
    test_nofollow(path);
    test_pending(path);
    unlink(path);
    free(path);
    rmdir(dir);
    return tap_exit();
}
