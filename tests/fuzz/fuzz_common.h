/*
 * fuzz_common.h - what the libFuzzer harnesses (fuzz_*.c) share: the model comparison behind the CSV round-trip check, a round trip
 * through cluster_write_csv and cluster_load_csv_buffer, and a short run of
 * every scheduler that accepts a small cluster, whose outputs must be valid
 * (fuzz_output.h: JSON, SVG as XML, text without control bytes).
 *
 * It also holds what every harness sets up (fuzz_setup): the sink the text
 * reports go to, a private temporary directory for the loaders that read a
 * path (fuzz_file), and Lua's print silenced; and the checks of a load
 * every harness makes (fuzz_check_load).
 *
 * Every input also runs with the fast paths off (support/fastpath.h): the loader,
 * the checks and the schedulers must give the same result both ways
 * (fuzz_same_load, and fuzz_schedule's runs).
 *
 * A harness reports a broken promise by printing what broke and calling
 * abort(), which libFuzzer (and the replay test, replay.c) treat as a crash.
 * Everything here is static: each harness is one translation unit.
 */
#ifndef HETCAST_FUZZ_COMMON_H
#define HETCAST_FUZZ_COMMON_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/cluster.h"
#include "support/diag.h"
#include "output/export.h"
#include "output/export_interop.h"
#include "support/fastpath.h"
#include "fuzz_output.h"
#include "support/lua_sandbox.h"
#include "output/report.h"
#include "session/run.h"
#include "sched/registry.h"

#define FUZZ_RUN_NODES 8    /* clusters up to this size are also scheduled */

__attribute__((unused)) static void fuzz_fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz: broken promise: %s%s%s\n", what, detail ? ": " : "",
            detail ? detail : "");
    abort();
}

/* libFuzzer's entry points, defined by each harness. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- what every harness sets up ---- */

static FILE *fuzz_sink;    /* the text reports go nowhere, but through the real code */
static char *fuzz_dir;     /* a private temporary directory, made by fuzz_file */
#define FUZZ_MAX_FILES 4
static char *fuzz_files[FUZZ_MAX_FILES];   /* the files made in it, removed at exit */

__attribute__((unused)) static void fuzz_quiet_print(const char *name, const char *text, void *ud)
{
    (void)name;
    (void)text;
    (void)ud;
}

__attribute__((unused)) static void fuzz_cleanup(void)
{
    for (int i = 0; i < FUZZ_MAX_FILES; i++) {
        if (fuzz_files[i])
            unlink(fuzz_files[i]);
        free(fuzz_files[i]);
        fuzz_files[i] = NULL;
    }
    if (fuzz_dir)
        rmdir(fuzz_dir);
    free(fuzz_dir);
    fuzz_dir = NULL;
    if (fuzz_sink)
        fclose(fuzz_sink);
    fuzz_sink = NULL;
}

/* LLVMFuzzerInitialize's work: the sink, Lua's print silenced, cleanup at exit. */
__attribute__((unused)) static void fuzz_setup(void)
{
    fuzz_sink = fopen("/dev/null", "w");
    if (!fuzz_sink) {
        fprintf(stderr, "fuzz: cannot open /dev/null\n");
        abort();
    }
    sandbox_set_print(fuzz_quiet_print, NULL);
    atexit(fuzz_cleanup);
}

/*
 * data written to the file called name in the private temporary directory
 * (made on first use, under $TMPDIR): the path, for loaders that read one.
 * The same name is the same file, rewritten for each input.
 */
__attribute__((unused)) static const char *fuzz_file(const char *name, const uint8_t *data, size_t size)
{
    if (!fuzz_dir) {
        const char *tmp = getenv("TMPDIR");
        fuzz_dir = xasprintf("%s/hetcast-fuzz.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(fuzz_dir)) {
            fprintf(stderr, "fuzz: cannot make a temporary directory %s\n", fuzz_dir);
            abort();
        }
    }
    char *path = xasprintf("%s/%s", fuzz_dir, name);
    int slot = -1;
    for (int i = 0; i < FUZZ_MAX_FILES && slot < 0; i++)
        if (!fuzz_files[i] || strcmp(fuzz_files[i], path) == 0)
            slot = i;
    if (slot < 0) {
        fprintf(stderr, "fuzz: more than %d files\n", FUZZ_MAX_FILES);
        abort();
    }
    if (fuzz_files[slot])
        free(path);
    else
        fuzz_files[slot] = path;
    FILE *fp = fopen(fuzz_files[slot], "wb");
    if (!fp || (size && fwrite(data, 1, size, fp) != size) || fclose(fp) != 0) {
        fprintf(stderr, "fuzz: cannot write %s\n", fuzz_files[slot]);
        abort();
    }
    return fuzz_files[slot];
}

/* With HETCAST_FUZZ_VERBOSE set (replaying one input by hand), print its messages. */
__attribute__((unused)) static void fuzz_show(const struct diag *d, const struct cluster *c)
{
    if (!getenv("HETCAST_FUZZ_VERBOSE"))
        return;
    diag_print(d, stderr);
    if (c)
        fprintf(stderr, "fuzz: loaded a %s of %d nodes\n", cluster_kind_name(c->kind), c->n);
}

/* Every diagnostic line is one line of printable text (SPEC §5: one line per problem). */
__attribute__((unused)) static void fuzz_check_diag_lines(const struct diag *d)
{
    for (int i = 0; i < d->nlines; i++)
        for (const char *s = d->lines[i]; *s; s++)
            if ((unsigned char)*s < 0x20 || *s == 0x7f)
                fuzz_fail("a diagnostic holds a control character", d->lines[i]);
}

/*
 * What every load promises: a refused input has an error message, a
 * loaded cluster none, and nodes with a source among them.  what: "file",
 * "script", ... for the message.
 */
__attribute__((unused)) static void fuzz_check_load(const struct cluster *c, const struct diag *d, const char *what)
{
    char msg[96];
    if (!c) {
        if (d->errors == 0) {
            snprintf(msg, sizeof msg, "a refused %s has no error message", what);
            fuzz_fail(msg, NULL);
        }
        return;
    }
    if (d->errors != 0)
        fuzz_fail("a cluster was returned with errors", NULL);
    if (c->n < 1 || c->source < 0 || c->source >= c->n)
        fuzz_fail("a loaded cluster has no nodes or a source out of range", NULL);
}

__attribute__((unused)) static bool same_str(const char *a, const char *b)
{
    return (a ? a : "")[0] == '\0' ? (b ? b : "")[0] == '\0' : b && strcmp(a, b) == 0;
}

/* Bit-for-bit equal doubles (0 and -0 alike: the writer prints both as 0). */
__attribute__((unused)) static bool same_num(double a, double b)
{
    return a == b || (isnan(a) && isnan(b));
}

/* NULL if a and b are the same model, else what differs. */
__attribute__((unused)) static const char *fuzz_model_diff(const struct cluster *a, const struct cluster *b)
{
    if (a->kind != b->kind)
        return "kind";
    if (a->n != b->n)
        return "number of nodes";
    if (a->source != b->source)
        return "source";
    if (!same_str(a->name, b->name))
        return "name";
    if (!same_str(a->description, b->description))
        return "description";
    for (int i = 0; i < a->n; i++) {
        const struct node *x = &a->nodes[i], *y = &b->nodes[i];
        if (strcmp(x->name, y->name) != 0)
            return "node name";
        if (!same_num(x->send, y->send) || !same_num(x->recv, y->recv))
            return "node send/recv";
        if (a->kind == CLUSTER_NODES && (!same_str(cluster_class(a, i), cluster_class(b, i)) ||
                                        !same_str(cluster_group(a, i), cluster_group(b, i))))
            return "node class/group";
    }
    if (a->kind == CLUSTER_NODES && !same_num(a->latency, b->latency))
        return "latency";
    if (a->kind == CLUSTER_MATRIX) {
        if (!same_num(a->unit, b->unit))
            return "unit";
        for (int q = 0; q < a->n; q++)
            for (int p = 0; p < a->n; p++)
                if (!same_num(cluster_dist(a, q, p), cluster_dist(b, q, p)))
                    return "distances";
    }
    if (a->kind == CLUSTER_GRAPH) {
        if (a->nedges != b->nedges)
            return "number of edges";
        for (int k = 0; k < a->nedges; k++) {
            const struct edge *x = &a->edges[k], *y = &b->edges[k];
            if (x->from != y->from || x->to != y->to || !same_num(x->time, y->time))
                return "edge";
            if ((x->send < 0) != (y->send < 0) || (x->send >= 0 && x->send != y->send))
                return "edge send time";
        }
    }
    return NULL;
}

/*
 * A load with the fast paths on (c1, d1) and the same load with them off
 * (c2, d2): both refused or both loaded, the same messages, the same model
 * and the same file lines of its nodes.
 */
__attribute__((unused)) static void fuzz_same_load(const struct cluster *c1, const struct diag *d1,
                           const struct cluster *c2, const struct diag *d2)
{
    if ((c1 == NULL) != (c2 == NULL))
        fuzz_fail("fast and readable paths: one loads, the other refuses", NULL);
    if (d1->nlines != d2->nlines || d1->errors != d2->errors || d1->warnings != d2->warnings)
        fuzz_fail("fast and readable paths: other messages", NULL);
    for (int i = 0; i < d1->nlines; i++)
        if (strcmp(d1->lines[i], d2->lines[i]) != 0)
            fuzz_fail("fast and readable paths: another message", d1->lines[i]);
    if (!c1)
        return;
    const char *why = fuzz_model_diff(c1, c2);
    if (why)
        fuzz_fail("fast and readable paths: another model", why);
    for (int i = 0; i < c1->n; i++)
        if (cluster_line(c1, i) != cluster_line(c2, i))
            fuzz_fail("fast and readable paths: another line for a node", c1->nodes[i].name);
}

/* c as CSV text (caller frees), or NULL with *cause when it cannot be written. */
__attribute__((unused)) static char *fuzz_write(const struct cluster *c, size_t *len, char **cause)
{
    char *text = NULL;
    FILE *fp = open_memstream(&text, len);
    if (!fp)
        fuzz_fail("open_memstream", NULL);
    int rc = cluster_write_csv(c, fp);
    fclose(fp);
    if (rc != 0) {
        free(text);
        *cause = xstrdup("cluster_write_csv refused the cluster");
        return NULL;
    }
    return text;
}

/*
 * Write c, load it back and compare; write the copy again and compare the
 * text.  must_write: c came from a CSV file, so the writer may not refuse it.
 */
__attribute__((unused)) static void fuzz_round_trip(const struct cluster *c, bool must_write)
{
    size_t len = 0;
    char *cause = NULL;
    char *text = fuzz_write(c, &len, &cause);
    if (!text) {
        if (must_write)
            fuzz_fail("a loaded cluster cannot be written", cause);
        free(cause);
        return;
    }
    struct diag d;
    diag_init(&d);
    struct cluster *back = cluster_load_csv_buffer(c->path ? c->path : "fuzz.csv", text, len, &d);
    if (!back) {
        char *all = diag_join(&d);
        fprintf(stderr, "--- written:\n%s--- end\n", text);
        fuzz_fail("the written cluster does not load back", all);
    }
    const char *why = fuzz_model_diff(c, back);
    if (why) {
        fprintf(stderr, "--- written:\n%s--- end\n", text);
        fuzz_fail("the round trip changed the model", why);
    }
    size_t len2 = 0;
    char *text2 = fuzz_write(back, &len2, &cause);
    if (!text2 || len2 != len || memcmp(text, text2, len) != 0)
        fuzz_fail("writing the reloaded cluster gives other text", NULL);
    free(text2);
    free(text);
    cluster_free(back);
    diag_free(&d);
}

/*
 * The JSON report holds no bare inf or nan (JSON has neither): outside its
 * strings, the only words are true, false and null, and every string ends.
 */
__attribute__((unused)) static void fuzz_check_json(const struct run *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    if (!fp)
        fuzz_fail("open_memstream", NULL);
    report_run_json(fp, r, false);
    fclose(fp);
    const char *why = NULL;
    for (const char *p = text; *p && !why; p++) {
        if (*p == '"') {
            for (p++; *p && *p != '"'; p++)
                if (*p == '\\' && p[1])
                    p++;
            if (!*p)
                why = "a string that does not end";
        } else if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) {
            size_t n = 0;
            while ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z'))
                n++;
            bool exponent = n == 1 && (*p == 'e' || *p == 'E') && p > text && p[-1] >= '0' &&
                            p[-1] <= '9';
            if (!exponent && !(n == 4 && strncmp(p, "true", 4) == 0) &&
                !(n == 5 && strncmp(p, "false", 5) == 0) && !(n == 4 && strncmp(p, "null", 4) == 0))
                why = "a word that is not true, false or null (inf? nan?)";
            p += n - 1;
        }
    }
    if (why) {
        fprintf(stderr, "--- json:\n%s--- end\n", text);
        fuzz_fail("the JSON report is not JSON", why);
    }
    free(text);
}

typedef void (*fuzz_writer)(FILE *fp, const struct run *r);

__attribute__((unused)) static void w_text(FILE *fp, const struct run *r) { report_run_text(fp, r, false); }
__attribute__((unused)) static void w_csv(FILE *fp, const struct run *r) { report_run_csv(fp, r, false, true); }
__attribute__((unused)) static void w_json(FILE *fp, const struct run *r) { report_run_json(fp, r, false); }
__attribute__((unused)) static void w_svg(FILE *fp, const struct run *r) { export_svg(fp, r, 1); }
__attribute__((unused)) static void w_paje(FILE *fp, const struct run *r) { export_paje(fp, r, 1); }
__attribute__((unused)) static void w_dot(FILE *fp, const struct run *r) { export_dot(fp, r, 1); }
__attribute__((unused)) static void w_sched_csv(FILE *fp, const struct run *r) { export_schedule_csv(fp, r); }

/*
 * Every output of r is valid: the JSON report is JSON with UTF-8 strings,
 * the SVG is XML, and the text ones (text and CSV reports, the schedule
 * CSV, Paje, DOT) hold no control byte but '\n'.
 */
__attribute__((unused)) static void fuzz_check_outputs(const struct run *r)
{
    static const struct {
        const char *name;
        fuzz_writer w;
        const char *(*flaw)(const char *text, size_t len);
    } outs[] = {
        {"text report", w_text, fuzz_text_flaw},  {"CSV report", w_csv, fuzz_text_flaw},
        {"JSON report", w_json, fuzz_json_flaw},  {"SVG", w_svg, fuzz_xml_flaw},
        {"Paje trace", w_paje, fuzz_text_flaw},   {"DOT graph", w_dot, fuzz_text_flaw},
        {"schedule CSV", w_sched_csv, fuzz_text_flaw},
    };
    for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
        char *text = NULL;
        size_t len = 0;
        FILE *fp = open_memstream(&text, &len);
        if (!fp)
            fuzz_fail("open_memstream", NULL);
        outs[i].w(fp, r);
        fclose(fp);
        const char *why = outs[i].flaw(text, len);
        if (why) {
            fprintf(stderr, "--- %s:\n%s--- end\n", outs[i].name, text);
            fuzz_fail(outs[i].name, why);
        }
        free(text);
    }
}

/*
 * Run every built-in scheduler that accepts c (in its default model) with
 * small limits, print the text report to out and check the JSON one.  A
 * scheduler may refuse with a message; it may not crash, and a finished
 * schedule must have a makespan that is a finite number >= 0
 * (CLUSTER_MAX_TIME keeps sums finite).
 */
__attribute__((unused)) static void fuzz_schedule(const struct cluster *c, FILE *out)
{
    if (c->n > FUZZ_RUN_NODES)
        return;
    enum model m = model_default_for(c->kind);
    for (int i = 0; i < sched_count(); i++) {
        const struct sched_ops *ops = sched_at(i);
        char *cause = NULL;
        if (sched_check(ops, c, m, &cause) < 0) {
            free(cause);
            continue;
        }
        struct sched_opts o;
        sched_opts_default(&o);
        o.time_limit = 0.02;
        o.node_limit = 500;
        o.slices = 2;
        struct run r;
        memset(&r, 0, sizeof r);
        if (run_schedule(&r, c, m, ops, &o, RUN_OPT_NEVER, &cause) == 0) {
            report_run_text(out, &r, false);
            fuzz_check_json(&r);
            fuzz_check_outputs(&r);
            double ms = r.eng.makespan;
            int ntr = r.eng.ntr;
            run_free(&r);
            if (!(ms >= 0) || !isfinite(ms))
                fuzz_fail("a schedule has a makespan that is not a finite number >= 0", ops->name);
            if (strncmp(ops->name, "optimal", 7) != 0) {   /* optimal, optimal-sum: wall-clock time limits */
                /* The same run on the readable paths. */
                struct run r2;
                memset(&r2, 0, sizeof r2);
                fastpath_set(false);
                int rc = run_schedule(&r2, c, m, ops, &o, RUN_OPT_NEVER, &cause);
                fastpath_set(true);
                /* The throughput LP's limit is wall-clock too (o.time_limit): on a
                 * busy machine one of the two runs may give up and the other not. */
                bool lp_gave_up = rc != 0 && cause && strstr(cause, "linear program gave up");
                if (!lp_gave_up && (rc != 0 || r2.eng.makespan != ms || r2.eng.ntr != ntr))
                    fuzz_fail("fast and readable paths: another schedule", ops->name);
                run_free(&r2);
            }
        }
        free(cause);
    }
}

#endif
