#!/usr/bin/env python3
"""completions.py - shell completion for hetcast and hetcast-mpi, made at build
time from the programs themselves (meson.build runs it after linking them).

    completions.py OUTDIR HETCAST [HETCAST_MPI]

Every name comes from what the programs print, which their own tables make:
the commands from the refusal of an unknown one (cli.c's commands[]), each
command's options from its --help (opts_help over its option table), the
studies from `hetcast experiment --list`, the schedulers and models from the
lines "schedulers:" and "models:" of `hetcast --help`, the subcommands of
class and hetcast-mpi from their usage lines.  The bundled clusters and lessons
are asked of the installed program when completing (`hetcast run
--list-clusters`, `hetcast lesson --list`), so HETCAST_DATADIR is honoured.

Writes OUTDIR/hetcast.bash (bash-completion, both programs), OUTDIR/_hetcast
(zsh, both programs) and OUTDIR/hetcast.fish; with HETCAST_MPI also
OUTDIR/hetcast-mpi.bash (the same as hetcast.bash: bash-completion loads a
file by the command's name) and OUTDIR/hetcast-mpi.fish.
"""
import os
import re
import subprocess
import sys

OPT_LINE = re.compile(r'^\s+(?:(-[A-Za-z]),\s+)?(--[a-z][a-z0-9-]*)(?:[ =](\S+))?(?:\s{2,}(.*))?$')
SHORT_ONLY = re.compile(r'^\s+(-[A-Za-z])(?: (\S+))?\s{2,}(.*)$')
WORD = re.compile(r'^[a-z0-9][a-z0-9_.-]*$')


def out(prog, *args):
    r = subprocess.run([prog, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       stdin=subprocess.DEVNULL, env=dict(os.environ, NO_COLOR='1'), timeout=60)
    return r.stdout.decode('utf-8', 'replace')


def choices(text):
    """The values an option's help lists: "text (default), csv or json"."""
    text = re.sub(r'\([^)]*\)', '', text)
    if ': ' in text.split(',')[0]:
        text = text.split(': ', 1)[1]
    items = [i.strip() for i in re.split(r',| or ', text)]
    got = []
    for k, item in enumerate(items):
        words = item.split()
        if not words:
            continue
        if len(words) == 1 and WORD.match(words[0]):
            got.append(words[0])
        elif WORD.match(words[0]) and k == len(items) - 1 and len(got) >= 1:
            got.append(words[0])   # "both for a slide": the last of the list
            break
        else:
            break
    return got if len(got) >= 2 else []


def options(helptext):
    """[(names, meta, help)] of the option lines of a --help."""
    opts = []
    for line in helptext.splitlines():
        m = OPT_LINE.match(line)
        if m:
            names = [n for n in (m.group(1), m.group(2)) if n]
            opts.append((names, m.group(3), (m.group(4) or '').strip()))
            continue
        m = SHORT_ONLY.match(line)
        if m:
            opts.append(([m.group(1)], m.group(2), m.group(3).strip()))
    return opts


def value_kind(names, meta, help_, lists):
    """What an option's value completes to: ('words', [...]), ('files', glob),
    ('dirs',) or ('none',)."""
    long = [n for n in names if n.startswith('--')]
    name = long[0][2:] if long else ''
    if name == 'scheduler':
        return ('sched',)
    if name == 'model':
        return ('words', choices(help_) or lists['models'])
    if meta and '|' in meta and all(WORD.match(w) for w in meta.split('|')):
        return ('words', meta.split('|'))
    if meta in ('DIR',) or name in ('out', 'resume'):
        return ('dirs',)
    if name in ('format', 'table', 'pattern', 'svg-parts', 'recv') or meta in ('F', 'FMT', 'P', 'WHICH', 'R'):
        c = choices(help_)
        if c:
            return ('words', c)
    if meta and (meta in ('F', 'FILE', 'ROOM') or '.' in meta or name in ('output', 'trace', 'save-cluster', 'certify-lp')):
        return ('files', '*')
    return ('none',)


def grammar(hetcast, mpi):
    """{context: {'opts': [...], 'vals': {opt: kind}, 'operands': kind}}"""
    top = out(hetcast, '--help')
    lists = {}
    for key in ('schedulers', 'models'):
        m = re.search(r'^%s:\s*(.*)$' % key, top, re.M)
        lists[key] = [w.strip() for w in m.group(1).split(',')] if m else []
    m = re.search(r'the commands are ([a-z, -]+?) \(', out(hetcast, '--no-such-command-'))
    if not m:
        m = re.search(r'the commands are ([a-z, -]+?) \(', out(hetcast, 'no-such-command-x'))
    commands = [w for w in re.split(r', | and ', m.group(1)) if w] if m else []
    ctx = {}

    def add(key, helptext, operands, extra=()):
        opts = options(helptext)
        flat, vals = [], {}
        for names, meta, help_ in opts:
            flat += names
            if meta:
                k = value_kind(names, meta, help_, lists)
                for n in names:
                    vals[n] = k
        flat += ['--help']
        ctx[key] = {'opts': sorted(set(flat + list(extra))), 'vals': vals, 'operands': operands}

    add('hetcast', top, ('clusters', 'commands'), ['--version'])
    for c in commands:
        if c in ('run', 'compare'):
            add('hetcast ' + c, out(hetcast, c, '--help'), ('clusters',))
        elif c in ('lesson', 'practice'):
            add('hetcast ' + c, out(hetcast, c, '--help'), ('lessons',))
        elif c == 'experiment':
            listing = out(hetcast, 'experiment', '--list')
            studies = re.findall(r'^  ([a-z][a-z0-9-]+)  ', listing, re.M)
            ctx['hetcast experiment'] = {'opts': ['--list', '--help'], 'vals': {}, 'operands': ('words', studies)}
            for s in studies:
                h = out(hetcast, 'experiment', s, '--help')
                operands = ('files', '*.csv') if s == 'merge' else ('dirs',) if s == 'optima-check' else ('none',)
                add('hetcast experiment ' + s, h, operands)
        elif c == 'class':
            h = out(hetcast, 'class', '--help')
            subs = sorted(set(re.findall(r'hetcast class ([a-z]+)', h)))
            ctx['hetcast class'] = {'opts': ['--help'], 'vals': {}, 'operands': ('words', subs)}
            for s in subs:
                add('hetcast class ' + s, out(hetcast, 'class', s, '--help'), ('files', '*.db'))
        elif c == 'join':
            add('hetcast join', out(hetcast, 'join', '--help'), ('files', '*'))
        else:
            add('hetcast ' + c, out(hetcast, c, '--help'), ('none',))
    if mpi:
        h = out(mpi, '--help')
        subs = list(dict.fromkeys(re.findall(r'^\s*(?:usage: )?(?:mpirun -n N )?hetcast-mpi ([a-z]+)', h, re.M)))
        ctx['hetcast-mpi'] = {'opts': ['--help', '--version'], 'vals': {}, 'operands': ('words', subs)}
        for s in subs:
            sh = out(mpi, s, '--help')
            if s == 'experiment':
                operands = ('words', [x for x in re.findall(r'\b(fnf-[a-z-]+)', h)])
            elif s == 'exec':
                operands = ('clusters',)
            else:
                operands = ('none',)
            add('hetcast-mpi ' + s, sh, operands)
            if s == 'experiment':
                for st in operands[1]:   # hetcast's study, without --jobs and --resume
                    c = ctx.get('hetcast experiment ' + st)
                    if c:
                        drop = ('--jobs', '--resume')
                        ctx['hetcast-mpi experiment ' + st] = {
                            'opts': [o for o in c['opts'] if o not in drop],
                            'vals': {o: k for o, k in c['vals'].items() if o not in drop},
                            'operands': ('none',)}
    return ctx, lists, commands


def q(words):
    return ' '.join(words)


# ---- bash ----

def bash(ctx, lists, commands):
    L = ['# bash completion for hetcast and hetcast-mpi: made by data/completions.py from',
         '# the programs\' own help when they were built; do not edit.',
         '# Installed as share/bash-completion/completions/hetcast (and hetcast-mpi).',
         '',
         'declare -gA _hetcast_opts=() _hetcast_vals=() _hetcast_args=()']
    for key, c in sorted(ctx.items()):
        L.append('_hetcast_opts[%s]=%s' % (sh_quote(key), sh_quote(q(c['opts']))))
        L.append('_hetcast_args[%s]=%s' % (sh_quote(key), sh_quote(kind_str(c['operands']))))
        for opt, k in sorted(c['vals'].items()):
            L.append('_hetcast_vals[%s]=%s' % (sh_quote(key + ' ' + opt), sh_quote(kind_str(k))))
    L.append('_hetcast_schedulers=%s' % sh_quote(q(lists['schedulers'])))
    L.append('_hetcast_commands=%s' % sh_quote(q(commands)))
    L.append(BASH_LOGIC)
    return '\n'.join(L) + '\n'


def kind_str(k):
    """A value's or operand's completion as one word list: 'words a b', 'files GLOB', ..."""
    if isinstance(k, tuple) and k and k[0] == 'words':
        return 'words ' + q(k[1])
    if isinstance(k, tuple) and k[0] == 'files':
        return 'files ' + k[1]
    if k == ('clusters', 'commands'):
        return 'clusters commands'
    return ' '.join(k)


def sh_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


BASH_LOGIC = r'''
# _hetcast_files WORD GLOB...: folders (not hidden ones unless WORD starts with .)
# and files that start with WORD and match a GLOB
_hetcast_files()
{
    local f g slash=/ word=$1
    shift
    compopt -o filenames 2>/dev/null && slash=
    while IFS= read -r f; do
        case ${f##*/} in .*) [[ ${word##*/} == .* ]] || continue ;; esac
        if [ -d "$f" ]; then
            COMPREPLY+=("$f$slash")
        else
            for g in "$@"; do
                # shellcheck disable=SC2053
                [[ $f == $g ]] && COMPREPLY+=("$f") && break
            done
        fi
    done < <(compgen -f -- "$word")
}

# _hetcast_kind PROG KIND... WORD: the completions of one kind
_hetcast_kind()
{
    local prog=${1%-mpi} kind=$2 word=${!#} names   # hetcast-mpi's clusters: hetcast's
    shift 2
    set -- "${@:1:$#-1}"
    case $kind in
        words) COMPREPLY+=($(compgen -W "$*" -- "$word")) ;;
        sched) COMPREPLY+=($(compgen -W "$_hetcast_schedulers" -- "$word"))
               case $word in */*|*.*) _hetcast_files "$word" '*.lua' ;; esac ;;
        files) _hetcast_files "$word" "${@:-*}" ;;
        dirs) compopt -o filenames 2>/dev/null; COMPREPLY+=($(compgen -d -- "$word")) ;;
        clusters)
            names=$("$prog" run --list-clusters 2>/dev/null | awk '/^  / {print $1}')
            COMPREPLY+=($(compgen -W "$names" -- "$word"))
            [ "${1:-}" = commands ] && COMPREPLY+=($(compgen -W "$_hetcast_commands" -- "$word"))
            _hetcast_files "$word" '*.csv' '*.lua' '*.xml' ;;
        lessons)
            names=$("$prog" lesson --list 2>/dev/null | awk '/^  [^ ]+\.lua / {sub(/\.lua$/, "", $1); print $1}')
            COMPREPLY+=($(compgen -W "$names" -- "$word"))
            _hetcast_files "$word" '*.lua' ;;
    esac
}

_hetcast()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local prog=${COMP_WORDS[0]} key i w nargs=0 spec
    COMPREPLY=()
    # --format=js: bash splits the word at "=" (COMP_WORDBREAKS)
    if [ "$cur" = "=" ] && [[ $prev == --* ]]; then
        cur=
    elif [ "$prev" = "=" ] && [ "$COMP_CWORD" -ge 2 ]; then
        prev=${COMP_WORDS[COMP_CWORD-2]}
    fi
    # the context: the program, then the words that name a command, a study, a subcommand
    key=${prog##*/}
    for ((i = 1; i < COMP_CWORD; i++)); do
        w=${COMP_WORDS[i]}
        case $w in -*|=) continue ;; esac
        if [ -n "${_hetcast_opts[$key $w]+set}" ] && [ "$nargs" -eq 0 ]; then
            key="$key $w"
        elif [ -n "${_hetcast_vals[$key ${COMP_WORDS[i-1]}]+set}" ] ||
             { [ "${COMP_WORDS[i-1]}" = "=" ] && [ -n "${_hetcast_vals[$key ${COMP_WORDS[i-2]}]+set}" ]; }; then
            continue   # an option's value
        else
            nargs=$((nargs + 1))
        fi
    done
    local -a sp   # a spec split into words, without globbing its "*"
    spec=${_hetcast_vals[$key $prev]-}
    if [ -n "$spec" ]; then
        read -ra sp <<<"$spec"
        [ "$spec" = none ] || _hetcast_kind "$prog" "${sp[@]}" "$cur"
        return
    fi
    case $cur in
        -*) COMPREPLY=($(compgen -W "${_hetcast_opts[$key]-}" -- "$cur")); return ;;
    esac
    spec=${_hetcast_args[$key]-}
    case $spec in words*) [ "$nargs" -eq 0 ] || return ;; esac
    read -ra sp <<<"$spec"
    [ -z "$spec" ] || [ "$spec" = none ] || _hetcast_kind "$prog" "${sp[@]}" "$cur"
}
complete -F _hetcast hetcast hetcast-mpi
'''


# ---- zsh ----

def zsh(ctx, lists, commands):
    L = ['#compdef hetcast hetcast-mpi',
         '# zsh completion for hetcast and hetcast-mpi: made by data/completions.py from',
         '# the programs\' own help when they were built; do not edit.',
         '',
         'typeset -gA _hetcast_opts _hetcast_vals _hetcast_args']
    # zsh keeps quotes in a subscript (a['x y']=1 has the key 'x y' with its quotes): pairs
    for name, pairs in (('_hetcast_opts', [(k, q(c['opts'])) for k, c in sorted(ctx.items())]),
                        ('_hetcast_args', [(k, kind_str(c['operands'])) for k, c in sorted(ctx.items())]),
                        ('_hetcast_vals', [(k + ' ' + o, kind_str(v)) for k, c in sorted(ctx.items())
                                           for o, v in sorted(c['vals'].items())])):
        L.append('%s=(' % name)
        L += ['    %s %s' % (sh_quote(a), sh_quote(b)) for a, b in pairs]
        L.append(')')
    L.append('typeset -g _hetcast_schedulers=%s' % sh_quote(q(lists['schedulers'])))
    L.append('typeset -g _hetcast_commands=%s' % sh_quote(q(commands)))
    L.append(ZSH_LOGIC)
    return '\n'.join(L) + '\n'


ZSH_LOGIC = r'''
# _hetcast_kind KIND ARGS...: the completions of one kind
_hetcast_kind() {
    local prog=${words[1]%-mpi} kind=$1; shift
    local -a names
    case $kind in
        words) compadd -a -- argv ;;
        sched) names=(${=_hetcast_schedulers}); compadd -a names
               _files -g '*.lua(-.)' ;;
        files) if [[ ${1:-*} == '*' ]]; then _files; else _files -g "$1(-.)"; fi ;;
        dirs) _files -/ ;;
        clusters)
            names=(${(f)"$($~prog run --list-clusters 2>/dev/null | awk '/^  / {print $1}')"})
            compadd -a names
            [[ ${1:-} == commands ]] && { names=(${=_hetcast_commands}); compadd -a names; }
            _files -g '*.(csv|lua|xml)(-.)' ;;
        lessons)
            names=(${(f)"$($~prog lesson --list 2>/dev/null | awk '/^  [^ ]+\.lua / {sub(/\.lua$/, "", $1); print $1}')"})
            compadd -a names
            _files -g '*.lua(-.)' ;;
    esac
}

_hetcast() {
    local prog=${words[1]:t} key=${words[1]:t} cur=${words[CURRENT]} prev=${words[CURRENT-1]}
    local i w k nargs=0 spec
    for ((i = 2; i < CURRENT; i++)); do
        w=${words[i]}
        [[ $w == -* ]] && continue
        k="$key $w"
        if (( nargs == 0 )) && (( ${+_hetcast_opts[$k]} )); then
            key=$k
            continue
        fi
        k="$key ${words[i-1]}"
        (( ${+_hetcast_vals[$k]} )) || (( nargs++ ))   # else an option's value
    done
    if [[ $cur == --*=* ]]; then   # --format=js
        prev=${cur%%=*}; compset -P '*='; cur=${cur#*=}
    fi
    k="$key $prev"
    spec=${_hetcast_vals[$k]-}
    if [[ -n $spec ]]; then
        [[ $spec == none ]] || _hetcast_kind ${=spec}
        return
    fi
    if [[ $cur == -* ]]; then
        local -a o; o=(${=_hetcast_opts[$key]}); compadd -a o
        return
    fi
    spec=${_hetcast_args[$key]-}
    [[ $spec == words* ]] && (( nargs > 0 )) && return
    [[ -z $spec || $spec == none ]] || _hetcast_kind ${=spec}
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
    _hetcast "$@"
else
    compdef _hetcast hetcast hetcast-mpi
fi
'''


# ---- fish ----

def fish(ctx, lists, commands, prog):
    L = ['# fish completion for %s: made by data/completions.py from the programs\'' % prog,
         '# own help when they were built; do not edit.',
         '']
    L.append('complete -c %s -e' % prog)
    L.append('complete -c %s -f -a "(__%s_complete)"' % (prog, prog.replace('-', '_')))
    fn = '__%s_complete' % prog.replace('-', '_')
    L.append('function %s' % fn)
    L.append('    set -l words (commandline -opc)')
    set_cur = "    set -l cur (commandline -ct)\n    test (count $cur) -eq 1; or set cur ''"
    L.append(set_cur)
    L.append('    set -l key %s' % prog)
    L.append('    set -l nargs 0')
    L.append('    set -l prev $words[-1]')
    # the tables as fish switch statements
    L.append('    for i in (seq 2 (count $words))')
    L.append('        set -l w $words[$i]')
    L.append('        string match -q -- "-*" $w; and continue')
    L.append('        set -l j (math $i - 1)')
    L.append('        if test $nargs -eq 0; and contains -- "$key $w" ' + q(fish_quote(k) for k in sorted(ctx)))
    L.append('            set key "$key $w"')
    L.append('        else if contains -- "$key $words[$j]" ' + q(fish_quote(k + ' ' + o) for k, c in sorted(ctx.items()) for o in sorted(c['vals'])))
    L.append('            continue')
    L.append('        else')
    L.append('            set nargs (math $nargs + 1)')
    L.append('        end')
    L.append('    end')
    L.append('    if string match -q -- "--*=*" $cur')
    L.append('        set prev (string split -m1 = -- $cur)[1]')
    L.append('        set cur (string split -m1 = -- $cur)[2]')
    L.append('        set -g __hetcast_prefix "$prev="')
    L.append('    else')
    L.append('        set -g __hetcast_prefix ""')
    L.append('    end')
    L.append('    switch "$key $prev"')
    for key, c in sorted(ctx.items()):
        for opt, k in sorted(c['vals'].items()):
            L.append('        case %s' % fish_quote(key + ' ' + opt))
            L.append('            __hetcast_kind %s "$cur"; return' % fish_words(kind_str(k)))
    L.append('    end')
    L.append('    if string match -q -- "-*" $cur')
    L.append('        switch $key')
    for key, c in sorted(ctx.items()):
        L.append('            case %s' % fish_quote(key))
        L.append('                printf "%%s\\n" %s' % q(fish_quote(o) for o in c['opts']))
    L.append('        end')
    L.append('        return')
    L.append('    end')
    L.append('    switch $key')
    for key, c in sorted(ctx.items()):
        k = kind_str(c['operands'])
        L.append('        case %s' % fish_quote(key))
        if k.startswith('words'):
            L.append('            test $nargs -eq 0; and __hetcast_kind %s "$cur"' % fish_words(k))
        elif k != 'none':
            L.append('            __hetcast_kind %s "$cur"' % fish_words(k))
    L.append('    end')
    L.append('end')
    L.append(FISH_LOGIC % {'scheds': q(lists['schedulers']), 'cmds': q(commands)})
    return '\n'.join(L) + '\n'


def fish_words(s):
    return ' '.join(fish_quote(w) for w in s.split())


def fish_quote(s):
    return "'" + s.replace('\\', '\\\\').replace("'", "\\'") + "'"


FISH_LOGIC = r'''
# __hetcast_kind KIND ARGS... CUR: the completions of one kind
function __hetcast_files --argument-names cur
    set -l globs $argv[2..-1]
    for f in (__fish_complete_path "$cur" | string replace -r '\t.*' '')
        set -l base (basename -- $f)
        if string match -q -- ".*" $base; and not string match -q -- ".*" (basename -- "$cur.")
            continue
        end
        if test -d $f
            echo $f
        else
            for g in $globs
                string match -q -- $g $f; and echo $f; and break
            end
        end
    end
end

function __hetcast_kind
    set -l kind $argv[1]
    set -l cur $argv[-1]
    set -l args $argv[2..-2]
    switch $kind
        case words
            printf "$__hetcast_prefix%%s\n" $args
        case sched
            printf "$__hetcast_prefix%%s\n" %(scheds)s
            __hetcast_files "$cur" '*.lua'
        case files
            test (count $args) -gt 0; or set args '*'
            __hetcast_files "$cur" $args
        case dirs
            __fish_complete_directories "$cur"
        case clusters
            set -l prog (string replace -r -- '-mpi$' '' (commandline -opc)[1])
            command -q $prog; and $prog run --list-clusters 2>/dev/null | string replace -rf '^  (\S+).*' '$1'
            contains -- commands $args; and printf "%%s\n" %(cmds)s
            __hetcast_files "$cur" '*.csv' '*.lua' '*.xml'
        case lessons
            set -l prog (commandline -opc)[1]
            command -q $prog; and $prog lesson --list 2>/dev/null | string replace -rf '^  (\S+)\.lua .*' '$1'
            __hetcast_files "$cur" '*.lua'
    end
end
'''


def main():
    if len(sys.argv) < 3:
        sys.exit('usage: completions.py OUTDIR HETCAST [HETCAST_MPI]')
    outdir, hetcast = sys.argv[1], os.path.abspath(sys.argv[2])
    mpi = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3] else None
    ctx, lists, commands = grammar(hetcast, mpi)
    if not commands or not lists['schedulers'] or 'hetcast run' not in ctx:
        sys.exit('completions.py: %s did not list its commands, schedulers or options' % hetcast)
    files = {'hetcast.bash': bash(ctx, lists, commands), '_hetcast': zsh(ctx, lists, commands),
             'hetcast.fish': fish({k: v for k, v in ctx.items() if not k.startswith('hetcast-mpi')},
                                  lists, commands, 'hetcast')}
    if mpi:   # bash-completion loads a file by the command's name: the same one again
        files['hetcast-mpi.bash'] = files['hetcast.bash']
        files['hetcast-mpi.fish'] = fish({k: v for k, v in ctx.items() if k.startswith('hetcast-mpi')},
                                         lists, commands, 'hetcast-mpi')
    for name, text in files.items():
        tmp = os.path.join(outdir, name + '.tmp')
        with open(tmp, 'w') as f:
            f.write(text)
        os.replace(tmp, os.path.join(outdir, name))


if __name__ == '__main__':
    main()
