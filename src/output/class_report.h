/*
 * output/class_report.h - hetcast class report ROOM.db: a live class's
 * database (session/room_store.h) as tables for a course's grade book.
 * Per student: the questions answered, how many right (the student's vote in
 * the last round they voted in), how many right in the first round.  Per
 * question (slide) and round: the votes and how many were right.  Per
 * challenge result (the exercise played by the class): the makespan the
 * room computed, the picks and the time.  Per practice (hetcast practice
 * --room): the goal in a row, the questions answered and right, mastered or
 * not, the seed that replays it and the time.  As text, CSV (one table:
 * --table) or JSON (all; "both" means every table).  Anonymous: each user replaced by
 * a pseudonym that stays the same for the same database (a keyed hash of the
 * name with the database's own random salt), rows then in pseudonym order.
 * Reads the database only; every text is checked (diag.h) before it is
 * written.
 */
#ifndef HETCAST_CLASS_REPORT_H
#define HETCAST_CLASS_REPORT_H

#include <stdbool.h>
#include <stdio.h>

enum class_format { CLASS_TEXT, CLASS_CSV, CLASS_JSON };
enum class_table { CLASS_BOTH, CLASS_STUDENTS, CLASS_QUESTIONS, CLASS_CHALLENGES, CLASS_PRACTICE };

/* Write the report of the database at path to fp.  0, or -1 with *cause. */
int class_report(FILE *fp, const char *path, enum class_format f, enum class_table t, bool anonymous,
                 char **cause);

#endif
