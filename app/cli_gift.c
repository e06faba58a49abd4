/*
 * app/cli_gift.c - hetcast lesson FILE --gift: a lesson's questions in
 * Moodle's GIFT format, for the course's site.  A question with choices is a
 * multiple-choice question (the right one marked =, each with feedback); a
 * makespan prediction a numerical one whose answer is hetcast's makespan of
 * the slide's run (the same run as the view and --print); a "next transfer"
 * prediction a short answer ("SENDER RECEIVER"); any other question an
 * essay whose general feedback is the slide's answer (each kind's body is
 * its row's writer, session/question.c).
 *
 * Each question's stem is HTML ([html]): the slide's text, the question, and
 * the cluster as the students' handout shows it (its node table, latency
 * matrix or links) as an HTML table, on one line.  Every text is escaped for
 * HTML where Moodle shows it as HTML and for GIFT (~ = # { } : and the
 * backslash), with control characters replaced; a short answer, which Moodle
 * compares with what the student types, is escaped for GIFT only.  The
 * category path is the lesson's title without GIFT's special characters
 * (Moodle does not unescape a category).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cli_common.h"
#include "model/cluster.h"
#include "sched/registry.h"
#include "session/lesson.h"
#include "support/numfmt.h"

/* s in GIFT to fp: its special characters escaped, breaks and control characters as spaces. */
static void put_gift_to(FILE *fp, const char *s)
{
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (strchr("~=#{}:\\", ch))
            fprintf(fp, "\\%c", ch);
        else
            putc(ch < 0x20 || ch == 0x7f ? ' ' : ch, fp);
    }
}

/* s as HTML text in GIFT to fp: & < > " escaped as entities, then as put_gift_to. */
static void put_html_to(FILE *fp, const char *s)
{
    for (; s && *s; s++) {
        const char *ent = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : *s == '"' ? "&quot;"
                                                                                                       : NULL;
        if (ent) {
            fputs(ent, fp);
        } else {
            char one[2] = {*s, '\0'};
            put_gift_to(fp, one);
        }
    }
}

static void put_html(const char *s)
{
    put_html_to(stdout, s);
}

/* The category's name: s without GIFT's special characters and the slash (Moodle's
 * path separator), runs of blanks as one. */
static void put_category(const char *s)
{
    bool blank = false;
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (strchr("~=#{}:\\/", ch) || ch < 0x20 || ch == 0x7f || ch == ' ') {
            blank = true;
            continue;
        }
        if (blank)
            putchar(' ');
        blank = false;
        putchar(ch);
    }
}

static void html_cell(const char *tag, const char *s)
{
    printf("<%s>", tag);
    put_html(s);
    printf("</%s>", tag);
}

/* The cluster as an HTML table: its nodes' times, its distances or its links. */
static void html_cluster(const struct cluster *c)
{
    printf("<table><caption>");
    char head[200];
    snprintf(head, sizeof head, "%s, source ", cluster_kind_name(c->kind));
    put_html(head);
    put_html(c->nodes[c->source].name);
    if (c->kind == CLUSTER_NODES) {
        put_html(", latency L = ");
        put_html(numfmt_txt(c->latency));
    }
    printf("</caption><tr>");
    if (c->kind == CLUSTER_NODES) {
        html_cell("th", "node"), html_cell("th", "send s"), html_cell("th", "receive r");
    } else if (c->kind == CLUSTER_MATRIX) {
        html_cell("th", "from \\ to");
        for (int j = 0; j < c->n; j++)
            html_cell("th", c->nodes[j].name);
    } else {
        html_cell("th", "from"), html_cell("th", "to"), html_cell("th", "time");
    }
    printf("</tr>");
    if (c->kind == CLUSTER_GRAPH)
        for (int k = 0; k < c->nedges; k++) {
            printf("<tr>");
            html_cell("td", c->nodes[c->edges[k].from].name);
            html_cell("td", c->nodes[c->edges[k].to].name);
            html_cell("td", numfmt_txt(c->edges[k].time));
            printf("</tr>");
        }
    else
        for (int i = 0; i < c->n; i++) {
            printf("<tr>");
            html_cell("td", c->nodes[i].name);
            if (c->kind == CLUSTER_NODES) {
                html_cell("td", numfmt_txt(c->nodes[i].send));
                html_cell("td", numfmt_txt(c->nodes[i].recv));
            } else {
                for (int j = 0; j < c->n; j++)
                    html_cell("td", numfmt_txt(c->dist[(size_t)i * (size_t)c->n + (size_t)j]));
            }
            printf("</tr>");
        }
    printf("</table>");
}

/* The slide's cluster into *c, and when its question predicts, the run of its first
 * scheduler into *r (*ran set): 0, or -1 with *cause. */
static int slide_run(const struct lesson *l, int k, struct cluster **c, struct run *r, bool *ran, char **cause)
{
    const struct slide *s = &l->slides[k];
    struct session_opts o;
    lesson_session(l, k, &o);
    struct diag warn;
    diag_init(&warn);
    *c = session_load(&o, &warn, cause);
    diag_free(&warn);
    *ran = false;
    if (!*c)
        return -1;
    if (!s->kind->predicts)
        return 0;
    enum model m;
    const struct sched_ops *ops = NULL;
    if (session_model(&o, *c, &m, cause) == 0)
        ops = s->nsched ? session_sched(s->sched[0], cause) : sched_default(*c, m);
    if (!ops || sched_check(ops, *c, m, cause) < 0 ||
        session_run(r, &o, *c, m, ops, false, RUN_OPT_SMALL, cause) < 0) {
        cluster_free(*c);
        return -1;
    }
    *ran = true;
    return 0;
}

/* One question: its title, its HTML stem (the slide's text, the question, how to
 * answer, the cluster) and its row's body. */
static void gift_question(const struct slide *s, int k, const struct cluster *c, const struct run *r,
                          const char *expected)
{
    printf("::slide %d ", k + 1);
    put_gift_to(stdout, s->title ? s->title : "");
    printf("::[html]");
    if (s->text) {
        printf("<p>");
        put_html(s->text);
        printf("</p>");
    }
    printf("<p><b>");
    put_html(s->question);
    printf("</b>");
    if (s->kind->gift_asks) {
        printf(" ");
        put_html(s->kind->gift_asks);
    }
    printf("</p>");
    html_cluster(c);
    s->kind->gift(s, r, expected, &(struct question_out){stdout, put_html_to, put_gift_to});
}

int lesson_gift(const struct lesson *l, bool first)
{
    if (!first)
        printf("\n");
    printf("// hetcast lesson: ");
    put_gift_to(stdout, l->title ? l->title : l->path);
    printf("\n$CATEGORY: hetcast/");
    put_category(l->title ? l->title : l->path);
    printf("\n\n");
    for (int k = 0; k < l->n; k++) {
        const struct slide *s = &l->slides[k];
        if (!s->question)
            continue;
        struct cluster *c = NULL;
        struct run r;
        bool ran;
        char *cause = NULL;
        if (slide_run(l, k, &c, &r, &ran, &cause) < 0) {
            lesson_complain(l, k, cause ? cause : "failed", false);
            free(cause);
            return 2;
        }
        char expected[160];
        if (!lesson_expected(s, ran ? &r : NULL, expected, sizeof expected) && slide_gradable(s))
            cause = lesson_unanswerable(s, ran ? &r : NULL);
        else
            gift_question(s, k, c, ran ? &r : NULL, expected);
        if (ran)
            run_free(&r);
        cluster_free(c);
        if (cause) {   /* nothing to grade against: refused, the lesson is the author's to mend */
            lesson_complain(l, k, cause, false);
            free(cause);
            return 2;
        }
    }
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
