/*
 * cmd_class.c - a live class's front doors (docs/class.md): `hetcast join
 * ROOM` (the student's screen, handed in by main.c as the view is) and
 * `hetcast class report ROOM.db` (the grade book's tables,
 * output/class_report.h).  The room itself opens with hetcast lesson FILE
 * --class ROOM (cmd_lesson.c).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cli_common.h"
#include "app/opts.h"
#include "output/class_report.h"

struct join_args {
    const char *as;
};

static const struct opt join_table[] = {
    {"as", OPT_LONG + 1, "NAME", "a test room's simulated student (refused by any other room; docs/class.md)",
     OPT_STRING, offsetof(struct join_args, as), 0, 0, NULL},
    {NULL, 0, NULL, NULL, OPT_CALL, 0, 0, 0, NULL},
};

int cmd_join(int argc, char **argv, const struct cli_views *v)
{
    struct join_args a = {0};
    const char *rooms[2];
    int n = 0;
    int rc = opts_parse("hetcast join", join_table, argc, argv, NULL, &a, rooms, 2, &n);
    if (rc == OPTS_HELP) {
        printf("usage: hetcast join ROOM\n"
               "  join the live class at ROOM (the instructor's hetcast lesson FILE --class ROOM):\n"
               "  follow the slides, vote with A-H or type a prediction and Enter; q or Esc leaves\n");
        opts_help(stdout, join_table);
        return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
    }
    if (rc)
        return rc;
    if (n != 1)
        return opts_error(2, "which room? hetcast join ROOM (the path the instructor gave)");
    if (!v->join)
        return opts_error(1, "this hetcast has no terminal screen to join with");
    return v->join(rooms[0], a.as);
}

static const char *const class_formats[] = {"text", "csv", "json", NULL};
static const char *const class_tables[] = {"both", "students", "questions", "challenges", "practice", NULL};

struct class_args {
    int format, table;
    bool anonymous, table_given;
};

static int class_opt(void *ctx, int key, const char *name, const char *val)
{
    struct class_args *a = ctx;
    (void)key;
    for (int i = 0; class_tables[i]; i++)
        if (strcmp(val, class_tables[i]) == 0) {
            a->table = i;
            a->table_given = true;
            return 0;
        }
    return opt_fail(name, val, "both, students, questions, challenges or practice");
}

static const struct opt class_table[] = {
    {"format", 'f', "FMT", "text (default), csv or json", OPT_CHOICE, offsetof(struct class_args, format), 0, 0,
     class_formats},
    {"table", 't', "WHICH", "both (default; csv: students), students, questions, challenges or practice", OPT_CALL, 0, 0, 0, NULL},
    {"anonymous", 'a', NULL, "users replaced by stable pseudonyms", OPT_FLAG,
     offsetof(struct class_args, anonymous), 0, 0, NULL},
    {NULL, 0, NULL, NULL, OPT_CALL, 0, 0, 0, NULL},
};

int cmd_class(int argc, char **argv, const struct cli_views *v)
{
    (void)v;
    struct class_args a = {0};
    const char *ops[3];
    int n = 0;
    int rc = opts_parse("hetcast class", class_table, argc, argv, class_opt, &a, ops, 3, &n);
    if (rc == OPTS_HELP) {
        printf("usage: hetcast class report ROOM.db [--format text|csv|json] [--table WHICH] [--anonymous]\n"
               "  a live class's votes (hetcast lesson FILE --class ROOM writes ROOM.db): per student\n"
               "  and per question, for the grade book\n");
        opts_help(stdout, class_table);
        return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
    }
    if (rc)
        return rc;
    if (n < 1 || strcmp(ops[0], "report") != 0)
        return opts_error(2, "report is the one thing class does: hetcast class report ROOM.db");
    if (n != 2)
        return opts_error(2, "which database? hetcast class report ROOM.db");
    if (a.format == CLASS_CSV && a.table == CLASS_BOTH)
        a.table = CLASS_STUDENTS;   /* a CSV file is one table */
    char *cause = NULL;
    if (class_report(stdout, ops[1], (enum class_format)a.format, (enum class_table)a.table, a.anonymous,
                     &cause) < 0)
        return cli_fail(cause, 2);
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
