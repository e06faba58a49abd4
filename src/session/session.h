/*
 * session/session.h - what every front door of hetcast shares: load a cluster (CSV,
 * Lua, or CSV on standard input), resolve a model and a scheduler by name,
 * and run a broadcast or a personalized exchange.  The command line, the
 * experiments, the view and the MPI bridge all come through here.
 *
 * A session call never prints and never exits: warnings come back in a
 * struct diag, refusals in *cause (one message naming the file, the name
 * and what would be valid), and the caller decides how to show them.
 */
#ifndef HETCAST_SESSION_H
#define HETCAST_SESSION_H

#include <stdbool.h>

#include "model/cluster.h"
#include "support/diag.h"
#include "engine/engine.h"
#include "session/run.h"
#include "sched/registry.h"

#define SESSION_MAX_PARAMS 64   /* --param K=V */
#define SESSION_MAX_SCHEDS 16   /* -s NAME */
#define SESSION_STDIN "-"       /* the file name that means standard input */

struct exchange;
struct trace;

/* What a user asked to load and run, whatever the front door. */
struct session_opts {
    const char *file;                        /* .csv, .lua, or "-": CSV on standard input */
    const char *text;                        /* NULL, or the cluster itself as CSV text (a
                                                lesson's inline cluster): file then only
                                                names it in messages */
    const char *sched[SESSION_MAX_SCHEDS];   /* -s, in order */
    int nsched;
    const char *model;                       /* -m; NULL: the cluster kind's default */
    const char *source;                      /* --source NAME; NULL: the file's */
    const char *targets;                     /* --targets NAME,NAME,...: a multicast
                                                (model/targets.h); NULL: the file's */
    const char *params[SESSION_MAX_PARAMS];  /* --param K=V (Lua cluster scripts) */
    int nparams;
    struct sched_opts sopt;                  /* --seed, limits, Lua budget */
    const char *pattern;                     /* --pattern: a personalized exchange */
    const char *receivers;                   /* --receivers NAMES|P% (all-to-some) */
    bool has_size;                           /* --size given (else 1 byte) */
    double size;                             /* --size BYTES: the message of a SimGrid
                                                platform (.xml) */
    const char *trace;                       /* --trace FILE: a measured run to show beside
                                                the prediction (session_trace) */
    const char *confine;                     /* a lesson's folder: file, trace and the Lua
                                                heuristics named by a path must be its files
                                                (session_confined); NULL: any */
};

/* Defaults: no file, no scheduler named, sched_opts_default. */
void session_opts_init(struct session_opts *o);

/* Does o ask for a personalized exchange (--pattern or --receivers)? */
bool session_is_exchange(const struct session_opts *o);

/*
 * The bundled clusters' folder (DATADIR/clusters): a lesson's files may lie
 * there besides its own folder.  Set by the front door (app_find_data);
 * NULL: none.
 */
void session_set_clusters_dir(const char *dir);

/*
 * Why file may not be one of the files of a lesson in folder dir, or NULL
 * when it may: once links and ".." are resolved (realpath) it must lie in
 * dir (or below) or in the bundled clusters' folder, and be a regular file
 * (a FIFO would block the reader for ever).  A file that does not exist is
 * judged by its folder (reading it then says it is missing).  Never opens
 * the file; the answer is a sentence ending in "refused".
 */
const char *session_confined(const char *dir, const char *file);

/*
 * Load o->file (a .lua name goes through the scripting layer, a .xml name is
 * a SimGrid platform (model/cluster_simgrid.h; refused when hetcast was built without
 * SimGrid), "-" reads CSV from standard input, anything else is CSV; o->text,
 * when set, is read as CSV instead of any file) and
 * apply o->source.  With o->confine, o->file, o->trace and the Lua
 * heuristics of o->sched named by a path are refused first unless
 * session_confined allows them.  Warnings
 * are added to *warn (may be NULL: dropped).  Returns the cluster, or NULL
 * with *cause holding every problem, one a line.
 */
struct cluster *session_load(const struct session_opts *o, struct diag *warn, char **cause);

/* o->model for c (the kind's default if none); 0, or -1 with *cause naming the valid models. */
int session_model(const struct session_opts *o, const struct cluster *c, enum model *m,
                  char **cause);

/* A broadcast scheduler by name, or FILE.lua; NULL with *cause giving the valid list. */
const struct sched_ops *session_sched(const char *name, char **cause);

/*
 * One broadcast run of ops on c under m, with o's options (the script a Lua
 * name resolved to; a lean engine when lean and the scheduler allows it) and
 * the optimum as want says.  0, or -1 with *cause (r then needs no run_free).
 */
int session_run(struct run *r, const struct session_opts *o, const struct cluster *c,
                enum model m, const struct sched_ops *ops, bool lean, enum run_optimum want,
                char **cause);

/*
 * The measured run o asks for (o->trace, session/trace.h) read against c, and
 * paired with the predictions to show beside it: each scheduler o names (-s;
 * at most max), with the trace's rows of it (trace_select); without -s, the
 * scheduler each group of rows names, in the file's order, up to max of them
 * (a trace whose one group names no scheduler of hetcast's goes with the
 * default one for c under m, sched_default).  ops[i] is predicted and measured
 * by group grp[i].  Returns how many, or -1 and t holds nothing: the file's
 * problems in d (one a line, naming the file and line: a group named by no
 * scheduler among several is one), or a refusal of a -s in *cause.
 */
int session_trace(const struct session_opts *o, const struct cluster *c, enum model m, int max,
                  struct trace *t, const struct sched_ops **ops, int *grp, struct diag *d,
                  char **cause);

/*
 * The exchange o asks for that needs no cluster: --pattern, --receivers and
 * --source checked together; 0, or -1 with *cause.
 */
int session_exchange_check(const struct session_opts *o, char **cause);
/* An exchange scheduler by name (NULL: caterpillar); 0, or -1 naming the valid ones. */
int session_exchange_sched(const char *name, char **cause);
/* The exchange's model on c: a node table, sync or async; 0, or -1 with *cause. */
int session_exchange_model(const struct session_opts *o, const struct cluster *c, enum model *m,
                           char **cause);
/*
 * Simulate the exchange o asks for on c with the exchange scheduler sched
 * (NULL: caterpillar); timeline: also build the engine's events for
 * stepping; lean: the summary figures only (exchange_opts.lean: no records,
 * O(n) memory for the rotation orders).  0, or -1 with *cause (*x then
 * needs no exchange_free).
 */
int session_exchange(const struct session_opts *o, const struct cluster *c, const char *sched,
                     bool timeline, bool lean, struct exchange *x, char **cause);

#endif
