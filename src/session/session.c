/*
 * session/session.c - loading, naming and running as every front door does it
 * (session/session.h).  Never prints: warnings go to the caller's struct diag,
 * refusals to *cause.
 */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700   /* realpath */
#endif
#include "session/session.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "sched/exchange.h"
#include "model/cluster_lua.h"
#include "model/targets.h"
#include "sched/lua_sched.h"
#include "session/trace.h"
#if HETCAST_HAVE_SIMGRID
#include "model/cluster_simgrid.h"
#endif

void session_opts_init(struct session_opts *o)
{
    memset(o, 0, sizeof *o);
    sched_opts_default(&o->sopt);
}

bool session_is_exchange(const struct session_opts *o)
{
    return o->pattern || o->receivers;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static char *clusters_dir;   /* realpath of session_set_clusters_dir's, or NULL */

void session_set_clusters_dir(const char *dir)
{
    free(clusters_dir);
    clusters_dir = dir ? realpath(dir, NULL) : NULL;
}

/* Is real (a resolved path) dir itself or below it? */
static bool within(const char *real, const char *dir)
{
    size_t n = strlen(dir);
    if (strncmp(real, dir, n) != 0)
        return false;
    return real[n] == '\0' || real[n] == '/' || (n > 0 && dir[n - 1] == '/');   /* dir "/" */
}

const char *session_confined(const char *dir, const char *file)
{
    char *real = realpath(file, NULL);
    bool missing = !real && errno == ENOENT;
    if (missing) {   /* judged by its folder */
        const char *slash = strrchr(file, '/');
        char *folder = slash ? xasprintf("%.*s", slash == file ? 1 : (int)(slash - file), file)
                             : xstrdup(".");
        real = realpath(folder, NULL);
        free(folder);
        if (!real)
            return "is in a folder that does not exist: refused";
    } else if (!real) {
        return "cannot be reached (a link that goes nowhere, or a folder that cannot be read): "
               "refused";
    }
    char *home = realpath(dir, NULL);
    bool ok = (home && within(real, home)) || (clusters_dir && within(real, clusters_dir));
    free(home);
    struct stat st;
    bool got = !missing && ok && stat(real, &st) == 0;
    free(real);
    if (!ok)
        return "is outside the lesson's folder and hetcast's clusters: refused (a lesson reads "
               "only the files beside it and the bundled clusters)";
    if (missing || !got || S_ISREG(st.st_mode))
        return NULL;
    return S_ISDIR(st.st_mode)                           ? "is a directory, not a regular file: refused"
           : S_ISFIFO(st.st_mode)                        ? "is a FIFO, not a regular file: refused"
           : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "is a device, not a regular file: refused"
           : S_ISSOCK(st.st_mode)                        ? "is a socket, not a regular file: refused"
                                                         : "is not a regular file: refused";
}

/* With o->confine: o->file, o->trace and the Lua heuristics named by a path (a lesson
 * made them so; a bare name is a bundled one) checked (session_confined).  0, or -1
 * with *cause. */
static int check_confined(const struct session_opts *o, char **cause)
{
    const char *files[2 + SESSION_MAX_SCHEDS] = {o->text ? NULL : o->file, o->trace};
    for (int i = 0; i < o->nsched; i++)
        if (strchr(o->sched[i], '/') && ends_with(o->sched[i], ".lua"))
            files[2 + i] = o->sched[i];
    for (int i = 0; i < 2 + o->nsched; i++) {
        const char *why = files[i] ? session_confined(o->confine, files[i]) : NULL;
        if (why)
            return set_cause(cause, "%s %s", files[i], why);
    }
    return 0;
}

struct cluster *session_load(const struct session_opts *o, struct diag *warn, char **cause)
{
    if (o->confine && check_confined(o, cause) < 0)
        return NULL;
    struct diag d;
    diag_init(&d);
    struct cluster *c = NULL;
    cluster_source_override(o->source);   /* a graph's reachability from --source */
    FILE *text = o->text ? fmemopen((void *)o->text, strlen(o->text), "r") : NULL;
    if (o->text) {
        if (text)
            c = cluster_load_csv_stream(text, o->file, &d);
        else
            diag_error(&d, o->file, 0, NULL, "cannot read the cluster's text");
        if (text)
            fclose(text);
    } else if (ends_with(o->file, ".lua")) {
        struct sandbox_limits lim = {.instructions = o->sopt.lua_instructions,
                                     .memory = o->sopt.lua_memory, .cancel = o->sopt.cancel};
        c = cluster_load_lua(o->file, o->params, o->nparams, &lim, o->sopt.seed, &d);
    } else if (ends_with(o->file, ".xml")) {
#if HETCAST_HAVE_SIMGRID
        c = cluster_load_simgrid(o->file, o->has_size ? o->size : SIMGRID_DEFAULT_SIZE, &d);
#else
        diag_error(&d, o->file, 0, NULL, "a SimGrid platform, but this hetcast was built without "
                   "SimGrid (install libsimgrid-dev and rebuild: meson setup --reconfigure "
                   "-Dsimgrid=enabled)");
#endif
    } else {
        c = strcmp(o->file, SESSION_STDIN) == 0 ? cluster_load_csv_stream(stdin, "<stdin>", &d)
                                                : cluster_load_csv(o->file, &d);
    }
    cluster_source_override(NULL);
    bool lua_heuristic = false;   /* it reads them too */
    for (int i = 0; i < o->nsched; i++)
        lua_heuristic = lua_heuristic || ends_with(o->sched[i], ".lua");
    if (c && o->nparams > 0 && !lua_heuristic && (o->text || !ends_with(o->file, ".lua")))
        diag_warn(&d, NULL, 0, NULL, "--param is for .lua cluster scripts and heuristics; ignored for %s",
                  o->file);
    if (!c) {
        char *all = diag_join(&d);
        set_cause(cause, "%s", all ? all : "cannot load the cluster");
        free(all);
        diag_free(&d);
        return NULL;
    }
    if (o->has_size && !ends_with(o->file, ".xml")) {
        /* platform graphs with affine edges (alpha, beta), node tables with size segments:
           times for this size */
        int affine = timing_set_message_size(c, o->size);
        if (affine == 0)
            diag_warn(&d, NULL, 0, NULL, "--size is for SimGrid platforms (.xml), platform "
                      "graphs with alpha and beta columns and node tables with size segments; "
                      "ignored for %s", o->file);
        if (affine < 0) {
            set_cause(cause, "--size %.15g: no size segment of %s covers it (they cover %.0f to "
                      "%.0f bytes, from line %d; calibrate that size: docs/mpi.md)", o->size,
                      o->file, c->segments[0].lo, c->segments[c->nsegments - 1].hi,
                      c->segments[0].line);
            cluster_free(c);
            diag_free(&d);
            return NULL;
        }
        for (int k = 0; k < c->nedges; k++)
            if (!(c->edges[k].time <= CLUSTER_MAX_TIME)) {
                set_cause(cause, "--size %g: the edge %s -> %s would take %g (alpha + size x "
                          "beta), beyond %g", o->size, c->nodes[c->edges[k].from].name,
                          c->nodes[c->edges[k].to].name, c->edges[k].time, CLUSTER_MAX_TIME);
                cluster_free(c);
                diag_free(&d);
                return NULL;
            }
    }
    if (o->source) {
        int s = cluster_find(c, o->source);
        if (s < 0) {
            set_cause(cause, "--source: \"%s\" is not a node of %s (its first nodes: %s%s%s%s%s)",
                      o->source, o->file, c->nodes[0].name, c->n > 1 ? ", " : "",
                      c->n > 1 ? c->nodes[1].name : "", c->n > 2 ? ", " : "",
                      c->n > 2 ? c->nodes[2].name : "");
            cluster_free(c);
            diag_free(&d);
            return NULL;
        }
        c->source = s;
    }
    char *why = NULL;
    if (o->targets && cluster_set_targets(c, o->targets, &why) < 0) {
        set_cause(cause, "--targets: %s (%s)", why, strcmp(o->file, SESSION_STDIN) == 0 ? "<stdin>" : o->file);
        free(why);
        cluster_free(c);
        diag_free(&d);
        return NULL;
    }
    if (warn)
        diag_move(warn, &d);
    diag_free(&d);
    return c;
}

int session_model(const struct session_opts *o, const struct cluster *c, enum model *m,
                  char **cause)
{
    if (!o->model) {
        *m = c->plat ? model_default_platform() : model_default_for(c->kind);
        return 0;
    }
    if (model_parse(o->model, m) < 0) {
        char *names = model_names();
        char guess[96];
        set_cause(cause, "unknown model \"%s\"; %svalid models: %s", o->model,
                  text_guess(o->model, names, guess, sizeof guess), names);
        free(names);
        return -1;
    }
    if (!(model_mask_for(c->kind) & MODEL_BIT(*m))) {
        char *no = model_refusal(*m, c->kind);
        if (o->file)   /* the file whose kind refuses it */
            set_cause(cause, "%s: %s", strcmp(o->file, "-") == 0 ? "<stdin>" : o->file, no);
        else
            set_cause(cause, "%s", no);
        free(no);
        return -1;
    }
    return 0;
}

const struct sched_ops *session_sched(const char *name, char **cause)
{
    if (ends_with(name, ".lua"))
        return lua_sched_ops(name, cause);
    const struct sched_ops *ops = sched_find(name);
    if (!ops && xsched_find(name)) {
        char *names = sched_names();
        set_cause(cause, "%s schedules a personalized exchange: use it with --pattern all-to-all "
                  "or --pattern all-to-some; the broadcast schedulers are: %s", name, names);
        free(names);
    } else if (!ops) {
        char *names = sched_names();
        char guess[96];
        set_cause(cause, "unknown scheduler \"%s\"; %svalid schedulers: %s (or a Lua heuristic, "
                  "FILE.lua)", name, text_guess(name, names, guess, sizeof guess), names);
        free(names);
    }
    return ops;
}

int session_trace(const struct session_opts *o, const struct cluster *c, enum model m, int max,
                  struct trace *t, const struct sched_ops **ops, int *grp, struct diag *d,
                  char **cause)
{
    if (trace_load(t, o->trace, c, d) < 0)
        return -1;
    int k = 0;
    for (int i = 0; i < o->nsched && k < max; i++) {
        if (!(ops[k] = session_sched(o->sched[i], cause)) ||
            (grp[k] = trace_select(t, ops[k]->name, cause)) < 0) {
            trace_free(t);
            return -1;
        }
        k++;
    }
    for (int g = 0; o->nsched == 0 && g < t->ngroups && k < max; g++) {
        const char *name = t->groups[g];
        if (!sched_find(name) && t->ngroups == 1) {   /* one run named otherwise: the default */
            ops[k] = sched_default(c, m);
        } else if (!sched_find(name)) {
            char *valid = sched_names(), b[128];
            diag_error(d, t->file, t->group_line[g], "scheduler", "\"%s\" is not one of hetcast's "
                       "(%s); give -s NAME to compare the rows of one", SHOWN(name, b), valid);
            free(valid);
            trace_free(t);
            return -1;
        } else {
            ops[k] = sched_find(name);
        }
        grp[k++] = g;
    }
    return k;
}

int session_run(struct run *r, const struct session_opts *o, const struct cluster *c,
                enum model m, const struct sched_ops *ops, bool lean, enum run_optimum want,
                char **cause)
{
    struct sched_opts so = o->sopt;
    so.params = o->params;   /* a Lua heuristic's param() */
    so.nparams = o->nparams;
    if (lua_sched_script(ops))   /* the script the name resolved to (a bundled one, say) */
        so.script = lua_sched_script(ops);
    so.lean = lean;
    return run_schedule(r, c, m, ops, &so, want, cause);
}

/* ---- personalized exchanges ---- */

int session_exchange_sched(const char *name, char **cause)
{
    if (!name || xsched_find(name))
        return 0;
    char *names = xsched_names();
    if (sched_find(name))
        set_cause(cause, "%s is a broadcast scheduler; with --pattern the valid schedulers are: %s",
                  name, names);
    else
    {
        char guess[96];
        set_cause(cause, "unknown scheduler \"%s\"; %swith --pattern the valid schedulers are: %s",
                  name, text_guess(name, names, guess, sizeof guess), names);
    }
    free(names);
    return -1;
}

int session_exchange_check(const struct session_opts *o, char **cause)
{
    enum xpattern pat;
    if (!o->pattern)
        return set_cause(cause, "--receivers needs --pattern all-to-some");
    if (exchange_pattern_parse(o->pattern, &pat) < 0)
        return set_cause(cause, "unknown pattern \"%s\"; valid patterns: all-to-all, all-to-some",
                         o->pattern);
    if (pat == XPAT_ALL_TO_ALL && o->receivers)
        return set_cause(cause, "--receivers applies to --pattern all-to-some only "
                         "(all-to-all: every node receives)");
    if (pat == XPAT_ALL_TO_SOME && !o->receivers)
        return set_cause(cause, "--pattern all-to-some needs --receivers NAME,NAME,... or "
                         "--receivers P%% (a random P percent of the nodes)");
    if (o->source)
        return set_cause(cause, "--source does not apply to a personalized exchange: "
                         "every node sends its own messages");
    return 0;
}

int session_exchange_model(const struct session_opts *o, const struct cluster *c, enum model *m,
                           char **cause)
{
    if (c->kind != CLUSTER_NODES && c->kind != CLUSTER_MATRIX)
        return set_cause(cause, "a personalized exchange needs a node table (name,send,recv) or a "
                         "latency matrix (-m sync); %s is a %s", o->file,
                         cluster_kind_name(c->kind));
    if (c->kind == CLUSTER_MATRIX && !o->model) {
        *m = MODEL_SYNC;   /* the one model an exchange on a matrix runs under */
        return 0;
    }
    if (session_model(o, c, m, cause) < 0)
        return -1;
    if (!timing_exchange_ok(*m))
        return set_cause(cause, "a personalized exchange runs under -m sync or -m async, not %s",
                         model_name(*m));
    return exchange_check_kind(c, *m, cause);
}

int session_exchange(const struct session_opts *o, const struct cluster *c, const char *sched,
                     bool timeline, bool lean, struct exchange *x, char **cause)
{
    enum xpattern pat;
    enum model m;
    memset(x, 0, sizeof *x);
    if (!sched)
        sched = "caterpillar";
    if (session_exchange_check(o, cause) < 0 || session_exchange_sched(sched, cause) < 0 ||
        session_exchange_model(o, c, &m, cause) < 0)
        return -1;
    exchange_pattern_parse(o->pattern, &pat);
    struct exchange_opts xo = {.pattern = pat, .ops = xsched_find(sched), .seed = o->sopt.seed,
                               .timeline = timeline, .lean = lean, .cancel = o->sopt.cancel};
    int *recv = NULL;
    if (pat == XPAT_ALL_TO_SOME &&
        exchange_parse_receivers(c, o->receivers, o->sopt.seed, &recv, &xo.nrecv, cause) < 0)
        return -1;
    xo.recv = recv;
    int rc = exchange_run(x, c, m, &xo, cause);
    free(recv);
    return rc;
}
