/*
 * fuzz_classdb.c - libFuzzer harness for the class database as hetcast
 * class report reads it: the input is a file given as ROOM.db (a room's
 * SQLite database, mutated: corrupt pages, foreign tables and views,
 * impossible counts), reported in every format and table, named and
 * anonymous.  Promises:
 *   - every report either succeeds or is refused with one line of text
 *     naming the file (never a crash, a double free or a leak: ASan);
 *   - what succeeds is valid: the JSON parses (fuzz_output.h), the text and
 *     CSV are UTF-8 text without control bytes but line breaks (CSV may
 *     quote them inside a field);
 *   - the same database gives the same answer every time (a report is
 *     refused or accepted as a whole, whatever the table asked).
 * Built by tests/fuzz/run.sh; replay.c replays saved inputs in every build.
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"
#include "output/class_report.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_setup();
    return 0;
}

/* One report of path into memory: 0 with the text checked, or -1 with the cause checked. */
static int report(const char *path, enum class_format f, enum class_table t, bool anonymous)
{
    char *text = NULL, *cause = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    if (!fp)
        abort();
    int rc = class_report(fp, path, f, t, anonymous, &cause);
    fclose(fp);
    if (rc < 0) {
        if (!cause || !cause[0] || strchr(cause, '\n') || text_flaw(cause) || !strstr(cause, path))
            fuzz_fail("a refusal that is not one line of text naming the file", cause ? cause : "(none)");
    } else {
        const char *flaw = f == CLASS_JSON ? fuzz_json_flaw(text, len)
                           : f == CLASS_TEXT ? fuzz_text_flaw(text, len) : NULL;
        if (f == CLASS_CSV)
            for (size_t i = 0; i < len && !flaw; i++)
                if ((unsigned char)text[i] < 0x20 && text[i] != '\n' && text[i] != '\r')
                    flaw = "a control byte in CSV";
        if (flaw)
            fuzz_fail(flaw, text);
    }
    free(text);
    free(cause);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("room.db", data, size);
    int first = report(path, CLASS_JSON, CLASS_BOTH, false);
    static const struct {
        enum class_format f;
        enum class_table t;
        bool anonymous;
    } more[] = {
        {CLASS_TEXT, CLASS_BOTH, false},         {CLASS_CSV, CLASS_STUDENTS, false},
        {CLASS_CSV, CLASS_QUESTIONS, false},     {CLASS_CSV, CLASS_CHALLENGES, false},
        {CLASS_JSON, CLASS_BOTH, true},          {CLASS_TEXT, CLASS_CHALLENGES, true},
    };
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
        if (report(path, more[i].f, more[i].t, more[i].anonymous) != first)
            fuzz_fail("the same database accepted by one report and refused by another", path);
    for (int i = 0; i < 2; i++) {   /* a file in WAL mode may leave SQLite's -wal and -shm beside it */
        char side[400];
        snprintf(side, sizeof side, "%s%s", path, i ? "-shm" : "-wal");
        unlink(side);
    }
    return 0;
}
