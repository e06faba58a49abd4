/*
 * output/export_dot.c - the broadcast tree in Graphviz DOT (output/export_interop.h), for
 * `dot -Tsvg` / `dot -Tpdf` in papers.  Graph node ids are made up here
 * (n3, r1n3); user text (node names) appears only in labels, through
 * export_dot_string.
 */
#include "output/export_interop.h"

#include <stdlib.h>

#include "output/export.h"
#include "support/numfmt.h"

void export_dot_string(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(fp, "\\%c", ch);
        else if (ch == '\n')
            fputs("\\n", fp);
        else if (ch < 0x20 || ch == 0x7f)
            fprintf(fp, "\\\\x%02x", ch);   /* shown as the text \xNN */
        else
            fputc(ch, fp);
    }
    fputc('"', fp);
}

/* One run's tree: its nodes (prefix "r1" in a comparison) and edges. */
static void dot_tree(FILE *fp, const struct run *ru, const char *prefix, const char *indent)
{
    const struct engine *e = &ru->eng;
    int n = e->n;
    int *order = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *order);
    unsigned char *crit = xmalloc((size_t)(n > 0 ? n : 1));
    int count = export_tree_order(e, order, NULL);
    export_critical_path(e, crit);
    for (int i = 0; i < count; i++) {
        int p = order[i];
        char label[512];
        if (e->parent[p] < 0)
            text_fit(label, sizeof label, "%s\nsource", ru->c->nodes[p].name);
        else
            text_fit(label, sizeof label, "%s\nholds at %s", ru->c->nodes[p].name,
                     numfmt_txt(engine_hold_time(e, p, 0)));
        fprintf(fp, "%s%sn%d [label=", indent, prefix, p);
        export_dot_string(fp, label);
        fprintf(fp, "%s%s];\n", e->parent[p] < 0 ? ", shape=doublecircle" : "",
                crit[p] == CRIT_WHOLE ? ", penwidth=2" : "");
    }
    for (int i = 0; i < e->ntr; i++) {
        const struct transfer *t = &e->tr[i];
        if (t->msg != 0 || e->parent[t->to] != t->from)
            continue;
        char label[128];
        text_fit(label, sizeof label, "#%d, t=%s", t->seq + 1, numfmt_txt(t->start));
        fprintf(fp, "%s%sn%d -> %sn%d [label=", indent, prefix, t->from, prefix, t->to);
        export_dot_string(fp, label);
        fprintf(fp, "%s];\n", crit[t->from] && crit[t->to] ? ", penwidth=2" : "");
    }
    free(order);
    free(crit);
}

int export_dot(FILE *fp, const struct run *runs, int k)
{
    fputs("digraph broadcast {\n", fp);
    if (k > 0 && time_unit_name(runs[0].c->time_unit))   /* a comment: the graph is unchanged */
        fprintf(fp, "  // times in %s\n", time_unit_name(runs[0].c->time_unit));
    fputs("  node [shape=ellipse, fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\"];\n", fp);
    char title[512];
    if (k == 1) {
        text_fit(title, sizeof title, "%s: %s, %s, makespan %s", runs[0].c->name ? runs[0].c->name : "",
                 runs[0].sched.ops->name, model_name(runs[0].model),
                 numfmt_txt(runs[0].eng.makespan));
        fputs("  labelloc=t;\n  label=", fp);
        export_dot_string(fp, title);
        fputs(";\n", fp);
        dot_tree(fp, &runs[0], "", "  ");
    }
    for (int r = 0; k > 1 && r < k; r++) {
        char prefix[32];
        text_fit(prefix, sizeof prefix, "r%d", r);
        text_fit(title, sizeof title, "%s%s, %s: makespan %s", runs[r].sched.ops->name,
                 run_tag(&runs[r]), model_name(runs[r].model), numfmt_txt(runs[r].eng.makespan));
        fprintf(fp, "  subgraph cluster_%d {\n    label=", r);
        export_dot_string(fp, title);
        fputs(";\n", fp);
        dot_tree(fp, &runs[r], prefix, "    ");
        fputs("  }\n", fp);
    }
    fputs("}\n", fp);
    return ferror(fp) ? -1 : 0;
}
