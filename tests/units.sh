#!/bin/sh
# units.sh - the unit that travels with a cluster (docs/formats.md, `# unit:`),
# on the real binary (TAP): CSV and Lua clusters say it and keep it through
# load and save; an unknown unit is refused with its file and line; a SimGrid
# platform is in seconds; every output of a run names a known unit (text,
# CSV, JSON, SVG axis, Paje, DOT), and a cluster without one gets none.
. tests/tap.sh
CE=clusters/counterexample.csv

# Round trips: the unit word alone, and with a latency matrix's number.
{ echo "# unit: us"; cat "$CE"; } >"$T/us.csv"
run "$H" run "$T/us.csv" --save-cluster "$T/us2.csv"
check "# unit: us: loads (status 0)" test "$rc" -eq 0
check "# unit: us: saved back" has '^# unit: us$' "$T/us2.csv"
run "$H" run "$T/us2.csv" --save-cluster "$T/us3.csv"
check "# unit: us: a second round trip gives the same file" cmp "$T/us2.csv" "$T/us3.csv"
printf '# unit: 0.5 ms\n,a,b\na,0,2\nb,3,0\n' >"$T/m.csv"
run "$H" run "$T/m.csv" --save-cluster "$T/m2.csv"
check "a matrix's # unit: 0.5 ms: both kept" has '^# unit: 0.5 ms$' "$T/m2.csv"
check "a matrix's # unit: 0.5 ms: the number still scales (makespan 1 = 0.5 x 2)" has '^makespan *1$' "$T/out"
run "$H" run "$CE" --save-cluster "$T/none.csv"
check "no unit: none written" sh -c "! grep -q '^# unit' '$T/none.csv'"

# Refusals, with the file and line.
printf '# name: x\n# unit: parsecs\nname,send,recv\na,1,2\n' >"$T/bad.csv"
run "$H" run "$T/bad.csv"
check "an unknown unit: status 2" test "$rc" -eq 2
check "an unknown unit: the file, the line and the units known" has "^hetcast run: $T/bad.csv:2: unit: \"parsecs\" is not a unit of time: s, ms, us, ns or none" "$T/err"
printf '# unit: ms\n# unit: us\nname,send,recv\na,1,2\n' >"$T/twice.csv"
run "$H" run "$T/twice.csv"
check "a unit given twice: status 2, both lines named" sh -c "[ $rc -eq 2 ] && grep -q '^hetcast run: $T/twice.csv:2: unit: given twice (first on line 1)' '$T/err'"

# Lua clusters say it too.
printf 'unit("ns")\nnode("a", 1, 2)\nnode("b", 1, 2)\n' >"$T/u.lua"
run "$H" run "$T/u.lua" --save-cluster "$T/lua.csv"
check "Lua unit(\"ns\"): saved as # unit: ns" sh -c "[ $rc -eq 0 ] && grep -q '^# unit: ns$' '$T/lua.csv'"
printf 'unit("fortnights")\nnode("a", 1, 2)\n' >"$T/bad.lua"
run "$H" run "$T/bad.lua"
check "Lua unit(\"fortnights\"): refused (status 2), the line named" sh -c "[ $rc -eq 2 ] && grep -q 'bad.lua:1: .*\"fortnights\" is not a unit of time' '$T/err'"

# Every output names the unit.
{ echo "# unit: ms"; cat "$CE"; } >"$T/ms.csv"
run "$H" run "$T/ms.csv"
check "text: the cluster line says the unit" has '^cluster: counterexample (node table, 3 nodes, source p0, latency 1, times in ms)$' "$T/out"
run "$H" run "$T/ms.csv" --format csv
check "CSV: # unit: ms above the header, after the format's version" sh -c "[ \"\$(head -n 4 '$T/out' | sed '2s/^# hetcast: .*/# hetcast: V/')\" = \"\$(printf '# format_version: 2\n# hetcast: V\n# unit: ms\nscheduler,seq,from,to,send_start,send_end,link_start,link_end,recv_start,recv_end,hold')\" ]"
cp "$T/out" "$T/ms-run.csv"
run "$H" compare "$T/ms.csv" --trace "$T/ms-run.csv"
check "CSV: the run's own CSV reads back as a measured trace" test "$rc" -eq 0
run "$H" run "$T/ms.csv" --format json --summary
check "JSON: \"unit\": \"ms\"" has '"unit": "ms"' "$T/out"
run "$H" run "$T/ms.csv" --format svg
check "SVG: the time axis reads 'time (ms)'" has '>time (ms)</text>' "$T/out"
run "$H" run "$T/ms.csv" --format paje
check "Paje: the run's type says the unit, and no line is a comment" sh -c "grep -q '^0 R 0 \"run (times in ms)\"\$' '$T/out' && ! grep -q '^#' '$T/out'"
if command -v pj_dump >/dev/null 2>&1; then
    cp "$T/out" "$T/ms.paje"
    run pj_dump "$T/ms.paje"
    check "Paje: pj_dump reads it, the unit in the run's type" sh -c "[ $rc -eq 0 ] && grep -q '^State' '$T/out' && grep -q '^Container, 0, run (times in ms), ' '$T/out'"
else
    skip "Paje: pj_dump reads it, the unit in the run's type" "pj_dump is not installed"
fi
run "$H" run "$T/ms.csv" --format dot
check "DOT: a comment says the unit" has '^  // times in ms$' "$T/out"
if command -v dot >/dev/null 2>&1; then
    cp "$T/out" "$T/ms.dot"
    check "DOT: Graphviz reads it with the comment" dot -Tsvg -o /dev/null "$T/ms.dot"
else
    skip "DOT: Graphviz reads it with the comment" "dot is not installed"
fi

# A personalized exchange names it too.
run "$H" run "$T/ms.csv" --pattern all-to-all -m sync
check "exchange, text: the cluster line says the unit" has '^cluster: counterexample (node table, 3 nodes, latency 1, times in ms)$' "$T/out"
run "$H" run "$T/ms.csv" --pattern all-to-all -m sync --format csv
check "exchange, CSV: # unit: ms after the two lines of every CSV" sh -c "head -n 1 '$T/out' | grep -qx '# format_version: 2' && sed -n 2p '$T/out' | grep -q '^# hetcast: ' && sed -n 3p '$T/out' | grep -qx '# unit: ms'"
run "$H" run "$T/ms.csv" --pattern all-to-all -m sync --format json
check "exchange, JSON: \"unit\": \"ms\"" has '"unit": "ms"' "$T/out"

# A cluster without a unit: no output names one.
for f in text csv json svg paje dot; do
    run "$H" run "$CE" --format $f
    check "no unit, --format $f: nothing about a unit" sh -c "! grep -q 'times in\\|\"unit\"\\|# unit\\|time (' '$T/out'"
done
for f in text csv json; do
    run "$H" run "$CE" --pattern all-to-all -m sync --format $f
    check "no unit, exchange --format $f: nothing about a unit" sh -c "! grep -q 'times in\\|\"unit\"\\|# unit' '$T/out'"
done

# A SimGrid platform is in seconds.
run "$H" run tests/data/simgrid-star.xml --save-cluster "$T/sg.csv"
if has "built without SimGrid" "$T/err"; then
    skip "SimGrid platform: # unit: s" "hetcast was built without SimGrid"
else
    check "SimGrid platform: saved with # unit: s" has '^# unit: s$' "$T/sg.csv"
fi
done_testing
