/*
 * tests/nolinks.c - a file system that makes no links, for LD_PRELOAD: link()
 * and symlink() fail with EPERM, as on FAT.  tests/otf2.sh writes an archive
 * through it and finds the same archive as with links.
 */
#include <errno.h>

int link(const char *from, const char *to);
int symlink(const char *from, const char *to);

int link(const char *from, const char *to)
{
    (void)from, (void)to;
    errno = EPERM;
    return -1;
}

int symlink(const char *from, const char *to)
{
    (void)from, (void)to;
    errno = EPERM;
    return -1;
}
