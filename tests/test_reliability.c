/*
 * test_reliability.c - "nothing lost" (docs/reliability.md): saving a
 * cluster (cluster_save_csv) and exporting a schedule (export_to_file) go
 * through a temporary file and a rename, so a write that fails -- no such
 * directory, a file where the directory should be, a read-only directory,
 * the disk filling up half way (RLIMIT_FSIZE), a writer that gives up --
 * leaves the old file exactly as it was and no temporary file behind, and
 * says why.  TAP.
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
#include <unistd.h>

#include "model/cluster.h"
#include "support/diag.h"
#include "output/export.h"
#include "session/run.h"
#include "sched/registry.h"
#include "tap.h"

static char dir[] = "/tmp/hetcast-reliability.XXXXXX";

static char *path_in(const char *name)
{
    return xasprintf("%s/%s", dir, name);
}

static void put_file(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    if (fp) {
        fputs(text, fp);
        fclose(fp);
    }
}

/* The whole file (caller frees), or NULL. */
static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    size_t len = 0, cap = 256;
    char *s = xmalloc(cap);
    size_t got;
    while ((got = fread(s + len, 1, cap - len - 1, fp)) > 0) {
        len += got;
        if (len + 1 == cap)
            s = xrealloc(s, cap *= 2);
    }
    fclose(fp);
    s[len] = '\0';
    return s;
}

/* Entries of d other than . and .. */
static int entries(const char *d)
{
    DIR *dp = opendir(d);
    if (!dp)
        return -1;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(dp)) != NULL)
        n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
    closedir(dp);
    return n;
}

static struct cluster *big_cluster(int n)
{
    struct cluster *c = cluster_new(CLUSTER_NODES);
    for (int i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "node-%d", i);
        cluster_add_node(c, name, 1 + i % 7, 2 + i % 7);
    }
    cluster_set_str(&c->name, "big");
    return c;
}

/* The old file is intact and the directory holds only it. */
static void check_intact(const char *path, const char *old, const char *what)
{
    char *now = slurp(path);
    is_string(now, old, "%s: the old file is intact", what);
    free(now);
    is_int(entries(dir), 1, "%s: no temporary file left behind", what);
}

/* A writer that writes a little, then fails like a full disk. */
static int failing_writer(FILE *fp, void *ctx)
{
    (void)ctx;
    fputs("half of a file\n", fp);
    errno = ENOSPC;
    return -1;
}

static int big_writer(FILE *fp, void *ctx)
{
    (void)ctx;
    for (int i = 0; i < 100000; i++)
        fprintf(fp, "row %d of a big export\n", i);
    return ferror(fp) ? -1 : 0;
}

static int small_writer(FILE *fp, void *ctx)
{
    fputs(ctx, fp);
    return 0;
}

static void test_save(void)
{
    struct cluster *c = big_cluster(20000);
    char *target = path_in("saved.csv");
    const char *old = "name,send,recv\nold,1,1\n";
    char *cause = NULL;

    put_file(target, old);
    char *nodir = path_in("no/such/dir/x.csv");
    ok(cluster_save_csv(c, nodir, &cause) < 0 && cause && strstr(cause, "no/such/dir/x.csv"),
       "save into a directory that does not exist: refused, names the path");
    diag("%s", cause ? cause : "(no cause)");
    free(cause);
    cause = NULL;
    free(nodir);
    check_intact(target, old, "save, no such directory");

    char *notdir = xasprintf("%s/saved.csv/x.csv", dir);
    ok(cluster_save_csv(c, notdir, &cause) < 0 && cause, "save below a file: refused");
    free(cause);
    cause = NULL;
    free(notdir);
    check_intact(target, old, "save below a file");

    /* The disk fills up half way: writes beyond 64 KiB fail with EFBIG. */
    struct rlimit was, small = {65536, 65536};
    getrlimit(RLIMIT_FSIZE, &was);
    small.rlim_max = was.rlim_max;
    if (small.rlim_cur > was.rlim_max)
        small.rlim_cur = was.rlim_max;
    signal(SIGXFSZ, SIG_IGN);
    setrlimit(RLIMIT_FSIZE, &small);
    int rc = cluster_save_csv(c, target, &cause);
    setrlimit(RLIMIT_FSIZE, &was);
    ok(rc < 0 && cause && strstr(cause, "saved.csv"), "save that fills the disk: refused with the reason");
    diag("%s", cause ? cause : "(no cause)");
    free(cause);
    cause = NULL;
    check_intact(target, old, "save, disk full half way");

    if (geteuid() != 0) {
        chmod(dir, 0555);
        ok(cluster_save_csv(c, target, &cause) < 0 && cause, "save into a read-only directory: refused");
        chmod(dir, 0755);
        free(cause);
        cause = NULL;
        check_intact(target, old, "save, read-only directory");
    } else {
        for (int i = 0; i < 3; i++)
            printf("ok %d # SKIP running as root: a read-only directory does not stop root\n", ++tap_n);
    }

    ok(cluster_save_csv(c, target, &cause) == 0, "save: the same save with room succeeds");
    free(cause);
    cause = NULL;
    struct diag d;
    diag_init(&d);
    struct cluster *back = cluster_load_csv(target, &d);
    ok(back && back->n == 20000, "save: the new file is whole (20000 nodes)");
    is_int(entries(dir), 1, "save: no temporary file left behind");
    cluster_free(back);
    diag_free(&d);
    unlink(target);
    free(target);
    cluster_free(c);
}

static void test_export(void)
{
    char *target = path_in("export.svg");
    const char *old = "<svg>the old picture</svg>\n";
    char *cause = NULL;

    put_file(target, old);
    ok(export_to_file(target, failing_writer, NULL, &cause) < 0 && cause,
       "export whose writer fails half way: refused");
    diag("%s", cause ? cause : "(no cause)");
    free(cause);
    cause = NULL;
    check_intact(target, old, "export, writer fails");

    char *nodir = path_in("missing/export.svg");
    ok(export_to_file(nodir, small_writer, "x", &cause) < 0 && cause && strstr(cause, "missing/export.svg"),
       "export into a directory that does not exist: refused, names the path");
    free(cause);
    cause = NULL;
    free(nodir);
    check_intact(target, old, "export, no such directory");

    struct rlimit was, small = {65536, 65536};
    getrlimit(RLIMIT_FSIZE, &was);
    small.rlim_max = was.rlim_max;
    if (small.rlim_cur > was.rlim_max)
        small.rlim_cur = was.rlim_max;
    signal(SIGXFSZ, SIG_IGN);
    setrlimit(RLIMIT_FSIZE, &small);
    int rc = export_to_file(target, big_writer, NULL, &cause);
    setrlimit(RLIMIT_FSIZE, &was);
    ok(rc < 0 && cause, "export that fills the disk: refused with the reason");
    diag("%s", cause ? cause : "(no cause)");
    free(cause);
    cause = NULL;
    check_intact(target, old, "export, disk full half way");

    ok(export_to_file(target, small_writer, "<svg>new</svg>\n", &cause) == 0, "export with room succeeds");
    free(cause);
    char *now = slurp(target);
    is_string(now, "<svg>new</svg>\n", "export: the new file replaced the old one whole");
    free(now);
    is_int(entries(dir), 1, "export: no temporary file left behind");
    unlink(target);
    free(target);
}

/*
 * Names are never cut inside a character: text_fit cuts between
 * characters, and a transfer's reason holds the whole of a long name (it
 * was written into 256 bytes and cut; the names fuzzer found the cut
 * inside a character).
 */
static void test_long_names(void)
{
    char buf[8];
    text_fit(buf, sizeof buf, "ab%s", "\xc3\xa9\xc3\xa9\xc3\xa9");   /* ab + 3 x e-acute: 8 bytes */
    ok(strcmp(buf, "ab\xc3\xa9\xc3\xa9") == 0, "text_fit keeps whole characters only (%zu bytes kept)",
       strlen(buf));
    text_fit(buf, sizeof buf, "%s", "abcdefghij");
    ok(strcmp(buf, "abcdefg") == 0, "text_fit cuts ASCII where snprintf does");
    is_int((long long)text_cut_len("a\xe2\x86\x92", 2), 1, "text_cut_len leaves a character out whole");

    char name[2][401];
    for (int k = 0; k < 2; k++) {   /* 200 two-byte characters, then a distinct last letter */
        for (int i = 0; i < 199; i++)
            memcpy(name[k] + 2 * i, "\xc3\xa9", 2);
        name[k][398] = 'x';
        name[k][399] = (char)('a' + k);
        name[k][400] = '\0';
    }
    struct cluster *c = cluster_new(CLUSTER_NODES);
    cluster_add_node(c, "s", 1, 1);
    cluster_add_node(c, name[0], 2, 2);
    cluster_add_node(c, name[1], 3, 1);
    struct diag d;
    diag_init(&d);
    ok(cluster_finish(c, &d) == 0 && d.errors == 0, "a cluster of 400-byte names loads");
    diag_free(&d);
    static const char *const scheds[] = {"fnf", "random-pair", "fef", "depth-first", "optimal"};
    for (size_t k = 0; k < sizeof scheds / sizeof scheds[0]; k++) {
        const struct sched_ops *ops = sched_find(scheds[k]);
        struct sched_opts o;
        sched_opts_default(&o);
        struct run r;
        memset(&r, 0, sizeof r);
        char *cause = NULL;
        if (!ops || run_schedule(&r, c, model_default_for(c->kind), ops, &o, RUN_OPT_NEVER, &cause) < 0) {
            ok(0, "%s runs on long names: %s", scheds[k], cause ? cause : "no such scheduler");
            free(cause);
            continue;
        }
        int whole = 0;
        for (int i = 0; i < r.eng.ntr; i++)
            whole += r.eng.tr[i].reason && strstr(r.eng.tr[i].reason, c->nodes[r.eng.tr[i].to].name) != NULL;
        is_int(whole, r.eng.ntr, "%s: every transfer's reason holds its receiver's whole name", scheds[k]);
        run_free(&r);
    }
    cluster_free(c);
}

/* A subnormal time is 0 in every cluster, as the CSV reader reads it (found
 * by the platform fuzzer: a SimGrid route of 8e-320 s saved as a graph the
 * reader refused). */
static void test_tiny_times(void)
{
    struct cluster *c = cluster_new(CLUSTER_NODES);
    cluster_add_node(c, "a", 1e-310, 1);
    cluster_add_node(c, "b", 2, 4.9e-324);
    struct diag d;
    diag_init(&d);
    ok(cluster_finish(c, &d) == 0, "subnormal times load");
    ok(c->nodes[0].send == 0 && c->nodes[1].recv == 0, "as 0 (%g, %g)", c->nodes[0].send,
       c->nodes[1].recv);
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    cluster_write_csv(c, fp);
    fclose(fp);
    struct cluster *back = cluster_load_csv_buffer("tiny.csv", text, len, &d);
    ok(back && back->nodes[0].send == c->nodes[0].send && back->nodes[1].recv == c->nodes[1].recv,
       "and read back the same");
    cluster_free(back);
    free(text);
    diag_free(&d);
    cluster_free(c);
}

/* What a cluster file cannot say is refused whatever made the cluster (found
 * by the platform fuzzer: a SimGrid host whose name was a NUL byte loaded
 * with an empty name and could not be saved). */
static void test_unsayable_names(void)
{
    struct cluster *c = cluster_new(CLUSTER_NODES);
    cluster_add_node(c, "a", 1, 1);
    cluster_add_node(c, "", 1, 1);
    struct diag d;
    diag_init(&d);
    int rc = cluster_finish(c, &d);
    ok(rc < 0 && d.nlines > 0 && strstr(d.lines[0], "node 2 has an empty name"),
       "an empty node name is refused: %s", d.nlines ? d.lines[0] : "(no message)");
    diag_free(&d);
    cluster_free(c);
    c = cluster_new(CLUSTER_MATRIX);
    cluster_add_node(c, "a", 0, 0);
    cluster_add_node(c, "Send", 0, 0);
    c->dist = xcalloc(4, sizeof *c->dist);
    diag_init(&d);
    rc = cluster_finish(c, &d);
    ok(rc < 0 && d.nlines > 0 && strstr(d.lines[0], "column word of latency matrices"),
       "a matrix node named Send is refused: %s", d.nlines ? d.lines[0] : "(no message)");
    diag_free(&d);
    cluster_free(c);
}

int main(void)
{
    if (!mkdtemp(dir)) {
        printf("not ok 1 - cannot make a temporary directory\n1..1\n");
        return 1;
    }
    test_save();
    test_export();
    test_long_names();
    test_tiny_times();
    test_unsayable_names();
    rmdir(dir);
    return tap_exit();
}
