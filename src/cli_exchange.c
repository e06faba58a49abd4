/*
 * cli_exchange.c - `hetcast run|compare FILE --pattern all-to-all|all-to-some`
 * (SPEC §4, §6): the command line of personalized exchanges, and the set-up
 * the view shares with it (cli_exchange_run).
 *
 * Exit status as for every command: 0 success, 1 runtime failure (output),
 * 2 bad usage or bad input.  Broadcast schedulers are refused with --pattern
 * and exchange schedulers without it (cli_sched), each with the valid list.
 */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exchange.h"
#include "report_exchange.h"

static int usage_error(char *cause)
{
    fprintf(stderr, "hetcast: %s\n", cause ? cause : "bad usage");
    free(cause);
    return 2;
}

/* The scheduler `name` as an exchange order; refuses broadcast schedulers by name. */
static int exchange_sched(const char *name, enum xalgo *a, char **cause)
{
    if (exchange_algo_parse(name, a) == 0)
        return 0;
    char *names = exchange_algo_names();
    if (sched_find(name))
        set_cause(cause, "%s is a broadcast scheduler; with --pattern the valid schedulers are: %s",
                  name, names);
    else
        set_cause(cause, "unknown scheduler \"%s\"; with --pattern the valid schedulers are: %s",
                  name, names);
    free(names);
    return -1;
}

/* Everything about --pattern and --receivers that needs no cluster. */
static int check_pattern(const struct cli_opts *o, enum xpattern *pat, char **cause)
{
    if (!o->pattern)
        return set_cause(cause, "--receivers needs --pattern all-to-some");
    if (exchange_pattern_parse(o->pattern, pat) < 0)
        return set_cause(cause, "unknown pattern \"%s\"; valid patterns: all-to-all, all-to-some",
                         o->pattern);
    if (*pat == XPAT_ALL_TO_ALL && o->receivers)
        return set_cause(cause, "--receivers applies to --pattern all-to-some only "
                         "(all-to-all: every node receives)");
    if (*pat == XPAT_ALL_TO_SOME && !o->receivers)
        return set_cause(cause, "--pattern all-to-some needs --receivers NAME,NAME,... or "
                         "--receivers P%% (a random P percent of the nodes)");
    if (o->source)
        return set_cause(cause, "--source does not apply to a personalized exchange: "
                         "every node sends its own messages");
    return 0;
}

static int check_model(const struct cli_opts *o, const struct cluster *c, enum model *m,
                       char **cause)
{
    if (c->kind != CLUSTER_NODES)
        return set_cause(cause, "a personalized exchange needs a node table (name,send,recv); "
                         "%s is a %s", o->file, cluster_kind_name(c->kind));
    if (cli_model(o, c, m, cause) < 0)
        return -1;
    if (*m != MODEL_SYNC && *m != MODEL_ASYNC)
        return set_cause(cause, "a personalized exchange runs under -m sync or -m async, not %s",
                         model_name(*m));
    return 0;
}

int cli_exchange_run(const struct cli_opts *o, const struct cluster *c, const char *sched,
                     bool timeline, struct exchange *x, char **cause)
{
    enum xpattern pat;
    enum xalgo algo;
    enum model m;
    memset(x, 0, sizeof *x);
    if (check_pattern(o, &pat, cause) < 0 || exchange_sched(sched ? sched : "caterpillar", &algo, cause) < 0 ||
        check_model(o, c, &m, cause) < 0)
        return -1;
    struct exchange_opts xo = {.pattern = pat, .algo = algo, .seed = o->sopt.seed,
                               .timeline = timeline};
    int *recv = NULL;
    if (pat == XPAT_ALL_TO_SOME &&
        exchange_parse_receivers(c, o->receivers, o->sopt.seed, &recv, &xo.nrecv, cause) < 0)
        return -1;
    xo.recv = recv;
    int rc = exchange_run(x, c, m, &xo, cause);
    free(recv);
    return rc;
}

static int check_output(const struct cli_opts *o, int *fmt, char **cause)
{
    const char *s = o->format ? o->format : "text";
    if (strcmp(s, "text") == 0)
        *fmt = 0;
    else if (strcmp(s, "csv") == 0)
        *fmt = 1;
    else if (strcmp(s, "json") == 0)
        *fmt = 2;
    else if (strcmp(s, "svg") == 0)
        return set_cause(cause, "--format svg draws broadcasts only; a personalized exchange "
                         "prints text, csv or json");
    else
        return set_cause(cause, "unknown format \"%s\"; valid formats: text, csv, json", s);
    return 0;
}

int cli_exchange(const struct cli_opts *o, bool compare)
{
    char *cause = NULL;
    enum xpattern pat;
    int fmt = 0;
    if (check_output(o, &fmt, &cause) < 0 || check_pattern(o, &pat, &cause) < 0)
        return usage_error(cause);
    const char *names[XALGO_COUNT > CLI_MAX_SCHEDS ? XALGO_COUNT : CLI_MAX_SCHEDS];
    int k = o->nsched;
    for (int i = 0; i < k; i++) {
        enum xalgo a;
        if (exchange_sched(o->sched[i], &a, &cause) < 0)
            return usage_error(cause);
        names[i] = o->sched[i];
    }
    if (!compare && k > 1) {
        fprintf(stderr, "hetcast: run takes one scheduler (got %d); use hetcast compare for more\n", k);
        return 2;
    }
    struct cluster *c = cli_load_cluster(o, &cause);
    if (!c)
        return usage_error(cause);
    enum model m;
    if (check_model(o, c, &m, &cause) < 0) {
        cluster_free(c);
        return usage_error(cause);
    }
    if (k == 0 && !compare)
        names[k++] = "caterpillar";
    else if (k == 0)
        for (int a = 0; a < XALGO_COUNT; a++) {
            if (a == XALGO_MATCHING && c->n > EXCHANGE_MATCHING_MAX_NODES) {
                fprintf(stderr, "hetcast: matching left out: it takes O(n^4) time and is refused "
                                "above %d nodes\n", EXCHANGE_MATCHING_MAX_NODES);
                continue;
            }
            names[k++] = exchange_algo_name((enum xalgo)a);
        }
    if (o->save_cluster && cluster_save_csv(c, o->save_cluster, &cause) < 0) {
        cluster_free(c);
        fprintf(stderr, "hetcast: %s\n", cause);
        free(cause);
        return 1;
    }
    struct exchange *xs = xcalloc((size_t)k, sizeof *xs);
    int done = 0;
    for (; done < k; done++)
        if (cli_exchange_run(o, c, names[done], false, &xs[done], &cause) < 0)
            break;
    int status = 0;
    if (done < k) {
        status = usage_error(cause);
    } else if (!compare) {
        if (fmt == 0)
            report_exchange_text(stdout, &xs[0], o->summary);
        else if (fmt == 1)
            report_exchange_csv(stdout, &xs[0], o->summary, true);
        else
            report_exchange_json(stdout, &xs[0], o->summary);
    } else {
        if (fmt == 0)
            report_exchange_compare_text(stdout, xs, k, o->summary);
        else if (fmt == 1)
            report_exchange_compare_csv(stdout, xs, k, o->summary);
        else
            report_exchange_compare_json(stdout, xs, k, o->summary);
    }
    for (int i = 0; i < done; i++)
        exchange_free(&xs[i]);
    free(xs);
    cluster_free(c);
    if (status == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
        fprintf(stderr, "hetcast: cannot write the output: %s\n", strerror(errno));
        return 1;
    }
    return status;
}
