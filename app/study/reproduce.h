/*
 * app/study/reproduce.h - the parts of hetcast experiment reproduce, one file
 * a paper (app/study/reproduce_*.c), and what they share: the cells of a row
 * and the one writer of the tables.
 *
 * A part makes its runs, judges each result by the rule written beside it,
 * and hands its rows {result, the paper's claim, hetcast's, verdict, why} to
 * a rep_table; rep_table_print writes the Markdown.  A part writes its
 * section to out only once its runs are done: 0, or -1 with the reason said
 * on stderr (rep_fail).
 */
#ifndef HETCAST_REPRODUCE_H
#define HETCAST_REPRODUCE_H

#include <stdbool.h>
#include <stdio.h>

#define REP_PROG "hetcast experiment reproduce"

/* The rows of one table, each cell a copy (the rep_fmt buffers are reused). */
struct rep_table {
    int n, cap;
    char *(*cells)[5];
};
void rep_row(struct rep_table *t, const char *result, const char *paper, const char *ours,
             const char *verdict, const char *why);
/* The table's head and rows in Markdown, then the rows are freed. */
void rep_table_print(FILE *out, struct rep_table *t);

/* "reproduced" or "**not reproduced**" by a rule. */
const char *rep_verdict(bool ok);
/* A printf into a ring of 16 static buffers: the cells of one row at a time. */
const char *rep_fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
/* The why of a row judged by a rule alone: the rule, and when the run does
 * not meet it, that no run here shows why. */
const char *rep_rule_why(bool ok, const char *rule);
/* Says cause (else what) on stderr, frees cause; returns -1. */
int rep_fail(const char *what, char *cause);

int rep_liu_wang_guo(FILE *out);   /* reproduce_lwg.c */
int rep_nsc_report(FILE *out);     /* reproduce_nsc.c */
int rep_figueira(FILE *out);       /* reproduce_figueira.c */
int rep_beaumont(FILE *out);       /* reproduce_beaumont.c */
int rep_chen_liu(FILE *out);       /* reproduce_chen_liu.c */
int rep_since(FILE *out);          /* reproduce_since.c: the papers since */

#endif
