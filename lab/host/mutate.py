#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Mutation testing of the KUnit suites: the list, the mutants, the verdicts.

  mutate.py check LIST [--tree DIR]
      parse LIST and find every entry's function and text under DIR/core/,
      DIR/uverbs/ or DIR/hw/ (default: the clone); one line per entry, exit status
      1 if any is stale
  mutate.py build LIST --tree DIR --state DIR --make CMD...
      for each entry: apply it to the mirror DIR (a build directory), run
      CMD (an incremental build), keep the module it changed (MODULES:
      ib_core, ib_cm, iw_cm, rdma_cm or ib_uverbs) as <state>/data/<id>.ko
      (with <id>.module naming it when it is not ib_core), restore the
      source; writes <state>/data/mutants (the guest's list) and
      <state>/mutants.json
  mutate.py judge --state DIR [--exclude CASE]... [--id ID] [--min-rate N]
      the verdict of one mutant (--id), or of all and the summary

The list format is in Documentation/mutation.rst.  lab/host/mutate.sh runs
the whole thing.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results  # noqa: E402  (lab/host/results.py: KTAP and kernel reports)

# The suite modules that test each part of core/: the longest prefix of the
# mutated file's path wins; an entry's own "suites" line overrides it.
# core/main.c brings up everything, so all of them.  kunit/ mirrors core/,
# so this is one line per folder, but for two files tested from elsewhere.
_ALL = ['rdma_kunit_device', 'rdma_kunit_verbs', 'rdma_kunit_datapath',
        'rdma_kunit_nl', 'rdma_kunit_mad']
SUITES = [
    ('core/device/', ['rdma_kunit_device']),
    ('core/netdev/', ['rdma_kunit_device']),
    # RoCE MACs are resolved for user AHs and QPs: the verbs suites see it.
    ('core/netdev/neigh.c', ['rdma_kunit_device', 'rdma_kunit_verbs']),
    ('core/verbs/', ['rdma_kunit_verbs']),
    # The block iterator's suite walks umems: it lives in rdma_kunit_uverbs.
    ('core/verbs/block_iter.c', ['rdma_kunit_verbs', 'rdma_kunit_uverbs']),
    ('core/datapath/', ['rdma_kunit_datapath']),
    ('core/nl/', ['rdma_kunit_nl']),
    ('core/restrack/', ['rdma_kunit_nl']),
    ('core/counters/', ['rdma_kunit_nl']),
    # The MAD layer and the wire formats: rdma_kunit_mad.
    ('core/mad/', ['rdma_kunit_mad']),
    ('core/wire/', ['rdma_kunit_mad']),
    # The SA client: rdma_kunit_sa.
    ('core/sa/', ['rdma_kunit_sa']),
    ('core/main.c', _ALL),
    # The connection managers, modules of their own, each with its suite.
    ('core/cm/', ['rdma_kunit_cm']),
    ('core/iwcm/', ['rdma_kunit_iwcm']),
    ('core/cma/', ['rdma_kunit_cma']),
    # ib_uverbs: its suites are all in one module.
    ('uverbs/', ['rdma_kunit_uverbs']),
    # hw/rxe: its stateless files are built into the suite module itself.
    ('hw/rxe/', ['rdma_kunit_rxe']),
]

# The folders mutations apply to and the module each one builds (its path
# in the build tree); the longest prefix of the mutated file's path wins.
# None: a module no KUnit suite tests (rdma_ucm and ib_umad are tested by
# the VM scenarios only), so its files cannot be mutated.
ROOTS = ('core/', 'uverbs/', 'hw/')
MODULES = [
    ('core/', 'core/ib_core.ko'),
    ('core/cm/', 'core/ib_cm.ko'),
    ('core/iwcm/', 'core/iwcm/iw_cm.ko'),
    ('core/cma/', 'core/cma/rdma_cm.ko'),
    ('uverbs/', 'uverbs/ib_uverbs.ko'),
    ('uverbs/ucma/', None),
    ('uverbs/umad/', None),
    # What the suites of hw/rxe test is built into them (kunit/hw/rxe/lib.c)
    ('hw/rxe/', 'kunit/rdma_kunit_rxe.ko'),
]


def module_of(rel):
    """The module (path in the build tree) that file rel is part of, or
    None when no suite tests it."""
    best = max((p for p in MODULES if rel.startswith(p[0])), key=lambda p: len(p[0]))
    return best[1]


def code_of(rel):
    """The file whose code a mutation of file rel changes, in the build
    tree: its object, or the module that builds rel in (hw/rxe/ into its
    suite module, headers and all)."""
    if rel.startswith('hw/'):
        return module_of(rel)
    return rel[:-2] + '.o'


def dependents_map(tree):
    """For each file the objects of the build tree were made from, the
    objects (paths) whose kbuild dependency record (.<object>.cmd) names
    it: a mutated header or #included .c file changes them all."""
    deps = {}
    for root, _, files in os.walk(tree):
        for f in files:
            if not (f.startswith('.') and f.endswith('.o.cmd')):
                continue
            obj = os.path.join(root, f[1:-4])
            with open(os.path.join(root, f), errors='replace') as cmd:
                for line in cmd:
                    path = line.strip().rstrip('\\').strip()
                    if path.startswith('source_') and ':=' in path:
                        path = path.split(':=', 1)[1].strip()
                    if path.startswith('/') and ' ' not in path:
                        deps.setdefault(os.path.normpath(path), set()).add(obj)
    return deps


def mutable_files(tree, ext=('.c', '.h')):
    """The files under tree's ROOTS that belong to a module with a suite,
    relative to tree, sorted."""
    found = []
    for top in ROOTS:
        for root, _, files in sorted(os.walk(os.path.join(tree, top))):
            for f in sorted(files):
                rel = os.path.relpath(os.path.join(root, f), tree)
                if f.endswith(ext) and module_of(rel):
                    found.append(rel)
    return found

FIELDS = ('function', 'from', 'to', 'why', 'suites')


class ListError(Exception):
    pass


def unescape(value):
    """\\n, \\t and \\\\ of a list value; any other backslash stays."""
    return re.sub(r'\\([nt\\])', lambda m: {'n': '\n', 't': '\t', '\\': '\\'}[m[1]], value)


def parse_list(path):
    """The entries of a mutation list, in order, each a dict of FIELDS plus
    'line' (where it starts) and 'id' (its function, #2, #3... for the
    function's later entries)."""
    entries, cur = [], None
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip('\n')
            if line.startswith('#'):
                continue
            if not line.strip():
                cur = None
                continue
            m = re.match(r'(\w+)(?:[ \t]+(.*))?$', line)
            if not m or m[1] not in FIELDS:
                raise ListError(f'{path}:{n}: expected one of {", ".join(FIELDS)}: {line}')
            if cur is None:
                cur = {'line': n}
                entries.append(cur)
            if m[1] in cur:
                raise ListError(f'{path}:{n}: a second "{m[1]}" in the entry of line {cur["line"]}')
            cur[m[1]] = m[2] or ''
    seen = {}
    for e in entries:
        for key in ('function', 'from', 'to', 'why'):
            if key not in e:
                raise ListError(f'{path}:{e["line"]}: the entry has no "{key}" line')
        if not e['from'].strip():
            raise ListError(f'{path}:{e["line"]}: empty "from"')
        if not e['why'].strip():
            raise ListError(f'{path}:{e["line"]}: empty "why"')
        e['from'] = unescape(e['from'])
        e['to'] = unescape(e['to'])
        e['suites'] = e.get('suites', '').split()
        fn = e['function'].strip()
        m = re.fullmatch(r'(?:((?:core|uverbs|hw)/[\w./-]+\.[ch]):)?(\w+)', fn)
        if not m:
            raise ListError(f'{path}:{e["line"]}: "function" is a name or '
                            f'FILE:name with FILE under core/, uverbs/ or hw/: {fn}')
        e['function'] = fn
        e['file'], e['name'] = m[1], m[2]
        seen[fn] = seen.get(fn, 0) + 1
        e['id'] = fn if seen[fn] == 1 else f'{fn}#{seen[fn]}'
    return entries


def mask_c(text):
    """text with comments, string and character literals and preprocessor
    lines blanked out (same length, newlines kept), for finding code."""
    out = list(text)
    i, n = 0, len(text)
    at_line_start = True

    def blank(a, b):
        for k in range(a, b):
            if out[k] != '\n':
                out[k] = ' '

    while i < n:
        c = text[i]
        if at_line_start and c == '#':
            j = i
            while j < n and (text[j] != '\n' or text[j - 1] == '\\'):
                j += 1
            blank(i, j)
            i = j
            continue
        if c == '\n':
            at_line_start = True
            i += 1
            continue
        if not c.isspace():
            at_line_start = False
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            blank(i, j)
            i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            blank(i + 1, min(j, n))
            i = j + 1
        else:
            i += 1
    return ''.join(out)


def matching(masked, i, open_c, close_c):
    """The index of the bracket closing the one at i, or -1."""
    depth = 0
    for j in range(i, len(masked)):
        if masked[j] == open_c:
            depth += 1
        elif masked[j] == close_c:
            depth -= 1
            if depth == 0:
                return j
    return -1


def function_bodies(text, name):
    """(start, end) of the body, braces included, of every definition of
    function name in C source text."""
    masked = mask_c(text)
    found = []
    for m in re.finditer(r'\b' + re.escape(name) + r'\s*\(', masked):
        if masked[:m.start()].count('{') != masked[:m.start()].count('}'):
            continue
        close = matching(masked, m.end() - 1, '(', ')')
        if close < 0:
            continue
        k = close + 1
        while k < len(masked) and masked[k].isspace():
            k += 1
        if k < len(masked) and masked[k] == '{':
            end = matching(masked, k, '{', '}')
            if end > 0:
                found.append((k, end + 1))
    return found


def text_pattern(text):
    """A regex for text in which each run of whitespace matches any run."""
    return r'\s+'.join(re.escape(part) for part in text.split())


def locate(tree, entry):
    """Where entry applies under tree/core or tree/uverbs: (path relative to
    tree, start, end) of the one occurrence of its text in its function's
    body.  An entry that names its file (FILE:name) is looked for there
    alone.  Raises ListError with the reason an entry is stale."""
    if entry.get('file'):
        paths = [os.path.join(tree, entry['file'])]
        if not os.path.isfile(paths[0]):
            raise ListError(f'file {entry["file"]} not found')
        if not module_of(entry['file']):
            raise ListError(f'file {entry["file"]} is in a module no KUnit suite tests')
    else:
        paths = [os.path.join(tree, rel) for rel in mutable_files(tree)]
    defs = []
    for path in paths:
        with open(path) as fh:
            text = fh.read()
        for body in function_bodies(text, entry['name']):
            defs.append((os.path.relpath(path, tree), text, body))
    where = entry['file'] or 'core/, uverbs/ or hw/'
    if not defs:
        raise ListError(f'function {entry["name"]} not found in {where}')
    if len(defs) > 1:
        raise ListError(f'function {entry["name"]} defined {len(defs)} times in {where}: '
                        + ', '.join(d[0] for d in defs)
                        + ('' if entry['file'] else ' (name its file: FILE:name)'))
    rel, text, (start, end) = defs[0]
    hits = list(re.finditer(text_pattern(entry['from']), text[start:end]))
    if len(hits) != 1:
        raise ListError(f'text {"not found" if not hits else f"found {len(hits)} times"} '
                        f'in {entry["function"]} ({rel})')
    return rel, start + hits[0].start(), start + hits[0].end()


def suites_for(entry, rel):
    if entry['suites']:
        return entry['suites']
    best = max((p for p in SUITES if rel.startswith(p[0])), key=lambda p: len(p[0]),
               default=None)
    return best[1] if best else []


def cmd_check(args):
    entries = parse_list(args.list)
    stale, files = 0, set()
    for i, e in enumerate(entries, 1):
        try:
            rel = locate(args.tree, e)[0]
            files.add(rel)
            print(f'ok    {i:3} {e["id"]:34} {rel} ({" ".join(suites_for(e, rel))}; '
                  f'{os.path.basename(module_of(rel))})')
        except ListError as err:
            stale += 1
            print(f'stale {i:3} {e["id"]:34} {err}')
    core = set(mutable_files(args.tree, '.c'))
    print(f'{len(entries)} entries, {stale} stale; they change {len(files)} of the '
          f'{len(core)} .c files of core/, uverbs/ and hw/ that suites test'
          + (f' (none in {", ".join(sorted(core - files))})' if core - files else ''))
    return 1 if stale else 0


def disassembly(obj):
    """The code of an object file as objdump shows it (with relocations),
    without the header that names the file."""
    out = subprocess.run(['objdump', '-dr', obj], capture_output=True, text=True).stdout
    return out.split('\n', 3)[-1]


def cmd_build(args):
    entries = parse_list(args.list)
    data = os.path.join(args.state, 'data')
    os.makedirs(data, exist_ok=True)
    shutil.copy(os.path.join(args.tree, 'core', 'ib_core.ko'), os.path.join(data, 'baseline.ko'))
    where = {}
    for e in entries:
        try:
            where[e['id']] = locate(args.tree, e)
        except ListError as err:
            where[e['id']] = str(err)
    # The objects made from each file: a mutant's must all go afterwards.
    deps = dependents_map(args.tree)
    # The code of each file to mutate as the baseline build made it.
    base_code = {}
    for loc in where.values():
        if isinstance(loc, tuple) and loc[0] not in base_code:
            base_code[loc[0]] = disassembly(os.path.join(args.tree, code_of(loc[0])))
    mutants, guest, suites_all = [], [], []
    for i, e in enumerate(entries, 1):
        m = {k: e[k] for k in ('id', 'function', 'from', 'to', 'why', 'line')}
        m['key'] = f'm{i:02d}'
        mutants.append(m)
        loc = where[e['id']]
        if isinstance(loc, str):
            m['status'], m['detail'] = 'stale', loc
            print(f'[{i:2}/{len(entries)}] {e["id"]}: stale ({loc})', flush=True)
            continue
        rel, start, end = loc
        m['file'] = rel
        m['suites'] = suites_for(e, rel)
        src = os.path.join(args.tree, rel)
        obj = os.path.join(args.tree, code_of(rel))
        with open(src) as f:
            orig = f.read()
        try:
            with open(src, 'w') as f:
                f.write(orig[:start] + e['to'] + orig[end:])
            run = subprocess.run(args.make, capture_output=True, text=True)
            if run.returncode:
                m['status'] = 'build-error'
                tail = [ln for ln in (run.stdout + run.stderr).splitlines() if 'error' in ln]
                m['detail'] = (tail or ['make failed'])[0]
            elif disassembly(obj) == base_code[rel]:
                m['status'], m['detail'] = 'equivalent', 'same object code as the baseline'
            else:
                m['status'] = 'built'
                ko = module_of(rel)
                shutil.copy(os.path.join(args.tree, ko), os.path.join(data, m['key'] + '.ko'))
                if ko != 'core/ib_core.ko':
                    with open(os.path.join(data, m['key'] + '.module'), 'w') as f:
                        f.write(os.path.basename(ko)[:-3] + '\n')
                guest.append(f'{m["key"]} {" ".join(m["suites"])}')
                suites_all += [s for s in m['suites'] if s not in suites_all]
        finally:
            # Back to the baseline source; the objects made from the mutant
            # go too (every one that includes the file: a header, or a .c
            # file a suite module includes), so that the next build, in
            # this run or the next, makes them again whatever the
            # timestamps say (the next run's copy of the sources takes the
            # tree's older ones).
            with open(src, 'w') as f:
                f.write(orig)
            for stale in {obj} | deps.get(os.path.normpath(src), set()):
                if os.path.exists(stale):
                    os.unlink(stale)
        if m['status'] != 'built':
            print(f'[{i:2}/{len(entries)}] {e["id"]}: {m["status"]} ({m["detail"]})', flush=True)
    with open(os.path.join(data, 'mutants'), 'w') as f:
        f.write(f'baseline {" ".join(suites_all)}\n')
        f.write(''.join(line + '\n' for line in guest))
    with open(os.path.join(args.state, 'mutants.json'), 'w') as f:
        json.dump({'list': os.path.abspath(args.list), 'mutants': mutants,
                   'baseline_suites': suites_all}, f, indent=1)
    print(f'{len(guest)} mutants built of {len(entries)} entries', flush=True)
    return 0


def excluded(name, exclude):
    """Whether result name kunit/<suite>/<case>[/<param>] is excluded."""
    return any(name == f'kunit/{x}' or name.startswith(f'kunit/{x}/') for x in exclude)


def drop_excluded_leaks(lines, exclude):
    """lines without the kmemleak objects whose backtrace names a function
    of an excluded case (a case that fails and leaks what it set up)."""
    cases = {x.split('/')[1] for x in exclude if '/' in x}
    if not cases:
        return lines
    pat = re.compile(r'[:(](' + '|'.join(map(re.escape, cases)) + r')\+0x')
    out, block = [], []
    for line in lines + ['']:
        if block and (line.startswith('unreferenced object 0x') or not line.startswith(' ')):
            if not any(pat.search(b) for b in block):
                out.extend(block)
            block = []
        if line.startswith('unreferenced object 0x'):
            block = [line]
        elif block:
            block.append(line)
        elif line:
            out.append(line)
    return out


def segment(path, key):
    """The kernel log lines of mutant key in a VM's console log."""
    lines = results.read([path]) or []
    start = [i for i, line in enumerate(lines) if f'lab: mutant {key} start' in line]
    if not start:
        return []
    seg = lines[start[-1] + 1:]
    end = [i for i, line in enumerate(seg) if f'lab: mutant {key} end' in line]
    return seg[:end[0]] if end else seg


# The lab failed a step no mutant could break (a dependency of the mutant's
# module would not load): the mutant is not judged.
BROKEN = 'lab: '


def evidence(mutant, ledger, exclude):
    """What happened to a mutant: ([how it was caught], {result name:
    status}), from the files of the boot it ran in."""
    key = mutant['key']
    how, statuses = [], {}
    boot, fate = ledger[key]['boot'], ledger[key]['fate']
    d = os.path.join(boot, 'share', 'out', 'm', key)
    if fate == 'end':
        lines = results.read([os.path.join(d, 'dmesg.txt')]) or []
    else:
        lines = segment(os.path.join(boot, 'console.log'), key)
        how.append({'timeout': f'timeout (still running after {ledger[key]["secs"]} s)',
                    'hang': 'hang (a task blocked)', 'crash': 'crash'}.get(fate, fate))
    try:
        with open(os.path.join(d, 'steps')) as f:
            for line in f:
                word = line.split()
                if word and word[0] == 'FAIL':
                    how.append(f'{word[1]} failure ({" ".join(word[2:])})')
                elif word and word[0] == 'BROKEN':
                    how.insert(0, f'{BROKEN}{word[1]} {" ".join(word[2:])} failed')
    except OSError:
        pass
    failed = []
    for _, out in results.ktap_results(lines):
        for status, name, why in out:
            if not status:
                continue
            if excluded(name, exclude):
                status = 'EXCL'
            statuses[name] = status
            if status == 'FAIL':
                failed.append(name[len('kunit/'):] + (f' ({why})' if why else ''))
    if failed:
        how.append('case ' + failed[0] + (f' (+{len(failed) - 1} more)' if len(failed) > 1 else ''))
    paths = [os.path.join(d, 'kmemleak.txt')] if os.path.exists(os.path.join(d, 'kmemleak.txt')) else []
    since = None
    try:
        with open(os.path.join(d, 'jiffies0')) as f:
            since = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        pass
    namer = None
    if os.path.exists(os.path.join(d, 'modules.txt')):
        namer = results.module_namer(os.path.join(d, 'modules.txt'),
                                     module_dir(ledger['_state'], key))
    log = lines + results.report_log(paths, since, namer)
    log = drop_excluded_leaks(log, exclude)
    found = results.find_reports(log)
    for kind, _ in results.REPORTS:
        if kind in found:
            how.append(f'{kind}: {report_title(log, found[kind][0])}')
    left = residue(boot, key)
    if key != 'baseline' and 'baseline' in ledger:
        # What the baseline leaves (failing cases that are excluded) is
        # no evidence: only what the mutant leaves elsewhere.
        base = {os.path.dirname(p) for p in residue(ledger['baseline']['boot'], 'baseline')}
        left = [p for p in left if os.path.dirname(p) not in base]
    if left:
        how.append('left behind after unload: ' + ' '.join(left[:3])
                   + (f' (+{len(left) - 3} more)' if len(left) > 3 else ''))
    return how, statuses


OUR_FRAME = re.compile(r'\((ib_core|ib_uverbs|ib_cm|iw_cm|rdma_\w+):(\w+)\+|'
                       r'\] (\w+)\+0x\w+/0x\w+ \[(ib_core|ib_uverbs|ib_cm|iw_cm|rdma_\w+)\]')


def report_title(log, i):
    """The line that names a report starting at log[i], shortened; for a
    leak, where it was allocated (the first frame in our modules)."""
    m = re.match(r'unreferenced object 0x\w+ \(size (\d+)\)', log[i])
    if m:
        for line in log[i + 1:i + 30]:
            f = OUR_FRAME.search(line)
            if f:
                return f'{m[1]} bytes allocated in {f[2] or f[3]} [{f[1] or f[4]}]'
    for line in log[i:i + 3]:
        if 'cut here' not in line and '=====' not in line:
            break
    line = re.sub(r'CPU: \d+ PID: \d+ at \S*/', '', line.strip())
    return line if len(line) <= 100 else line[:97] + '...'


def residue(boot, key):
    """What mutant key left in sysfs (paths that appeared or went)."""
    try:
        with open(os.path.join(boot, 'share', 'out', 'm', key, 'residue')) as f:
            return [line.strip()[1:] for line in f if line.strip()]
    except OSError:
        return []


def module_dir(state, key):
    """A directory with the modules mutant key ran with, for naming frames
    in its leak reports: the baseline's, with its own mutant module."""
    d = os.path.join(state, 'names', key)
    if not os.path.isdir(d):
        shutil.copytree(os.path.join(state, 'modules'), d, copy_function=os.link)
        try:
            with open(os.path.join(state, 'data', key + '.module')) as f:
                name = f.read().strip() + '.ko'
        except OSError:
            name = 'ib_core.ko'
        core = [os.path.join(r, f) for r, _, fs in os.walk(d) for f in fs if f == name]
        for path in core:
            os.unlink(path)
            os.link(os.path.join(state, 'data', key + '.ko'), path)
    return d


def load_state(state):
    with open(os.path.join(state, 'mutants.json')) as f:
        info = json.load(f)
    ledger = {'_state': state}
    try:
        with open(os.path.join(state, 'ledger')) as f:
            for line in f:
                key, boot, fate = line.split()[:3]
                ledger[key] = {'boot': boot, 'fate': fate,
                               'secs': int(line.split()[4]) - int(line.split()[3])}
    except OSError:
        pass
    return info, ledger


def verdict(mutant, ledger, exclude, base):
    """(status, detail) of one mutant of the list."""
    if mutant['status'] != 'built':
        return mutant['status'], mutant['detail']
    if mutant['key'] not in ledger:
        return 'not run', 'the run stopped before it'
    how, statuses = evidence(mutant, ledger, exclude)
    if how and how[0].startswith(BROKEN):
        return 'unjudged', how[0]
    if how:
        return 'caught', '; '.join(how)
    skipped = [n for n, s in statuses.items() if s == 'SKIP' and base.get(n) == 'PASS']
    ran = [n for n, s in statuses.items() if s == 'PASS']
    if not ran:
        return 'caught', 'no KUnit case ran'
    note = f'{len(ran)} cases passed'
    if skipped:
        note += f'; {len(skipped)} skipped that passed at baseline ({skipped[0][6:]}...)'
    return 'missed', note


def cmd_judge(args):
    info, ledger = load_state(args.state)
    exclude = [x.strip() for arg in args.exclude for x in arg.split(',') if x.strip()]
    if 'baseline' not in ledger:
        print('baseline: did not run')
        return 1
    how, base = evidence({'key': 'baseline', 'status': 'built'}, ledger, exclude)
    left = [h for h in how if h.startswith('left behind')]
    how = [h for h in how if not h.startswith('left behind')]
    npass = sum(1 for s in base.values() if s == 'PASS')
    if how or not npass:
        print(f'baseline: FAILS ({"; ".join(how) or "no KUnit case ran"}): '
              'no mutant can be judged against it')
        return 1
    if args.id == 'baseline':
        nexcl = sum(1 for s in base.values() if s == 'EXCL')
        print(f'baseline: {npass} cases passed, no report'
              + (f'; {nexcl} results of excluded cases ignored ({", ".join(exclude)})'
                 if nexcl else '')
              + (f'; {left[0]}: the next mutant gets a new VM' if left else ''),
              flush=True)
        return 0
    mutants = info['mutants']
    if args.id:
        for i, m in enumerate(mutants, 1):
            if m['key'] == args.id:
                status, detail = verdict(m, ledger, exclude, base)
                print(f'[{i:2}/{len(mutants)}] {m["id"]}: {status} ({detail}) '
                      f'[{ledger[m["key"]]["secs"]} s]', flush=True)
                return 0
        print(f'no mutant {args.id}', file=sys.stderr)
        return 2
    counts = {}
    print(f'Mutations of {info["list"]}:')
    for i, m in enumerate(mutants, 1):
        status, detail = verdict(m, ledger, exclude, base)
        counts[status] = counts.get(status, 0) + 1
        print(f'{i:3} {status:11} {m["id"]:34} {detail}')
        if args.why or status == 'missed':
            print(f'{"":16}{m.get("file", "?")}: {m["why"]}')
    judged = counts.get('caught', 0) + counts.get('missed', 0)
    rate = 100.0 * counts.get('caught', 0) / judged if judged else 0.0
    print(', '.join(f'{counts[s]} {s}' for s in
                    ('caught', 'missed', 'stale', 'equivalent', 'build-error',
                     'unjudged', 'not run')
                    if s in counts) + f' of {len(mutants)} mutations')
    print(f'catch rate: {rate:.1f}% ({counts.get("caught", 0)} of {judged} judged)')
    if counts.get('not run') or counts.get('unjudged'):
        return 1
    if args.min_rate is not None and rate < args.min_rate:
        print(f'catch rate below --min-rate {args.min_rate:g}%')
        return 3
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    p = sub.add_parser('check')
    p.add_argument('list')
    p.add_argument('--tree', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
    p = sub.add_parser('build')
    p.add_argument('list')
    p.add_argument('--tree', required=True)
    p.add_argument('--state', required=True)
    p.add_argument('--make', nargs=argparse.REMAINDER, required=True)
    p = sub.add_parser('judge')
    p.add_argument('--state', required=True)
    p.add_argument('--exclude', action='append', default=[])
    p.add_argument('--id')
    p.add_argument('--why', action='store_true')
    p.add_argument('--min-rate', type=float)
    args = ap.parse_args()
    try:
        return {'check': cmd_check, 'build': cmd_build, 'judge': cmd_judge}[args.cmd](args)
    except ListError as err:
        print(f'mutate: {err}', file=sys.stderr)
        return 2


if __name__ == '__main__':
    sys.exit(main())
