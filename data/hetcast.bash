# bash completion for hetcast (installed as share/bash-completion/completions/hetcast).
# Commands, options, and the scheduler, model and format names as the program
# itself lists them (hetcast --help), so the completion never drifts from it; FILE
# operands complete to folders and .csv, .lua and .xml files (a lesson: .lua);
# --format=VALUE completes as --format VALUE does.

_hetcast_list()   # _hetcast_list PROGRAM KEY: the names after "KEY:" in the help
{
    "$1" --help 2>/dev/null | sed -n "s/^$2: *//p" | tr -d ',' | tr ' ' '\n' | grep -v '^$'
}

_hetcast_formats()   # _hetcast_formats PROGRAM: the names in the help's --format line
{                    # ("text (default), csv, ... dot or smpi (interop.md)")
    "$1" --help 2>/dev/null | sed -n 's/^ *--format F *//p' | sed 's/([^)]*)//g; s/ or /, /g' |
        tr -d ',' | tr ' ' '\n' | grep -v '^$'
}

_hetcast_files()   # _hetcast_files WORD [GLOB...]: folders, and files that start with WORD and
{                  # match a GLOB (default: cluster files and scripts, *.csv *.lua *.xml)
    local f g slash=/ word=$1
    shift
    [ $# -gt 0 ] || set -- '*.csv' '*.lua' '*.xml'
    # Under -o filenames readline itself marks a folder with "/" and adds no space after it:
    # a "/" of ours would show as "app//".  Outside a completion (a test), compopt fails.
    compopt -o filenames 2>/dev/null && slash=
    while IFS= read -r f; do
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

_hetcast()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} prog=${COMP_WORDS[0]}
    local cmd=${COMP_WORDS[1]:-}
    COMPREPLY=()
    # --format=js: bash splits the word at "=" (COMP_WORDBREAKS), giving "--format" "=" "js"
    # (or "--format" "=" with the cursor on "="): complete the value after the "="
    if [ "$cur" = "=" ] && [[ $prev == --* ]]; then
        cur=
    elif [ "$prev" = "=" ] && [ "$COMP_CWORD" -ge 2 ]; then
        prev=${COMP_WORDS[COMP_CWORD-2]}
    fi
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
        --seed|--source|--targets|--param|--time-limit|--node-limit|--slices|--lua-budget|--lua-memory|--receivers|--size)
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
        lesson)
            case $cur in
                -*) COMPREPLY=($(compgen -W "--print --help" -- "$cur")) ;;
                *) _hetcast_files "$cur" '*.lua' ;;
            esac
            return ;;
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
