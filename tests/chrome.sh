#!/bin/sh
# chrome.sh - --format chrome, the Chrome trace-event JSON that Perfetto and
# chrome://tracing open (TAP): every event checked against the format's
# documented schema by a small checker (name, ph, ts, pid, tid; complete
# events with dur >= 0; every pid and tid named by metadata; no two events
# of one thread crossing; every flow one start and one end), the
# counterexample's tracks (one per node and
# port) and its transfers against `run --format csv`, a measured run's
# overlapping sends on two threads, names with quotes and backslashes.
. "$(dirname "$0")/tap.sh"
C=clusters/counterexample.csv
M=tests/data/counterexample-measured.csv

# The checker: schema SCHEMA FILE exits 0 when FILE is a valid trace.
cat >"$T/schema.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
ev = d["traceEvents"] if isinstance(d, dict) else d
named = {}
for e in ev:
    for k in ("name", "ph", "ts", "pid", "tid"):
        assert k in e, ("missing", k, e)
    assert isinstance(e["ts"], (int, float)) and e["ts"] >= 0, e
    if e["ph"] == "X":
        assert isinstance(e["dur"], (int, float)) and e["dur"] >= 0, e
    elif e["ph"] == "M":
        if e["name"] == "process_name":
            named[(e["pid"], None)] = e["args"]["name"]
        if e["name"] == "thread_name":
            named[(e["pid"], e["tid"])] = e["args"]["name"]
    elif e["ph"] in ("s", "f"):
        assert isinstance(e["id"], int) and e["cat"] == "transfer", e
        assert e["ph"] == "s" or e["bp"] == "e", ("a flow end binds to its enclosing slice", e)
    else:
        assert False, ("a phase hetcast does not write", e)
ends = {}
for e in ev:
    if e["ph"] in ("s", "f"):
        ends.setdefault(e["id"], []).append(e["ph"])
for i, phs in ends.items():   # every flow: one start, one end
    assert sorted(phs) == ["f", "s"], ("flow", i, phs)
byth = {}
for e in ev:
    if e["ph"] == "X":
        assert (e["pid"], None) in named, ("pid not named", e)
        assert (e["pid"], e["tid"]) in named, ("tid not named", e)
        byth.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"]))
for iv in byth.values():   # one thread: intervals one after another, never crossing
    iv.sort()
    for a, b in zip(iv, iv[1:]):
        assert b[0] >= a[1] - 1e-6, ("overlap on one thread", a, b)
PY

run "$H" run $C --format chrome
cp "$T/out" "$T/run.json"
check "run --format chrome: exit 0" test $rc -eq 0
check "run: the checker accepts it (schema)" python3 "$T/schema.py" "$T/run.json"
check "run: one process per node, named, and one named thread per port" python3 -c "
import json; ev = json.load(open('$T/run.json'))['traceEvents']
procs = {e['pid']: e['args']['name'] for e in ev if e['name'] == 'process_name'}
assert sorted(procs.values()) == ['p0', 'p1', 'p2'], procs
for pid in procs:
    th = sorted(e['args']['name'] for e in ev if e['name'] == 'thread_name' and e['pid'] == pid)
    assert th == ['link in', 'receive port', 'send port'], th"
"$H" run $C --format csv >"$T/run.csv"
check "run: the transfers of run --format csv, times in microseconds (a unit as a second)" python3 -c "
import csv, json; ev = json.load(open('$T/run.json'))['traceEvents']
rows = list(csv.DictReader(l for l in open('$T/run.csv') if not l.startswith('#')))
sends = [e for e in ev if e['ph'] == 'X' and e['cat'] == 'send']
assert len(sends) == len(rows) == 2, (len(sends), len(rows))
procs = {e['pid']: e['args']['name'] for e in ev if e['name'] == 'process_name'}
for r in rows:
    s = [e for e in sends if e['args']['from'] == r['from'] and e['args']['to'] == r['to']]
    assert len(s) == 1 and procs[s[0]['pid']] == r['from'], (r, s)
    a = s[0]['args']
    for k in ('send_start', 'send_end', 'link_start', 'link_end', 'recv_start', 'recv_end', 'hold'):
        assert a[k] == float(r[k]), (k, a[k], r[k])
    assert s[0]['ts'] == float(r['send_start']) * 1e6
    assert s[0]['dur'] == (float(r['send_end']) - float(r['send_start'])) * 1e6
    recv = [e for e in ev if e['ph'] == 'X' and e['cat'] == 'recv' and e['args']['to'] == r['to']]
    assert len(recv) == 1 and procs[recv[0]['pid']] == r['to']
    assert recv[0]['ts'] + recv[0]['dur'] == float(r['recv_end']) * 1e6"
# flows: read back and bound to their slices as Perfetto binds them (a flow event to the slice of
# its thread that encloses its time), each from the sender's send slice to the receiver's
# receive slice of one row of the schedule
cat >"$T/flows.py" <<'PY'
import csv, json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
procs = {e["pid"]: e["args"]["name"] for e in ev if e["name"] == "process_name"}
def slice_of(f):
    s = [e for e in ev if e["ph"] == "X" and (e["pid"], e["tid"]) == (f["pid"], f["tid"])
         and e["ts"] <= f["ts"] <= e["ts"] + e["dur"]]
    assert len(s) == 1, ("a flow event not in one slice", f, s)
    return s[0]
arrows = {}
for e in ev:
    if e["ph"] in ("s", "f"):
        arrows.setdefault(e["id"], {})[e["ph"]] = slice_of(e)
got = sorted((a["s"]["cat"], procs[a["s"]["pid"]], a["s"]["args"]["seq"], a["f"]["cat"],
              procs[a["f"]["pid"]], a["f"]["args"]["seq"]) for a in arrows.values())
rows = list(csv.DictReader(l for l in open(sys.argv[2]) if not l.startswith("#")))
prefix = sys.argv[3] if len(sys.argv) > 3 else ""
want = sorted(("send", prefix + r["from"], int(r["seq"]), "recv", prefix + r["to"], int(r["seq"]))
              for r in rows)
if prefix:
    got = [g for g in got if g[1].startswith(prefix)]
assert got == want, (got, want)
PY
check "run: a flow per transfer, from its send slice on the sender to its receive slice on the receiver" python3 "$T/flows.py" "$T/run.json" "$T/run.csv"
"$H" run $C -s optimal --format csv >"$T/opt.csv"
"$H" compare $C --format chrome >"$T/cmp.json"
check "compare: the flows of each run, ids apart (optimal's against its schedule)" sh -c "python3 $T/schema.py $T/cmp.json && python3 $T/flows.py $T/cmp.json $T/opt.csv 'optimal: '"
check "run: the reason of each transfer in its args" python3 -c "
import json; ev = json.load(open('$T/run.json'))['traceEvents']
s = [e for e in ev if e['ph'] == 'X' and e['cat'] == 'send' and e['args']['to'] == 'p2'][0]
assert s['args']['why'].startswith('p0 can finish a send first'), s"
check "run: the times and reason once, on the send slice; link and receive slices name their transfer" python3 -c "
import json; ev = json.load(open('$T/run.json'))['traceEvents']
full = ['seq', 'from', 'to', 'send_start', 'send_end', 'link_start', 'link_end', 'recv_start', 'recv_end', 'hold', 'why']
x = [e for e in ev if e['ph'] == 'X']
assert sorted(e['cat'] for e in x) == ['link', 'link', 'recv', 'recv', 'send', 'send'], x
for e in x:
    assert list(e['args']) == (full if e['cat'] == 'send' else full[:3]), e
    send = [f for f in x if f['cat'] == 'send' and f['args']['seq'] == e['args']['seq']]
    assert len(send) == 1 and [send[0]['args'][k] for k in full[:3]] == [e['args'][k] for k in full[:3]], e"

run "$H" compare $C --trace $M --format chrome
cp "$T/out" "$T/meas.json"
check "compare --trace --format chrome: exit 0, the checker accepts it" sh -c "[ $rc -eq 0 ] && python3 $T/schema.py $T/meas.json"
check "compare --trace: the measured runs' nodes are processes of their own" python3 -c "
import json; ev = json.load(open('$T/meas.json'))['traceEvents']
procs = sorted(e['args']['name'] for e in ev if e['name'] == 'process_name')
assert 'fnf (measured): p2' in procs and 'optimal: p0' in procs and len(procs) == 12, procs
name = {e['pid']: e['args']['name'] for e in ev if e['name'] == 'process_name'}
s = [e for e in ev if e['ph'] == 'X' and e['cat'] == 'send' and e['args']['hold'] == 6.01]
assert len(s) == 1, s
run = name[s[0]['pid']].rsplit(': ', 1)[0] + ': '
r = [e for e in ev if e['ph'] == 'X' and e['cat'] == 'recv' and e['args']['seq'] == s[0]['args']['seq']
     and name[e['pid']].startswith(run)]
assert len(r) == 1 and r[0]['ts'] + r[0]['dur'] == 6010000, r"
# a measured run whose two sends from p0 overlap: two threads of p0's send port
sed 's/^fnf,2,p0,p2,1.001,/fnf,2,p0,p2,0.5,/' $M >"$T/overlap.csv"
run "$H" compare $C --trace "$T/overlap.csv" -s fnf --format chrome
cp "$T/out" "$T/ov.json"
check "overlapping sends: the checker accepts it (no two events of a thread cross)" sh -c "[ $rc -eq 0 ] && python3 $T/schema.py $T/ov.json"
check "overlapping sends: the second on 'send port 2' of the measured p0" python3 -c "
import json; ev = json.load(open('$T/ov.json'))['traceEvents']
pid = [e['pid'] for e in ev if e['name'] == 'process_name' and e['args']['name'] == 'fnf (measured): p0'][0]
th = {e['tid']: e['args']['name'] for e in ev if e['name'] == 'thread_name' and e['pid'] == pid}
s = sorted((e['ts'], th[e['tid']]) for e in ev if e['ph'] == 'X' and e['pid'] == pid)
assert s == [(0, 'send port'), (500000, 'send port 2')], s"

# names through JSON's escaping: a quote, a backslash, a name that is UTF-8
printf 'name,send,recv\n"a""b",1,2\n"c\\\\d",1,1\n\303\251t\303\251,2,1\n' >"$T/names.csv"
run "$H" run "$T/names.csv" --format chrome
cp "$T/out" "$T/names.json"
check "names: valid JSON, the checker accepts it" sh -c "[ $rc -eq 0 ] && python3 $T/schema.py $T/names.json"
check "names: read back as they are" python3 -c "
import json; ev = json.load(open('$T/names.json', encoding='utf-8'))['traceEvents']
procs = sorted(e['args']['name'] for e in ev if e['name'] == 'process_name')
assert procs == ['a\"b', 'c\\\\\\\\d', '\u00e9t\u00e9'], procs"
# the cluster's unit sets the timeline: the counterexample in ms and the same in us (every time
# times 1000: tests/data/counterexample-{ms,us}.csv) are one trace; an abstract unit is drawn as a second and the metadata says so
"$H" run tests/data/counterexample-ms.csv --format chrome >"$T/ms.json" 2>"$T/ms.err"
"$H" run tests/data/counterexample-us.csv --format chrome >"$T/us.json" 2>"$T/us.err"
check "unit ms and unit us: the same timestamps and durations (ms: p2 receives until 6000 us)" python3 -c "
import json
def ev(f):
    d = json.load(open(f))
    return d['otherData'], sorted((e['pid'], e['tid'], e['ts'], e.get('dur')) for e in d['traceEvents'] if e['ph'] == 'X')
(om, m), (ou, u) = ev('$T/ms.json'), ev('$T/us.json')
assert m == u and len(m) == 6, (m, u)
assert max(t + d for _, _, t, d in m) == 6000, m
assert om['time_unit'] == 'ms' and om['microseconds_per_time_unit'] == 1000, om
assert ou['time_unit'] == 'us' and ou['microseconds_per_time_unit'] == 1, ou"
check "no unit: a unit drawn as a second, and the metadata says so" python3 -c "
import json; o = json.load(open('$T/run.json'))['otherData']
assert o['time_unit'].startswith('none (abstract units, each drawn as 1 s)') and o['microseconds_per_time_unit'] == 1000000, o"
done_testing
