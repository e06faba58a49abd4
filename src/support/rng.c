/*
 * support/rng.c - xoshiro256** seeded through splitmix64 (Blackman & Vigna).  Same
 * seed, same sequence, on every platform: experiments print their seeds.
 */
#include "support/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

void rng_seed_trial(struct rng *r, uint64_t seed, uint64_t k)
{
    /* splitmix64's step is a bijection of its state: (seed, k) -> key is one
     * to one in k for a given seed. */
    uint64_t key = splitmix64(&seed) ^ k;
    rng_seed(r, splitmix64(&key));
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(struct rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t rng_below(struct rng *r, uint64_t n)
{
    /* Lemire-style rejection keeps the draw unbiased. */
    uint64_t limit = -n % n;
    uint64_t x;
    do
        x = rng_next(r);
    while (x < limit);
    return x % n;
}

double rng_unit(struct rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

double rng_range(struct rng *r, double lo, double hi)
{
    return lo + (hi - lo) * rng_unit(r);
}
