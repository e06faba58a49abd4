# bash completion for hetcast (installed as share/bash-completion/completions/hetcast).
# Commands, options, and the scheduler, model and format names as the program
# itself lists them (hetcast --help), so the completion never drifts from it; FILE
# operands complete to folders and .csv, .lua and .xml files.

_hetcast_list()   # _hetcast_list PROGRAM KEY: the names after "KEY:" in the help
{
    "$1" --help 2>/dev/null | sed -n "s/^$2: *//p" | tr -d ',' | tr ' ' '\n' | grep -v '^$'
}

_hetcast_formats()   # _hetcast_formats PROGRAM: the names in the help's --format line
{                    # ("text (default), csv, ... dot or smpi (interop.md)")
    "$1" --help 2>/dev/null | sed -n 's/^ *--format F *//p' | sed 's/([^)]*)//g; s/ or /, /g' |
        tr -d ',' | tr ' ' '\n' | grep -v '^$'
}

_hetcast_files()   # folders and cluster or script files that start with $1
{
    local f
    compopt -o filenames 2>/dev/null
    while IFS= read -r f; do
        if [ -d "$f" ]; then
            COMPREPLY+=("$f/")
        else
            case $f in *.csv|*.lua|*.xml) COMPREPLY+=("$f") ;; esac
        fi
    done < <(compgen -f -- "$1")
    [ ${#COMPREPLY[@]} -eq 1 ] && [ -d "${COMPREPLY[0]%/}" ] && compopt -o nospace 2>/dev/null
}

_hetcast()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} prog=${COMP_WORDS[0]}
    local cmd=${COMP_WORDS[1]:-}
    COMPREPLY=()
    case $prev in
        -s|--scheduler)
            COMPREPLY=($(compgen -W "$(_hetcast_list "$prog" schedulers)" -- "$cur"))
            case $cur in */*|*.*) _hetcast_files "$cur" ;; esac
            return ;;
        -m|--model)
            COMPREPLY=($(compgen -W "$(_hetcast_list "$prog" models)" -- "$cur")); return ;;
        --format)
            COMPREPLY=($(compgen -W "$(_hetcast_formats "$prog")" -- "$cur")); return ;;
        --output)
            compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --pattern)
            COMPREPLY=($(compgen -W "all-to-all all-to-some" -- "$cur")); return ;;
        --trace)
            _hetcast_files "$cur"; return ;;
        --save-cluster)
            compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --seed|--source|--param|--time-limit|--node-limit|--slices|--lua-budget|--lua-memory|--receivers|--size)
            return ;;
    esac
    if [ "$COMP_CWORD" -eq 1 ]; then
        case $cur in
            -*) COMPREPLY=($(compgen -W "--help --version" -- "$cur")) ;;
            *) COMPREPLY=($(compgen -W "run compare experiment bench lesson join class" -- "$cur"))
               _hetcast_files "$cur" ;;
        esac
        return
    fi
    case $cmd in
        experiment)
            if [ "$COMP_CWORD" -eq 2 ]; then
                COMPREPLY=($(compgen -W "$("$prog" experiment --list 2>/dev/null | sed -n 's/^  \([a-z-]*\) .*/\1/p') --list" -- "$cur"))
            fi
            return ;;
        bench)
            COMPREPLY=($(compgen -W "--quick --only --max-nodes --repeat --classes --full --seed --help" -- "$cur"))
            return ;;
    esac
    case $cur in
        -*) COMPREPLY=($(compgen -W "$("$prog" --help 2>/dev/null | sed -n 's/^ *\(-[a-z], \)\{0,1\}\(--[a-z-]*\).*/\2/p') -s -m" -- "$cur")) ;;
        *) _hetcast_files "$cur" ;;
    esac
}
complete -F _hetcast hetcast
