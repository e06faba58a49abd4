/*
 * app/cli_gift.c - hetcast lesson FILE --gift: a lesson's questions in
 * Moodle's GIFT format, for the course's site.  A question with choices is a
 * multiple-choice question (the right one marked =, each with feedback); a
 * makespan prediction a numerical one whose answer is hetcast's makespan of
 * the slide's run (the same run as the view and --print); a "next transfer"
 * prediction a short answer ("SENDER -> RECEIVER" and its spelling without
 * blanks); any other question an essay whose general feedback is the
 * slide's answer (each kind's body is its row's writer, session/question.c).  Every text is escaped for GIFT (~ = # { } : and the
 * backslash), on one line, with control characters replaced.
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

static void put_gift(const char *s)
{
    put_gift_to(stdout, s);
}

/* The slide's run of its first scheduler (a prediction's answer): 0, or -1 with *cause. */
static int slide_run(const struct lesson *l, int k, struct cluster **c, struct run *r, char **cause)
{
    const struct slide *s = &l->slides[k];
    struct session_opts o;
    lesson_session(l, k, &o);
    struct diag warn;
    diag_init(&warn);
    *c = session_load(&o, &warn, cause);
    diag_free(&warn);
    if (!*c)
        return -1;
    enum model m;
    const struct sched_ops *ops = NULL;
    if (session_model(&o, *c, &m, cause) == 0)
        ops = s->nsched ? session_sched(s->sched[0], cause) : sched_default(*c, m);
    if (!ops || sched_check(ops, *c, m, cause) < 0 ||
        session_run(r, &o, *c, m, ops, false, RUN_OPT_SMALL, cause) < 0) {
        cluster_free(*c);
        return -1;
    }
    return 0;
}

int lesson_gift(const struct lesson *l, bool first)
{
    if (!first)
        printf("\n");
    printf("// hetcast lesson: ");
    put_gift(l->title ? l->title : l->path);
    printf("\n$CATEGORY: hetcast/");
    put_gift(l->title ? l->title : l->path);
    printf("\n\n");
    for (int k = 0; k < l->n; k++) {
        const struct slide *s = &l->slides[k];
        if (!s->question)
            continue;
        struct cluster *c = NULL;
        struct run r;
        char *cause = NULL;
        if (s->kind->predicts && slide_run(l, k, &c, &r, &cause) < 0) {
            fprintf(stderr, "%s: %s: slide %d: ", diag_who(), l->path, k + 1);
            text_put(cause ? cause : "failed", stderr);
            fputc('\n', stderr);
            free(cause);
            return 2;
        }
        char expected[160];
        lesson_expected(s, c ? &r : NULL, expected, sizeof expected);
        printf("::slide %d ", k + 1);
        put_gift(s->title ? s->title : "");
        printf("::");
        put_gift(s->question);
        s->kind->gift(s, c ? &r : NULL, expected, &(struct question_out){stdout, put_gift_to});
        if (c) {
            run_free(&r);
            cluster_free(c);
        }
    }
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
