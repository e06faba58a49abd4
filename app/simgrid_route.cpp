/*
 * simgrid_route.cpp - one SimGrid route query for both a route's links and
 * its latency, for hetcast-simgrid (app/simgrid_helper.c).  SimGrid's C API
 * answers them apart (sg_host_get_route, then sg_host_get_route_latency),
 * each computing the whole route again: on a platform of n hosts, n (n - 1)
 * routes twice.  Host::route_to gives both from one computation, the same
 * links and the same latency as the two C calls (they are built on it).
 */
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include <cstdlib>
#include <vector>

/* Declared in app/simgrid_helper.c, its one caller. */
extern "C" unsigned helper_route(sg_host_t from, sg_host_t to, sg_link_t **links, unsigned *cap,
                                 double *latency);

extern "C" unsigned helper_route(sg_host_t from, sg_host_t to, sg_link_t **links, unsigned *cap,
                                 double *latency)
{
    static std::vector<simgrid::s4u::Link*> v;
    v.clear();
    *latency = 0;
    from->route_to(to, v, latency);
    if (v.size() > *cap) {
        unsigned grown = (unsigned)v.size() * 2;
        sg_link_t *p = static_cast<sg_link_t*>(std::realloc(*links, grown * sizeof *p));
        if (!p)
            std::abort();
        *links = p;
        *cap = grown;
    }
    for (size_t i = 0; i < v.size(); i++)
        (*links)[i] = v[i];
    return (unsigned)v.size();
}
