/*
 * model/node.h - a node of a cluster: its name and its two overheads, the
 * bytes a cluster keeps for each node (model/cluster.h holds the array,
 * model/nameidx.h finds a node in it by name).
 */
#ifndef HETCAST_NODE_H
#define HETCAST_NODE_H

/* 24 bytes: a node table of 10^7 nodes is 240 MB of them (docs/performance.md).
 * A node's line and labels are kept beside the array, by the cluster
 * (cluster_line, cluster_class, cluster_group): most tables need no bytes a
 * node for them. */
struct node {
    char *name;    /* in the cluster's name pool: never freed or replaced alone */
    double send;   /* s(p): sending overhead (0 if not given) */
    double recv;   /* r(p): receiving overhead (0 if not given) */
};

#endif
