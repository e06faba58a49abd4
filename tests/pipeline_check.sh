#!/bin/sh
# pipeline_check.sh - the independent check of `hetcast experiment pipeline`
# (TAP): tests/pipeline_check.py, which shares no code with hetcast, draws the
# same random platforms and gives the same Figure 4(a), 4(b) and 5 means for
# every heuristic but the two LP ones; it can fail (a hetcast whose figures
# moved is caught); and the run shown in docs/pipeline.md says the same.
. tests/tap.sh

if ! command -v python3 >/dev/null 2>&1; then
    skip "pipeline_check.py" "no python3"
    done_testing
fi
run python3 tests/pipeline_check.py "$H" --runs 10
check "10 nodes, 50 platforms: exit 0" test "$rc" -eq 0
check "10 nodes: the same figures" has "points (the same figures)" "$T/out"
# a hetcast whose one mean moves by 0.01 points is caught
cat >"$T/moved" <<SH
#!/bin/sh
"$H" "\$@" | awk -F, '\$1 == "fig4a" && \$6 == "grow-tree" { \$8 = sprintf("%.6f", \$8 + 0.0001) } 1' OFS=,
SH
chmod +x "$T/moved"
run python3 tests/pipeline_check.py "$T/moved" --runs 2
check "a figure moved by 0.01 points: exit 1" test "$rc" -eq 1
check "a figure moved by 0.01 points: DIFFERENT" has "(DIFFERENT)" "$T/out"
# docs/pipeline.md's run: every pair of the checked heuristics is equal
awk '/^<!-- illustrative: the output of tests\/pipeline_check.py/ {b = 1; next}
     b && /^```$/ { if (++f == 2) exit; next }
     b && f == 1' docs/pipeline.md >"$T/doc"
check "docs/pipeline.md shows the check's output" has "points (the same figures)" "$T/doc"
check "docs/pipeline.md: hetcast / check equal for the checked heuristics" sh -c "
    awk '/^(prune-simple|prune-degree|grow-tree|binomial|multiport-grow|multiport-prune-degree) / {
        for (i = 2; i + 2 <= NF; i += 3) if (\$i != \$(i + 2)) bad = 1; rows++ }
        END { exit bad || rows != 18 }' '$T/doc'"
done_testing
