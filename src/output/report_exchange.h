/*
 * output/report_exchange.h - personalized exchanges as text, CSV and JSON (SPEC §6:
 * "completion" and "lower_bound" instead of "makespan").  Text shows the
 * table of sending orders as in Chen & Liu's Tables 1-6, the transfers with
 * the senders' idle waits, and a summary; --summary keeps the summary only.
 */
#ifndef HETCAST_REPORT_EXCHANGE_H
#define HETCAST_REPORT_EXCHANGE_H

#include <stdbool.h>
#include <stdio.h>

#include "sched/exchange.h"

/* The table of sending orders, a column per sender, wrapped to `width` columns. */
void report_exchange_orders(FILE *fp, const struct exchange *x, int width);

void report_exchange_text(FILE *fp, const struct exchange *x, bool summary);
void report_exchange_csv(FILE *fp, const struct exchange *x, bool summary, bool header);
void report_exchange_json(FILE *fp, const struct exchange *x, bool summary);
/* Several schedulers on one exchange. */
void report_exchange_compare_text(FILE *fp, const struct exchange *xs, int k, bool summary);
void report_exchange_compare_csv(FILE *fp, const struct exchange *xs, int k, bool summary);
void report_exchange_compare_json(FILE *fp, const struct exchange *xs, int k, bool summary);

#endif
