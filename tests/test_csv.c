/*
 * test_csv.c - the CSV cluster loader and writer (src/model/cluster_csv.c, SPEC §5):
 * the bundled clusters, every loader error (table-driven: text in, message
 * and line out), count expansion, quoting, kind detection, parameters, the
 * round trip load -> write -> load for all three kinds, and saving through a
 * temporary file.  Runs with the project root as working directory.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/cluster.h"
#include "model/timing.h"
#include "support/csvfield.h"
#include "tap.h"

/* ---- helpers ---- */

static struct cluster *load_str(const char *text, struct diag *d)
{
    diag_init(d);
    return cluster_load_csv_buffer("t.csv", text, strlen(text), d);
}

/* Does some diag line start with `where` and contain `what`? */
static int has_line(const struct diag *d, const char *where, const char *what)
{
    for (int i = 0; i < d->nlines; i++)
        if (strncmp(d->lines[i], where, strlen(where)) == 0 && strstr(d->lines[i], what))
            return 1;
    return 0;
}

static void show_diag(const struct diag *d)
{
    for (int i = 0; i < d->nlines; i++)
        diag("  %s", d->lines[i]);
}

static int node_index(const struct cluster *c, const char *name)
{
    return cluster_find(c, name);
}

static const char *or_empty(const char *s)
{
    return s ? s : "";
}

static double edge_send(const struct edge *e)
{
    return e->send >= 0 ? e->send : -1;
}

/* Same model?  On a difference, *why says which (a static string). */
static int same_cluster(const struct cluster *a, const struct cluster *b, const char **why)
{
    static char buf[200];
    *why = buf;
    if (a->kind != b->kind)
        return snprintf(buf, sizeof buf, "kind"), 0;
    if (strcmp(or_empty(a->name), or_empty(b->name)) != 0)
        return snprintf(buf, sizeof buf, "name"), 0;
    if ((a->description == NULL) != (b->description == NULL) ||
        (a->description && strcmp(a->description, b->description) != 0))
        return snprintf(buf, sizeof buf, "description"), 0;
    if (a->n != b->n)
        return snprintf(buf, sizeof buf, "n %d vs %d", a->n, b->n), 0;
    if (a->source != b->source)
        return snprintf(buf, sizeof buf, "source"), 0;
    if (a->kind == CLUSTER_NODES && a->latency != b->latency)
        return snprintf(buf, sizeof buf, "latency"), 0;
    if (a->kind == CLUSTER_MATRIX && a->unit != b->unit)
        return snprintf(buf, sizeof buf, "unit"), 0;
    if (a->nsegments != b->nsegments)
        return snprintf(buf, sizeof buf, "segments %d vs %d", a->nsegments, b->nsegments), 0;
    for (int k = 0; k < a->nsegments; k++) {
        const struct cluster_segment *x = &a->segments[k], *y = &b->segments[k];
        if (x->lo != y->lo || x->hi != y->hi || x->latency != y->latency ||
            x->per_byte != y->per_byte)
            return snprintf(buf, sizeof buf, "segment %d", k), 0;
    }
    for (int i = 0; i < a->n; i++) {
        const struct node *x = &a->nodes[i], *y = &b->nodes[i];
        if (strcmp(x->name, y->name) != 0)
            return snprintf(buf, sizeof buf, "node %d name", i), 0;
        if (x->send != y->send || x->recv != y->recv)
            return snprintf(buf, sizeof buf, "node %s send/recv", x->name), 0;
        if (strcmp(or_empty(cluster_class(a, i)), or_empty(cluster_class(b, i))) != 0 ||
            strcmp(or_empty(cluster_group(a, i)), or_empty(cluster_group(b, i))) != 0)
            return snprintf(buf, sizeof buf, "node %s class/group", x->name), 0;
    }
    if (a->kind == CLUSTER_MATRIX)
        for (int i = 0; i < a->n * a->n; i++)
            if (a->dist[i] != b->dist[i])
                return snprintf(buf, sizeof buf, "dist[%d]", i), 0;
    if (a->nedges != b->nedges)
        return snprintf(buf, sizeof buf, "nedges %d vs %d", a->nedges, b->nedges), 0;
    for (int k = 0; k < a->nedges; k++) {
        const struct edge *x = &a->edges[k], *y = &b->edges[k];
        if (x->from != y->from || x->to != y->to || x->time != y->time ||
            edge_send(x) != edge_send(y))
            return snprintf(buf, sizeof buf, "edge %d", k), 0;
    }
    return 1;
}

/* Writes c to a string (caller frees); NULL if cluster_write_csv failed. */
static char *write_str(const struct cluster *c)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    int rc = cluster_write_csv(c, fp);
    int err = errno;
    fclose(fp);
    if (rc != 0) {
        free(text);
        errno = err;
        return NULL;
    }
    return text;
}

/* load -> write -> load gives the same model. */
static void round_trip(const struct cluster *c, const char *what)
{
    char *text = write_str(c);
    ok(text != NULL, "%s: written", what);
    if (!text)
        return;
    struct diag d;
    diag_init(&d);
    struct cluster *back = cluster_load_csv_buffer(c->path ? c->path : "rt.csv", text,
                                                   strlen(text), &d);
    ok(back != NULL, "%s: written file loads", what);
    int warnings = 0;   /* other than cluster_finish's, which the model earns */
    for (int i = 0; i < d.nlines; i++)
        warnings += strstr(d.lines[i], "speeds are not consistent") == NULL;
    is_int(warnings, 0, "%s: written file loads without other warnings", what);
    if (!back || warnings) {
        show_diag(&d);
        diag("file was:\n%s", text);
    }
    if (back) {
        const char *why = "";
        int same = same_cluster(c, back, &why);
        ok(same, "%s: same model after the round trip", what);
        if (!same)
            diag("differs in %s; file was:\n%s", why, text);
        /* Writing the reloaded model gives the same text again. */
        char *again = write_str(back);
        is_string(again, text, "%s: writing is stable", what);
        free(again);
    }
    cluster_free(back);
    diag_free(&d);
    free(text);
}

/* ---- the bundled clusters ---- */

static void test_bundled(void)
{
    struct diag d;
    struct cluster *c;

    diag_init(&d);
    c = cluster_load_csv("clusters/counterexample.csv", &d);
    ok(c != NULL, "counterexample.csv loads");
    is_int(d.nlines, 0, "counterexample.csv: no messages");
    if (c) {
        is_int(c->kind, CLUSTER_NODES, "counterexample: node table");
        is_int(c->n, 3, "counterexample: 3 nodes");
        is_double(c->latency, 1, 0, "counterexample: latency 1");
        is_string(c->nodes[c->source].name, "p0", "counterexample: source p0");
        is_string(c->name, "counterexample", "counterexample: name");
        ok(c->description && strstr(c->description, "optimum"), "counterexample: description");
        is_string(c->path, "clusters/counterexample.csv", "counterexample: path");
        int p2 = node_index(c, "p2");
        ok(p2 >= 0 && c->nodes[p2].send == 2 && c->nodes[p2].recv == 3, "counterexample: p2 s=2 r=3");
        int p1 = node_index(c, "p1");
        ok(p1 >= 0 && c->nodes[p1].send == 1 && c->nodes[p1].recv == 2, "counterexample: p1 s=1 r=2");
        is_int(cluster_line(c, 0), 10, "counterexample: p0 is on line 10");
        round_trip(c, "counterexample");
    }
    cluster_free(c);
    diag_free(&d);

    diag_init(&d);
    c = cluster_load_csv("clusters/fig6-100.csv", &d);
    ok(c != NULL, "fig6-100.csv loads");
    is_int(d.nlines, 0, "fig6-100.csv: no messages");
    if (c) {
        is_int(c->n, 100, "fig6-100: 100 nodes");
        int fast = 0, normal = 0, slow = 0;
        for (int i = 0; i < c->n; i++) {
            const struct node *nd = &c->nodes[i];
            fast += nd->send == 1 && nd->recv == 2 && strcmp(or_empty(cluster_class(c, i)), "fast") == 0;
            normal += nd->send == 5 && nd->recv == 6 && strcmp(or_empty(cluster_class(c, i)), "normal") == 0;
            slow += nd->send == 10 && nd->recv == 11 && strcmp(or_empty(cluster_class(c, i)), "slow") == 0;
        }
        is_int(fast, 33, "fig6-100: 33 fast nodes (s=1, r=2)");
        is_int(normal, 33, "fig6-100: 33 normal nodes (s=5, r=6)");
        is_int(slow, 34, "fig6-100: 34 slow nodes (s=10, r=11)");
        is_double(c->latency, 0, 0, "fig6-100: latency 0");
        is_string(c->nodes[c->source].name, "fast-1", "fig6-100: source fast-1");
        is_double(c->nodes[c->source].send, 1, 0, "fig6-100: the source is fast");
        ok(node_index(c, "slow-34") >= 0 && node_index(c, "slow-35") < 0, "fig6-100: slow-1..slow-34");
        round_trip(c, "fig6-100");
    }
    cluster_free(c);
    diag_free(&d);

    diag_init(&d);
    c = cluster_load_csv("clusters/figueira-table1.csv", &d);
    ok(c != NULL, "figueira-table1.csv loads");
    is_int(d.nlines, 0, "figueira-table1.csv: no messages");
    if (c) {
        static const double table1[8][8] = {
            {0, 2, 2, 0, 3, 3, 0, 0}, {2, 0, 0, 2, 5, 5, 2, 2},
            {2, 0, 0, 2, 5, 5, 2, 2}, {0, 2, 2, 0, 3, 3, 0, 0},
            {3, 5, 5, 3, 0, 0, 3, 3}, {3, 5, 5, 3, 0, 0, 3, 3},
            {0, 2, 2, 0, 3, 3, 0, 0}, {0, 2, 2, 0, 3, 3, 0, 0},
        };
        is_int(c->kind, CLUSTER_MATRIX, "figueira: latency matrix");
        is_int(c->n, 8, "figueira: 8 nodes");
        int same = c->n == 8;
        for (int i = 0; same && i < 8; i++)
            for (int j = 0; j < 8; j++)
                same &= c->dist[i * 8 + j] == table1[i][j];
        ok(same, "figueira: the distances of Table 1");
        is_int(c->source, 0, "figueira: source n0");
        is_double(c->unit, 1, 0, "figueira: unit 1");
        is_double(c->nodes[3].send + c->nodes[3].recv, 0, 0, "figueira: no send/recv");
        round_trip(c, "figueira-table1");
    }
    cluster_free(c);
    diag_free(&d);

    diag_init(&d);
    c = cluster_load_csv("clusters/platform-small.csv", &d);
    ok(c != NULL, "platform-small.csv loads");
    is_int(d.nlines, 0, "platform-small.csv: no messages");
    if (c) {
        is_int(c->kind, CLUSTER_GRAPH, "platform-small: platform graph");
        is_int(c->n, 7, "platform-small: 7 nodes");
        is_int(c->nedges, 18, "platform-small: 10 rows, 8 of them bidirectional");
        struct cost k;
        int p0 = node_index(c, "P0"), p3 = node_index(c, "P3"), p6 = node_index(c, "P6");
        ok(timing_cost(c, p0, p3, &k) && k.T == 9 && k.send_mp == 1.6, "platform-small: P0 -> P3");
        ok(!timing_cost(c, p3, p0, &k), "platform-small: no P3 -> P0");
        ok(timing_cost(c, p6, p3, &k) && k.T == 4 && k.send_mp == 4,
           "platform-small: P6 -> P3 (reverse edge, send defaults to T)");
        round_trip(c, "platform-small");
    }
    cluster_free(c);
    diag_free(&d);
}

/* ---- errors, table-driven ---- */

struct error_case {
    const char *what;
    const char *text;
    int line;               /* expected line; 0: the message has no line */
    const char *message;    /* expected substring */
};

static const struct error_case error_cases[] = {
    /* numbers */
    {"not a number", "name,send,recv\np0,abc,1\n", 2, "send: \"abc\" is not a number"},
    {"hex", "name,send,recv\np0,0x10,1\n", 2, "send: \"0x10\" is not a number"},
    {"inf", "name,send,recv\np0,1,inf\n", 2, "recv: \"inf\" is not a number"},
    {"nan", "name,send,recv\np0,nan,1\n", 2, "send: \"nan\" is not a number"},
    {"trailing junk", "name,send,recv\np0,12abc,1\n", 2, "send: \"12abc\" is not a number"},
    {"leading blank (quoted)", "name,send,recv\np0,\" 1\",1\n", 2, "send: \" 1\" is not a number"},
    {"comma decimal", "name,send,recv\np0,\"2,5\",1\n", 2, "send: \"2,5\" is not a number"},
    {"lonely exponent", "name,send,recv\np0,1e,1\n", 2, "send: \"1e\" is not a number"},
    {"just a dot", "name,send,recv\np0,.,1\n", 2, "send: \".\" is not a number"},
    {"overflow", "name,send,recv\np0,1e999,1\n", 2, "send: \"1e999\" is out of range"},
    {"negative", "name,send,recv\np0,-1,1\n", 2, "send: \"-1\" is negative"},
    {"empty number", "name,send,recv\np0,,1\n", 2, "send: missing value"},
    /* node tables */
    {"too few fields", "name,send,recv\np0,1\n", 2, "expected 3 fields (as in the header), found 2"},
    {"too many fields", "name,send,recv\np0,1,2,3\n", 2, "expected 3 fields (as in the header), found 4"},
    {"duplicate name", "name,send,recv\np0,1,2\np1,1,2\np0,1,2\n", 4,
     "name: duplicate node name \"p0\" (first on line 2)"},
    {"empty name", "name,send,recv\n,1,2\n", 2, "name: missing node name"},
    {"unknown column", "name,send,recv,speed\np0,1,2,3\n", 1, "speed: unknown column"},
    {"missing column", "name,send\np0,1\n", 1, "header: missing column \"recv\""},
    {"duplicate column", "name,send,recv,send\np0,1,2,3\n", 1, "header: column \"send\" appears twice"},
    {"unnamed column", "name,send,recv,\np0,1,2,3\n", 1, "header: column 4 has no name"},
    {"graph column in node table", "name,send,recv,from\np0,1,2,x\n", 1, "from: unknown column"},
    {"count zero", "name,send,recv,count\nf,1,2,0\n", 2, "count: \"0\" is not a positive integer"},
    {"count fraction", "name,send,recv,count\nf,1,2,2.5\n", 2, "count: \"2.5\" is not a positive integer"},
    {"count word", "name,send,recv,count\nf,1,2,two\n", 2, "count: \"two\" is not a positive integer"},
    {"count too large", "name,send,recv,count\nf,1,2,2e7\n", 2, "count: \"2e7\" is too large"},
    {"count collides", "name,send,recv,count\na,1,2,3\na-2,1,2,\n", 3,
     "name: duplicate node name \"a-2\" (first on line 2)"},
    /* size segments (# segment:) */
    {"segment without a range", "# segment: latency=1 per-byte=0\nname,send,recv\np0,1,2\n", 1,
     "segment: \"latency=1\" is not a range of sizes: expected LO..HI"},
    {"segment range with a dash", "# segment: 0-10 latency=1 per-byte=0\nname,send,recv\np0,1,2\n",
     1, "segment: \"0-10\" is not a range of sizes"},
    {"segment range backwards", "# segment: 9..3 latency=1 per-byte=0\nname,send,recv\np0,1,2\n",
     1, "segment: 9..3: the range ends before it starts"},
    {"segment without per-byte", "# segment: 0..10 latency=1\nname,send,recv\np0,1,2\n", 1,
     "segment: per-byte=G missing"},
    {"segment with a bad latency", "# segment: 0..10 latency=-1 per-byte=0\nname,send,recv\np0,1,2\n",
     1, "latency: \"-1\" is negative"},
    {"segment with an unknown key", "# segment: 0..10 latency=1 per-byte=0 gap=2\nname,send,recv\n"
     "p0,1,2\n", 1, "segment: \"gap\" is not latency=L or per-byte=G"},
    {"segments overlapping", "# segment: 0..10 latency=1 per-byte=0\n# segment: 10..20 latency=1 "
     "per-byte=0\nname,send,recv\np0,1,2\n", 2,
     "segment: 10..20 does not start after the segment of line 1 (0..10)"},
    {"segment in a matrix", "# segment: 0..10 latency=1 per-byte=0\n,a,b\na,0,1\nb,1,0\n", 1,
     "segment: size segments are for node tables (a latency matrix gives every link its time)"},
    /* the file as a whole */
    {"missing header", "p0,1,2\np1,1,2\n", 1, "missing header"},
    {"empty file", "", 0, "no header row"},
    {"only comments", "# name: x\n# just a note\n\n", 0, "no header row"},
    {"no nodes", "# name: x\nname,send,recv\n", 0, "no nodes"},
    {"unknown source", "# source: zz\nname,send,recv\np0,1,2\n", 1,
     "source: \"zz\" is not a node of this cluster"},
    {"unclosed quote", "name,send,recv\np0,1,2\n\"p1,1,2\np2,1,2\n", 3, "quoted field not closed"},
    {"quote inside a field", "name,send,recv\np\"0,1,2\n", 2, "malformed quoting"},
    {"text after a quote", "name,send,recv\n\"p0\"x,1,2\n", 2, "malformed quoting"},
    {"NUL byte", "name,send,recv\np0,1,2\np\0001,1,2\n", 3, "NUL byte"},
    /* parameters */
    {"bad latency", "# latency: fast\nname,send,recv\np0,1,2\n", 1, "latency: \"fast\" is not a number"},
    {"negative latency", "# latency: -2\nname,send,recv\np0,1,2\n", 1, "latency: \"-2\" is negative"},
    {"latency twice", "# latency: 1\n# latency: 2\nname,send,recv\np0,1,2\n", 2,
     "latency: given twice (first on line 1)"},
    {"empty source", "# source:\nname,send,recv\np0,1,2\n", 1, "source: missing value"},
    /* latency matrices */
    {"matrix not square", ",a,b\na,0,1\n", 1, "no row for node \"b\" (the matrix must be square)"},
    {"matrix diagonal", ",a,b\na,0,1\nb,1,2\n", 3, "b: distance from \"b\" to itself must be 0"},
    {"matrix unknown row", ",a,b\na,0,1\nz,1,0\nb,1,0\n", 3, "unknown node \"z\" (not named in the header)"},
    {"matrix row twice", ",a,b\na,0,1\nb,1,0\na,0,1\n", 4, "second row for node \"a\" (first on line 2)"},
    {"matrix short row", ",a,b\na,0,1\nb,1\n", 3, "expected 3 fields (as in the header), found 2"},
    {"matrix header twice", ",a,a\na,0,1\n", 1, "header: node \"a\" is named twice"},
    {"matrix node after send", ",a,send,b\na,0,1,1\n", 1, "node column \"b\" after the send/recv/class/group columns"},
    {"matrix node after group", ",a,group,b\na,0,g,1\n", 1, "node column \"b\" after the send/recv/class/group columns"},
    {"matrix group twice", ",a,group,Group\na,0,g,h\n", 1, "header: column \"group\" appears twice"},
    {"matrix send twice", ",a,send,send\na,0,1,1\n", 1, "header: column \"send\" appears twice"},
    {"matrix bad distance", ",a,b\na,0,far\nb,1,0\n", 2, "b: \"far\" is not a number"},
    {"matrix negative distance", ",a,b\na,0,1\nb,-1,0\n", 3, "a: \"-1\" is negative"},
    {"matrix bad recv", ",a,b,recv\na,0,1,x\nb,1,0,1\n", 2, "recv: \"x\" is not a number"},
    {"matrix without nodes", ",send\nx,1\n", 1, "a latency matrix names its nodes in the header"},
    {"matrix row without a name", ",a,b\na,0,1\n,1,0\n", 3, "row without a node name"},
    /* platform graphs */
    {"self loop", "from,to,time\na,b,1\nb,b,2\n", 3, "to: self loop b -> b"},
    {"duplicate edge", "from,to,time\na,b,1\nb,a,1\na,b,2\n", 4, "duplicate edge a -> b (first on line 2)"},
    {"duplicate reverse", "from,to,time,bidirectional\na,b,1,1\nb,a,2,\n", 3,
     "duplicate edge b -> a (first on line 2)"},
    {"duplicate by bidirectional", "from,to,time,bidirectional\nb,a,2,\na,b,1,1\n", 3,
     "duplicate edge b -> a (the reverse of this bidirectional row; first on line 2)"},
    {"send conflict", "from,to,time,send\na,b,2,1\nb,a,2,1\na,c,3,1.5\n", 4,
     "send: 1.5 conflicts with 1 given for node \"a\" on line 2"},
    {"bidirectional word", "from,to,time,bidirectional\na,b,1,yes\n", 2,
     "bidirectional: \"yes\" must be 1, 0 or empty"},
    {"zero time", "from,to,time\na,b,0\n", 2, "time: \"0\" must be greater than 0"},
    {"missing time", "from,to,time\na,b,\n", 2, "time: missing value"},
    {"missing from", "from,to,time\n,b,1\n", 2, "from: missing node name"},
    {"time without to", "from,to,time\na,b,1\nb,,1\n", 3, "to: missing node name"},
    {"graph missing column", "from,to\na,b\n", 1, "header: missing column \"time\""},
    {"graph unknown column", "from,to,time,recv\na,b,1,1\n", 1, "recv: unknown column"},
    {"unreachable", "from,to,time\na,b,1\nc,b,1\n", 3, "node c is not reachable from the source a"},
};

static void test_errors(void)
{
    int n = (int)(sizeof error_cases / sizeof error_cases[0]);
    for (int i = 0; i < n; i++) {
        const struct error_case *e = &error_cases[i];
        struct diag d;
        diag_init(&d);
        /* sizeof - 1 keeps embedded NUL bytes; strlen would stop there */
        size_t len = strlen(e->text);
        if (strcmp(e->what, "NUL byte") == 0)
            len = sizeof "name,send,recv\np0,1,2\np\0001,1,2\n" - 1;
        struct cluster *c = cluster_load_csv_buffer("t.csv", e->text, len, &d);
        char where[32];
        if (e->line > 0)
            snprintf(where, sizeof where, "t.csv:%d: ", e->line);
        else
            snprintf(where, sizeof where, "t.csv: ");
        ok(c == NULL && d.errors > 0 && has_line(&d, where, e->message),
           "error: %s -> %s%s", e->what, where, e->message);
        if (c || !has_line(&d, where, e->message))
            show_diag(&d);
        cluster_free(c);
        diag_free(&d);
    }
}

/* Every problem is reported, one line each, with its own line number. */
static void test_many_errors(void)
{
    struct diag d;
    struct cluster *c = load_str("# a comment\n"
                                 "name,send,recv\n"
                                 "\n"
                                 "p0,x,1\n"
                                 "# another comment\n"
                                 "p1,1,-2\n"
                                 "p2,1,2\n"
                                 "p2,1,2\n"
                                 "p3,0x1,1e400\n", &d);
    ok(c == NULL, "several errors: no cluster");
    is_int(d.errors, 5, "several errors: five problems");
    is_int(d.nlines, 5, "several errors: five lines");
    ok(has_line(&d, "t.csv:4: send:", "\"x\""), "several errors: line 4 (after a blank line)");
    ok(has_line(&d, "t.csv:6: recv:", "\"-2\""), "several errors: line 6 (after a comment)");
    ok(has_line(&d, "t.csv:8: name:", "\"p2\" (first on line 7)"), "several errors: duplicate on line 8");
    ok(has_line(&d, "t.csv:9: send:", "0x1") && has_line(&d, "t.csv:9: recv:", "1e400"),
       "several errors: two on line 9");
    show_diag(&d);
    diag_free(&d);

    c = load_str("name,send,recv,count\na,1,2,50\nb,1,2,\na,1,2,50\n", &d);
    ok(c == NULL && d.errors == 1 && has_line(&d, "t.csv:4: name:", "\"a-1\" (first on line 2)"),
       "a repeated count row is one problem, not one per copy");
    diag_free(&d);

    /* Past the size limit: said once, not once per extra column. */
    size_t cap = 8 * 4200 + 64, len = 0;
    char *big = xmalloc(cap);
    for (int i = 0; i < 4200; i++)
        len += (size_t)snprintf(big + len, cap - len, ",n%d", i);
    snprintf(big + len, cap - len, "\nn0,0\n");
    c = load_str(big, &d);
    ok(c == NULL && has_line(&d, "t.csv:1: header:", "too many nodes (a latency matrix has at most 4096)"),
       "a matrix over the size limit is refused");
    is_int(d.errors, 1, "the size limit is one problem");
    free(big);
    diag_free(&d);

    c = load_str("name,send,recv\np0,1,2\np1,1,2\n", &d);
    ok(c != NULL && d.nlines == 0, "a good file gives no messages");
    cluster_free(c);
    diag_free(&d);
}

static void test_unreadable(void)
{
    struct diag d;
    diag_init(&d);
    struct cluster *c = cluster_load_csv("clusters/no-such-file.csv", &d);
    ok(c == NULL, "missing file: no cluster");
    is_int(d.nlines, 1, "missing file: one line");
    if (d.nlines)
        is_string(d.lines[0], "clusters/no-such-file.csv: cannot open: No such file or directory",
                  "missing file: path: cannot open: strerror");
    diag_free(&d);

    diag_init(&d);
    c = cluster_load_csv("clusters", &d);
    ok(c == NULL && d.nlines == 1 && has_line(&d, "clusters: cannot ", ""),
       "a directory: one line");
    show_diag(&d);
    diag_free(&d);
}

/* ---- features ---- */

static void test_numbers(void)
{
    static const struct { const char *text; double want; } good[] = {
        {"1", 1}, {"2.5", 2.5}, {"1e3", 1000}, {"1E-2", 0.01}, {"+4", 4}, {".5", 0.5},
        {"5.", 5}, {"0", 0}, {"007", 7}, {"1e-400", 0}, {"  3  ", 3}, {"-0", 0},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "name,send,recv\np0,%s,1\n", good[i].text);
        struct diag d;
        struct cluster *c = load_str(text, &d);
        ok(c != NULL, "number \"%s\" is accepted", good[i].text);
        if (c)
            is_double(c->nodes[0].send, good[i].want, 0, "number \"%s\" reads %g", good[i].text,
                      good[i].want);
        else
            show_diag(&d);
        cluster_free(c);
        diag_free(&d);
    }
}

/* Size segments: read, picked by size (timing_set_message_size), written back. */
static void test_segments(void)
{
    struct diag d;
    struct cluster *c = load_str("# latency: 2\n"
                                 "# segment: 0..4096 latency=0.5 per-byte=0.001\n"
                                 "# segment: 4097..65536 latency=3 per-byte=0.0002\n"
                                 "name,send,recv\np0,1,2\np1,1,2\n", &d);
    ok(c != NULL && c->nsegments == 2, "segments: two read");
    if (c && c->nsegments == 2) {
        is_int(c->segments[1].line, 3, "segments: the second's line");
        round_trip(c, "segments");
        is_double(c->latency, 2, 0, "segments: without a size, # latency: as written");
        is_int(timing_set_message_size(c, 1000), 1, "segments: 1000 bytes covered");
        is_double(c->latency, 0.5 + 1000 * 0.001, 1e-12, "segments: 1000 bytes: L + m G of the first");
        is_int(timing_set_message_size(c, 4097), 1, "segments: 4097 bytes covered");
        is_double(c->latency, 3 + 4097 * 0.0002, 1e-12, "segments: 4097 bytes: the second's");
        is_int(timing_set_message_size(c, 65537), -1, "segments: 65537 bytes: none covers it");
        is_double(c->latency, 3 + 4097 * 0.0002, 1e-12, "segments: none covering: unchanged");
    } else {
        show_diag(&d);
    }
    cluster_free(c);
    diag_free(&d);
}

static void test_count(void)
{
    struct diag d;
    struct cluster *c = load_str("name,count,send,recv,class,group\n"
                                 "fast,3,1,2,f,g1\n"
                                 "mid,1,5,6,,\n"
                                 "slow,,10,11,s,g2\n"
                                 "many,2,10,11,s,\n", &d);
    ok(c != NULL, "count: loads");
    if (c) {
        is_int(c->n, 7, "count: 3 + 1 + 1 + 2 nodes");
        static const char *const names[] = {"fast-1", "fast-2", "fast-3", "mid", "slow", "many-1", "many-2"};
        for (int i = 0; i < 7 && i < c->n; i++)
            is_string(c->nodes[i].name, names[i], "count: node %d", i);
        is_double(c->nodes[2].recv, 2, 0, "count: copies share the times");
        is_string(cluster_class(c, 1), "f", "count: copies share the class");
        is_string(cluster_group(c, 2), "g1", "count: copies share the group");
        ok(cluster_class(c, 3) == NULL && cluster_group(c, 3) == NULL, "count: empty class/group is none");
        is_int(cluster_line(c, 2), 2, "count: copies keep the row's line");
        is_int(cluster_line(c, 6), 5, "count: line of many-2");
        round_trip(c, "count");
    } else {
        show_diag(&d);
    }
    cluster_free(c);
    diag_free(&d);
}

static void test_quoting(void)
{
    struct diag d;
    struct cluster *c = load_str("name,send,recv,class\n"
                                 "\"a, b\",1,2,\"x\"\n"
                                 "\"say \"\"hi\"\"\",\"1.5\",2,\n"
                                 "\"two\n"
                                 "# not a comment inside quotes\n"
                                 "lines\",1,2,\n"
                                 "\"#hash\",1,2,\n"
                                 "  padded  ,1,2,\n"
                                 "\"  kept  \",1,2,\n"
                                 "p9,1,x,\n", &d);
    ok(c == NULL, "quoting: the bad last row is refused");
    ok(has_line(&d, "t.csv:10: recv:", "\"x\" is not a number"),
       "quoting: line numbers count the lines inside quoted fields");
    show_diag(&d);
    diag_free(&d);

    c = load_str("name,send,recv,class\r\n"
                 "\"a, b\",1,2,\"x\"\r\n"
                 "\"say \"\"hi\"\"\",\"1.5\",2,\r\n"
                 "two,1,2,\"x\n"
                 "# not a comment inside quotes\n"
                 "y\"\n"
                 "\"#hash\",1,2,\n"
                 "  padded  ,1,2,\n"
                 "\"  kept  \",1,2,", &d);
    ok(c != NULL, "quoting: loads (CRLF lines, no final newline)");
    if (c) {
        is_int(c->n, 6, "quoting: 6 nodes");
        is_string(c->nodes[0].name, "a, b", "quoting: comma inside quotes");
        is_string(cluster_class(c, 0), "x", "quoting: quoted class");
        is_string(c->nodes[1].name, "say \"hi\"", "quoting: doubled quotes");
        is_double(c->nodes[1].send, 1.5, 0, "quoting: quoted number");
        is_string(cluster_class(c, 2), "x\n# not a comment inside quotes\ny",
                  "quoting: newlines inside quotes; '#' there is data");
        is_int(cluster_line(c, 2), 4, "quoting: a multi-line record has the line it starts on");
        is_string(c->nodes[3].name, "#hash", "quoting: a quoted '#' name is not a comment");
        is_string(c->nodes[4].name, "padded", "quoting: blanks around unquoted fields go");
        is_string(c->nodes[5].name, "  kept  ", "quoting: blanks inside quotes stay");
        round_trip(c, "quoting");
    }
    show_diag(&d);
    cluster_free(c);
    diag_free(&d);
}

static void test_kinds(void)
{
    static const struct { const char *text; int kind; int n; } cases[] = {
        {"name,send,recv\na,1,2\n", CLUSTER_NODES, 1},
        {"recv,name,send\n2,a,1\n", CLUSTER_NODES, 1},
        {"Name,SEND,Recv\na,1,2\n", CLUSTER_NODES, 1},
        {"group,class,recv,count,send,name\ng,c,2,4,1,a\n", CLUSTER_NODES, 4},
        {",a,b\na,0,1\nb,2,0\n", CLUSTER_MATRIX, 2},
        {"\"\",a,b\nb,2,0\na,0,1\n", CLUSTER_MATRIX, 2},
        {",a,b,send,recv\na,0,1,1,2\nb,1,0,3,4\n", CLUSTER_MATRIX, 2},
        {",a,b,recv\na,0,1,2\nb,1,0,4\n", CLUSTER_MATRIX, 2},
        {"from,to,time\na,b,1\n", CLUSTER_GRAPH, 2},
        {"time,to,from\n1,b,a\n", CLUSTER_GRAPH, 2},
        {"from,to,time,send,bidirectional\na,b,1,0.5,1\nb,c,1,,0\n", CLUSTER_GRAPH, 3},
        {"# name: x\n\n,,,\nname,send,recv\n,,\na,1,2\n", CLUSTER_NODES, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct diag d;
        struct cluster *c = load_str(cases[i].text, &d);
        ok(c && (int)c->kind == cases[i].kind && c->n == cases[i].n, "kind %d: %s with %d nodes",
           (int)i, cluster_kind_name(cases[i].kind), cases[i].n);
        if (!c)
            show_diag(&d);
        cluster_free(c);
        diag_free(&d);
    }

    /* Matrix details: row order, send/recv columns, row = from. */
    struct diag d;
    struct cluster *c = load_str("# unit: 0.5\n,a,b,c,send,recv\n"
                                 "c,4,5,0,0.3,0.4\n"
                                 "a,0,1,2,0.1,0.2\n"
                                 "b,3,0,6,0,0\n", &d);
    ok(c != NULL, "matrix: rows in any order");
    if (c) {
        is_string(c->nodes[0].name, "a", "matrix: node order is the header's");
        is_double(c->dist[0 * 3 + 2], 2, 0, "matrix: a -> c");
        is_double(c->dist[2 * 3 + 0], 4, 0, "matrix: c -> a (row = from)");
        is_double(c->dist[1 * 3 + 2], 6, 0, "matrix: b -> c");
        is_double(c->nodes[2].send, 0.3, 0, "matrix: send of c");
        is_double(c->nodes[2].recv, 0.4, 0, "matrix: recv of c");
        is_double(c->unit, 0.5, 0, "matrix: # unit");
        is_int(cluster_line(c, 2), 3, "matrix: a node's line is its row's");
        struct cost k;
        timing_cost(c, 0, 2, &k);
        is_double(k.l, 1, 0, "matrix: link a -> c is unit * 2");
        round_trip(c, "matrix with send/recv");
    }
    show_diag(&d);
    cluster_free(c);
    diag_free(&d);

    /* Matrix labels: class and group columns after the node columns. */
    c = load_str(",a,b,c,Group,class\n"
                 "a,0,1,1,sw1,fast\n"
                 "b,1,0,1,sw1,\n"
                 "c,1,1,0,,slow\n", &d);
    ok(c != NULL, "matrix with group and class columns: loads");
    if (c) {
        is_string(cluster_group(c, 0), "sw1", "matrix: group of a");
        is_string(cluster_group(c, 1), "sw1", "matrix: group of b");
        ok(cluster_group(c, 2) == NULL, "matrix: an empty group cell is no group");
        is_string(cluster_class(c, 0), "fast", "matrix: class of a");
        ok(cluster_class(c, 1) == NULL, "matrix: an empty class cell is no class");
        is_double(c->nodes[0].send, 0, 0, "matrix: no send column, send 0");
        round_trip(c, "matrix with group and class");
    }
    show_diag(&d);
    cluster_free(c);
    diag_free(&d);

    /* Graph details: bidirectional, declarations, per-node send. */
    c = load_str("# source: b\nfrom,to,time,send,bidirectional\n"
                 "a,b,2,0.5,1\n"
                 "b,c,3,,0\n"
                 "c,a,4,1,\n"
                 "a,c,5,,\n", &d);
    ok(c != NULL, "graph: loads");
    if (c) {
        is_string(c->nodes[0].name, "a", "graph: nodes in the order the rows name them");
        is_int(c->source, 1, "graph: source b");
        is_int(c->nedges, 5, "graph: 4 rows, one bidirectional");
        is_int(c->edges[1].from, 1, "graph: the reverse edge follows its row");
        is_int(c->edges[1].to, 0, "graph: reverse b -> a");
        is_double(c->edges[1].time, 2, 0, "graph: the reverse edge has the same time");
        is_int(c->edges[1].line, 3, "graph: the reverse edge has the row's line");
        is_double(c->edges[4].send, 0.5, 0, "graph: a's send applies to all its edges");
        ok(c->edges[1].send < 0, "graph: b gives no send");
        is_double(c->edges[3].send, 1, 0, "graph: c's send");
        round_trip(c, "graph with bidirectional rows");
    }
    show_diag(&d);
    cluster_free(c);
    diag_free(&d);

    c = load_str("from,to,time\na,b,1\nz,,\n", &d);
    ok(c == NULL && has_line(&d, "t.csv:3: ", "node z is not reachable"),
       "graph: a declared node without edges is unreachable");
    cluster_free(c);
    diag_free(&d);

    c = load_str("from,to,time,send\n"
                 "c,,,2\n"
                 "a,,,\n"
                 "a,b,2,0.5\n"
                 "b,c,3,\n"
                 "c,a,4,\n", &d);
    ok(c != NULL, "graph: declarations keep the node order");
    if (c) {
        is_string(c->nodes[0].name, "c", "graph: c first");
        is_string(c->nodes[2].name, "b", "graph: b last");
        is_double(c->edges[2].send, 2, 0, "graph: send from a declaration row");
        is_int(cluster_line(c, 0), 2, "graph: a node's line is where it first appears");
        round_trip(c, "graph with declarations");
    }
    show_diag(&d);
    cluster_free(c);
    diag_free(&d);
}

static void test_params(void)
{
    struct diag d;
    struct cluster *c = load_str("# name: my cluster\n"
                                 "# description: first line\n"
                                 "#description: second: with a colon\n"
                                 "# a plain comment\n"
                                 "#note:no blank after the colon, so a plain comment\n"
                                 "# Latency: 2.5\n"
                                 "# colour: blue\n"
                                 "# unit: 3\n"
                                 "name,send,recv\n"
                                 "p0,1,2\n"
                                 "# source: p1\n"
                                 "p1,1,2\n", &d);
    ok(c != NULL, "params: loads");
    if (c) {
        is_string(c->name, "my cluster", "params: name");
        is_string(c->description, "first line\nsecond: with a colon", "params: description lines join");
        is_double(c->latency, 2.5, 0, "params: latency (key case does not matter)");
        is_double(c->unit, 1, 0, "params: unit is ignored in a node table");
        is_int(c->source, 1, "params: source, given after the header");
        is_int(c->source_line, 11, "params: source line");
    }
    is_int(d.errors, 0, "params: no errors");
    is_int(d.warnings, 2, "params: two warnings");
    ok(has_line(&d, "t.csv:7: warning: colour: ", "unknown parameter"), "params: unknown key warns");
    ok(has_line(&d, "t.csv:8: warning: unit: ", "ignored"), "params: unit in a node table warns");
    show_diag(&d);
    cluster_free(c);
    diag_free(&d);

    c = load_str("# latency: 4\n,a\na,0\n", &d);
    ok(c && c->latency == 0 && has_line(&d, "t.csv:1: warning: latency: ", "ignored"),
       "params: latency in a matrix warns and is ignored");
    cluster_free(c);
    diag_free(&d);

    diag_init(&d);
    const char *text = "name,send,recv\na,1,1\n";
    c = cluster_load_csv_buffer("some/dir/racks.v2.csv", text, strlen(text), &d);
    ok(c && strcmp(c->name, "racks.v2") == 0, "params: the default name is the base name");
    ok(c && c->description == NULL, "params: no description");
    cluster_free(c);
    diag_free(&d);

    c = load_str("\xEF\xBB\xBF# name: bom\nname,send,recv\na,1,1\n", &d);
    ok(c && strcmp(c->name, "bom") == 0, "params: a UTF-8 byte order mark is skipped");
    cluster_free(c);
    diag_free(&d);

    c = load_str("name,send,recv\np0,1,1\np1,1,2\np2,2,1\n", &d);
    ok(c != NULL && d.warnings == 1 && d.errors == 0,
       "inconsistent speeds load with a warning (cluster_finish)");
    cluster_free(c);
    diag_free(&d);

    /* Noise in a measured cluster's last digits (0.0001 on times of 0.1 and
     * more, CLUSTER_SPEED_RTOL) is no inconsistency; beyond it, still one. */
    static const struct {
        const char *text;
        int warnings;
        const char *what;
    } noise[] = {
        {"name,send,recv\na,0.1,0.4\nb,0.1001,0.3999\n", 0,
         "faster sender 0.0001 slower receiver"},
        {"name,send,recv\na,0.2,0.4\nb,0.2,0.4001\nc,0.3,0.5\n", 0,
         "equal send times, receive times 0.0001 apart"},
        {"name,send,recv\na,0.1,0.41\nb,0.1001,0.4\n", 1, "0.01 apart: a warning"},
        {"name,send,recv\na,0.2,0.4\nb,0.2,0.41\n", 1, "equal send times, 0.01 apart: a warning"},
        {"name,send,recv\na,1,2\nb,1.0009,2.0009\nc,1.0018,1.9995\nd,1.0027,1.998\n", 1,
         "noise that adds up along the order: a warning naming the pair"},
    };
    for (size_t k = 0; k < sizeof noise / sizeof noise[0]; k++) {
        c = load_str(noise[k].text, &d);
        ok(c != NULL && d.warnings == noise[k].warnings && d.errors == 0,
           "speeds within noise: %s (%d warnings)", noise[k].what, d.warnings);
        if (noise[k].warnings)
            ok(d.nlines > 0 && strstr(d.lines[0], "not consistent") != NULL, "  the warning says so: %s",
               d.nlines > 0 ? d.lines[0] : "none");
        cluster_free(c);
        diag_free(&d);
    }
}

/* Names are text: valid UTF-8 without control characters, or refused at their line. */
static void test_name_text(void)
{
    static const struct {
        const char *name, *want;
    } bad[] = {
        {"a\x1b]0;title\x07", "t.csv:3: name: node name \"a?]0;title?\" holds a control character"},
        {"\x1b[2J", "t.csv:3: name: node name \"?[2J\" holds a control character"},
        {"tab\there", "holds a control character"},
        {"a\xff" "b", "t.csv:3: name: node name \"a?b\" holds bytes that are not UTF-8"},
        {"over\xc0\xaflong", "holds bytes that are not UTF-8"},
        {"csi\xc2\x9b" "2J", "holds a C1 control character"},
        {"sur\xed\xa0\x80", "holds bytes that are not UTF-8"},
        {"non\xef\xbf\xbf", "holds the noncharacter U+FFFE or U+FFFF"},   /* XML cannot hold it */
        {"\xef\xbf\xbe" "x", "holds the noncharacter U+FFFE or U+FFFF"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *text = xasprintf("name,send,recv\np0,1,2\n\"%s\",1,2\n", bad[i].name);
        struct diag d;
        diag_init(&d);
        struct cluster *c = cluster_load_csv_buffer("t.csv", text, strlen(text), &d);
        ok(!c && d.nlines >= 1 && strstr(d.lines[0], bad[i].want), "name check: %s", bad[i].want);
        show_diag(&d);
        cluster_free(c);
        diag_free(&d);
        free(text);
    }
    struct diag d;
    diag_init(&d);
    const char *good = "name,send,recv\n\xc3\xa9t\xc3\xa9,1,2\n\xf0\x9f\x9a\x80,1,2\n\xef\xbf\xbd,1,2\n";
    struct cluster *c = cluster_load_csv_buffer("t.csv", good, strlen(good), &d);
    ok(c && c->n == 3, "name check: UTF-8 names (accents, an emoji, U+FFFD) load");
    cluster_free(c);
    diag_free(&d);
}

/* Models built through the API, with everything the writer must quote. */
static void test_round_trips(void)
{
    struct cluster *c = cluster_new(CLUSTER_NODES);
    cluster_set_str(&c->name, "tricky");
    cluster_set_str(&c->description, "line one\n\nline three, with \"quotes\"");
    c->latency = 0.1;
    cluster_add_node(c, "plain", 1.0 / 3, 2);
    cluster_add_node(c, "a,b", 0.1, 1e-300);
    cluster_add_node(c, "say \"hi\"", 1e99, 42);
    cluster_add_node(c, "big", 123456789012345678.0, 1e15 + 0.5);
    cluster_add_node(c, "#x", 0, 0.30000000000000004);
    cluster_add_node(c, " lead", 4, 5);
    cluster_add_node(c, "two lines", 6, 7);
    cluster_add_node(c, "\xc3\xa9t\xc3\xa9", 8, 9);
    cluster_set_class(c, 1, "k, 1");
    cluster_set_class(c, 6, "two\nlines");
    cluster_set_group(c, 4, "g");
    c->source = 2;
    round_trip(c, "tricky node table");

    char *text = write_str(c);
    ok(text && strstr(text, "\n\"a,b\",0.1,1e-300,\"k, 1\",\n"), "writer: quotes; short doubles");
    ok(text && strstr(text, "\n\"#x\",0,0.30000000000000004,,g\n"),
       "writer: 17 digits when they are needed");
    ok(text && strstr(text, "\n\"say \"\"hi\"\"\",1e+99,42,,\n"), "writer: integers plainly");
    ok(text && strstr(text, "# description: line one\n# description: \n# description: line three"),
       "writer: one description line per line");
    ok(text && strstr(text, "# source: say \"hi\"\n"), "writer: the source");
    free(text);
    cluster_free(c);

    c = cluster_new(CLUSTER_MATRIX);
    cluster_set_str(&c->name, "m");
    c->unit = 0.25;
    const char *names[] = {"x", "y,z", "w"};
    for (int i = 0; i < 3; i++)
        cluster_add_node(c, names[i], i == 1 ? 0.5 : 0, 0);
    c->dist = xcalloc(9, sizeof *c->dist);
    double v[9] = {0, 1.5, 2, 3, 0, 1.0 / 7, 8, 9, 0};
    memcpy(c->dist, v, sizeof v);
    c->source = 1;
    round_trip(c, "matrix built by the API");
    text = write_str(c);
    ok(text && strstr(text, "\n,x,\"y,z\",w,send\n"), "writer: matrix header with send only");
    free(text);
    cluster_set_group(c, 0, "left");
    cluster_set_group(c, 2, "left");
    cluster_set_class(c, 1, "fast");
    round_trip(c, "matrix with classes and groups");
    text = write_str(c);
    ok(text && strstr(text, "\n,x,\"y,z\",w,send,class,group\n") &&
           strstr(text, "\nx,0,1.5,2,0,,left\n") && strstr(text, ",0.5,fast,\n"),
       "writer: matrix class and group columns, empty where a node has none");
    free(text);
    cluster_set_node_name(c, 2, "Send");
    errno = 0;
    text = write_str(c);
    ok(text == NULL && errno == EINVAL, "writer: a matrix node named send cannot be written");
    free(text);
    cluster_free(c);

    c = cluster_new(CLUSTER_GRAPH);
    cluster_set_str(&c->name, "g");
    for (int i = 0; i < 4; i++) {
        char name[8];
        snprintf(name, sizeof name, "n%d", i);
        cluster_add_node(c, name, 0, 0);
    }
    cluster_add_edge(c, 0, 3, 1, 0.5);
    cluster_add_edge(c, 3, 1, 2.5, -1);
    cluster_add_edge(c, 1, 2, 1, -1);
    cluster_add_edge(c, 0, 2, 7, 0.5);
    round_trip(c, "graph whose edges name the nodes out of order");
    text = write_str(c);
    ok(text && strstr(text, "from,to,time,send\nn0,,,0.5\nn1,,,\n"), "writer: declaration rows");
    free(text);
    c->edges[3].send = 0.75;
    errno = 0;
    text = write_str(c);
    ok(text == NULL && errno == EINVAL, "writer: two send times for one node cannot be written");
    free(text);
    c->edges[3].send = 0.5;
    c->edges[0].to = 1;     /* now n0 n1 n3 n2 in edge order; still declarations */
    c->edges[1].from = 1;
    c->edges[1].to = 3;
    c->edges[2].from = 3;
    round_trip(c, "graph, reordered");
    cluster_free(c);

    c = cluster_new(CLUSTER_GRAPH);
    cluster_add_node(c, "a", 0, 0);
    cluster_add_node(c, "b", 0, 0);
    cluster_add_edge(c, 0, 1, 1, -1);
    cluster_add_edge(c, 1, 0, 1, -1);
    text = write_str(c);
    is_string(text, "# source: a\nfrom,to,time\na,b,1\nb,a,1\n",
              "writer: a graph in edge order needs no declarations");
    free(text);
    cluster_free(c);
}

static int count_entries(const char *dir)
{
    DIR *dp = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (dp && (e = readdir(dp)))
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (dp)
        closedir(dp);
    return n;
}

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return NULL;
    char *buf = xcalloc(1, 1 << 16);
    size_t n = fread(buf, 1, (1 << 16) - 1, fp);
    buf[n] = '\0';
    fclose(fp);
    return buf;
}

static void test_save(void)
{
    char dir[] = "/tmp/hetcast-test-csv-XXXXXX";
    if (!mkdtemp(dir)) {
        ok(0, "save: mkdtemp: %s", strerror(errno));
        return;
    }
    struct diag d;
    diag_init(&d);
    struct cluster *c = cluster_load_csv("clusters/counterexample.csv", &d);
    char *path = xasprintf("%s/saved.csv", dir);
    char *cause = NULL;
    is_int(cluster_save_csv(c, path, &cause), 0, "save: succeeds");
    ok(cause == NULL, "save: no cause");
    is_int(count_entries(dir), 1, "save: only the file is left in the directory");
    struct diag d2;
    diag_init(&d2);
    struct cluster *back = cluster_load_csv(path, &d2);
    const char *why = "";
    ok(back && same_cluster(c, back, &why), "save: the saved file loads back the same");
    cluster_free(back);
    diag_free(&d2);

    chmod(path, 0640);
    is_int(cluster_save_csv(c, path, &cause), 0, "save: over an existing file");
    struct stat st;
    ok(stat(path, &st) == 0 && (st.st_mode & 0777) == 0640, "save: keeps the file's permissions");
    is_int(count_entries(dir), 1, "save: still only the file");

    /* A cluster that cannot be written leaves the old file alone. */
    char *before = slurp(path);
    struct cluster *m = cluster_new(CLUSTER_MATRIX);
    cluster_add_node(m, "recv", 0, 0);
    m->dist = xcalloc(1, sizeof *m->dist);
    is_int(cluster_save_csv(m, path, &cause), -1, "save: an unwritable cluster fails");
    ok(cause && strstr(cause, path) && strstr(cause, "reserved"), "save: the cause says why");
    diag("cause: %s", cause ? cause : "(null)");
    char *after = slurp(path);
    is_string(after, before, "save: the old file is untouched");
    is_int(count_entries(dir), 1, "save: no temporary file is left");
    free(before);
    free(after);
    free(cause);
    cause = NULL;
    cluster_free(m);

    char *bad = xasprintf("%s/no/such/dir/x.csv", dir);
    is_int(cluster_save_csv(c, bad, &cause), -1, "save: into a missing directory fails");
    ok(cause && strstr(cause, bad) && strstr(cause, "No such file or directory"),
       "save: the cause names the path and the error");
    free(cause);
    free(bad);

    unlink(path);
    rmdir(dir);
    free(path);
    cluster_free(c);
    diag_free(&d);
}

/* Numbers are read in the C locale whatever the program's locale is. */
static void test_locale(void)
{
    static const char *const names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8"};
    const char *got = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !got; i++)
        got = setlocale(LC_NUMERIC, names[i]);
    if (!got) {
        ok(1, "locale: decimal comma locale # SKIP none installed");
        return;
    }
    struct diag d;
    struct cluster *c = load_str("name,send,recv\na,2.5,1\n", &d);
    ok(c && c->nodes[0].send == 2.5, "locale: \"2.5\" reads 2.5 under %s", got);
    char *text = c ? write_str(c) : NULL;
    ok(text && strstr(text, "a,2.5,1\n"), "locale: written with a decimal point");
    free(text);
    cluster_free(c);
    diag_free(&d);
    setlocale(LC_NUMERIC, "C");
}

/*
 * The one field writer (support/csvfield.h): its rule, and every field it writes
 * loads back through the loader (libcsv) as the same text, as a name and
 * as a class, bare or quoted, at the start, middle or end of a row.
 */
static void test_field_writer(void)
{
    static const struct {
        const char *s;
        bool quoted;
    } cases[] = {
        {" sp ", true}, {"a,b", true}, {"q\"q", true}, {"", false}, {"plain", false},
        {"in side", false}, {"#hash", true}, {"x#", false}, {"tab\t", true}, {"\tlead", true},
        {"two\nlines", true}, {"cr\r", true}, {"\"", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *f = cases[i].s;
        char shown[32];   /* the case as C writes it: a line break would break the TAP line */
        size_t k = 0;
        for (const char *p = f; *p && k + 3 < sizeof shown; p++) {
            const char *esc = *p == '\n' ? "\\n" : *p == '\r' ? "\\r" : *p == '\t' ? "\\t" : NULL;
            if (esc)
                shown[k++] = esc[0], shown[k++] = esc[1];
            else
                shown[k++] = *p;
        }
        shown[k] = '\0';
        is_int(csvfield_needs_quotes(f), cases[i].quoted, "field writer: \"%s\" is %squoted", shown,
               cases[i].quoted ? "" : "not ");
        char *text = NULL;
        size_t len = 0;
        FILE *fp = open_memstream(&text, &len);
        fputs("class,name,send,recv,group\n", fp);
        csvfield_put(fp, f);
        fputc(',', fp);
        csvfield_put(fp, *f && !text_flaw(f) ? f : "n");   /* a name is never empty, and text */
        fputs(",1,2,", fp);
        csvfield_put(fp, f);
        fputc('\n', fp);
        fclose(fp);
        struct diag d;
        diag_init(&d);
        struct cluster *c = cluster_load_csv_buffer("t.csv", text, len, &d);
        bool same = c && c->n == 1 && strcmp(c->nodes[0].name, *f && !text_flaw(f) ? f : "n") == 0 &&
                    strcmp(cluster_class(c, 0) ? cluster_class(c, 0) : "", f) == 0 &&
                    strcmp(cluster_group(c, 0) ? cluster_group(c, 0) : "", f) == 0;
        ok(same, "field writer: \"%s\" loads back the same (first, middle and last field)", shown);
        if (!same)
            diag("written: %s", text);
        cluster_free(c);
        diag_free(&d);
        free(text);
    }
}

/* Labels are kept once a cluster: many nodes of few classes share them, and
 * a cluster of more distinct labels than it can number is refused at the
 * line of the first one too many. */
static void test_labels(void)
{
    struct diag d;
    diag_init(&d);
    struct cluster *c = load_str("name,send,recv,class,group\na,1,2,fast,r1\nb,1,2,slow,r1\n"
                                 "c,1,2,fast,fast\n", &d);
    ok(c && cluster_class_id(c, 0) == cluster_class_id(c, 2) &&
           cluster_group_id(c, 0) == cluster_group_id(c, 1) &&
           cluster_class_id(c, 0) == cluster_group_id(c, 2) && c->nlabels == 3,
       "labels: equal labels share one id, class and group alike");
    cluster_free(c);
    diag_free(&d);
    /* 65536 distinct classes: one too many */
    size_t cap = 48 * 65540, len = 0;
    char *text = malloc(cap);
    len += (size_t)snprintf(text, cap, "name,send,recv,class\n");
    for (int i = 0; i <= CLUSTER_MAX_LABELS; i++)
        len += (size_t)snprintf(text + len, cap - len, "n%d,1,2,k%d\n", i, i);
    diag_init(&d);
    c = cluster_load_csv_buffer("t.csv", text, len, &d);
    char where[32];
    snprintf(where, sizeof where, "t.csv:%d: ", CLUSTER_MAX_LABELS + 2);
    ok(c == NULL && d.errors == 1 &&
           has_line(&d, where, "too many distinct class and group labels (a cluster has at most "
                               "65535)"),
       "labels: the 65536th distinct label is refused at its line");
    if (c || d.errors != 1)
        show_diag(&d);
    cluster_free(c);
    diag_free(&d);
    free(text);
}

/*
 * A node's line and labels live beside the node array (model/cluster.h): lines
 * that follow a rule (one a row, or one for all) keep no array, and the
 * first line off it makes one.  Random patterns against a plain array.
 */
static void test_lines_beside(void)
{
    uint64_t x = 12345;
    int good = 0, rounds = 400, arrays = 0, ruled = 0;
    for (int round = 0; round < rounds; round++) {
        int n = 1 + round % 97, want[97] = {0};
        struct cluster *c = cluster_new(CLUSTER_NODES);
        int base = (int)(round % 7), step = round % 3 == 0 ? 0 : round % 3 == 1 ? 1 : 5;
        for (int k = 0; k < n; k++) {
            char name[16];
            snprintf(name, sizeof name, "n%d", k);
            cluster_add_node(c, name, 1, 2);
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            int line = base + k * step;
            if (round % 4 == 3 && (x >> 33) % 31 == 0)
                line += 1 + (int)((x >> 40) % 3);   /* off the rule */
            if (round % 5 != 4 || k % 2 == 0) {     /* some nodes get none */
                cluster_set_line(c, k, line);
                want[k] = line;
            }
        }
        if (round % 6 == 5 && n > 2) {   /* again, out of order: the same, then another */
            cluster_set_line(c, n / 2, want[n / 2]);
            cluster_set_line(c, 1, want[1] + 7);
            want[1] += 7;
        }
        bool same = true;
        for (int k = 0; k < n; k++)
            same = same && cluster_line(c, k) == want[k];
        good += same;
        arrays += c->lines != NULL;
        ruled += c->lines == NULL && n > 2;
        cluster_free(c);
    }
    is_int(good, rounds, "lines: every node's line as given, with and without the array");
    ok(arrays > 0 && ruled > 0, "lines: %d clusters needed the array, %d of more than two nodes "
       "did not", arrays, ruled);
    struct diag d;
    diag_init(&d);
    struct cluster *c = load_str("name,send,recv\n# a comment\na,1,2\nb,1,2\n\nc,1,2\n", &d);
    ok(c && cluster_line(c, 0) == 3 && cluster_line(c, 1) == 4 && cluster_line(c, 2) == 6 &&
           c->lines != NULL,
       "lines: a blank line between rows: the lines as they are");
    cluster_free(c);
    c = load_str("name,send,recv\na,1,2\nb,1,2\nc,1,2\n", &d);
    ok(c && cluster_line(c, 2) == 4 && c->lines == NULL && c->klass == NULL && c->group == NULL,
       "lines: rows one a line keep no array, a table without labels no label ids");
    cluster_free(c);
    diag_free(&d);
}

int main(void)
{
    test_bundled();
    test_errors();
    test_many_errors();
    test_unreadable();
    test_numbers();
    test_count();
    test_segments();
    test_quoting();
    test_kinds();
    test_params();
    test_name_text();
    test_round_trips();
    test_save();
    test_locale();
    test_field_writer();
    test_labels();
    test_lines_beside();
    return tap_exit();
}
