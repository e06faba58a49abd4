#!/usr/bin/env python3
# pipeline_check.py - an independent check of `hetcast experiment pipeline`
# (Beaumont, Marchal & Robert, Figures 4(a), 4(b) and 5): draws the same random
# platforms from the same seed (xoshiro256** seeded by splitmix64, the
# generator of docs/pipeline.md), builds the heuristics' trees from the paper's
# Algorithms 1-5 and §5.2.2, computes their one-port and multi-port throughputs
# by the period formulas, and solves linear program (2) with its own simplex
# (cut generation: every cut separating the source from a receiver, found by
# its own maximum flows).  Shares no code with hetcast: standard library only.
# Compares each figure's mean with hetcast's CSV and prints both; exit 1 if a
# mean differs by more than TOLERANCE.  lp-prune and lp-grow (Algorithms 6, 7)
# follow the LP's per-edge counts, which an optimum does not fix: they are built
# from this check's own solution, and their difference is shown, not judged.
#
#   pipeline_check.py HETCAST [--nodes LO:HI] [--runs N] [--seed N]
import heapq
import math
import subprocess
import sys
from collections import deque

M64 = (1 << 64) - 1
TOLERANCE = 5e-6      # hetcast's CSV gives 6 decimals
CHECKED = ['prune-simple', 'prune-degree', 'grow-tree', 'binomial', 'multiport-grow',
           'multiport-prune-degree']
DENSITIES = [0.04, 0.08, 0.12, 0.16, 0.20]


# ---- the random numbers: xoshiro256** (Blackman & Vigna) ----

class Rng:
    def __init__(self, seed):
        x = seed & M64
        self.s = []
        for _ in range(4):
            x = (x + 0x9e3779b97f4a7c15) & M64
            z = x
            z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M64
            z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M64
            self.s.append(z ^ (z >> 31))

    def next(self):
        s = self.s
        rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & M64
        result = (rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def below(self, n):
        limit = ((1 << 64) - n) % n
        while True:
            x = self.next()
            if x >= limit:
                return x % n

    def unit(self):
        return (self.next() >> 11) * 2.0 ** -53


# ---- the platform generator of §5.1 (Table 2), as docs/pipeline.md states it ----

def link_time(r):
    while True:
        u, v = r.unit(), r.unit()
        t = 100.0 + 20.0 * (math.sqrt(-2.0 * math.log(1.0 - u)) * math.cos(6.283185307179586 * v))
        if t >= 1.0:
            return t


def random_platform(r, n, density, send_ratio=0.8):
    """Edges (u, v, T) in the order drawn, and each node's multi-port send time."""
    edges, linked = [], set()

    def link(u, v):
        if u != v and (u, v) not in linked:
            linked.update({(u, v), (v, u)})
            edges.append((u, v, link_time(r)))
            edges.append((v, u, link_time(r)))

    perm = list(range(n))
    for i in range(n - 1, 1, -1):
        j = 1 + r.below(i)
        perm[i], perm[j] = perm[j], perm[i]
    for i in range(1, n):
        link(perm[i], perm[r.below(i)])
    for u in range(n):
        for v in range(u + 1, n):
            if r.unit() < density:
                link(u, v)
    send = [min(t for (a, _, t) in edges if a == u) * send_ratio for u in range(n)]
    return edges, send


# ---- trees and their throughputs ----

def reaches_all(n, edges, alive):
    out = [[] for _ in range(n)]
    for k, (u, v, _) in enumerate(edges):
        if alive[k]:
            out[u].append(v)
    seen, stack = {0}, [0]
    while stack:
        for v in out[stack.pop()]:
            if v not in seen:
                seen.add(v)
                stack.append(v)
    return len(seen) == n


def tree_of(n, edges, alive):
    parent = [None] * n
    for k, (u, v, t) in enumerate(edges):
        if alive[k]:
            assert parent[v] is None and v != 0, 'not a tree'
            parent[v] = (u, t)
    return parent


def periods(n, parent, send):
    """(one-port period, multi-port period) of the tree."""
    kids = [[] for _ in range(n)]
    for v in range(n):
        if parent[v]:
            kids[parent[v][0]].append(parent[v][1])
    one = max(sum(k) for k in kids)
    multi = max(max(len(k) * send[u], max(k)) for u, k in enumerate(kids) if k)
    return one, multi


def prune_simple(n, edges, send):
    """Algorithm 1: heaviest edges first, each deleted if every node stays reachable."""
    alive = [True] * len(edges)
    for k in sorted(range(len(edges)), key=lambda k: (-edges[k][2], k)):
        alive[k] = False
        if not reaches_all(n, edges, alive):
            alive[k] = True
    return tree_of(n, edges, alive)


def prune_by_degree(n, edges, send, degree):
    """Algorithm 2: the node of largest degree that has an edge able to go loses its heaviest such edge."""
    alive = [True] * len(edges)
    while sum(alive) > n - 1:
        nodes = sorted(range(n), key=lambda u: -degree(u, [e for k, e in enumerate(edges)
                                                            if alive[k] and e[0] == u]))
        done = False
        for u in nodes:
            mine = sorted((k for k in range(len(edges)) if alive[k] and edges[k][0] == u),
                          key=lambda k: (-edges[k][2], k))
            for k in mine:
                alive[k] = False
                if reaches_all(n, edges, alive):
                    done = True
                    break
                alive[k] = True
            if done:
                break
        assert done
    return tree_of(n, edges, alive)


def grow(n, edges, cost):
    """Algorithm 3 (and 5): add the edge u -> w, u in the tree, w not, of least cost(u, tree kids, T)."""
    parent, kids = [None] * n, [[] for _ in range(n)]
    intree = {0}
    while len(intree) < n:
        best = None
        for k, (u, w, t) in enumerate(edges):
            if u in intree and w not in intree:
                key = (cost(u, kids[u], t), t, k)
                if best is None or key < best:
                    best = key
        u, w, t = edges[best[2]]
        parent[w] = (u, t)
        kids[u].append(t)
        intree.add(w)
    return parent


def binomial(n, edges, send):
    """Algorithm 4 as the text reads: the MPI tree on indices, shortest paths where no edge;
    a node keeps the first path edge that reaches it, and a transfer to a node that a path
    has already reached sends nothing."""
    m = n.bit_length() - 1
    transfers = []
    for p in range(m):
        step = 1 << (m - p)
        for x in range(0, 1 << m, step):
            transfers.append((x, x + step // 2))
    transfers += [(x - (1 << m), x) for x in range(1 << m, n)]
    out = [[] for _ in range(n)]
    direct = {}
    for (u, v, t) in edges:
        out[u].append((v, t))
        direct.setdefault((u, v), t)
    parent = [None] * n
    for (u, v) in transfers:
        if parent[v] is not None:
            continue   # a relay already brought it the slices: nothing to send
        if (u, v) in direct:
            path = [(u, v, direct[(u, v)])]
        else:
            dist, prev, heap = {u: 0.0}, {}, [(0.0, u)]
            while heap:
                d, a = heapq.heappop(heap)
                if d > dist[a]:
                    continue
                for (b, t) in out[a]:
                    if d + t < dist.get(b, math.inf):
                        dist[b], prev[b] = d + t, (a, t)
                        heapq.heappush(heap, (d + t, b))
            path, b = [], v
            while b != u:
                a, t = prev[b]
                path.append((a, b, t))
                b = a
            path.reverse()
        for (a, b, t) in path:
            if b != 0 and parent[b] is None:
                parent[b] = (a, t)
    return parent


def lp_prune(n, edges, count):
    """Algorithm 6 as §4.2.1 says: the edges carrying the fewest slices go first (ties: heavier)."""
    alive = [True] * len(edges)
    for k in sorted(range(len(edges)), key=lambda k: (count[k], -edges[k][2], k)):
        alive[k] = False
        if not reaches_all(n, edges, alive):
            alive[k] = True
    return tree_of(n, edges, alive)


def lp_grow(n, edges, count):
    """Algorithm 7: grow from the source along the edge carrying the most slices."""
    parent, intree = [None] * n, {0}
    while len(intree) < n:
        k = min((k for k, (u, w, _) in enumerate(edges) if u in intree and w not in intree),
                key=lambda k: (-count[k], edges[k][2], k))
        u, w, t = edges[k]
        parent[w] = (u, t)
        intree.add(w)
    return parent


def trees(n, edges, send, count):
    one_port_degree = lambda u, mine: sum(t for (_, _, t) in mine)
    multi_degree = lambda u, mine: max(len(mine) * send[u], max((t for (_, _, t) in mine), default=0))
    return {
        'prune-simple': prune_simple(n, edges, send),
        'prune-degree': prune_by_degree(n, edges, send, one_port_degree),
        'grow-tree': grow(n, edges, lambda u, kids, t: sum(kids) + t),
        'binomial': binomial(n, edges, send),
        'multiport-grow': grow(n, edges, lambda u, kids, t: max((len(kids) + 1) * send[u],
                                                               max(kids + [t]))),
        'multiport-prune-degree': prune_by_degree(n, edges, send, multi_degree),
        'lp-prune': lp_prune(n, edges, count),
        'lp-grow': lp_grow(n, edges, count),
    }


# ---- linear program (2): max TP, one-port ports, every source-receiver cut >= TP ----

def simplex_max(c, rows, rhs):
    """max c.x subject to rows x <= rhs (rhs >= 0), x >= 0: dense tableau, Dantzig's rule
    with Bland's after a run of degenerate pivots."""
    m, nv = len(rows), len(c)
    tab = [list(rows[i]) + [1.0 if j == i else 0.0 for j in range(m)] + [rhs[i]] for i in range(m)]
    obj = [-x for x in c] + [0.0] * m + [0.0]
    basis = [nv + i for i in range(m)]
    degenerate = 0
    while True:
        if degenerate > 50:
            col = next((j for j in range(nv + m) if obj[j] < -1e-12), -1)
        else:
            col = min(range(nv + m), key=lambda j: obj[j])
            if obj[col] >= -1e-12:
                col = -1
        if col < 0:
            break
        best = None
        for i in range(m):
            a = tab[i][col]
            if a > 1e-12:
                key = (tab[i][-1] / a, basis[i])
                if best is None or key < best[0]:
                    best = (key, i)
        assert best is not None, 'unbounded'
        r = best[1]
        degenerate = degenerate + 1 if tab[r][-1] < 1e-15 else 0
        prow = tab[r]
        piv = prow[col]
        prow = [x / piv for x in prow]
        tab[r] = prow
        for i in range(m):
            f = tab[i][col]
            if i != r and f != 0.0:
                tab[i] = [a - f * b for a, b in zip(tab[i], prow)]
        f = obj[col]
        obj = [a - f * b for a, b in zip(obj, prow)]
        basis[r] = col
    x = [0.0] * nv
    for i, b in enumerate(basis):
        if b < nv:
            x[b] = tab[i][-1]
    return obj[-1], x


def max_flow_cut(n, edges, cap, sink):
    """Edmonds-Karp from 0 to sink: (value, edges leaving the source side of a minimum cut)."""
    adj = [[] for _ in range(n)]
    res = {}
    for k, (u, v, _) in enumerate(edges):
        res[(u, v)] = res.get((u, v), 0.0) + cap[k]
        res.setdefault((v, u), 0.0)
    for (u, v) in res:
        adj[u].append(v)
    value = 0.0
    while True:
        prev = {0: None}
        q = deque([0])
        while q and sink not in prev:
            a = q.popleft()
            for b in adj[a]:
                if b not in prev and res[(a, b)] > 1e-12:
                    prev[b] = a
                    q.append(b)
        if sink not in prev:
            break
        push, b = math.inf, sink
        while prev[b] is not None:
            push = min(push, res[(prev[b], b)])
            b = prev[b]
        b = sink
        while prev[b] is not None:
            res[(prev[b], b)] -= push
            res[(b, prev[b])] += push
            b = prev[b]
        value += push
    side = set(prev)
    return value, [k for k, (u, v, _) in enumerate(edges) if u in side and v not in side]


def lp_optimum(n, edges):
    ne = len(edges)
    ports = []
    for u in range(n):
        ports.append([0.0] + [t if a == u else 0.0 for (a, _, t) in edges])
        ports.append([0.0] + [t if b == u else 0.0 for (_, b, t) in edges])
    cuts = [[k for k, e in enumerate(edges) if e[0] == 0]]
    cuts += [[k for k, e in enumerate(edges) if e[1] == w] for w in range(1, n)]
    while True:
        rows = list(ports)
        for cut in cuts:
            row = [1.0] + [0.0] * ne
            for k in cut:
                row[1 + k] = -1.0
            rows.append(row)
        tp, x = simplex_max([1.0] + [0.0] * ne, rows, [1.0] * len(ports) + [0.0] * len(cuts))
        added = False
        for w in range(1, n):
            value, cut = max_flow_cut(n, edges, x[1:], w)
            if value < tp * (1 - 1e-9):
                cuts.append(cut)
                added = True
        if not added:
            return tp, counts(n, edges, x[1:], tp)


def counts(n, edges, cap, tp):
    """n(e) = max over the receivers w of the slices for w crossing e, in one flow of value
    TP from the source to each w within the capacities (the paper's n(e) = max_w x(w,e))."""
    most = [0.0] * len(edges)
    for w in range(1, n):
        flow = flow_to(n, edges, cap, w, tp)
        most = [max(a, b) for a, b in zip(most, flow)]
    return most


def flow_to(n, edges, cap, sink, want):
    """Per-edge flow of value want (at most) from 0 to sink within cap: augmenting paths."""
    flow = [0.0] * len(edges)
    out = [[] for _ in range(n)]
    for k, (u, v, _) in enumerate(edges):
        out[u].append((k, v, 1))
        out[v].append((k, u, -1))
    got = 0.0
    while got < want * (1 - 1e-12):
        prev = {0: None}
        q = deque([0])
        while q and sink not in prev:
            a = q.popleft()
            for (k, b, way) in out[a]:
                room = cap[k] - flow[k] if way > 0 else flow[k]
                if b not in prev and room > 1e-12:
                    prev[b] = (a, k, way)
                    q.append(b)
        if sink not in prev:
            break
        push, b = want - got, sink
        while prev[b] is not None:
            a, k, way = prev[b]
            push = min(push, cap[k] - flow[k] if way > 0 else flow[k])
            b = a
        b = sink
        while prev[b] is not None:
            a, k, way = prev[b]
            flow[k] += push * way
            b = a
        got += push
    return flow


# ---- the comparison ----

def hetcast_means(hetcast, lo, hi, runs, seed, densities):
    out = subprocess.run([hetcast, 'experiment', 'pipeline', '--nodes', f'{lo}:{hi}:10', '--runs',
                          str(runs), '--densities', ','.join(f'{d:g}' for d in densities),
                          '--tiers', '0', '--seed', str(seed), '--format', 'csv'],
                         check=True, capture_output=True, text=True).stdout
    means = {}
    for line in out.splitlines():
        f = line.split(',')
        if line.startswith('#') or f[0] == 'study' or f[1] != 'random':
            continue
        means[(f[0], f[2], float(f[4]), f[5])] = float(f[7])
    return means


def main(argv):
    hetcast, lo, hi, runs, seed, densities = argv[1], 10, 10, 10, 1, DENSITIES
    args = argv[2:]
    while args:
        opt, val = args[0], args[1]
        args = args[2:]
        if opt == '--nodes':
            lo, hi = (int(x) for x in val.split(':'))
        elif opt == '--runs':
            runs = int(val)
        elif opt == '--densities':
            densities = [float(x) for x in val.split(',')]
        elif opt == '--seed':
            seed = int(val)
        else:
            sys.exit(f'pipeline_check.py: unknown option {opt}')
    theirs = hetcast_means(hetcast, lo, hi, runs, seed, densities)
    r = Rng(seed)
    sums = {}
    for n in range(lo, hi + 1, 10):
        for d in densities:
            for _ in range(runs):
                edges, send = random_platform(r, n, d)
                opt, count = lp_optimum(n, edges)
                for name, parent in trees(n, edges, send, count).items():
                    one, multi = periods(n, parent, send)
                    for key in (('fig4a', 'one-port', n), ('fig4b', 'one-port', d),
                                ('fig5', 'multi-port', n)):
                        period = one if key[1] == 'one-port' else multi
                        k = key + (name,)
                        sums[k] = sums.get(k, 0.0) + (1.0 / period) / opt
    per = {'fig4a': len(densities) * runs, 'fig4b': runs * ((hi - lo) // 10 + 1),
           'fig5': len(densities) * runs}
    worst = {True: 0.0, False: 0.0}   # the checked heuristics, the LP ones
    print(f'seed {seed}, nodes {lo}..{hi}, {runs} platforms per size and link probability.')
    print('Mean tree throughput / LP optimum in %, hetcast / this check:')
    for fig, model, title in (('fig4a', 'one-port', 'Figure 4(a), one-port, by number of nodes'),
                              ('fig4b', 'one-port', 'Figure 4(b), one-port, by link probability'),
                              ('fig5', 'multi-port', 'Figure 5, multi-port, by number of nodes')):
        values = sorted({k[2] for k in sums if k[0] == fig})
        print(f'\n{title}\n{"":22}' + ''.join(f' {v:>13g}' for v in values))
        for h in CHECKED + ['lp-prune', 'lp-grow']:
            cells = []
            for v in values:
                mine = sums[(fig, model, v, h)] / per[fig]
                their = theirs[(fig, model, v, h)]
                worst[h in CHECKED] = max(worst[h in CHECKED], abs(mine - their))
                cells.append(f'{100 * their:.1f} / {100 * mine:.1f}')
            print(f'{h:22}' + ''.join(f' {c:>13}' for c in cells))
    ok = worst[True] <= TOLERANCE
    print(f'\nlargest difference, {", ".join(CHECKED)}: {100 * worst[True]:.5f} points '
          f'({"the same figures" if ok else "DIFFERENT"})')
    print(f'largest difference, lp-prune and lp-grow: {100 * worst[False]:.1f} points (their trees '
          'follow per-edge counts that an optimum does not fix: here, those of this check\'s own '
          'solution)')
    return 0 if ok else 1

if __name__ == '__main__':
    sys.exit(main(sys.argv))
