#!/bin/sh
# outdir.sh - `--output DIR` (--format otf2 and smpi) loses nothing (TAP;
# support/atomic_dir.h): DIR is the old output or the new one, never a mix,
# never a half-written one, on a full disk (a 200 KiB tmpfs; skipped where
# mount is not allowed) and under INT, TERM and HUP mid-write; what a killed
# run left beside DIR is removed by the next run; both writers follow a
# symbolic link to a directory and refuse the same targets alike.
. "$(dirname "$0")/tap.sh"
C=clusters/counterexample.csv
nodes() { awk -v n="$1" 'BEGIN { print "name,send,recv"; for (i = 0; i < n; i++) printf "n%d,%d,%d\n", i, 1 + i % 20, 2 + i % 20 }'; }
nodes 30 >"$T/n30.csv"
nodes 1000 >"$T/n1k.csv"
nodes 20000 >"$T/n20k.csv"
# sums DIR: every file below DIR with its checksum, one a line
sums() { (cd "$1" && find . -type f | sort | xargs md5sum) 2>&1; }
# beside DIR: what else its parent holds, hidden names too
beside() { ls -A "$(dirname "$1")" | grep -vx "$(basename "$1")"; }

# ---- an old replay is replaced whole ----
"$H" run "$T/n30.csv" --format smpi --output "$T/rep" >/dev/null 2>&1
run "$H" run $C --format smpi --output "$T/rep"
check "smpi over a 30-rank replay: status 0" test "$rc" -eq 0
check "... DIR holds the 3 ranks of the new replay, none of the old" sh -c "[ \$(ls $T/rep | grep -c '^rank-') -eq 3 ] && grep -q -- '-np 3 ' $T/rep/README"

# ---- the same targets, the same answers ----
mkdir "$T/real"
ln -s real "$T/link"
for f in smpi otf2; do
    run "$H" run $C --format $f --output "$T/link"
    check "$f through a symbolic link to a directory: status 0, the link stays a link" sh -c "[ $rc -eq 0 ] && [ -L $T/link ]"
    run "$H" run $C -s optimal --format $f --output "$T/link"
    check "$f: a second write through the link replaces the directory it names" sh -c "[ $rc -eq 0 ] && [ -L $T/link ] && [ -d $T/real ]"
    rm -rf "$T/real" && mkdir "$T/real"
    ln -s nowhere "$T/dangling-$f"
    run "$H" run $C --format $f --output "$T/dangling-$f"
    check "$f onto a dangling link: status 2, refused" sh -c "[ $rc -eq 2 ] && grep -q 'dangling-$f: is a symbolic link to nothing' $T/err && [ ! -e $T/nowhere ]"
    printf 'x\n' >"$T/file-$f"
    run "$H" run $C --format $f --output "$T/file-$f"
    check "$f onto a file: status 2, the file left alone" sh -c "[ $rc -eq 2 ] && grep -q 'file-$f: exists and is not a directory' $T/err && [ \"\$(cat $T/file-$f)\" = x ]"
    mkdir "$T/mine-$f" && echo keep >"$T/mine-$f/notes.txt"
    run "$H" run $C --format $f --output "$T/mine-$f"
    check "$f into a directory of other files: status 2, names the file, untouched" sh -c "[ $rc -eq 2 ] && grep -q 'holds notes.txt, which is not part of an' $T/err && [ \"\$(ls -A $T/mine-$f)\" = notes.txt ]"
done
check "nothing left beside the targets" sh -c "! ls -A $T | grep -q 'hetcast-'"

# ---- a full disk ----
mkdir "$T/full"
if mount -t tmpfs -o size=200k tmpfs "$T/full" 2>/dev/null; then
    trap 'umount "$T/full" 2>/dev/null; rm -rf "$T"' EXIT
    for f in smpi otf2; do
        "$H" run $C --format $f --output "$T/full/$f" >/dev/null 2>&1
        sums "$T/full/$f" >"$T/$f.old"
        run "$H" run "$T/n1k.csv" --format $f --output "$T/full/$f"
        check "$f on a full disk: status 1, says so" sh -c "[ $rc -eq 1 ] && grep -q 'No space left on device' $T/err"
        sums "$T/full/$f" >"$T/$f.now"
        check "$f on a full disk: DIR is the old output, file for file" cmp -s "$T/$f.now" "$T/$f.old"
        check "$f on a full disk: nothing left beside DIR" sh -c "[ -z \"\$(beside $T/full/$f)\" ]"
        rm -rf "$T/full/$f"
        run "$H" run "$T/n1k.csv" --format $f --output "$T/full/$f"
        check "$f on a full disk, a new DIR: status 1, no DIR, nothing beside" sh -c "[ $rc -eq 1 ] && [ ! -e $T/full/$f ] && [ -z \"\$(ls -A $T/full)\" ]"
    done
    umount "$T/full"
else
    for f in smpi otf2; do
        for t in "status 1" "the old output" "nothing beside" "a new DIR"; do
            skip "$f on a full disk: $t" "cannot mount a small tmpfs here (not root, or no mount)"
        done
    done
fi

# ---- signals mid-write: DIR whole, the leftover removed by the next run ----
# The signal is sent once the new directory exists beside DIR; a try where the
# write ended first is made again, 30 times at most.  A background job of sh
# starts with SIGINT ignored: env --default-signal gives it back.
dflt=""
env --default-signal true 2>/dev/null && dflt="env --default-signal"
mkdir "$T/sig"
made() { ls -A "$T/sig" | grep -q "^\.$1\.hetcast-"; }
for f in smpi otf2; do
    big=$T/n20k.csv
    for sig in INT:2 TERM:15 HUP:1; do
        sname=${sig%%:*}
        num=${sig##*:}
        if [ "$sname" = INT ] && [ -z "$dflt" ]; then
            skip "$f: SIGINT mid-write" "no env --default-signal to undo sh's ignored SIGINT"
            skip "$f: SIGINT mid-write: the next run removes the leftover" "as above"
            continue
        fi
        rm -rf "$T/sig" && mkdir "$T/sig"
        "$H" run $C --format $f --output "$T/sig/$f" >/dev/null 2>&1
        sums "$T/sig/$f" >"$T/sig.old"
        hit=no tries=0
        while [ "$hit" = no ] && [ "$tries" -lt 30 ]; do
            tries=$((tries + 1))
            $dflt "$H" run "$big" --format $f --output "$T/sig/$f" >/dev/null 2>&1 &
            pid=$!
            while kill -0 "$pid" 2>/dev/null && ! made $f; do :; done
            made $f && kill -"$sname" "$pid" 2>/dev/null
            { wait "$pid"; } 2>/dev/null
            st=$?
            [ "$st" -eq $((128 + num)) ] && hit=yes
            if [ "$hit" = no ]; then   # it ended first: back to the old output
                rm -rf "$T/sig" && mkdir "$T/sig"
                "$H" run $C --format $f --output "$T/sig/$f" >/dev/null 2>&1
            fi
        done
        echo "# $f SIG$sname: $tries tries"
        sums "$T/sig/$f" >"$T/sig.now"
        check "$f: SIG$sname mid-write: it dies of the signal, DIR the old output, file for file" \
            sh -c "[ $hit = yes ] && cmp -s $T/sig.now $T/sig.old"
        check "$f: SIG$sname mid-write: its new directory is left beside DIR" made $f
        run "$H" run $C -s optimal --format $f --output "$T/sig/$f"
        check "$f: SIG$sname mid-write: the next run writes DIR and removes the leftover" \
            sh -c "[ $rc -eq 0 ] && [ \"\$(ls -A $T/sig)\" = $f ]"
    done
done

done_testing
