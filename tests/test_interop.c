/*
 * test_interop.c - the exports for the field's tools (output/export_interop.h):
 * each format's escaping of user text, table-driven (quotes, backslashes,
 * line breaks, other control characters, markup); a Paje trace and a DOT
 * graph of a cluster with hostile node names, where no user byte may come
 * out raw (no control character but the line ends, every Paje line an event
 * or a definition), nor from the Chrome trace JSON; the events of a Paje
 * trace in time order; the lanes of overlapping intervals; what the SMPI
 * export can and cannot express; and what a SimGrid platform's reader makes
 * of what SimGrid says when it ends (a stand-in helper says it).  The peer
 * tools themselves (pj_dump, dot, smpirun) are run by tests/interop.sh.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#if HETCAST_HAVE_SIMGRID
#include "model/cluster_simgrid.h"
#endif

#include "output/export_interop.h"
#include "output/export_lanes.h"
#include "session/run.h"
#include "sched/registry.h"
#include "tap.h"

typedef void (*escape_fn)(FILE *fp, const char *s);

static char *escaped(escape_fn fn, const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    fn(fp, s);
    fclose(fp);
    return buf;
}

static const struct {
    const char *name;
    escape_fn fn;
    const char *in, *want;
} escapes[] = {
    {"paje", export_paje_string, "p0", "\"p0\""},
    {"paje", export_paje_string, "say \"hi\"", "\"say 'hi'\""},
    {"paje", export_paje_string, "a\\b", "\"a\\\\b\""},
    {"paje", export_paje_string, "two\nlines", "\"two\\nlines\""},
    {"paje", export_paje_string, "tab\there", "\"tab\\there\""},
    {"paje", export_paje_string, "bell\a del\x7f", "\"bell\\x07 del\\x7f\""},
    {"paje", export_paje_string, "% not a definition", "\"% not a definition\""},
    {"paje", export_paje_string, "", "\"\""},
    {"dot", export_dot_string, "p0", "\"p0\""},
    {"dot", export_dot_string, "say \"hi\"", "\"say \\\"hi\\\"\""},
    {"dot", export_dot_string, "a\\b", "\"a\\\\b\""},
    {"dot", export_dot_string, "a\\N", "\"a\\\\N\""},   /* not dot's node-name escape */
    {"dot", export_dot_string, "two\nlines", "\"two\\nlines\""},
    {"dot", export_dot_string, "cr\r", "\"cr\\\\x0d\""},
    {"dot", export_dot_string, "<b>html</b>", "\"<b>html</b>\""},
    {"dot", export_dot_string, "ünïcödé", "\"ünïcödé\""},
    {"chrome", export_chrome_string, "p0", "\"p0\""},
    {"chrome", export_chrome_string, "say \"hi\"", "\"say \\\"hi\\\"\""},
    {"chrome", export_chrome_string, "a\\b", "\"a\\\\b\""},
    {"chrome", export_chrome_string, "two\nlines\tand", "\"two\\nlines\\tand\""},
    {"chrome", export_chrome_string, "esc\x1b[31m", "\"esc\\\\x1b[31m\""},   /* the text \x1b */
    {"chrome", export_chrome_string, "bad\xff", "\"bad\\\\xff\""},          /* not UTF-8 */
    {"chrome", export_chrome_string, "ünïcödé", "\"ünïcödé\""},
    {"xml", export_xml_string, "p0", "p0"},
    {"xml", export_xml_string, "a<b>&\"c'", "a&lt;b&gt;&amp;&quot;c&apos;"},
    {"xml", export_xml_string, "two\nlines\tand\r", "two&#10;lines&#9;and&#13;"},
    {"xml", export_xml_string, "esc\x1b", "esc\\x1b"},
    {"xml", export_xml_string, "-- not a comment end", "-- not a comment end"},
};

static struct cluster *load(const char *name, const char *text)
{
    struct diag d;
    diag_init(&d);
    struct cluster *c = cluster_load_csv_buffer(name, text, strlen(text), &d);
    if (!c)
        diag_print(&d, stdout);
    diag_free(&d);
    return c;
}

static char *capture(int (*fn)(FILE *, const struct run *, int), const struct run *r, int k)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    ok(fn(fp, r, k) == 0, "the writer says it wrote");
    fclose(fp);
    return buf;
}

/* No control character but '\n' (line ends). */
static bool no_raw_controls(const char *s)
{
    for (; *s; s++)
        if (((unsigned char)*s < 0x20 && *s != '\n') || *s == 0x7f)
            return false;
    return true;
}

/* Every line of a Paje trace is a definition (%) or an event (a digit). */
static bool paje_lines_ok(const char *s)
{
    for (const char *line = s; *line; ) {
        if (*line != '%' && !(*line >= '0' && *line <= '9'))
            return false;
        const char *e = strchr(line, '\n');
        if (!e)
            return false;
        line = e + 1;
    }
    return true;
}

/* The events' times (the second field of every event line) never go back. */
static bool paje_in_time_order(const char *s)
{
    double last = -1;
    for (const char *line = s; *line; line = strchr(line, '\n') + 1) {
        if (*line != '%' && strncmp(line, "0 ", 2) != 0 && strncmp(line, "1 ", 2) != 0 &&
            strncmp(line, "2 ", 2) != 0 && strncmp(line, "3 ", 2) != 0) {
            double t = strtod(line + 2, NULL);
            if (t < last)
                return false;
            last = t;
        }
    }
    return true;
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)) != NULL; p += strlen(what))
        n++;
    return n;
}

static const char hostile[] =
    "# name: hostile\n# latency: 1\n"
    "name,send,recv\n"
    "\"say \"\"hi\"\"\",1,2\n"
    "two,1,2\n"
    "\"back\\slash <&>\",2,3\n"
    "esc,1,2\n";

/* export_chrome at a second a unit, as the command line writes it. */
static int chrome_us(FILE *fp, const struct run *runs, int k)
{
    return export_chrome(fp, runs, k, 1e6);
}

static void hostile_names(void)
{
    struct cluster *c = load("hostile", hostile);
    ok(c != NULL, "the hostile cluster loads");
    if (!c)
        return;
    /* Names a file can no longer hold (the load check refuses control
     * characters), set past it: the exporters escape them all the same. */
    cluster_set_node_name(c, 1, "two\nlines");
    cluster_set_node_name(c, 3, "esc\x1b[31m");
    struct sched_opts so;
    sched_opts_default(&so);
    struct run runs[2];
    int rc = run_schedule(&runs[0], c, MODEL_ASYNC, sched_find("fnf"), &so, RUN_OPT_NEVER, NULL);
    rc |= run_schedule(&runs[1], c, MODEL_ASYNC, sched_find("optimal"), &so, RUN_OPT_NEVER, NULL);
    is_int(rc, 0, "fnf and optimal run");

    char *paje = capture(export_paje, runs, 2);
    ok(no_raw_controls(paje), "paje: no raw control character");
    ok(paje_lines_ok(paje), "paje: every line a definition or an event (no name broke a line)");
    ok(paje_in_time_order(paje), "paje: the events in time order");
    ok(strstr(paje, "\"say 'hi'\"") && strstr(paje, "\"two\\nlines\"") &&
       strstr(paje, "\"esc\\x1b[31m\""), "paje: the names escaped as the table says");
    is_int(count(paje, "\n4 "), 2 + 2 * 4, "paje: a container per run and per node");
    is_int(count(paje, "\n8 "), 2 * 3, "paje: an arrow per transfer (start)");
    is_int(count(paje, "\n9 "), 2 * 3, "paje: an arrow per transfer (end)");
    is_int(count(paje, "\n6 "), count(paje, "\n7 "), "paje: every state pushed is popped");
    free(paje);

    char *chrome = capture(chrome_us, runs, 2);
    ok(no_raw_controls(chrome), "chrome: no raw control character");
    ok(strstr(chrome, "\"fnf: say \\\"hi\\\"\"") && strstr(chrome, "two\\nlines") &&
       strstr(chrome, "esc\\\\x1b[31m"), "chrome: the names escaped as the table says");
    is_int(count(chrome, "\"ph\": \"M\", \"ts\": 0, \"pid\": 8, \"tid\": 0"), 2,
           "chrome: a process per node of each run (the 8th named and sorted)");
    is_int(count(chrome, "\"cat\": \"send\""), 2 * 3, "chrome: a send event per transfer");
    free(chrome);

    char *dot = capture(export_dot, runs, 2);
    ok(no_raw_controls(dot), "dot: no raw control character");
    ok(strstr(dot, "say \\\"hi\\\"") && strstr(dot, "back\\\\slash <&>") &&
       strstr(dot, "esc\\\\x1b[31m"), "dot: the names escaped as the table says");
    is_int(count(dot, "subgraph cluster_"), 2, "dot: a cluster subgraph per run");
    is_int(count(dot, " -> "), 2 * 3, "dot: an edge per transfer");
    free(dot);
    run_free(&runs[0]);
    run_free(&runs[1]);
    cluster_free(c);
}

static const char counterexample[] =
    "# name: counterexample\n# latency: 1\nname,send,recv\np0,1,2\np1,1,2\np2,2,3\n";

static void paje_counterexample(void)
{
    struct cluster *c = load("counterexample", counterexample);
    struct sched_opts so;
    sched_opts_default(&so);
    struct run r;
    is_int(run_schedule(&r, c, MODEL_ASYNC, sched_find("fnf"), &so, RUN_OPT_NEVER, NULL), 0,
           "fnf on the counterexample");
    char *paje = capture(export_paje, &r, 1);
    /* p0 -> p1 at 0: send [0,1) on p0, link [1,2) and recv [2,4) on p1 */
    ok(strstr(paje, "6 0 S r0n0 send\n") && strstr(paje, "7 1 S r0n0\n"), "paje: p0's first send [0, 1)");
    ok(strstr(paje, "6 1 L r0n1 link\n") && strstr(paje, "7 2 L r0n1\n"), "paje: p1's link in [1, 2)");
    ok(strstr(paje, "6 2 V r0n1 recv\n") && strstr(paje, "7 4 V r0n1\n"), "paje: p1's receive [2, 4)");
    ok(strstr(paje, "8 1 M r0 msg r0n0 r0t1\n") && strstr(paje, "9 6 M r0 msg r0n2 r0t1\n"),
       "paje: the arrow p0 -> p2 from 1 to 6");
    /* at t=1 p0's first send ends and its second starts: the pop comes first */
    const char *pop = strstr(paje, "7 1 S r0n0\n"), *push = strstr(paje, "6 1 S r0n0 send\n");
    ok(pop && push && pop < push, "paje: at equal times the end before the start");
    ok(strstr(paje, "5 6 R r0\n") != NULL, "paje: the run ends at the makespan");
    free(paje);

    char *cause = NULL;
    is_int(export_smpi_check(&r, &cause), 0, "smpi: fnf async on a node table can be replayed");
    free(cause);
    run_free(&r);
    cluster_free(c);
}

/* Overlapping intervals on one port go to a lane of their own, and only they. */
static void lanes(void)
{
    struct cluster *c = load("counterexample", counterexample);
    struct sched_opts so;
    sched_opts_default(&so);
    struct run r;
    is_int(run_schedule(&r, c, MODEL_ASYNC, sched_find("fnf"), &so, RUN_OPT_NEVER, NULL), 0,
           "fnf on the counterexample");
    struct port_slots ps;
    port_slots_make(&ps, &r, 1);
    is_int((int)ps.n, 2 + 2 + 2, "lanes: two sends, two links, two receives");
    is_int(port_slots_lanes(&ps, 1, PORT_SEND), 1, "lanes: p0's sends one after another: one lane");
    is_int(port_slots_lanes(&ps, 2, PORT_SEND), 1, "lanes: p1 never sends: still a track");
    port_slots_free(&ps);
    r.eng.tr[1].start = 0.5;   /* as a measured run may: p0's second send before its first ends */
    port_slots_make(&ps, &r, 1);
    is_int(port_slots_lanes(&ps, 1, PORT_SEND), 2, "lanes: overlapping sends: a second lane");
    ok(ps.v[0].port == PORT_SEND && ps.v[0].lane == 0 && ps.v[1].port == PORT_SEND &&
       ps.v[1].lane == 1 && ps.v[1].start == 0.5, "lanes: the later one on lane 1, in start order");
    is_int(port_slots_lanes(&ps, 3, PORT_RECV), 1, "lanes: p2's receive alone: one lane");
    port_slots_free(&ps);
    run_free(&r);
    cluster_free(c);
}

static const char graph[] =
    "# source: a\nfrom,to,time,send\na,b,2,3\nb,c,1,\n";

static void smpi_refusals(void)
{
    struct cluster *c = load("graph", graph);
    struct sched_opts so;
    sched_opts_default(&so);
    struct run r;
    char *cause = NULL;
    is_int(run_schedule(&r, c, MODEL_MULTI_PORT, sched_find("fef"), &so, RUN_OPT_NEVER, NULL), 0,
           "fef multi-port on a graph whose send time exceeds an edge");
    is_int(export_smpi_check(&r, &cause), -1, "smpi: a send longer than its edge is refused");
    ok(cause && strstr(cause, "multi-port send time of a"), "smpi: ... naming the node");
    free(cause);
    cause = NULL;
    run_free(&r);
    is_int(run_schedule(&r, c, MODEL_ONE_PORT, sched_find("fef"), &so, RUN_OPT_NEVER, NULL), 0,
           "fef one-port on the same graph");
    is_int(export_smpi_check(&r, &cause), 0, "smpi: one-port on a graph can be replayed");
    free(cause);
    cause = NULL;
    run_free(&r);
    so.slices = 4;
    is_int(run_schedule(&r, c, MODEL_ONE_PORT, sched_find("grow-tree"), &so, RUN_OPT_NEVER, NULL),
           0, "grow-tree with 4 slices");
    is_int(export_smpi_check(&r, &cause), -1, "smpi: pipelined slices are refused");
    ok(cause && strstr(cause, "4 slices"), "smpi: ... saying why");
    free(cause);
    run_free(&r);
    cluster_free(c);
}

#if HETCAST_HAVE_SIMGRID
/*
 * SimGrid's last words, said by a stand-in for hetcast-simgrid that then
 * aborts as SimGrid does: a reason about the file is kept (without an
 * object's address), the text of a C++ library's error is not shown.
 */
static void simgrid_words(void)
{
    static const struct {
        const char *said, *want;
    } cases[] = {
        {"Uncaught exception std::out_of_range: unordered_map::at",
         "x.xml: SimGrid refused it: it failed inside (an error of its C++ code, not a reason "
         "about the file): is it a platform SimGrid can simulate?"},
        {"Uncaught exception std::out_of_range: dynar is not that long. You asked -1, but it's "
         "only 0 long.",
         "x.xml: SimGrid refused it: it failed inside (an error of its C++ code, not a reason "
         "about the file): is it a platform SimGrid can simulate?"},
        {"Please specify the Vivaldi coordinates of Netzone z1 (0x556bff2de990)",
         "x.xml: SimGrid refused it: Please specify the Vivaldi coordinates of Netzone z1"},
        {"Uncaught exception std::invalid_argument: No route from 'A' to 'B'",
         "x.xml: SimGrid refused it: No route from 'A' to 'B'"},
    };
    char dir[] = "/tmp/hetcast-sgXXXXXX";
    if (!mkdtemp(dir)) {
        ok(0, "a temporary folder");
        return;
    }
    char helper[64], words[64], xml[64];
    snprintf(helper, sizeof helper, "%s/helper", dir);
    snprintf(words, sizeof words, "%s/words", dir);
    snprintf(xml, sizeof xml, "%s/x.xml", dir);
    FILE *fp = fopen(helper, "w");
    fprintf(fp, "#!/bin/sh\ncat '%s' >&2\nkill -ABRT $$\n", words);
    fclose(fp);
    chmod(helper, 0755);
    fp = fopen(xml, "w");
    fputs("<platform version=\"4.1\"/>\n", fp);
    fclose(fp);
    simgrid_set_helper(helper);
    char *cwd = getcwd(NULL, 0);
    if (chdir(dir) != 0)
        ok(0, "chdir");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fp = fopen(words, "w");
        fprintf(fp, "%s\nCurrent backtrace:\n  ->  0# main\n", cases[i].said);
        fclose(fp);
        struct diag d;
        diag_init(&d);
        struct cluster *c = cluster_load_simgrid("x.xml", 1, &d);
        ok(!c && d.nlines == 1, "SimGrid's words %zu: refused, one message", i);
        is_string(d.nlines ? d.lines[0] : "", cases[i].want, "SimGrid's words %zu", i);
        cluster_free(c);
        diag_free(&d);
    }
    if (cwd && chdir(cwd) != 0)
        ok(0, "chdir back");
    free(cwd);
    simgrid_set_helper(NULL);
    unlink(helper);
    unlink(words);
    unlink(xml);
    rmdir(dir);
}
#endif

int main(void)
{
    for (size_t i = 0; i < sizeof escapes / sizeof escapes[0]; i++) {
        char *got = escaped(escapes[i].fn, escapes[i].in);
        is_string(got, escapes[i].want, "%s escapes case %zu", escapes[i].name, i);
        free(got);
    }
    hostile_names();
    paje_counterexample();
    lanes();
    smpi_refusals();
#if HETCAST_HAVE_SIMGRID
    simgrid_words();
#endif
    return tap_exit();
}
