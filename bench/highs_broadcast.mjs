// bench/highs_broadcast.mjs - the least makespan of a broadcast on a hetcast
// node table in the async model (docs/models.md), by a mixed-integer program
// of its own solved by HiGHS (the npm package `highs`, HiGHS compiled to
// WebAssembly), written apart from hetcast's search and its --certify
// program, to check hetcast's optima and to time another solver beside it.
//
// Needs: node (>= 18) and `npm install` in bench/ (package.json pins highs).
// Not run by the tests or CI.
//
// Run:   node bench/highs_broadcast.mjs TABLE.csv [--time-limit S] [--lp FILE]
// It prints one line:
//   highs makespan M proven (HiGHS optimal, bound B[, every makespan a multiple of G], T s)
//   highs makespan M not proven: optimum >= B (HiGHS status, T s)
// M is the makespan of HiGHS's schedule, timed again here from its choices
// (the tree and each sender's order) as the async model times them; B is
// HiGHS's lower bound.  --lp writes the program (CPLEX LP format).
// Exit status 2 on a table it cannot read, 1 when HiGHS finds no schedule.
//
// The table: `name,send,recv` rows, `# latency: L` (default 0) and
// `# source: NAME` (default the first node); other `#` lines are ignored.
//
// The async model on a node table: q's k-th send (k = 1, 2, ..., no idle
// time between them: an idle port never helps) starts when q holds the
// message plus (k - 1) s(q); its receiver p holds the message s(q) + L +
// r(p) after that start.  A node receives once, so receive ports never
// queue.  So a broadcast is a tree rooted at the source with an order of
// each node's children, and hold(p) = hold(q) + k s(q) + L + r(p).
//
// The program: a binary x[q,p,k] for "p is q's k-th receiver"; every node
// but the source receives once; each (q, k) serves at most one node, and
// q's (k+1)-th send only after its k-th (an order with a gap is never
// better); continuous h[p] (when p holds) and C (the makespan), with
//   h[p] >= h[q] + L + r(p) + s(q) * sum_k k x[q,p,k] - M (1 - sum_k x[q,p,k])
//   C >= h[p],  h[source] = 0,  C <= U,  h[p] >= min s + L + r(p)
// where U is the makespan of fastest-node-first (computed here; its
// schedule is HiGHS's first incumbent) and M = U + L + r(p).  k runs up to
// the last position whose receiver could hold the message by U.  With every
// s(q) + L + r(p) positive a cycle would make some
// h[p] > h[p], so none is possible; with zero times, levels rule cycles
// out (Miller-Tucker-Zemlin).  When every time is a multiple of 10^-d
// (d <= 6) the times are scaled to integers, so every makespan is a whole
// number of units and a bound within one unit of a schedule proves it:
// HiGHS stops at an absolute gap of 0.99 units.
import { readFileSync, writeFileSync } from "node:fs";
import loadHighs from "highs";

function die(msg, status = 2) {
    process.stderr.write(`highs_broadcast: ${msg}\n`);
    process.exit(status);
}

// CSV fields of one line (quotes as in docs/formats.md; no quoted newlines)
function fields(line) {
    const out = [];
    let cur = "", q = false, quoted = false;
    for (let i = 0; i < line.length; i++) {
        const c = line[i];
        if (q) {
            if (c === '"' && line[i + 1] === '"') { cur += '"'; i++; }
            else if (c === '"') q = false;
            else cur += c;
        } else if (c === '"') { q = true; quoted = true; }
        else if (c === ",") { out.push(quoted ? cur : cur.trim()); cur = ""; quoted = false; }
        else cur += c;
    }
    out.push(quoted ? cur : cur.trim());
    return out;
}

function readTable(path) {
    let text;
    try { text = readFileSync(path, "utf8"); } catch (e) { die(`${path}: ${e.message}`); }
    let latency = 0, source = null, header = null;
    const nodes = [];
    text.split(/\r?\n/).forEach((line, i) => {
        const m = /^#\s*(\w+)\s*:\s*(.*?)\s*$/.exec(line);
        if (m) {
            const key = m[1].toLowerCase();
            if (key === "latency") latency = Number(m[2]);
            if (key === "source") source = m[2];
            if (key === "segment") die(`${path}:${i + 1}: size segments are not modelled`);
            return;
        }
        if (line.startsWith("#") || line.trim() === "") return;
        const f = fields(line);
        if (!header) {
            header = f.map((s) => s.toLowerCase());
            if (header[0] !== "name" || header[1] !== "send" || header[2] !== "recv")
                die(`${path}:${i + 1}: expected the header name,send,recv`);
            return;
        }
        const s = Number(f[1]), r = Number(f[2]);
        if (!(s >= 0) || !(r >= 0) || !Number.isFinite(s + r))
            die(`${path}:${i + 1}: send and recv must be numbers >= 0`);
        nodes.push({ name: f[0], s, r });
    });
    if (!(latency >= 0) || !Number.isFinite(latency)) die(`${path}: latency must be a number >= 0`);
    if (nodes.length === 0) die(`${path}: no nodes`);
    const src = source === null ? 0 : nodes.findIndex((v) => v.name === source);
    if (src < 0) die(`${path}: the source ${source} is not a node`);
    return { nodes, latency, src };
}

// the least d <= 6 with every time a whole multiple of 10^-d, or -1
function decimals(vals) {
    for (let d = 0; d <= 6; d++) {
        const k = 10 ** d;
        if (vals.every((v) => Math.abs(v * k - Math.round(v * k)) <= 1e-9 * Math.max(1, v * k)))
            return d;
    }
    return -1;
}

// fastest node first (docs/models.md): the holder whose next send completes
// first sends to the waiting node of least s (then r, then index); its
// makespan, each node's hold time, parent and position among its parent's
// sends
function fnf(s, r, L, src) {
    const n = s.length, hold = new Array(n).fill(Infinity), ready = new Array(n).fill(Infinity);
    const parent = new Array(n).fill(-1), pos = new Array(n).fill(0), sent = new Array(n).fill(0);
    hold[src] = 0; ready[src] = 0;
    const wait = [...Array(n).keys()].filter((p) => p !== src)
        .sort((a, b) => s[a] - s[b] || r[a] - r[b] || a - b);
    let makespan = 0;
    for (const p of wait) {
        let q = -1;
        for (let i = 0; i < n; i++)
            if (ready[i] < Infinity && (q < 0 || ready[i] + s[i] < ready[q] + s[q])) q = i;
        hold[p] = ready[q] + s[q] + L + r[p];
        ready[q] += s[q];
        ready[p] = hold[p];
        parent[p] = q;
        pos[p] = ++sent[q];
        makespan = Math.max(makespan, hold[p]);
    }
    return { makespan, hold, parent, pos };
}

function buildLp(s, r, L, src, U) {
    const n = s.length, rows = [], bin = [], K = [];
    const x = (q, p, k) => `x_${q}_${p}_${k}`;
    const sMin = (q) => Math.min(...s.filter((_, i) => i !== q));
    const rMin = (p) => Math.min(...r.filter((_, i) => i !== p && i !== src));
    for (let q = 0; q < n; q++) {
        // a receiver of q's k-th send holds by U only if k s(q) <= U - h_min(q) - L - r_min
        const hmin = q === src ? 0 : sMin(q) + L + r[q];
        const room = U - hmin - L - rMin(q);
        K[q] = s[q] > 0 ? Math.max(0, Math.min(n - 1, Math.floor(room / s[q] + 1e-9))) : n - 1;
    }
    const zero = s.some((v, q) => r.some((w, p) => p !== q && p !== src && v + L + w <= 0));
    for (let p = 0; p < n; p++) {
        if (p === src) continue;
        const terms = [];
        for (let q = 0; q < n; q++)
            for (let k = 1; q !== p && k <= K[q]; k++) terms.push(x(q, p, k));
        if (terms.length === 0) return null;
        rows.push(`recv_${p}: ${terms.join(" + ")} = 1`);
    }
    for (let q = 0; q < n; q++)
        for (let k = 1; k <= K[q]; k++) {
            const here = [], prev = [];
            for (let p = 0; p < n; p++)
                if (p !== q && p !== src) {
                    here.push(x(q, p, k));
                    prev.push(x(q, p, k - 1));
                    bin.push(x(q, p, k));
                }
            if (here.length === 0) continue;
            rows.push(`slot_${q}_${k}: ${here.join(" + ")} <= 1`);
            if (k > 1) rows.push(`order_${q}_${k}: ${here.join(" + ")} - ${prev.join(" - ")} <= 0`);
        }
    for (let q = 0; q < n; q++)
        for (let p = 0; p < n; p++) {
            if (p === q || p === src || K[q] === 0) continue;
            const M = U + L + r[p];
            const t = [`h_${p}`, `- h_${q}`];
            for (let k = 1; k <= K[q]; k++) t.push(`- ${s[q] * k + M} ${x(q, p, k)}`);
            rows.push(`time_${q}_${p}: ${t.join(" ")} >= ${L + r[p] - M}`);
            if (zero) {
                const y = [];
                for (let k = 1; k <= K[q]; k++) y.push(`- ${n} ${x(q, p, k)}`);
                rows.push(`level_${q}_${p}: l_${p} - l_${q} ${y.join(" ")} >= ${1 - n}`);
            }
        }
    for (let p = 0; p < n; p++) rows.push(`span_${p}: C - h_${p} >= 0`);
    const bounds = [`C <= ${U}`, `h_${src} = 0`];
    for (let p = 0; p < n; p++) {
        if (p !== src) bounds.push(`${sMin(p) + L + r[p]} <= h_${p} <= ${U}`);
        if (zero) bounds.push(`0 <= l_${p} <= ${n - 1}`);
    }
    const lp = ["Minimize", " makespan: C", "Subject To", ...rows.map((v) => " " + v), "Bounds",
        ...bounds.map((v) => " " + v), "Binaries", ...bin.map((v) => " " + v), "End", ""].join("\n");
    return { lp, K, x, zero };
}

// the schedule HiGHS chose, timed again: each sender's receivers in the order
// of their positions, without gaps; null if the choices are not a broadcast
function retime(s, r, L, src, K, value) {
    const n = s.length, kids = Array.from({ length: n }, () => []), parent = new Array(n).fill(-1);
    for (let q = 0; q < n; q++)
        for (let p = 0; p < n; p++)
            for (let k = 1; p !== q && p !== src && k <= K[q]; k++)
                if (value(q, p, k) > 0.5) {
                    if (parent[p] >= 0) return null;
                    parent[p] = q;
                    kids[q].push([k, p]);
                }
    const hold = new Array(n).fill(-1);
    hold[src] = 0;
    const stack = [src];
    let reached = 1, makespan = 0;
    while (stack.length) {
        const q = stack.pop();
        kids[q].sort((a, b) => a[0] - b[0]).forEach(([, p], i) => {
            hold[p] = hold[q] + (i + 1) * s[q] + L + r[p];
            makespan = Math.max(makespan, hold[p]);
            reached++;
            stack.push(p);
        });
    }
    return reached === n ? makespan : null;
}

const args = process.argv.slice(2);
let file = null, timeLimit = 10, lpOut = null;
for (let i = 0; i < args.length; i++) {
    if (args[i] === "--time-limit") timeLimit = Number(args[++i]);
    else if (args[i] === "--lp") lpOut = args[++i];
    else if (file === null && !args[i].startsWith("--")) file = args[i];
    else die(`unknown argument ${args[i]}; usage: highs_broadcast.mjs TABLE.csv [--time-limit S] [--lp FILE]`);
}
if (file === null || !(timeLimit > 0)) die("usage: highs_broadcast.mjs TABLE.csv [--time-limit S] [--lp FILE]");

const t0 = process.hrtime.bigint();
const { nodes, latency, src } = readTable(file);
const d = decimals([latency, ...nodes.flatMap((v) => [v.s, v.r])]);
const unit = d >= 0 ? 10 ** d : 1;
const sc = (v) => (d >= 0 ? Math.round(v * unit) : v);
const n = nodes.length, s = nodes.map((v) => sc(v.s)), r = nodes.map((v) => sc(v.r)), L = sc(latency);
const show = (v) => String(Number((v / unit).toPrecision(15)));
const secs = () => (Number(process.hrtime.bigint() - t0) / 1e9).toFixed(2);

if (nodes.length === 1) {
    console.log(`highs makespan 0 proven (the source is the only node, ${secs()} s)`);
    process.exit(0);
}
const start = fnf(s, r, L, src), U = start.makespan;
const built = buildLp(s, r, L, src, U);
if (built === null) die("internal: a node no sender can reach by fnf's makespan", 1);
if (lpOut) writeFileSync(lpOut, built.lp);

const highs = await loadHighs();
const model = highs.createModel({ format: "lp", data: built.lp });
try {
    model.options.set({
        output_flag: false, time_limit: timeLimit, mip_rel_gap: 0,
        mip_abs_gap: d >= 0 ? 0.99 : 1e-9,
    });
    // fnf's schedule as HiGHS's first incumbent (hetcast's search starts from a heuristic too)
    const numCols = model.getDimensions().numCols, guess = new Float64Array(numCols);
    const put = (name, v) => { guess[model.getColByName(name)] = v; };
    const level = (p) => (p === src ? 0 : 1 + level(start.parent[p]));
    put("C", U);
    for (let p = 0; p < n; p++) {
        put(`h_${p}`, start.hold[p]);
        if (built.zero) put(`l_${p}`, level(p));
        if (p !== src) put(built.x(start.parent[p], p, start.pos[p]), 1);
    }
    model.setSolution({ colValue: guess });
    model.run();
    const status = model.getModelStatus();
    const names = highs.constants.modelStatus;
    const statusName = Object.keys(names).find((k) => names[k] === status) ?? String(status);
    const sol = model.getSolution();
    const col = new Map();
    const value = (q, p, k) => {
        const name = built.x(q, p, k);
        if (!col.has(name)) col.set(name, model.getColByName(name));
        return sol.colValue[col.get(name)];
    };
    const M = sol.colValue && sol.colValue.length ? retime(s, r, L, src, built.K, value) : null;
    if (M === null) {
        console.log(`highs no schedule (HiGHS ${statusName}, ${secs()} s)`);
        process.exit(1);
    }
    let bound = Number(model.info.get("mip_dual_bound"));
    if (!Number.isFinite(bound)) bound = 0;
    // a whole number of units: a bound within one unit of M proves M
    const proven = d >= 0 ? M - bound < 1 - 1e-6 : status === names.optimal && M - bound <= 1e-9 * Math.max(1, M);
    const grid = d >= 0 && M - bound > 1e-6 ? `, every makespan a multiple of ${show(1)}` : "";
    if (proven)
        console.log(`highs makespan ${show(M)} proven (HiGHS ${statusName}, bound ${show(bound)}${grid}, ${secs()} s)`);
    else
        console.log(`highs makespan ${show(M)} not proven: optimum >= ${show(Math.max(0, bound))} (HiGHS ${statusName}, ${secs()} s)`);
} finally {
    model.dispose();
}
