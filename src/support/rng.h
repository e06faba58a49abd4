/*
 * support/rng.h - a small seeded generator (xoshiro256**, seeded by splitmix64) so
 * that every random scheduler and experiment is reproducible from --seed on
 * every platform.
 */
#ifndef HETCAST_RNG_H
#define HETCAST_RNG_H

#include <stdint.h>

struct rng { uint64_t s[4]; };

void rng_seed(struct rng *r, uint64_t seed);
/* The stream of trial k of a study seeded with seed: a function of (seed, k)
 * alone, so that a trial draws the same numbers whichever process runs it
 * and in whatever order; distinct k of one seed give distinct streams. */
void rng_seed_trial(struct rng *r, uint64_t seed, uint64_t k);
uint64_t rng_next(struct rng *r);
uint64_t rng_below(struct rng *r, uint64_t n);   /* uniform in [0, n), n > 0 */
double rng_unit(struct rng *r);                   /* uniform in [0, 1) */
double rng_range(struct rng *r, double lo, double hi);

#endif
