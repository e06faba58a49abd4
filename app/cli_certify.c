/*
 * cli_certify.c - run and compare --certify / --certify-lp (cli_common.h):
 * the optimum the exact search proved, proved again by an integer program
 * solved by GLPK (sched/certify.h), and that program written for other
 * solvers.  The verdict is a line under the text report; a difference is a
 * failure (status 1): one of the two proofs is wrong.
 */
#include <stdio.h>
#include <stdlib.h>

#include "app/cli_common.h"
#include "app/opts.h"
#include "sched/certify.h"
#include "support/numfmt.h"

int cli_certify_check(const struct cli_opts *o, const struct cluster *c, bool text)
{
    if (o->certify && !text)
        return opts_error(2, "--certify adds a line to the text report: leave out --format");
    if ((o->certify || o->certify_lp) && c->n > CERTIFY_MAX_NODES)
        return opts_error(2, "%s: the integer program is for up to %d nodes (%s has %d)",
                          o->certify ? "--certify" : "--certify-lp", CERTIFY_MAX_NODES, o->s.file, c->n);
    return 0;
}

int cli_certify(const struct cli_opts *o, const struct run *r)
{
    char *cause = NULL;
    if (o->certify_lp && certify_write_lp(r->c, r->model, o->certify_lp, &cause) < 0)
        return cli_fail(cause, 1);
    if (!o->certify)
        return 0;
    fflush(stdout);
    if (r->opt != OPT_PROVEN) {
        printf("certified     no: the search proved no optimum to certify (%s)\n", r->opt_note);
        return opts_error(1, "--certify: the search proved no optimum (%s)", r->opt_note);
    }
    struct certify ct;
    if (certify_optimum(r->c, r->model, r->optimum, o->s.sopt.time_limit, &ct, &cause) < 0)
        return cli_fail(cause, 1);
    switch (ct.status) {
    case CERTIFY_SAME:
        printf("certified     %s   (an integer program of %d binaries, solved by GLPK in %.2f s, finds the same "
               "optimum)\n", numfmt_txt(ct.value), ct.binaries, ct.seconds);
        return 0;
    case CERTIFY_DIFFERENT:
        printf("certified     NO: the integer program finds %s, the search proved %s\n", numfmt_txt(ct.value),
               numfmt_txt(r->optimum));
        return opts_error(1, "--certify: the integer program's optimum %s differs from the search's %s: one "
                             "of the two is wrong (please report this cluster)", numfmt_txt(ct.value),
                          numfmt_txt(r->optimum));
    case CERTIFY_GAVE_UP:
    default:
        printf("certified     not yet: %s after %.0f s\n", ct.note, ct.seconds);
        return opts_error(1, "--certify: %s", ct.note);
    }
}
