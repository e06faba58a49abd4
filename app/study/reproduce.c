/*
 * app/study/reproduce.c - hetcast experiment reproduce: every study of the five
 * papers at the papers' settings, one table per paper (result | the paper's
 * number or claim | hetcast's | verdict | why), in Markdown; then "Since the
 * papers": the claims of the later papers whose algorithms hetcast took
 * (Khuller & Kim; Bar-Noy, Guha, Naor & Schieber; the MPI broadcasts of
 * Thakur, Rabenseifner & Gropp, van de Geijn et al. and Sanders, Speck &
 * Träff), one table each, checked the same way.  The output is
 * docs/reproduction.md (tests/reproduce.sh checks that the committed file
 * is what this prints).  One file a paper (app/study/reproduce_*.c, their
 * contract in app/study/reproduce.h); here the command, the parts' table
 * and the one writer of their tables.
 *
 * Every verdict is computed from the runs by the rule written beside it
 * (a threshold on the paper's own words), never typed in; where hetcast
 * differs, the "why" column points to a run printed under the table, and a
 * claim no run can show (a theorem, an algorithm hetcast does not have) is
 * "not checked", saying which.  Everything is seeded (seed 1 unless said);
 * two bundled clusters are read from the data directory (app/datadir.h).
 * No clock: every budget is counted in work (search nodes, simplex
 * iterations), so the bytes are the same on any machine, however loaded
 * (tests/reproduce_stall.sh).  The whole takes about 14.7 s of CPU, the part since the papers 0.4 s
 * (docs/performance.md).
 */

#include "app/study/reproduce.h"
#include "app/study/experiment.h"
#include "app/opts.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/datadir.h"
#include "support/atomic.h"
#include "support/diag.h"

#define PROG REP_PROG

/* ---- the rows and their writer ---- */

void rep_row(struct rep_table *t, const char *result, const char *paper, const char *ours,
             const char *verdict, const char *why)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->cells = xrealloc(t->cells, (size_t)t->cap * sizeof *t->cells);
    }
    const char *c[5] = {result, paper, ours, verdict, why};
    for (int i = 0; i < 5; i++)
        t->cells[t->n][i] = xstrdup(c[i]);
    t->n++;
}

void rep_table_print(FILE *out, struct rep_table *t)
{
    fprintf(out, "| result | the paper | hetcast | verdict | why |\n| --- | --- | --- | --- | --- |\n");
    for (int r = 0; r < t->n; r++) {
        fprintf(out, "| %s | %s | %s | %s | %s |\n", t->cells[r][0], t->cells[r][1], t->cells[r][2],
                t->cells[r][3], t->cells[r][4]);
        for (int i = 0; i < 5; i++)
            free(t->cells[r][i]);
    }
    free(t->cells);
    *t = (struct rep_table){0};
}

const char *rep_verdict(bool ok)
{
    return ok ? "reproduced" : "**not reproduced**";
}

const char *rep_fmt(const char *f, ...)
{
    static char ring[16][1024];   /* the longest cell is under 900 bytes */
    static int next;
    char *b = ring[next++ % 16];
    va_list ap;
    va_start(ap, f);
    vsnprintf(b, sizeof ring[0], f, ap);
    va_end(ap);
    return b;
}

const char *rep_rule_why(bool ok, const char *rule)
{
    return ok ? rule : rep_fmt("%s.  No run here explains the gap", rule);
}

int rep_fail(const char *what, char *cause)
{
    opts_say(PROG, cause ? cause : what);
    free(cause);
    return -1;
}

/* ==== the command ==== */

/* The parts, in the document's order: --part picks some by name. */
static const struct part {
    const char *name;
    int (*run)(FILE *out);
} parts[] = {
    {"liu-wang-guo", rep_liu_wang_guo}, {"nsc-report", rep_nsc_report}, {"figueira", rep_figueira},
    {"beaumont", rep_beaumont},         {"chen-liu", rep_chen_liu},     {"since", rep_since},
};
#define NPARTS ((int)(sizeof parts / sizeof parts[0]))

struct ropts {
    const char *output;
    unsigned parts;   /* bit i: parts[i] (0: all, with the document's title) */
};

enum { R_OUTPUT = 'o', R_PART = OPT_LONG };

static int set_ropt(void *ctx, int key, const char *a, const char *v)
{
    struct ropts *o = ctx;
    if (key != R_PART)
        return 0;
    char buf[256], want[256] = "part names separated by commas:";
    snprintf(buf, sizeof buf, "%s", v);
    for (int i = 0; i < NPARTS; i++)
        snprintf(want + strlen(want), sizeof want - strlen(want), " %s", parts[i].name);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int i = 0;
        while (i < NPARTS && strcmp(tok, parts[i].name) != 0)
            i++;
        if (i == NPARTS)
            return opt_fail(a, v, want);
        o->parts |= 1u << i;
    }
    return o->parts ? 0 : opt_fail(a, v, want);
}

#define AT(f) offsetof(struct ropts, f)
static const struct opt r_table[] = {
    {"output", R_OUTPUT, "FILE", "also write the tables to FILE (replaced whole)", OPT_STRING,
     AT(output), 0, 0, NULL},
    {"part", R_PART, "NAME,..", "only these parts, without the document's title: liu-wang-guo, "
     "nsc-report, figueira, beaumont, chen-liu, since", OPT_CALL, 0, 0, 0, NULL},
    {NULL, 0, NULL, NULL, OPT_CALL, 0, 0, 0, NULL},
};
#undef AT

static void title(FILE *out)
{
    fprintf(out, "# Reproduction of the five papers, and of the papers since\n\n"
                 "Generated by `hetcast experiment reproduce` (do not edit: "
                 "`tests/reproduce.sh` checks that this file is what the command prints).  "
                 "Every number below comes from a run the command makes, at the papers' "
                 "settings; every verdict is computed from those numbers by the rule in its "
                 "row (a threshold on the paper's words where the paper gives no number).  "
                 "*not reproduced* means the run does not show what the paper says; the why "
                 "column points to the run that shows the difference, or says that none here "
                 "explains it.  *not checked* means hetcast has no run for it.\n\n");
}

/*
 * The parts chosen (mask 0: the whole document), each to the end even when
 * one before it failed: a part's section goes to the document only once all
 * its runs are done, so a failed part (said on stderr) leaves one line in its
 * place and the others every row they have.  0, or -1 if any part failed.
 */
static int document(FILE *doc, unsigned mask)
{
    if (!mask)
        title(doc);
    int rc = 0;
    for (int i = 0; i < NPARTS; i++) {
        if (mask && !(mask & 1u << i))
            continue;
        char *text = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&text, &len);
        int prc = out ? parts[i].run(out) : rep_fail("out of memory", NULL);
        if (out)
            fclose(out);
        if (prc == 0) {
            fwrite(text, 1, len, doc);
        } else {
            rc = -1;
            fprintf(doc, "**The part %s failed** (`--part %s`; the reason is on stderr): its rows "
                         "are missing.\n\n", parts[i].name, parts[i].name);
        }
        free(text);
    }
    return rc;
}

int exp_reproduce_main(int argc, char **argv)
{
    struct ropts o = {NULL, 0};
    int n;
    int rc = opts_parse(PROG, r_table, argc, argv, set_ropt, &o, NULL, 0, &n);
    if (rc == OPTS_HELP) {
        printf("%s [-o FILE] [--part NAME,..]: every study of the five papers at the papers' "
               "settings, and the claims of the later papers behind hetcast's algorithms, one "
               "table per paper (Markdown: docs/reproduction.md)\n",
               PROG);
        opts_help(stdout, r_table);
        return 0;
    }
    if (rc)
        return rc;
    bool since = !o.parts || o.parts & 1u << (NPARTS - 1);
    if (since && !app_datadir())   /* the part since the papers reads two bundled clusters: said first */
        return opts_error(1, "no data directory holds clusters/ (khuller-kim.csv, multicast.csv); "
                             "set HETCAST_DATADIR to hetcast's share/hetcast or its source tree");
    struct atomic_file af;
    if (o.output && atomic_open(&af, o.output) != 0) {   /* refused before the runs */
        int err = errno;
        return opts_error(2, "%s: %s", o.output,
                          err == EISDIR ? "not a file name" : atomic_why(&af, err));
    }
    char *text = NULL;
    size_t len = 0;
    FILE *doc = open_memstream(&text, &len);
    rc = doc ? document(doc, o.parts) : -1;
    if (doc)
        fclose(doc);
    if (rc < 0) {
        fwrite(text, 1, len, stdout);   /* a failure too prints every row it has */
        if (o.output)
            atomic_abort(&af);   /* the file is the whole document or nothing */
        free(text);
        return 1;
    }
    if (o.output) {
        fwrite(text, 1, len, af.fp);
        if (atomic_commit(&af) != 0) {
            int err = errno;
            free(text);
            return opts_error(1, "%s: cannot save: %s", o.output, strerror(err));
        }
    }
    fwrite(text, 1, len, stdout);
    free(text);
    return 0;
}
