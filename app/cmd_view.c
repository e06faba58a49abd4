/*
 * cmd_view.c - `hetcast [FILE]`: the interactive view (ui/, handed in by
 * main.c) on a cluster, the bundled counterexample without one.  The view
 * takes the options of run and compare that choose what is computed;
 * those that choose how it is printed are refused.
 */
#include <stdio.h>
#include <string.h>

#include "app/cli_common.h"
#include "app/datadir.h"
#include "app/opts.h"

int cmd_view(int argc, char **argv, const struct cli_views *v)
{
    struct cli_opts o;
    int rc = cli_parse("hetcast", argc, argv, &o, false);
    if (rc)
        return rc < 0 ? 0 : rc;
    char deflt[4096];
    if (!o.s.file) {
        const char *data = app_datadir();
        if (!data)
            return opts_error(2, "no FILE, and the bundled clusters are not installed (set "
                                 "HETCAST_DATADIR to a folder holding clusters/ and lua/)");
        snprintf(deflt, sizeof deflt, "%s/clusters/counterexample.csv", data);
        o.s.file = deflt;
    }
    if (strcmp(o.s.file, SESSION_STDIN) == 0)
        return opts_error(2, "the view reads its keys from standard input: give it a cluster "
                             "FILE (hetcast run - reads a cluster from standard input)");
    if (o.s.trace && session_is_exchange(&o.s))
        return opts_error(2, "--trace compares a broadcast; a personalized exchange (--pattern, "
                             "--receivers) has no measured trace");
    if (o.format || o.summary || o.save_cluster || o.output || o.svg_parts || o.svg_nodes || o.certify ||
        o.certify_lp)
        return opts_error(2, "--format, --output, --summary, --save-cluster, --svg-* and --certify* are "
                             "for hetcast run and compare; the view exports with e");
    if (!v->view)
        return opts_error(1, "this build has no interactive view; use hetcast run %s", o.s.file);
    return v->view(&o.s);
}
