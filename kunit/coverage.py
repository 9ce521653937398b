#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""List the exports of core/ and uverbs/ that no KUnit case calls.

    kunit/coverage.py [--headers DIR] [--verbose]

An export counts as called when its name appears in a file of kunit/core/
or kunit/uverbs/ (the suites) or kunit/lib/ (the helpers the suites
call), or when a static inline function or macro of the RDMA headers that
wraps it does (ib_alloc_pd() for __ib_alloc_pd(), ib_dereg_mr() for
ib_dereg_mr_user(), uverbs_get_const() for _uverbs_get_const_unsigned()
...).  The test double (kunit/tdev/) does not count: it is not a case.

Exports are the names in EXPORT_SYMBOL*() of core/ (ib_core, and iw_cm
in core/iwcm/) and of uverbs/ (ib_uverbs); a macro that exports its argument
(IBDEV_LEVEL_FN(name, ...)) counts each of its uses.  The headers are read
from --headers (default: include/rdma of the newest
/usr/src/linux-headers-*-common).

Prints one line per export not called and a summary; exits 1 if there is
one, 0 otherwise.
"""
import argparse
import glob
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXPORT_DIRS = ('core', 'uverbs')
WRAPPER_HEADERS = ('ib_verbs.h', 'ib_cache.h', 'rw.h', 'mr_pool.h',
                   'ib_addr.h', 'ib_umem.h', 'ib_umem_odp.h',
                   'uverbs_ioctl.h', 'uverbs_std_types.h',
                   'uverbs_types.h', 'rdma_cm.h')
EXPORT = re.compile(r'EXPORT_SYMBOL(?:_GPL)?\(\s*(\w+)\s*\)')
DEFINE = re.compile(r'#define\s+(\w+)\(([^)]*)\)')


def read(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        return f.read()


def c_files(root):
    for dirpath, _, names in os.walk(root):
        for n in names:
            if n.endswith(('.c', '.h')):
                yield os.path.join(dirpath, n)


def macro_end(text, pos):
    """Where the #define whose name ends at @pos ends."""
    while True:
        nl = text.find('\n', pos)
        if nl < 0:
            return len(text)
        if text[nl - 1] != '\\':
            return nl
        pos = nl + 1


def exports(subdir):
    """The names @subdir exports, with exporting macros expanded."""
    names = set()
    for path in c_files(os.path.join(TOP, subdir)):
        text = read(path)
        in_macros = []
        exporting = {}
        for m in DEFINE.finditer(text):
            end = macro_end(text, m.end())
            in_macros.append((m.start(), end))
            params = [p.strip() for p in m.group(2).split(',')]
            for e in EXPORT.finditer(text[m.end():end]):
                if e.group(1) in params:
                    exporting[m.group(1)] = params.index(e.group(1))
        for e in EXPORT.finditer(text):
            if not any(a <= e.start() < b for a, b in in_macros):
                names.add(e.group(1))
        for macro, idx in exporting.items():
            for m in re.finditer(r'^%s\(([^)]*)\)' % macro, text, re.M):
                args = [a.strip() for a in m.group(1).split(',')]
                if len(args) > idx:
                    names.add(args[idx])
    return names


def wrappers(headers):
    """For each name, the inline functions and macros that call it."""
    by_callee = {}
    for h in WRAPPER_HEADERS:
        path = os.path.join(headers, h)
        if not os.path.exists(path):
            continue
        text = read(path)
        # static inline functions: name, then the body by brace matching
        for m in re.finditer(r'static inline[^;{(]*?\b(\w+)\s*\([^;{]*?\)\s*{',
                             text, re.S):
            depth, i = 1, m.end()
            while depth and i < len(text):
                depth += {'{': 1, '}': -1}.get(text[i], 0)
                i += 1
            for callee in set(re.findall(r'\b(\w+)\s*\(', text[m.end():i])):
                by_callee.setdefault(callee, set()).add(m.group(1))
        for m in DEFINE.finditer(text):
            body = text[m.end():macro_end(text, m.end())]
            for callee in set(re.findall(r'\b(\w+)\s*\(', body)):
                by_callee.setdefault(callee, set()).add(m.group(1))
    return by_callee


def kunit_text():
    parts = []
    for sub in ('core', 'lib', 'uverbs'):
        for path in c_files(os.path.join(TOP, 'kunit', sub)):
            parts.append(read(path))
    return '\n'.join(parts)


def called(name, text, by_callee, seen=None):
    """The first name through which @name is called from the cases."""
    seen = seen or set()
    if re.search(r'\b%s\b' % re.escape(name), text):
        return name
    seen.add(name)
    for w in sorted(by_callee.get(name, ())):
        if w in seen:
            continue
        via = called(w, text, by_callee, seen)
        if via:
            return via
    return None


def default_headers():
    trees = sorted(glob.glob('/usr/src/linux-headers-*-common'))
    return os.path.join(trees[-1], 'include', 'rdma') if trees else ''


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--headers', default=default_headers(),
                    help='directory of the RDMA headers (include/rdma)')
    ap.add_argument('--verbose', action='store_true',
                    help='also list each export and how it is called')
    args = ap.parse_args()
    if not os.path.isdir(args.headers):
        sys.exit('coverage: no RDMA headers in %r (--headers)' % args.headers)
    by_callee = wrappers(args.headers)
    text = kunit_text()
    per_dir = []
    total = missing = 0
    for subdir in EXPORT_DIRS:
        names = exports(subdir)
        per_dir.append('%s/ (%d)' % (subdir, len(names)))
        total += len(names)
        for name in sorted(names):
            via = called(name, text, by_callee)
            if via is None:
                missing += 1
                print('NOT CALLED %s' % name)
            elif args.verbose:
                print('called %s%s' % (name, '' if via == name
                                       else ' (via %s)' % via))
    print('coverage: %d exports of %s, %d called by the KUnit cases, '
          '%d not called' % (total, ' and '.join(per_dir), total - missing,
                             missing))
    return 1 if missing else 0


if __name__ == '__main__':
    sys.exit(main())
