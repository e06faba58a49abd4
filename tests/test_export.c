/*
 * test_export.c - SVG and CSV export (output/export.c): the tree order and the
 * critical path the view and the SVG share, tick steps, the SVG of one run
 * and of a comparison (well formed, names escaped, every bar and tree edge
 * present), the schedule CSV (RFC 4180 quoting), and writing through a
 * temporary file (a failure leaves nothing behind).
 */
#include <dirent.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/export.h"
#include "output/spool.h"
#include "session/run.h"
#include "support/timekey.h"
#include "sched/registry.h"
#include "tap.h"

static struct cluster *load(const char *text)
{
    struct diag d;
    diag_init(&d);
    struct cluster *c = cluster_load_csv_buffer("counterexample", text, strlen(text), &d);
    if (!c)
        diag_print(&d, stdout);
    diag_free(&d);
    return c;
}

static const char counterexample[] =
    "# name: counterexample\n# latency: 1\nname,send,recv\np0,1,2\np1,1,2\np2,2,3\n";

static char *capture(int (*fn)(FILE *, const struct run *, int), const struct run *r, int k)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    fn(fp, r, k);
    fclose(fp);
    return buf;
}

static int svg_fn(FILE *fp, const struct run *r, int k)
{
    return export_svg(fp, r, k);
}

static int csv_fn(FILE *fp, const struct run *r, int k)
{
    (void)k;
    return export_schedule_csv(fp, r);
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)) != NULL; p += strlen(what))
        n++;
    return n;
}

/* Every opening tag is closed or self-closing (a rough well-formedness check). */
static bool balanced(const char *s)
{
    int depth = 0;
    for (const char *p = s; (p = strchr(p, '<')) != NULL; p++) {
        if (p[1] == '?')
            continue;
        const char *end = strchr(p, '>');
        if (!end)
            return false;
        if (p[1] == '/')
            depth--;
        else if (end[-1] != '/')
            depth++;
        if (depth < 0)
            return false;
    }
    return depth == 0;
}

static void tree_and_ticks(const struct run *fnf)
{
    int order[3], depth[3];
    is_int(export_tree_order(&fnf->eng, order, depth), 3, "tree order lists all three nodes");
    ok(order[0] == 0 && order[1] == 1 && order[2] == 2, "p0, then p1, then p2 (booking order)");
    ok(depth[0] == 0 && depth[1] == 1 && depth[2] == 1, "depths 0, 1, 1");
    unsigned char mark[3];
    is_int(export_critical_path(&fnf->eng, mark), 2, "the critical path ends at p2 (t=6)");
    ok(mark[0] == CRIT_WHOLE && mark[1] == CRIT_SEND && mark[2] == CRIT_WHOLE,
       "critical path: p0 and p2, and the send p0 -> p1 that holds p0's port until p2's send at 1");

    is_double(export_nice_step(6, 12), 0.5, 0, "6 over 12 ticks: 0.5");
    is_double(export_nice_step(23, 10), 5, 0, "23 over 10 ticks: 5");
    is_double(export_nice_step(100, 10), 10, 0, "100 over 10 ticks: 10");
    is_double(export_nice_step(0, 10), 1, 0, "an empty span: 1");
}

static void svg(const struct run *runs)
{
    char *one = capture(svg_fn, runs, 1);
    ok(strncmp(one, "<?xml", 5) == 0 && strstr(one, "<svg") && strstr(one, "</svg>"), "an SVG document");
    ok(balanced(one), "its tags balance");
    ok(strstr(one, "fnf: makespan 6") != NULL, "the run's heading with its makespan");
    is_int(count(one, "<rect"), 1 + 3 + 1 + 2 * 3, "background, legend, one shaded lane, 2 x (send, link, recv)");
    ok(strstr(one, "p0 -&gt; p1") && strstr(one, "p0 -&gt; p2"), "tree edges, escaped");
    ok(strstr(one, "\xe2\x86\x92p1") != NULL, "send bars name their receiver");
    ok(strstr(one, "lower bound 5") && strstr(one, "optimum 5"), "the summary line");
    free(one);

    char *two = capture(svg_fn, runs, 2);
    ok(balanced(two), "the comparison's tags balance");
    ok(strstr(two, "fnf: makespan 6") && strstr(two, "optimal: makespan 5"), "both runs, both makespans");
    is_int(count(two, "<path"), 4, "two trees of two edges");
    free(two);
}

static void csv(const struct run *r)
{
    char *text = capture(csv_fn, r, 1);
    static const char version[] = "# format_version: 2\n# hetcast: ";
    static const char header[] = "scheduler,seq,from,to,send_start,send_end,link_start,link_end,"
                                 "recv_start,recv_end,hold,reason\n";
    const char *line3 = strchr(text, '\n') ? strchr(strchr(text, '\n') + 1, '\n') : NULL;
    ok(strncmp(text, version, strlen(version)) == 0 && line3 &&
           strncmp(line3 + 1, header, strlen(header)) == 0,
       "CSV header, after the format's version and hetcast's");
    ok(strstr(text, "fnf,1,p0,p1,0,1,1,2,2,4,4,") != NULL, "first transfer: p0 -> p1 held at 4");
    ok(strstr(text, "fnf,2,p0,p2,1,2,2,3,3,6,6,") != NULL, "second transfer: p0 -> p2 held at 6");
    ok(strstr(text, ",\"p0 can finish") != NULL, "a reason with commas is quoted");
    is_int(count(text, "\n"), 5, "the two versions, a header and two rows");
    free(text);
}

static int write_hello(FILE *fp, void *ctx)
{
    (void)ctx;
    return fputs("hello\n", fp) < 0 ? -1 : 0;
}

static int write_fail(FILE *fp, void *ctx)
{
    (void)ctx;
    fputs("half", fp);
    return -1;
}

static int files_in(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL)
        if (de->d_name[0] != '.')
            n++;
    if (d)
        closedir(d);
    return n;
}

static void files(const struct run *runs)
{
    char dir[] = "/tmp/hetcast-export-XXXXXX";
    ok(mkdtemp(dir) != NULL, "a scratch directory");
    char path[256], *cause = NULL;
    snprintf(path, sizeof path, "%s/out.txt", dir);
    is_int(export_to_file(path, write_hello, NULL, &cause), 0, "write through a temporary file");
    FILE *fp = fopen(path, "r");
    char line[32] = "";
    if (fp) {
        if (!fgets(line, sizeof line, fp))
            line[0] = '\0';
        fclose(fp);
    }
    is_string(line, "hello\n", "the file holds what was written");
    is_int(export_to_file(path, write_fail, NULL, &cause), -1, "a failing writer is reported");
    ok(cause && strstr(cause, "out.txt") != NULL, "naming the file: %s", cause ? cause : "(null)");
    free(cause);
    cause = NULL;
    fp = fopen(path, "r");
    if (fp) {
        if (!fgets(line, sizeof line, fp))
            line[0] = '\0';
        fclose(fp);
    }
    is_string(line, "hello\n", "the old file is untouched");
    is_int(files_in(dir), 1, "no temporary file is left behind");

    char bad[300];
    snprintf(bad, sizeof bad, "%s/no/such/dir/x.svg", dir);
    is_int(export_to_file(bad, write_hello, NULL, &cause), -1, "a missing directory is reported");
    ok(cause && strstr(cause, "no/such/dir") != NULL, "with the path: %s", cause ? cause : "(null)");
    free(cause);
    cause = NULL;

    char stem[300], svg_path[400], csv_path[400];
    snprintf(stem, sizeof stem, "%s/slides", dir);
    is_int(export_files(runs, 2, stem, svg_path, sizeof svg_path, csv_path, sizeof csv_path, &cause), 0,
           "export_files writes both");
    struct stat st;
    ok(stat(svg_path, &st) == 0 && st.st_size > 1000, "%s exists", svg_path);
    ok(stat(csv_path, &st) == 0 && st.st_size > 50, "%s exists", csv_path);
    is_int(files_in(dir), 3, "out.txt, slides.svg, slides.csv and nothing else");
    unlink(svg_path);
    unlink(csv_path);
    unlink(path);
    rmdir(dir);
}

static bool same_bits(double a, double b)
{
    return time_bits(a) == time_bits(b);
}

/*
 * The spool (output/spool.h) gives back every booking's nodes and times bit for bit, whichever
 * times equal the ones they are compared with (written as a flag) and whichever do not (0 and
 * -0, a NaN's bits, neighbours one bit apart): read in order by a cursor and at random by
 * spool_read, over several blocks; spool_least is each block's least time but the free port's.
 */
static void spool_round_trip(const struct run *r)
{
    enum { N = 3 * SPOOL_BLOCK + 77 };
    struct spool sp;
    char *cause = NULL;
    if (spool_open(&sp, &cause) != 0) {
        ok(false, "a spool opens: %s", cause);
        free(cause);
        return;
    }
    struct timing *tm = xmalloc(N * sizeof *tm);
    uint64_t x = 41;
    for (int i = 0; i < N; i++) {
        double v[8];
        for (int k = 0; k < 8; k++) {
            x = x * 6364136223846793005u + 1442695040888963407u;
            static const int ref[8] = {-1, 0, 1, 2, 3, 4, 5, 1};
            double y = (x >> 60) == 0 ? 0.0 : (x >> 60) == 1 ? -0.0 : bits_time(x >> 2 | 1);
            if (isnan(y))   /* the engine's times are never NaN */
                y = 1.5;
            if (ref[k] >= 0 && (x >> 33 & 3) == 1)   /* the time it is compared with */
                y = v[ref[k]];
            else if (ref[k] >= 0 && (x >> 33 & 3) >= 2)   /* equal but for the sign of 0, or one bit */
                y = v[ref[k]] == 0 ? -v[ref[k]] : bits_time(time_bits(v[ref[k]]) ^ 1);
            v[k] = y;
        }
        tm[i] = (struct timing){v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]};
        spool_book(&sp, i, i % r->c->n, (i * 7 + 1) % r->c->n, &tm[i]);
    }
    int bad = 0;
    struct spool_cursor at;
    spool_cursor_start(&at, &r->eng, &sp);
    int i = 0;
    for (const struct transfer *t; (t = spool_cursor_next(&at)); i++) {
        const double w[8] = {t->start, t->send_end, t->link_start, t->link_end, t->recv_start,
                             t->recv_end, t->hold, t->free};
        const double *v = &tm[i].start;
        for (int k = 0; k < 8; k++)
            bad += !same_bits(w[k], v[k]);
        bad += t->from != i % r->c->n || t->to != (i * 7 + 1) % r->c->n;
    }
    spool_cursor_end(&at);
    is_int(i, N, "the spool's cursor reads back %d bookings over 4 blocks", N);
    for (int j = 0; j < N; j++) {   /* at random, blocks out of order */
        int k = (int)(((uint64_t)j * 2654435761u) % N);
        struct transfer t;
        bad += spool_read(&sp, k, &t) != 0 || !same_bits(t.hold, tm[k].hold) || !same_bits(t.free, tm[k].free) ||
               !same_bits(t.link_end, tm[k].link_end) || !same_bits(t.start, tm[k].start);
    }
    is_int(bad, 0, "every node and time comes back bit for bit, in order and at random");
    int least_bad = 0;
    for (int b = 0; b * SPOOL_BLOCK < N; b++) {
        double m = INFINITY;
        for (int j = b * SPOOL_BLOCK; j < N && j < (b + 1) * SPOOL_BLOCK; j++) {
            const double *v = &tm[j].start;
            for (int k = 0; k < 7; k++)   /* not the free port's time */
                m = v[k] < m ? v[k] : m;
        }
        least_bad += spool_least(&sp, b) != m;
    }
    is_int(least_bad, 0, "spool_least is each block's least time");
    ok(spool_check(&sp, &cause) == 0, "no error kept");
    free(cause);
    spool_close(&sp);
    free(tm);
}

int main(void)
{
    struct cluster *c = load(counterexample);
    ok(c != NULL, "the counterexample loads");
    if (!c)
        return tap_exit();
    struct run runs[2];
    struct sched_opts so;
    sched_opts_default(&so);
    int rc = run_schedule(&runs[0], c, MODEL_ASYNC, sched_find("fnf"), &so, RUN_OPT_SMALL, NULL);
    rc |= run_schedule(&runs[1], c, MODEL_ASYNC, sched_find("optimal"), &so, RUN_OPT_SMALL, NULL);
    is_int(rc, 0, "fnf and optimal run");
    tree_and_ticks(&runs[0]);
    svg(runs);
    csv(&runs[0]);
    files(runs);
    spool_round_trip(&runs[0]);
    run_free(&runs[0]);
    run_free(&runs[1]);
    cluster_free(c);
    return tap_exit();
}
