#!/usr/bin/env python3
# gift_check.py - a small parser of Moodle's GIFT format (the grammar of
# docs.moodle.org "GIFT format"), for tests/class.sh and tests/teach_cli.sh:
# reads a GIFT file and prints one line a question, "KIND TITLE: ANSWERS",
# or "error: LINE: why" and exits 1.  Kinds: mc (one =right, ~wrong, each
# #feedback), numerical ({#=N:T}), short (every answer =), essay ({} or
# {####feedback}).  Each block is also classified the way Moodle's importer
# does (qformat_gift::readquestion in question/format/gift/format.php, its
# rules in moodle_qtype below): a question Moodle would read as another type
# (a short answer with "->" beside "=" is a matching question there), and a
# category that keeps one of the importer's placeholders (an escape such as
# \: inside $CATEGORY is never unescaped), are errors.
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


PHP_BLANKS = ' \t\n\r\0\x0b'
PLACEHOLDERS = [('\\:', '&&058;'), ('\\#', '&&035;'), ('\\=', '&&061;'), ('\\{', '&&123;'),
                ('\\}', '&&125;'), ('\\~', '&&126;'), ('\\n', '&&010')]


def escapedchar_pre(s):
    """Moodle's escapedchar_pre: escapes made placeholders (\\\\ first kept apart)."""
    s = s.replace('\\\\', '&&092;')
    for esc, ph in PLACEHOLDERS:
        s = s.replace(esc, ph)
    return s.replace('&&092;', '\\')


def moodle_qtype(lines):
    """The type Moodle's readquestion() gives the block lines, as it decides it:
    (type, category or None).  None for a block it skips."""
    lines = [' ' if l.strip(PHP_BLANKS).startswith('//') else l for l in lines]
    text = '\n'.join(lines).strip(PHP_BLANKS)
    if text == '':
        return None
    text = escapedchar_pre(text)
    if text.startswith('$CATEGORY:'):
        return ('category', text[10:].strip(PHP_BLANKS))
    if text.startswith('::'):
        text = text[2:]
        namefinish = text.find('::')
        if namefinish >= 0:
            text = text[namefinish + 2:].strip(PHP_BLANKS)
    start, finish = text.find('{'), text.find('}')
    if start < 0 and finish < 0:
        return ('description', None)
    if start < 0 or finish < 0:
        return ('brace error', None)
    answertext = text[start + 1:finish].strip(PHP_BLANKS)
    gf = answertext.rfind('####')
    if gf >= 0:
        answertext = answertext[:gf].strip(PHP_BLANKS)
    if answertext == '':
        return ('essay', None)
    if answertext[0] == '#':
        return ('numerical', None)
    if '~' in answertext:
        return ('multichoice', None)
    if '=' in answertext and '->' in answertext:
        return ('match', None)
    check = answertext
    if answertext.find('#') > 0:
        check = answertext[:answertext.find('#')].strip(PHP_BLANKS)
    if check in ('T', 'TRUE', 'F', 'FALSE'):
        return ('truefalse', None)
    return ('shortanswer', None)


MOODLE_TYPE = {'mc': 'multichoice', 'numerical': 'numerical', 'short': 'shortanswer', 'essay': 'essay'}


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


def check_block(block, start):
    """One block between blank lines: its line for the output, or a ValueError."""
    kind = moodle_qtype(block)
    if kind is None:
        return None
    if kind[0] == 'category':
        if '&&' in kind[1]:
            raise ValueError(f'{start}: Moodle keeps a placeholder in the category {kind[1]!r}')
        return None
    own = [l for l in block if not l.startswith('//') and not l.startswith('$CATEGORY:')]
    out = question('\n'.join(own), start)
    want = MOODLE_TYPE[out.split(' ', 1)[0]]
    if kind[0] != want:
        raise ValueError(f'{start}: Moodle reads a {kind[0]} question, not a {want} one: {out}')
    return out


def main():
    lines = open(sys.argv[1], encoding='utf-8').read().split('\n')
    block, start, ok = [], 0, True
    for i, l in enumerate(lines + [''], 1):
        if l.strip(PHP_BLANKS) == '':
            if block:
                try:
                    out = check_block(block, start)
                    if out:
                        print(out)
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
