/*
 * support/fastpath.c - the fast-path switch (support/fastpath.h): one flag, read from the
 * environment once.
 */
#include "support/fastpath.h"

#include <stdlib.h>
#include <string.h>

static int state = -1;   /* -1: not read yet; 0 off; 1 on */

bool fastpath_on(void)
{
    if (state < 0) {
        const char *v = getenv("HETCAST_NO_FASTPATH");
        state = !(v && *v && strcmp(v, "0") != 0);
    }
    return state;
}

void fastpath_set(bool on)
{
    state = on;
}
