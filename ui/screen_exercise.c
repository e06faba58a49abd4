/*
 * screen_exercise.c - the exercise screen (`x`): its state (struct
 * exercise, ui/screen_exercise.h), its hooks, drawing and keys.  The
 * student builds the broadcast one (sender, receiver) pair at a time.
 * The choices are booked through engine_book on the exercise's own
 * engine; what fnf would pick and the best makespan still reachable come
 * from the core (sched/exercise.h).  Undo replays the remaining choices
 * from the start.  The screen: the student's Gantt chart so far (the transfer under
 * the cursor drawn as planned), the pick list on the right, the feedback on
 * the message lines.  Its keys are its rows in keys.c.
 *
 * Opening it (x) resumes the choices kept from the last time; leaving it
 * keeps them and, when they finish the broadcast, shows them as the
 * timeline "you" beside the schedulers (view_show_you); forgetting it (a
 * new cluster or source) drops them.
 */
#include "ui/screen_exercise.h"

#include "ui/drawkit.h"
#include "ui/screens.h"

#include "engine/explain.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/exercise.h"

/* Above EXERCISE_MAX_NODES the search runs when the view has proven the
 * optimum (a bound that ends it early), for at most this long a state. */
#define EX_SEARCH_SECONDS 2.0

struct exercise *exercise_of(const struct view *v)
{
    return view_screen_data(v, &screen_exercise);
}

static void free_engine(struct exercise *x)
{
    if (x->live)
        engine_free(&x->eng);
    x->live = false;
}

/* Its forget hook: the student's choices and everything made of them go. */
static void ex_forget(struct view *v, void *data)
{
    struct exercise *x = data;
    (void)v;
    free_engine(x);
    free(x->from);
    free(x->to);
    free(x->cand);
    free(x->memo);
    memset(x, 0, sizeof *x);
}

/* The best reachable from the current state, remembered for undo. */
static void remember(struct exercise *x)
{
    int k = x->nchoices;
    x->memo[k] = (struct ex_memo){x->best, true, x->best_known, x->best_exact, x->best_from, x->best_to};
    x->nmemo = k + 1;
}

/* Undo to a state seen before: its best, without a search.  False if not remembered. */
static bool recall(struct exercise *x)
{
    int k = x->nchoices;
    if (k >= x->nmemo || !x->memo[k].set)
        return false;
    const struct ex_memo *m = &x->memo[k];
    x->best = m->best;
    x->best_known = m->known;
    x->best_exact = m->exact;
    x->best_from = m->from;
    x->best_to = m->to;
    x->cancelled = false;
    x->nmemo = k + 1;
    return true;
}

/* Its close hook: the choices stay (x resumes them); finished, they are the timeline "you". */
static void ex_close(struct view *v, void *data)
{
    struct exercise *x = data;
    bool done = x->live && x->eng.nwaiting == 0 && x->nchoices > 0;
    int n = x->nchoices;
    free_engine(x);
    free(x->cand);
    x->cand = NULL;
    x->ncand = 0;
    if (done) {
        view_show_you(v, x->from, x->to, x->nchoices);
        return;
    }
    view_drop_you(v);   /* an unfinished schedule is not shown; an older finished one is gone */
    if (n > 0)
        view_message(v, MSG_INFO, "your %d choice%s kept: x goes back to %s", n, n == 1 ? " is" : "s are",
                     n == 1 ? "it" : "them");
}

/* The optimum the view has proven (any run on screen), or -INFINITY. */
static double proven_optimum(const struct view *v)
{
    for (int i = 0; i < v->nruns; i++)
        if (!v->runs[i].you && v->runs[i].run.opt == OPT_PROVEN)
            return v->runs[i].run.optimum;
    return -INFINITY;
}

/*
 * A complete schedule: the first k choices of the student, then (from, to),
 * then a best completion (exercise_complete_best).  0, or -1.
 */
static int finish_best(struct view *v, int k, int from, int to, struct engine *out)
{
    char *cause = NULL;
    if (engine_init(out, v->c, v->model, &cause) < 0) {
        free(cause);
        return -1;
    }
    const struct exercise *x = exercise_of(v);
    int rc = 0;
    for (int i = 0; i < k && rc == 0; i++)
        rc = engine_book(out, x->from[i], x->to[i], 0, "your choice", &cause);
    if (rc == 0)
        rc = engine_book(out, from, to, 0, "this pick", &cause);
    if (rc == 0) {   /* a search on every booking: cancellable as the view's others */
        view_compute_begin(v, NULL);
        rc = exercise_complete_best(out, 0, v->cancel, &cause);
        view_compute_end(v);
    }
    free(cause);
    if (rc < 0)
        engine_free(out);
    return rc;
}

/*
 * Why a pick costs time: its best finish beside the best finish of the pick
 * that keeps the best makespan, compared by engine/explain.c -- the node that ends
 * up late, by how much, and the better pick.
 */
static void why_worse(struct view *v, int k, int from, int to, int bf, int bt, double kept, char *buf,
                      size_t size)
{
    const struct cluster *c = v->c;
    struct engine mine, best;
    buf[0] = '\0';
    if (bf >= 0 && c->n > EXERCISE_MAX_NODES) {   /* two finishes would be two searches a node: the pick only */
        snprintf(buf, size, " %s -> %s would have kept %g.", c->nodes[bf].name, c->nodes[bt].name, kept);
        return;
    }
    if (bf < 0 || finish_best(v, k, from, to, &mine) < 0)
        return;
    if (finish_best(v, k, bf, bt, &best) < 0) {
        engine_free(&mine);
        return;
    }
    struct explain_diff d;
    if (explain_first_difference(&mine, &best, &d) == 0 && d.late >= 0 && d.worse == 0)
        snprintf(buf, size, " %s ends up late: %g at best, not %g (late by %g). %s -> %s would have "
                 "kept %g.", c->nodes[d.late].name, d.late_hold[0], d.late_hold[1],
                 d.late_hold[0] - d.late_hold[1], c->nodes[bf].name, c->nodes[bt].name, best.makespan);
    else
        snprintf(buf, size, " %s -> %s would have kept %g.", c->nodes[bf].name, c->nodes[bt].name,
                 best.makespan);
    engine_free(&mine);
    engine_free(&best);
}

/*
 * Best reachable from the current state: an exact search up to
 * EXERCISE_MAX_NODES nodes; above, when the view has proven the optimum,
 * within EX_SEARCH_SECONDS (the optimum ends it as soon as a completion
 * meets it; when the time runs out the result is only "at most").  q and
 * Ctrl-C cancel it as they cancel every computation of the view.
 */
static void update_best(struct view *v)
{
    struct exercise *x = exercise_of(v);
    x->best_known = false;
    x->cancelled = false;
    if (!x->search)
        return;
    struct best_result b;
    char *cause = NULL;
    x->best_from = x->best_to = -1;
    bool big = v->c->n > EXERCISE_MAX_NODES;
    char what[200];
    snprintf(what, sizeof what, "the best completion from here: exact search over the orders of the "
             "%d waiting nodes%s", x->eng.nwaiting, big ? ", within a time limit" : "");
    struct best_opts o = {0, big ? EX_SEARCH_SECONDS : 0, proven_optimum(v), NULL};
    o.cancel = view_compute_begin(v, x->eng.nwaiting > 5 || big ? what : NULL);
    int rc = exercise_best_completion_opts(&x->eng, &o, &b, &cause);
    x->cancelled = view_compute_end(v);
    if (rc < 0) {
        free(cause);
        return;
    }
    x->best_known = true;
    x->best_exact = b.status == BEST_EXACT;
    x->best = b.makespan;
    x->best_from = b.from;
    x->best_to = b.to;
}

static void ex_list(struct view *v)
{
    struct exercise *x = exercise_of(v);
    x->ncand = 0;
    if (x->phase == EX_DONE)
        return;
    for (int p = 0; p < v->c->n; p++) {
        bool holds = engine_holds(&x->eng, p, 0);
        if (x->phase == EX_SENDER ? holds : !holds)
            x->cand[x->ncand++] = p;
    }
    if (x->cursor >= x->ncand)
        x->cursor = x->ncand ? x->ncand - 1 : 0;
    if (x->ncand)
        v->sel = x->cand[x->cursor];
}

static void set_phase(struct view *v, enum ex_phase ph)
{
    struct exercise *x = exercise_of(v);
    int keep = x->phase == EX_RECEIVER ? x->sender : x->ncand ? x->cand[x->cursor] : -1;
    x->phase = x->eng.nwaiting == 0 ? EX_DONE : ph;
    x->cursor = 0;
    x->top = 0;
    ex_list(v);
    if (x->phase == EX_SENDER)   /* stay on the same sender if it is still listed */
        for (int i = 0; i < x->ncand; i++)
            if (x->cand[i] == keep)
                x->cursor = i;
    if (x->ncand)
        v->sel = x->cand[x->cursor];
}

static int replay(struct view *v, int k);

/* What the exercise says as it opens: the task and the best reachable (its hints), or that
 * kept choices are back. */
static void opening_feedback(struct view *v, struct exercise *x, int kept)
{
    const char *intro = v->c->target ? "Build the multicast yourself: pick a sender, then a receiver, a "
                                       "target or a relay (Enter)."
                                     : "Build the broadcast yourself: pick a sender, then a receiver (Enter).";
    if (kept > 0)
        snprintf(x->feedback, sizeof x->feedback, "Back to your %d choice%s (%s undoes the last). ",
                 kept, kept == 1 ? "" : "s", glyphs_for(v->ascii)->left);
    else if (x->nohints)
        snprintf(x->feedback, sizeof x->feedback, "%s No hints: the best makespan still reachable and "
                 "the optimum are not shown until the answer is revealed.", intro);
    else if (x->best_known)
        snprintf(x->feedback, sizeof x->feedback, "%s The best makespan reachable is %s%s.", intro,
                 ui_num(x->best), v->c->n > EXERCISE_MAX_NODES ? " (the optimum the view proved)" : "");
    else
        snprintf(x->feedback, sizeof x->feedback,
                 "%s (%d nodes: too many to search without a proven optimum; what is known: lower "
                 "bound %s, %s %s.)", intro, v->c->n, ui_num(v->runs[0].run.lower_bound),
                 vrun_sched_name(&v->runs[0]), ui_num(vrun_end(&v->runs[0])));
    size_t at = strlen(x->feedback);
    if (kept > 0 && x->best_known)
        snprintf(x->feedback + at, sizeof x->feedback - at, "Best reachable from here: %s%s.",
                 x->best_exact ? "" : "at most ", ui_num(x->best));
    else if (x->cancelled)
        snprintf(x->feedback + at, sizeof x->feedback - at, " The search was cancelled: the best "
                 "reachable is not known.");
}

/* Its open hook: a fresh exercise, or the one left with its choices; arg 0
 * or EX_NO_HINTS.  0, or -1 with the message (no exercise beside this run). */
static int ex_open(struct view *v, void **data, int arg)
{
    if (!*data)
        *data = xcalloc(1, sizeof(struct exercise));
    struct exercise *x = *data;
    bool nohints = arg == EX_NO_HINTS;
    if (nohints || x->nohints != nohints) {   /* what the searches found is not shown, or not known */
        free(x->memo);
        x->memo = NULL;
        x->nmemo = 0;
    }
    if (x->nchoices == 0 && v->lesson && v->slide < v->nmoves && v->moves[v->slide].n > 0) {
        struct slide_moves *m = &v->moves[v->slide];   /* kept when the class left this slide */
        free(x->from);
        free(x->to);
        x->from = xrealloc(m->from, (size_t)v->c->n * sizeof *x->from);
        x->to = xrealloc(m->to, (size_t)v->c->n * sizeof *x->to);
        x->nchoices = m->n <= v->c->n ? m->n : v->c->n;
        *m = (struct slide_moves){NULL, NULL, 0};
        free(x->memo);   /* nothing is known of another slide's searches */
        x->memo = NULL;
        x->nmemo = 0;
    }
    /* the choices kept by ex_close, and what the searches found after each of their prefixes */
    int *kf = x->from, *kt = x->to, kn = x->nchoices, km = kn > 0 ? x->nmemo : 0;
    struct ex_memo *kmemo = kn > 0 ? x->memo : NULL;
    x->from = x->to = NULL;
    x->memo = kn > 0 ? NULL : x->memo;
    ex_forget(v, x);
    x->from = kf;
    x->to = kt;
    x->nchoices = kn;
    x->nohints = nohints;
    char *cause = NULL;
    /* The exercise books one message from the source; it has nothing to say
     * beside an exchange or K pipelined slices. */
    if (view_kind(v)->no_exercise) {
        view_message(v, MSG_ERROR, "%s", view_kind(v)->no_exercise);
        return -1;
    }
    /* Its picks are booked by each route's cost alone: beside a run timed on
     * shared links, its times and searches would not be the run's. */
    if (v->nruns > 0 && v->runs[0].ok && v->runs[0].run.shared) {
        view_message(v, MSG_ERROR, "no exercise on shared links: it times each pick by its route "
                     "alone, not as the run shares them (m: async or sync keep routes private)");
        return -1;
    }
    if (engine_init(&x->eng, v->c, v->model, &cause) < 0) {
        view_message(v, MSG_ERROR, "cannot start an exercise: %s", cause ? cause : "failed");
        free(cause);
        return -1;
    }
    x->live = true;
    size_t n = (size_t)v->c->n;
    if (!x->from) {   /* else the choices kept from the last time (ex_close) */
        x->from = xmalloc(n * sizeof *x->from);
        x->to = xmalloc(n * sizeof *x->to);
    }
    x->cand = xmalloc(n * sizeof *x->cand);
    x->memo = kmemo ? kmemo : xcalloc(n + 1, sizeof *x->memo);   /* none set */
    x->nmemo = kmemo ? km : 0;
    double proven = x->nohints ? -INFINITY : proven_optimum(v);
    x->search = !x->nohints && (v->c->n <= EXERCISE_MAX_NODES || isfinite(proven));
    int kept = x->nchoices;
    if (kept > 0)
        replay(v, kept);
    else
        engine_timeline(&x->eng);
    if (isfinite(proven)) {   /* the view's proven optimum: the best from the start, no search */
        x->optimum = proven;
        x->optimum_known = true;
    } else if (x->nmemo > 0 && x->memo[0].set && x->memo[0].known && x->memo[0].exact) {
        x->optimum = x->memo[0].best;   /* found by the search from the start, before the exercise was left */
        x->optimum_known = true;
    }
    if (kept == 0 && x->optimum_known) {
        x->best_known = x->best_exact = true;
        x->best = x->optimum;
        x->best_from = x->best_to = -1;
        struct best_opts o = {0, v->c->n > EXERCISE_MAX_NODES ? EX_SEARCH_SECONDS : 0, proven, NULL};
        struct best_result b;   /* a first pick that keeps it: fnf's when fnf is optimal, found at once */
        o.cancel = view_compute_begin(v, v->c->n > EXERCISE_MAX_NODES
                                             ? "a first pick that keeps the optimum: exact search, "
                                               "within a time limit"
                                             : NULL);
        int rc = exercise_best_completion_opts(&x->eng, &o, &b, NULL);
        view_compute_end(v);
        if (rc == 0 && b.status == BEST_EXACT) {
            x->best_from = b.from;
            x->best_to = b.to;
        }
    } else {
        update_best(v);
        if (kept == 0) {
            x->optimum = x->best;
            x->optimum_known = x->best_known && x->best_exact;
        }
    }
    remember(x);
    set_phase(v, EX_SENDER);
    opening_feedback(v, x, kept);
    x->feedback_role = R_NORMAL;
    view_clear_message(v);
    return 0;
}

/* Rebuild the engine from the first k choices (an exact replay). */
static int replay(struct view *v, int k)
{
    struct exercise *x = exercise_of(v);
    free_engine(x);
    char *cause = NULL;
    if (engine_init(&x->eng, v->c, v->model, &cause) < 0) {
        free(cause);
        return -1;
    }
    x->live = true;
    for (int i = 0; i < k; i++)
        if (engine_book(&x->eng, x->from[i], x->to[i], 0, "your choice", &cause) < 0) {
            free(cause);
            k = i;
            break;
        }
    x->nchoices = k;
    engine_timeline(&x->eng);
    return 0;
}

/*
 * "Your choices: 1 p0->p1 +1, 2 p0->p2 +0. The first costly one: 1 (p0 ->
 * p1); p0 -> p2 would have kept 5.": what each choice cost, as the best
 * reachable before and after it (remembered from the searches), "?" where
 * no proven best is known on both sides (a resumed exercise, a search cut
 * short).
 */
static void recap_text(const struct view *v, char *buf, size_t size)
{
    const struct exercise *x = exercise_of(v);
    const struct cluster *c = v->c;
    size_t at = (size_t)snprintf(buf, size, "Your choices:");
    int first = -1, unknown = 0;
    for (int k = 0; k < x->nchoices && at < size; k++) {
        const struct ex_memo *a = k < x->nmemo ? &x->memo[k] : NULL, *b = k + 1 < x->nmemo ? &x->memo[k + 1] : NULL;
        bool known = a && b && a->set && b->set && a->known && a->exact && b->known && b->exact;
        double cost = known ? b->best - a->best : 0;
        if (known && cost <= 1e-9 * (fabs(a->best) > 1 ? fabs(a->best) : 1))
            cost = 0;
        if (known && cost > 0 && first < 0)
            first = k;
        unknown += !known;
        at += (size_t)snprintf(buf + at, size - at, "%s %d %s->%s %s%s", k ? "," : "", k + 1,
                               c->nodes[x->from[k]].name, c->nodes[x->to[k]].name,
                               known ? "+" : "?", known ? ui_num(cost) : "");
    }
    if (at >= size)
        return;
    if (first < 0) {
        /* a choice marked "?" may have cost the difference between the best from the start and the end */
        bool all = unknown == 0;
        double lost = x->optimum_known && x->live ? x->eng.makespan - x->optimum : 0;
        if (all || lost <= 1e-9 * (fabs(x->optimum) > 1 ? fabs(x->optimum) : 1))
            snprintf(buf + at, size - at, ". None cost time%s.", all || x->optimum_known ? "" : " that is known");
        else
            snprintf(buf + at, size - at, ". Together they cost %s; which one is not known (no search "
                     "before the choices marked ?).", ui_num(lost));
        return;
    }
    const struct ex_memo *a = &x->memo[first];
    at += (size_t)snprintf(buf + at, size - at, ". The first costly one: %d (%s -> %s)", first + 1,
                           c->nodes[x->from[first]].name, c->nodes[x->to[first]].name);
    if (at < size && a->from >= 0 && a->to >= 0)
        snprintf(buf + at, size - at, "; %s -> %s would have kept %s.", c->nodes[a->from].name,
                 c->nodes[a->to].name, ui_num(a->best));
    else if (at < size)
        snprintf(buf + at, size - at, ".");
}

static int ex_book(struct view *v, int from, int to)
{
    struct exercise *x = exercise_of(v);
    const struct cluster *c = v->c;
    char *cause = NULL, why[256] = "";
    int ff = -1, ft = -1;
    struct transfer mine, theirs;
    bool have_fnf = exercise_fnf_pick(&x->eng, &ff, &ft, why, sizeof why, NULL) == 0 &&
                    engine_earliest(&x->eng, ff, ft, 0, &theirs) == 0;
    if (engine_earliest(&x->eng, from, to, 0, &mine) < 0) {
        view_message(v, MSG_ERROR, "%s cannot send to %s here", c->nodes[from].name, c->nodes[to].name);
        return -1;
    }
    double before = x->best;
    bool known_before = x->best_known && x->best_exact;   /* a proven best, not an upper bound */
    int keep_from = x->best_from, keep_to = x->best_to, k = x->nchoices;
    if (engine_book(&x->eng, from, to, 0, "your choice", &cause) < 0) {
        view_message(v, MSG_ERROR, "%s", cause ? cause : "cannot book that");
        free(cause);
        return -1;
    }
    x->from[x->nchoices] = from;
    x->to[x->nchoices] = to;
    x->nchoices++;
    engine_timeline(&x->eng);
    update_best(v);
    remember(x);

    char fb[800];
    size_t at = (size_t)snprintf(fb, sizeof fb, "You: %s -> %s, %s holds it at %g.",
                                 c->nodes[from].name, c->nodes[to].name, c->nodes[to].name, mine.hold);
    if (have_fnf && at < sizeof fb) {
        if (ff == from && ft == to)
            at += (size_t)snprintf(fb + at, sizeof fb - at, " fnf picks the same.");
        else
            at += (size_t)snprintf(fb + at, sizeof fb - at, " fnf would pick %s -> %s (holds at %g).",
                                   c->nodes[ff].name, c->nodes[ft].name, theirs.hold);
    }
    x->feedback_role = R_NORMAL;
    if (x->cancelled && at < sizeof fb)
        at += (size_t)snprintf(fb + at, sizeof fb - at, " The search was cancelled: the best reachable "
                               "from here is not known.");
    else if (x->best_known && !x->best_exact && at < sizeof fb)
        at += (size_t)snprintf(fb + at, sizeof fb - at, " The search stopped after %g s: best reachable "
                               "at most %s (not proven).", EX_SEARCH_SECONDS, ui_num(x->best));
    if (x->best_known && x->best_exact && known_before && at < sizeof fb) {
        const char *approx = "";
        if (x->best > before + 1e-9 * (fabs(before) > 1 ? fabs(before) : 1)) {
            at += (size_t)snprintf(fb + at, sizeof fb - at,
                                   " Best reachable now%s %g, was %g: this choice costs %g.", approx,
                                   x->best, before, x->best - before);
            char why[400];
            why_worse(v, k, from, to, keep_from, keep_to, before, why, sizeof why);
            if (at < sizeof fb)
                at += (size_t)snprintf(fb + at, sizeof fb - at, "%s", why);
            x->feedback_role = R_BAD;
        } else {
            at += (size_t)snprintf(fb + at, sizeof fb - at, " Best reachable still%s %g.", approx,
                                   x->best);
            x->feedback_role = R_GOOD;
        }
    }
    if (x->eng.nwaiting == 0) {   /* the verdict first, then the last choice */
        char done[200];
        size_t dn = (size_t)snprintf(done, sizeof done, "Done: your makespan %g", x->eng.makespan);
        for (int i = 0; i < v->nruns && dn < sizeof done; i++)
            if (!v->runs[i].you)
                dn += (size_t)snprintf(done + dn, sizeof done - dn, ", %s %g",
                                   vrun_sched_name(&v->runs[i]), v->runs[i].run.eng.makespan);
        if (x->optimum_known && dn < sizeof done)
            dn += (size_t)snprintf(done + dn, sizeof done - dn, ", best possible %g", x->optimum);
        char recap[600];
        if (x->nohints)
            snprintf(recap, sizeof recap, "No hints: the best possible is not shown until the answer is "
                     "revealed.");
        else
            recap_text(v, recap, sizeof recap);
        snprintf(x->feedback, sizeof x->feedback, "%s. %s %s", done, recap, fb);
        x->feedback_role = x->optimum_known && x->eng.makespan <= x->optimum + 1e-9 ? R_GOOD : x->feedback_role;
        set_phase(v, EX_SENDER);
        return 0;
    }
    snprintf(x->feedback, sizeof x->feedback, "%s", fb);
    set_phase(v, EX_SENDER);
    return 0;
}

static void ex_undo(struct view *v)
{
    struct exercise *x = exercise_of(v);
    if (x->nchoices == 0) {
        snprintf(x->feedback, sizeof x->feedback, "Nothing to undo: only the source holds the message.");
        x->feedback_role = R_NORMAL;
        return;
    }
    int k = x->nchoices - 1;
    const char *a = v->c->nodes[x->from[k]].name, *b = v->c->nodes[x->to[k]].name;
    char undone[300];
    snprintf(undone, sizeof undone, "%s -> %s", a, b);
    replay(v, k);
    if (!recall(x))
        update_best(v);
    if (x->best_known)
        snprintf(x->feedback, sizeof x->feedback, "Undone: %s. Best reachable from here: %s%s.", undone,
                 x->best_exact ? "" : "at most ", ui_num(x->best));
    else
        snprintf(x->feedback, sizeof x->feedback, "Undone: %s.", undone);
    x->feedback_role = R_NORMAL;
    set_phase(v, EX_SENDER);
}

/* ---- drawing ---- */

static void pick_panel(struct view *v, struct cellbuf *cb, int x, int y, int w, int h,
                       struct transfer *preview, bool *has_preview)
{
    struct exercise *xr = exercise_of(v);
    const struct engine *e = &xr->eng;
    const struct cluster *c = v->c;
    const struct glyphs *g = glyphs_for(v->ascii);
    *has_preview = false;
    cb_fill(cb, x, y, w, 1, ' ', R_HEAD);
    char head[160];
    if (c->target)   /* a multicast: its targets */
        snprintf(head, sizeof head, "your turn%stargets %d/%d", g->dot, c->ntargets - e->nwaiting,
                 c->ntargets);
    else
        snprintf(head, sizeof head, "your turn%s%d/%d hold", g->dot, c->n - e->nwaiting, c->n);
    ui_put(v, cb, x + 1, y, w - 2, R_HEAD | AF_BOLD, xr->phase == EX_DONE ? "done" : head);
    int row = y + 2;
    if (xr->phase == EX_DONE) {
        cb_textf(cb, x + 1, row++, w - 2, R_NORMAL | AF_BOLD, v->ascii, "your makespan %s",
                 ui_num(e->makespan));
        for (int i = 0; i < v->nruns; i++)
            if (!v->runs[i].you)
                cb_textf(cb, x + 1, row++, w - 2, R_NORMAL, v->ascii, "%s %s",
                     vrun_sched_name(&v->runs[i]), ui_num(v->runs[i].run.eng.makespan));
        if (xr->optimum_known)
            cb_textf(cb, x + 1, row++, w - 2, R_NORMAL, v->ascii, "best possible %s", ui_num(xr->optimum));
        row++;
        cb_textf(cb, x + 1, row, w - 2, R_DIM, v->ascii, "%s undo%sx leave", v->ascii ? "left" : g->left,
                 g->dot);
        return;
    }
    if (xr->phase == EX_SENDER)
        ui_put(v, cb, x + 1, row, w - 2, R_NORMAL | AF_BOLD, "pick a sender:");
    else
        cb_textf(cb, x + 1, row, w - 2, R_NORMAL | AF_BOLD, v->ascii, "%s sends to:",
                 c->nodes[xr->sender].name);
    row++;
    int rows = h - 7;
    if (rows < 1)
        rows = 1;
    xr->top = ui_keep_in_view(xr->top, xr->cursor, rows);
    for (int i = xr->top; i < xr->ncand && i < xr->top + rows; i++, row++) {
        int p = xr->cand[i];
        bool sel = i == xr->cursor;
        if (sel)
            cb_fill(cb, x, row, w, 1, ' ', R_SEL);
        if (sel)
            cb_put(cb, x + 1, row, g->pointer, R_SEL);
        cb_text(cb, x + 3, row, 12, c->nodes[p].name, sel ? R_SEL : R_NORMAL | AF_BOLD, v->ascii);
        char info[96];
        if (xr->phase == EX_SENDER) {
            snprintf(info, sizeof info, "free at %s", ui_num(engine_ready(e, p, 0)));
        } else {
            struct transfer t;
            if (engine_earliest(e, xr->sender, p, 0, &t) == 0) {
                snprintf(info, sizeof info, "holds at %s", ui_num(t.hold));
                if (sel) {
                    *preview = t;
                    *has_preview = true;
                }
            } else {
                snprintf(info, sizeof info, "no link");
            }
        }
        int iw = text_width(info);
        cb_text(cb, x + w - iw - 1, row, iw, info, sel ? R_SEL : R_DIM, v->ascii);
    }
    row = y + h - 4;
    if (xr->best_known)
        cb_textf(cb, x + 1, row, w - 2, R_NORMAL, v->ascii, "best reachable %s%s",
                 xr->best_exact ? "" : "<= ", ui_num(xr->best));
    else if (xr->nohints)
        cb_textf(cb, x + 1, row, w - 2, R_DIM, v->ascii, "no hints: best not shown");
    else if (!xr->search)
        cb_textf(cb, x + 1, row, w - 2, R_DIM, v->ascii, "best: not searched (n > %d, no optimum)",
                 EXERCISE_MAX_NODES);
    cb_textf(cb, x + 1, row + 1, w - 2, R_NORMAL, v->ascii, "so far %s", ui_num(e->makespan));
    cb_textf(cb, x + 1, row + 2, w - 2, R_DIM, v->ascii, "Enter pick%s%s %s", g->dot,
             v->ascii ? "left" : g->left, xr->phase == EX_SENDER ? "undo" : "back");
}

static void draw_exercise(struct view *v, struct cellbuf *cb)
{
    int w = cb->w, h = cb->h;
    struct exercise *xr = exercise_of(v);
    const struct cluster *c = v->c;
    char right[96];
    snprintf(right, sizeof right, "%d choice%s", xr->nchoices, xr->nchoices == 1 ? "" : "s");
    ui_title_bar(v, cb, xr->nohints ? "EXERCISE, NO HINTS" : "EXERCISE", right);
    int x = 1;
    x = ui_pair(v, cb, x, 1, "your makespan so far", ui_num(xr->eng.makespan), R_NORMAL, false);
    if (xr->best_known)
        x = ui_pair(v, cb, x, 1, xr->best_exact ? "best reachable" : "best reachable at most",
                    ui_num(xr->best), R_NORMAL, true);
    x = ui_pair(v, cb, x, 1, v->runs[0].run.sched.ops->name, ui_num(v->runs[0].run.eng.makespan), R_NORMAL,
             true);
    if (xr->optimum_known)
        ui_pair(v, cb, x, 1, "optimum", ui_num(xr->optimum), R_NORMAL, true);

    /* The feedback is read whole: it takes the rows it needs (two at least)
     * from the lanes, which keep four. */
    int fr = ui_wrap_rows(xr->feedback, w - 2);
    if (fr > h - 10)
        fr = h - 10;
    if (fr < 2)
        fr = 2;
    int pw = ui_pane_width(cb), gw = w - pw - 1, gy = 3, gh = h - 6 - fr;
    struct transfer preview;
    bool has_preview;
    for (int y = 2; y < h - 1 - fr; y++)
        cb_put(cb, gw, y, glyphs_for(v->ascii)->vline, R_DIM);
    pick_panel(v, cb, gw + 1, 2, w - gw - 1, h - 3 - fr, &preview, &has_preview);

    struct lanes L = {0, gy, gw, gh, 0, 2, false, 0, 0, NULL};
    gantt_fit(v, &L, c->n, gh, false);
    L.lw = gantt_name_cols(c) + 3 + (L.rpl >= 2 ? 5 : 0);
    double tmax = v->runs[0].run.eng.makespan;
    if (xr->eng.makespan > tmax)
        tmax = xr->eng.makespan;
    if (has_preview && preview.hold > tmax)
        tmax = preview.hold;
    double focus = has_preview ? preview.hold : xr->eng.makespan;
    struct tmap m = tmap_make(v, L.lw, gw - L.lw, tmax, focus);
    ui_legend(v, cb, 2, gw, false);
    struct gsrc s = {&xr->eng, NULL, INFINITY, has_preview ? &preview : NULL, true};
    gantt_draw(v, cb, &L, &m, &s, NULL);
    int ay = gy + L.count * L.rpl - (L.rpl >= 4 ? 1 : 0);
    if (ay > h - 3 - fr)
        ay = h - 3 - fr;
    gantt_axis(v, cb, &m, 0, ay, L.lw, NAN);
    cb_fill(cb, 0, h - 1 - fr, w, fr, ' ', xr->feedback_role);
    ui_wrap(v, cb, 1, h - 1 - fr, w - 2, fr, xr->feedback_role | AF_BOLD, xr->feedback);
    if (v->msg[0])
        ui_messages(v, cb, h - 3, w);
    const struct glyphs *g = glyphs_for(v->ascii);
    char back[32];
    snprintf(back, sizeof back, "%s/h", v->ascii ? "left" : g->left);
    const struct hint hints[] = {
        {g->up_down, "choose"}, {"Enter", "pick"}, {back, xr->phase == EX_RECEIVER ? "back" : "undo"},
        {"+/-", "zoom"}, {"x", "leave the exercise"},
    };
    ui_status_bar(v, cb, hints, (int)(sizeof hints / sizeof hints[0]));
}

/* ---- keys ---- */

static unsigned ex_request(struct view *v, enum ui_req req, int key)
{
    struct exercise *x = exercise_of(v);
    int page = v->page > 1 ? v->page : 1;
    switch (req) {
    case REQ_MOVE:
        if (key == UK_UP && x->cursor > 0)
            x->cursor--;
        else if (key == UK_DOWN && x->cursor + 1 < x->ncand)
            x->cursor++;
        break;
    case REQ_FIRST:
        x->cursor = 0;
        break;
    case REQ_LAST:
        x->cursor = x->ncand ? x->ncand - 1 : 0;
        break;
    case REQ_MOVE_PAGE:
        if (key == UK_PGUP) {
            x->cursor = x->cursor > page ? x->cursor - page : 0;
        } else {
            x->cursor += page;
            if (x->cursor >= x->ncand)
                x->cursor = x->ncand ? x->ncand - 1 : 0;
        }
        break;
    case REQ_PICK:
        if (x->ncand == 0)
            break;
        if (x->phase == EX_SENDER) {
            x->sender = x->cand[x->cursor];
            set_phase(v, EX_RECEIVER);
        } else if (x->phase == EX_RECEIVER) {
            ex_book(v, x->sender, x->cand[x->cursor]);
        }
        break;
    case REQ_BACK:
        if (x->phase == EX_RECEIVER)
            set_phase(v, EX_SENDER);
        else
            ex_undo(v);
        break;
    case REQ_CANCEL:
        if (x->phase == EX_RECEIVER)
            set_phase(v, EX_SENDER);
        break;
    case REQ_OTHER: {
        char k[8] = "?";
        bool printable = key > ' ' && key < 0x7f;   /* anything else is named "that key" */
        if (printable)
            k[utf8_encode((uint32_t)key, k)] = '\0';
        snprintf(x->feedback, sizeof x->feedback, "%s does nothing in the exercise: %s choose, Enter pick, "
                 "%s back or undo, + - zoom, L log, ? help, x leave.", printable ? k : "that key",
                 glyphs_for(v->ascii)->up_down, glyphs_for(v->ascii)->left);
        x->feedback_role = R_NORMAL;
        break;
    }
    case REQ_LEAVE:
        view_screen_close(v);
        return UI_HANDLED | UI_REDRAW;
    case REQ_FACTS:   /* L: the log of the choices, over the exercise */
        view_screen_open(v, screen_for(SCR_FACTS), 1);
        return UI_HANDLED | UI_REDRAW;
    default: {
        unsigned r = view_request(v, req, key);   /* zoom, reload, help, quit */
        if (!r || (r & UI_QUIT))
            return r;
        break;
    }
    }
    if (x->ncand && v->screen->id == SCR_EXERCISE)
        v->sel = x->cand[x->cursor];
    return UI_HANDLED | UI_REDRAW;
}

/* Its moves hook: the student's choices (kept when the exercise is left). */
static int ex_moves(const struct view *v, const int **from, const int **to)
{
    const struct exercise *x = exercise_of(v);
    if (!x || x->nchoices == 0)
        return 0;
    *from = x->from;
    *to = x->to;
    return x->nchoices;
}

/* Its booked hook: the engine the choices are booked on, while the exercise is live. */
static const struct engine *ex_booked(const struct view *v)
{
    const struct exercise *x = exercise_of(v);
    return x && x->live ? &x->eng : NULL;
}

const struct screen screen_exercise = {
    .name = "exercise",
    .id = SCR_EXERCISE,
    .open = ex_open,
    .close = ex_close,
    .forget = ex_forget,
    .draw = draw_exercise,
    .request = ex_request,
    .moves = ex_moves,
    .booked = ex_booked,
};
