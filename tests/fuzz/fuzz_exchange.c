/*
 * fuzz_exchange.c - libFuzzer harness for the exchanges (src/sched/exchange.c:
 * all-to-all and all-to-some, every order): the input up to its first NUL
 * is a cluster file (node table, latency matrix or platform graph, through
 * the CSV loader), what follows it a --receivers spec ("NAME,NAME,..." or
 * "P%").  On a loaded cluster of at most FUZZ_RUN_NODES nodes, the
 * all-to-all and the all-to-some of that spec (or of "50%" without one)
 * run with every order that accepts the cluster, in every model.
 * Promises checked on every input:
 *   - no crash, no hang, no leak, no undefined behaviour (ASan + UBSan);
 *   - a refused spec or exchange has a message;
 *   - an exchange books one transfer from every node to every receiver but
 *     itself, ends at a finite time >= 0 and no earlier than its lower
 *     bound, and builds the same exchange with its timeline (the view's)
 *     as without;
 *   - every output (text, CSV and JSON reports, the table of orders) is
 *     valid (fuzz_output.h: JSON, text without control bytes).
 * Built by tests/fuzz/run.sh; replay.c replays saved inputs (and the
 * bundled clusters) through the same function in every build.
 */
#include "sched/exchange.h"
#include "fuzz_common.h"
#include "output/report_exchange.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_setup();
    return 0;
}

static void check_output(const char *what, const struct exchange *x, int kind)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    if (!fp)
        fuzz_fail("open_memstream", NULL);
    switch (kind) {
    case 0: report_exchange_text(fp, x, false); break;
    case 1: report_exchange_csv(fp, x, false, true); break;
    case 2: report_exchange_json(fp, x, false); break;
    default: report_exchange_orders(fp, x, 80); break;
    }
    fclose(fp);
    const char *why = kind == 2 ? fuzz_json_flaw(text, len) : fuzz_text_flaw(text, len);
    if (why) {
        fprintf(stderr, "--- %s:\n%s--- end\n", what, text);
        fuzz_fail(what, why);
    }
    free(text);
}

static void run_one(const struct cluster *c, enum model m, const struct xsched_ops *ops,
                    enum xpattern pat, const int *recv, int nrecv)
{
    struct exchange_opts o;
    memset(&o, 0, sizeof o);
    o.pattern = pat;
    o.recv = recv;
    o.nrecv = nrecv;
    o.ops = ops;
    o.seed = 3;
    struct exchange x;
    char *cause = NULL;
    if (exchange_run(&x, c, m, &o, &cause) < 0) {
        if (!cause || !cause[0])
            fuzz_fail("a refused exchange has no message", ops->name);
        free(cause);
        return;
    }
    /* Every node sends, so every receiver sends too: to the others only. */
    if (x.eng.ntr != (c->n - 1) * x.nrecv)
        fuzz_fail("an exchange does not book one transfer from every node to every other receiver",
                  ops->name);
    if (!(x.completion >= 0) || !isfinite(x.completion))
        fuzz_fail("an exchange ends at a time that is not a finite number >= 0", ops->name);
    if (x.completion < x.lower_bound * (1 - 1e-9))
        fuzz_fail("an exchange ends before its lower bound", ops->name);
    static const char *const what[] = {"text report", "CSV report", "JSON report", "order table"};
    for (int k = 0; k < 4; k++)
        check_output(what[k], &x, k);
    o.timeline = true;   /* the view's run: the same exchange, with its events */
    struct exchange y;
    if (exchange_run(&y, c, m, &o, &cause) < 0)
        fuzz_fail("an exchange refuses to build its timeline", cause);
    if (y.completion != x.completion || y.eng.ntr != x.eng.ntr)
        fuzz_fail("an exchange and its timeline differ", ops->name);
    exchange_free(&y);
    exchange_free(&x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    size_t csv_len = 0;
    while (csv_len < size && text[csv_len])
        csv_len++;
    struct diag d;
    diag_init(&d);
    struct cluster *c = cluster_load_csv_buffer("fuzz.csv", text, csv_len, &d);
    fuzz_show(&d, c);
    fuzz_check_load(c, &d, "file");
    diag_free(&d);
    if (!c)
        return 0;
    if (c->n > FUZZ_RUN_NODES) {
        cluster_free(c);
        return 0;
    }
    char *spec = csv_len < size ? xasprintf("%.*s", (int)(size - csv_len - 1), text + csv_len + 1)
                                : xstrdup("50%");
    int *recv = NULL, nrecv = 0;
    char *cause = NULL;
    bool some = exchange_parse_receivers(c, spec, 5, &recv, &nrecv, &cause) == 0;
    if (!some && (!cause || !cause[0]))
        fuzz_fail("a refused --receivers has no message", spec);
    free(cause);
    for (int m = 0; m < MODEL_COUNT; m++)
        for (int i = 0; i < XSCHED_COUNT; i++) {
            const struct xsched_ops *ops = xsched_at(i);
            char *why = NULL;
            if (xsched_check(ops, c, (enum model)m, &why) == 0) {
                run_one(c, (enum model)m, ops, XPAT_ALL_TO_ALL, NULL, 0);
                if (some)
                    run_one(c, (enum model)m, ops, XPAT_ALL_TO_SOME, recv, nrecv);
            }
            free(why);
        }
    free(recv);
    free(spec);
    cluster_free(c);
    return 0;
}
