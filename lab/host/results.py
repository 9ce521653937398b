#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn what a lab VM left behind into result lines.

  results.py ktap LOG...      KUnit KTAP output in a kernel log -> one line
                              per case: PASS/FAIL/SKIP kunit/<suite>/<case>
  results.py reports [--since-jiffies J] [--modules MAP KODIR] LOG...
                              kernel reports (KASAN, lockdep, kmemleak,
                              WARN, BUG, Oops) -> one line per kind

Only the part of a log after the line "lab: plan start" is read, when there
is one, so that the boot's own messages are not blamed on the tests.
Exit status 1 when anything failed or was reported.
"""
import glob
import os
import re
import subprocess
import sys

TIMESTAMP = re.compile(r'^(?:<\d+>)?\[\s*\d+\.\d+\]\s?')
RESULT = re.compile(r'^(?P<ind>\s*)(?P<ok>ok|not ok) (?P<num>\d+)(?: -)? ?(?P<name>.*?)'
                    r'(?:\s+#\s*(?P<dir>SKIP|TODO)\b\s*(?P<why>.*))?$')
SUBTEST = re.compile(r'^(?P<ind>\s*)# Subtest: (?P<name>.*)$')
STATS = re.compile(r'^(KTAP version|# (Totals|\S+): pass:\d+)')
PLAN = re.compile(r'^(?P<ind>\s*)1\.\.(?P<n>\d+)$')


def read(paths):
    """The kernel log lines of the first readable path, timestamps removed."""
    for path in paths:
        try:
            with open(path, errors='replace') as f:
                lines = [TIMESTAMP.sub('', line.rstrip('\r\n')) for line in f]
        except OSError:
            continue
        for i in range(len(lines) - 1, -1, -1):
            if 'lab: plan start' in lines[i]:
                return lines[i + 1:]
        return lines
    return None


def indent(s):
    return len(s.expandtabs(8))


class Node:
    def __init__(self, name, depth):
        self.name = name
        self.depth = depth
        self.children = []
        self.planned = None
        self.status = None      # 'PASS', 'FAIL', 'SKIP' once its result line came
        self.why = ''
        self.diag = []          # the lines the case printed before its result


def parse_ktap(lines):
    """The suites in a kernel log, as trees of Nodes."""
    suites = []
    open_at = {}    # indentation -> the subtest opened there
    diag = []       # lines since the last result: a failing case's story
    for line in lines:
        m = SUBTEST.match(line)
        if m:
            d = indent(m['ind'])
            node = Node(m['name'].strip(), d)
            parent = max((k for k in open_at if k < d), default=None)
            if parent is None:
                suites.append(node)
            else:
                open_at[parent].children.append(node)
            for k in [k for k in open_at if k >= d]:
                del open_at[k]
            open_at[d] = node
            continue
        m = PLAN.match(line)
        if m and indent(m['ind']) in open_at:
            open_at[indent(m['ind'])].planned = int(m['n'])
            continue
        m = RESULT.match(line)
        if not m:
            if line.strip() and not STATS.match(line.strip()):
                diag = (diag + [line.strip()])[-8:]
            continue
        d = indent(m['ind'])
        name = m['name'].strip()
        status = 'PASS' if m['ok'] == 'ok' else 'FAIL'
        if m['dir'] == 'SKIP':
            status = 'SKIP'
        deeper = open_at.get(d + 4) or open_at.get(d + 8)
        if deeper is not None and deeper.name == name:
            # The result of a subtest whose lines we saw: it closes it.
            deeper.status, deeper.why = status, (m['why'] or '').strip()
            for k in [k for k in open_at if k > d]:
                del open_at[k]
            continue
        if d in open_at:
            leaf = Node(name, d)
            leaf.status, leaf.why = status, (m['why'] or '').strip()
            if status == 'FAIL':
                leaf.diag = diag
            open_at[d].children.append(leaf)
        diag = []
    return suites


def emit(node, path, out):
    """Result lines of node's leaves; a container that failed without a
    failing child, or that ran fewer children than planned, fails itself."""
    full = f'{path}/{node.name}' if path else node.name
    if not node.children:
        if node.status is None:
            out.append(('FAIL', full, 'no result (crashed or hung?)'))
        else:
            out.append((node.status, full, node.why))
            out.extend(('', f'    {line}', '') for line in node.diag)
        return
    before = len(out)
    for child in node.children:
        emit(child, full, out)
    failed = any(r[0] == 'FAIL' for r in out[before:])
    if node.status is None:
        out.append(('FAIL', full, 'did not finish (crashed or hung?)'))
    elif node.planned is not None and len(node.children) < node.planned:
        out.append(('FAIL', full, f'only {len(node.children)} of {node.planned} cases ran'))
    elif node.status == 'FAIL' and not failed:
        out.append(('FAIL', full, 'failed outside its cases (init/exit)'))


def ktap_results(lines):
    """Per suite in lines: (suite name, [(status, name, why)]), where a
    status '' marks a diagnostic line of the failing case before it."""
    results = []
    for suite in parse_ktap(lines):
        out = []
        emit(suite, 'kunit', out)
        results.append((suite.name, out))
    return results


def cmd_ktap(paths):
    lines = read(paths)
    if lines is None:
        print('FAIL kunit (no kernel log)')
        return 1
    suites = ktap_results(lines)
    rc = 0
    for suite, out in suites:
        counts = {'PASS': 0, 'FAIL': 0, 'SKIP': 0}
        for status, name, why in out:
            if not status:
                print(name)
                continue
            counts[status] += 1
            print(f'{status} {name}' + (f' ({why})' if why else ''))
        print(f'# suite {suite}: {counts["PASS"]} passed, {counts["FAIL"]} failed, '
              f'{counts["SKIP"]} skipped')
        if counts['FAIL']:
            rc = 1
    if not suites:
        print('FAIL kunit (no KUnit output in the kernel log)')
        rc = 1
    return rc


# kind -> pattern of the first line of a report
REPORTS = [
    ('kasan', re.compile(r'BUG: KASAN|KASAN: ')),
    ('lockdep', re.compile(r'possible (circular|recursive) locking|inconsistent lock state|'
                           r'suspicious RCU usage|lock held when returning|'
                           r'bad unlock balance|held lock freed|INFO: trying to register non-static key')),
    ('kmemleak', re.compile(r'unreferenced object 0x')),
    ('warn', re.compile(r'WARNING: CPU: \d+ PID: |------------\[ cut here \]')),
    ('bug', re.compile(r'BUG: (?!KASAN)|kernel BUG at|Oops|general protection fault|'
                       r'Kernel panic|UBSAN: |ODEBUG: |list_(add|del) corruption|'
                       r'refcount_t: |INFO: task .* blocked for more than')),
]


LEAK_AGE = re.compile(r'^\s*comm ".*", pid \d+, jiffies (\d+)')
LEAK_SUMMARY = re.compile(r'kmemleak: \d+ new suspected memory leaks')


def drop_old_leaks(lines, since):
    """lines without the kmemleak objects allocated before jiffies since."""
    out, skip = [], False
    for i, line in enumerate(lines):
        if line.startswith('unreferenced object 0x'):
            m = LEAK_AGE.match(lines[i + 1]) if i + 1 < len(lines) else None
            skip = bool(m) and int(m[1]) < since
        elif not line.startswith(' '):
            skip = False
        if not skip:
            out.append(line)
    return out


RAW_FRAME = re.compile(r'\] (0xffffffff[0-9a-f]+)$')


def module_namer(modmap, kodir):
    """A function naming a raw address inside a module that /proc/modules
    (snapshots in modmap) placed there, as module:function+offset, from the
    .ko's own symbols (its .text comes first in the module's memory)."""
    spans = []
    try:
        with open(modmap) as f:
            for line in f:
                cols = line.split()
                if len(cols) >= 6 and cols[5].startswith('0x') and int(cols[5], 16):
                    spans.append((cols[0], int(cols[5], 16), int(cols[1])))
    except OSError:
        return lambda addr: None
    syms = {}

    def text_symbols(mod):
        if mod not in syms:
            syms[mod] = []
            kos = glob.glob(os.path.join(kodir, '**', mod + '.ko'), recursive=True) if kodir else []
            if kos:
                nm = subprocess.run(['nm', '-f', 'sysv', '--defined-only', kos[0]],
                                    capture_output=True, text=True).stdout
                for line in nm.splitlines():
                    cols = [c.strip() for c in line.split('|')]
                    if len(cols) == 7 and cols[6] == '.text' and cols[2] in 'tT':
                        syms[mod].append((int(cols[1], 16), cols[0]))
                syms[mod].sort()
        return syms[mod]

    def name(addr):
        found = set()
        for mod, base, size in spans:
            if base <= addr < base + size:
                off = addr - base
                fn = [s for s in text_symbols(mod) if s[0] <= off]
                found.add(f'{mod}:{fn[-1][1]}+{off - fn[-1][0]:#x}' if fn else f'{mod}+{off:#x}')
        return ' or '.join(sorted(found)) or None
    return name


def report_log(paths, since=None, namer=None):
    """The lines of the logs in paths that reports are looked for in: only
    kmemleak objects allocated from jiffies since on, module frames named
    by namer, kmemleak's summary line standing for its list when no list
    (a kmemleak.txt) is among paths."""
    lines = []
    leak_list = False
    for path in paths:
        got = read([path])
        if got:
            if since is not None and any(line.startswith('unreferenced object') for line in got):
                got = drop_old_leaks(got, since)
            leak_list = leak_list or path.endswith('kmemleak.txt')
            lines.extend(got)
    if not leak_list:
        lines = [('unreferenced object 0x (' + line + ')') if LEAK_SUMMARY.search(line) else line
                 for line in lines]
    if namer:
        for i, line in enumerate(lines):
            m = RAW_FRAME.search(line)
            where = namer(int(m[1], 16)) if m else None
            if where:
                lines[i] = f'{line} ({where})'
    return lines


def find_reports(lines):
    """{kind: [index of the first line of each distinct report]} for the
    kinds of REPORTS found in lines."""
    found = {}
    for kind, pat in REPORTS:
        hits = [i for i, line in enumerate(lines) if pat.search(line)]
        # Lockdep's header is a WARNING line too: count it once, as lockdep.
        if kind == 'warn':
            hits = [i for i in hits if not any(p.search(lines[j]) for j in range(i, min(i + 3, len(lines)))
                                               for k, p in REPORTS if k == 'lockdep')]
        seen, firsts = set(), []
        for i in hits:
            if lines[i] not in seen:
                seen.add(lines[i])
                firsts.append(i)
        if firsts:
            found[kind] = firsts
    return found


def cmd_reports(paths):
    since = None
    namer = None
    while paths and paths[0].startswith('--'):
        if paths[0] == '--since-jiffies':
            since, paths = int(paths[1]), paths[2:]
        elif paths[0] == '--modules':
            namer, paths = module_namer(paths[1], paths[2]), paths[3:]
        else:
            print(f'unknown option {paths[0]}', file=sys.stderr)
            return 2
    lines = report_log(paths, since, namer)
    found = find_reports(lines)
    rc = 0
    for kind, _ in REPORTS:
        firsts = found.get(kind)
        if firsts:
            rc = 1
            print(f'FAIL report/{kind} ({len(firsts)} report(s))')
            for i in firsts[:3]:
                for line in lines[max(0, i - 1):i + 12]:
                    print(f'    {line}')
                print('    ...')
        else:
            print(f'PASS report/{kind}')
    return rc


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ('ktap', 'reports'):
        print(__doc__, file=sys.stderr)
        return 2
    if sys.argv[1] == 'ktap':
        return cmd_ktap(sys.argv[2:])
    return cmd_reports(sys.argv[2:])


if __name__ == '__main__':
    sys.exit(main())
