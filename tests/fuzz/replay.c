/*
 * replay.c - replays saved fuzzer inputs as a TAP test, in every build (the
 * normal one, the ASan + UBSan one of test.sh, valgrind): linked with one
 * harness (fuzz_*.c), it feeds it every file named on the
 * command line and every file in every directory named there, in name
 * order.  Each input that comes back is one "ok"; a broken promise aborts
 * the harness, which fails the test with the harness's message on stderr.
 *
 *   test-fuzz-replay-csv tests/fuzz/regress/csv clusters/counterexample.csv
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "support/diag.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int n_ok;

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void replay_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        printf("not ok %d - %s: cannot open: %s\n", ++n_ok, path, strerror(errno));
        printf("1..%d\n", n_ok);
        exit(1);
    }
    size_t len = 0, cap = 4096;
    uint8_t *buf = xmalloc(cap);
    size_t got;
    while ((got = fread(buf + len, 1, cap - len, fp)) > 0) {
        len += got;
        if (len == cap)
            buf = xrealloc(buf, cap *= 2);
    }
    fclose(fp);
    fflush(stdout);
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    printf("ok %d - %s (%zu bytes)\n", ++n_ok, path, len);
    fflush(stdout);
}

static void replay_dir(const char *path)
{
    DIR *dp = opendir(path);
    if (!dp) {
        printf("not ok %d - %s: cannot open: %s\n", ++n_ok, path, strerror(errno));
        printf("1..%d\n", n_ok);
        exit(1);
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(dp)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        if (n == cap)
            names = xrealloc(names, (cap = cap ? 2 * cap : 64) * sizeof *names);
        names[n++] = xasprintf("%s/%s", path, de->d_name);
    }
    closedir(dp);
    if (n)
        qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
            replay_file(names[i]);
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv)
{
    LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
            replay_dir(argv[i]);
        else
            replay_file(argv[i]);
    }
    printf("1..%d\n", n_ok);
    return 0;
}
