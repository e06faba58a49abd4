/*
 * fuzz_names.c - libFuzzer harness for names, the one way user text reaches
 * every output: the input's NUL-separated pieces (at most 8) become node
 * names, with the first piece also the cluster's name (blanks around it
 * gone, as the loaders read it), and go through
 * cluster_add_node and cluster_finish, as every loader's do.  Promises:
 *   - a cluster is refused, with messages of printable one-line text, when
 *     a name is not text (support/diag.h: UTF-8 without C0, DEL or C1 controls),
 *     and accepted when all names are (a repeated piece is left out, an
 *     empty one named "?");
 *   - an accepted cluster's every output is valid (fuzz_output.h): the
 *     JSON, text and CSV reports, the SVG, Paje, DOT and the schedule CSV,
 *     for every scheduler (fuzz_schedule); and it goes through CSV and back
 *     unchanged;
 *   - the message printer's escaping (text_escape) of any piece is text
 *     (line breaks and tabs kept).
 * Built by tests/fuzz/run.sh; replay.c replays saved inputs in every build.
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"

#define MAX_PIECES 8

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_setup();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = xmalloc(size + 1);
    memcpy(buf, data, size);
    buf[size] = '\0';
    const char *piece[MAX_PIECES];
    int n = 0;
    for (size_t at = 0; at <= size && n < MAX_PIECES;) {
        piece[n++] = buf + at;
        at += strlen(buf + at) + 1;
    }
    for (int i = 0; i < n; i++) {
        char *esc = text_escape(piece[i]);   /* text, but line breaks and tabs */
        for (const char *e = esc; *e;) {
            int k = *e == '\n' || *e == '\t' ? 1 : text_char(e);
            if (k <= 0)
                fuzz_fail("text_escape gives what is not text", esc);
            e += k;
        }
        free(esc);
    }

    struct cluster *c = cluster_new(CLUSTER_NODES);
    /* The cluster's name as the loaders give it: blanks around it go. */
    char *cname = xstrdup(piece[0]), *cn = cname;
    while (*cn == ' ')
        cn++;
    for (size_t l = strlen(cn); l > 0 && cn[l - 1] == ' '; l--)
        cn[l - 1] = '\0';
    cluster_set_str(&c->name, *cn ? cn : "names");
    free(cname);
    bool all_text = true;
    for (int i = 0; i < n; i++) {   /* a repeated name is left out, as the loaders refuse it */
        const char *name = piece[i][0] ? piece[i] : "?";
        if (cluster_find(c, name) >= 0)
            continue;
        all_text = all_text && !text_flaw(name);
        int k = cluster_add_node(c, name, 1 + i % 3, 2 + i % 2);
        cluster_set_line(c, k, i + 2);
    }
    struct diag d;
    diag_init(&d);
    int rc = cluster_finish(c, &d);
    if (d.errors)
        rc = -1;
    for (int i = 0; i < d.nlines; i++)
        if (fuzz_text_flaw(d.lines[i], strlen(d.lines[i])) || strchr(d.lines[i], '\n'))
            fuzz_fail("a message is not one line of text", d.lines[i]);
    bool named_ok = true;   /* every name cluster_add_node got is text */
    for (int i = 0; i < c->n; i++)
        named_ok = named_ok && !text_flaw(c->nodes[i].name);
    if (rc == 0 && !named_ok)
        fuzz_fail("a name that is not text was accepted", NULL);
    if (rc != 0 && all_text)
        fuzz_fail("names that are all text were refused", d.nlines ? d.lines[0] : NULL);
    fuzz_show(&d, rc == 0 ? c : NULL);
    if (rc == 0) {
        if (text_flaw(c->name))
            fuzz_fail("the cluster's name is not text", c->name);
        fuzz_round_trip(c, true);
        fuzz_schedule(c, fuzz_sink);   /* every scheduler, every output checked */
    }
    diag_free(&d);
    cluster_free(c);
    free(buf);
    return 0;
}
