#!/usr/bin/env python3
# gift_check.py - a small parser of Moodle's GIFT format (the grammar of
# docs.moodle.org "GIFT format"), for tests/class.sh: reads a GIFT file and
# prints one line a question, "KIND TITLE: ANSWERS", or "error: LINE: why"
# and exits 1.  Kinds: mc (one =right, ~wrong, each #feedback), numerical
# ({#=N:T}), short (every answer =), essay ({} or {####feedback}).
import re
import sys

SPECIAL = set('~=#{}:')


def text(s, where):
    """The GIFT text s unescaped; an unescaped special character is an error."""
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c == '\\':
            if i + 1 >= len(s) or s[i + 1] not in SPECIAL | {'\\', 'n'}:
                raise ValueError(f'{where}: a lone backslash')
            out.append(s[i + 1])
            i += 2
            continue
        if c in SPECIAL:
            raise ValueError(f'{where}: unescaped {c!r} in {s!r}')
        out.append(c)
        i += 1
    return ''.join(out)


def split_unescaped(s, ch):
    parts, cur, i = [], '', 0
    while i < len(s):
        if s[i] == '\\' and i + 1 < len(s):
            cur += s[i:i + 2]
            i += 2
            continue
        if s[i] == ch:
            parts.append(cur)
            cur = ''
        else:
            cur += s[i]
        i += 1
    parts.append(cur)
    return parts


def find_unescaped(s, ch, start=0):
    i = start
    while i < len(s):
        if s[i] == '\\':
            i += 2
            continue
        if s[i] == ch:
            return i
        i += 1
    return -1


def question(block, line):
    if not block.startswith('::'):
        raise ValueError(f'{line}: a question starts with ::TITLE::')
    end = find_unescaped(block, ':', 2)
    if end < 0 or block[end:end + 2] != '::':
        raise ValueError(f'{line}: the title is not closed with ::')
    title = text(block[2:end], line)
    rest = block[end + 2:]
    ob = find_unescaped(rest, '{')
    cb = find_unescaped(rest, '}')
    if ob < 0 or cb < ob or rest[cb + 1:].strip():
        raise ValueError(f'{line}: the answers are not one {{...}} at the end')
    qtext = text(rest[:ob].strip(), line)
    if not qtext:
        raise ValueError(f'{line}: no question text')
    body = rest[ob + 1:cb].strip()
    if body == '':
        return f'essay {title}: '
    if body.startswith('####'):
        return f'essay {title}: {text(body[4:], line)}'
    if body.startswith('#'):
        m = re.fullmatch(r'#\s*=?([-+0-9.eE]+):([0-9.eE]+)(#.*)?', body.replace('\n', '').replace('\t', ''))
        if not m:
            raise ValueError(f'{line}: a numerical answer is #=VALUE:TOLERANCE, got {body!r}')
        float(m.group(1)), float(m.group(2))
        if m.group(3):
            text(m.group(3)[1:], line)
        return f'numerical {title}: {m.group(1)}:{m.group(2)}'
    answers = []
    for a in body.split('\n'):
        a = a.strip()
        if not a:
            continue
        if a[0] not in '=~':
            raise ValueError(f'{line}: an answer starts with = or ~: {a!r}')
        parts = split_unescaped(a[1:], '#')
        if len(parts) > 2:
            raise ValueError(f'{line}: more than one # in {a!r}')
        ans = text(parts[0], line)
        if len(parts) == 2:
            text(parts[1], line)
        answers.append((a[0], ans))
    right = [x for k, x in answers if k == '=']
    if any(k == '~' for k, _ in answers):
        if len(right) != 1:
            raise ValueError(f'{line}: a multiple-choice question has one = answer, not {len(right)}')
        return f'mc {title}: ' + ' | '.join(('*' if k == '=' else '') + x for k, x in answers)
    if not right:
        raise ValueError(f'{line}: no answer')
    return f'short {title}: ' + ' | '.join(right)


def main():
    lines = open(sys.argv[1], encoding='utf-8').read().split('\n')
    block, start, ok = [], 0, True
    for i, l in enumerate(lines + [''], 1):
        if l.startswith('//') or l.startswith('$CATEGORY:'):
            continue
        if l.strip() == '':
            if block:
                try:
                    print(question('\n'.join(block), start))
                except ValueError as e:
                    print(f'error: {e}')
                    ok = False
                block = []
            continue
        if not block:
            start = i
        block.append(l)
    return 0 if ok else 1


sys.exit(main())
