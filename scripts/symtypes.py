#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read genksyms .symtypes files: the type closure behind an exported symbol.

A symbol's CRC is the hash of its declaration with every type it reaches
expanded as the exporting file saw it.  Two CRCs differ exactly when those
closures differ, so comparing closures names the reason for a mismatch.
"""
import re
import sys

REF = re.compile(r'\b([stueE])#([A-Za-z0-9_]+)')


def load(path):
    """Map of type/symbol name -> definition text of one .symtypes file."""
    defs = {}
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if not line:
                continue
            name, _, body = line.partition(' ')
            defs[name] = body
    return defs


def closure(defs, symbol):
    """Every type name reachable from symbol, with its definition."""
    seen = {}
    todo = [symbol]
    while todo:
        name = todo.pop()
        if name in seen or name not in defs:
            continue
        seen[name] = defs[name]
        for kind, ident in REF.findall(defs[name]):
            todo.append(kind + '#' + ident)
    return seen


def unknown(defs, symbol):
    """Types reached by symbol that the file saw only as a declaration."""
    return sorted(n for n, d in closure(defs, symbol).items() if 'UNKNOWN' in d)


def diff(ours, ref, symbol):
    """Types whose definition differs between two closures of symbol."""
    a = closure(ours, symbol)
    b = closure(ref, symbol)
    out = []
    for name in sorted(set(a) | set(b)):
        da, db = a.get(name), b.get(name)
        if da == db:
            continue
        if da is None:
            out.append((name, 'not reached here'))
        elif db is None:
            out.append((name, 'reached only here'))
        elif 'UNKNOWN' in da:
            out.append((name, 'only declared here, defined in the target'))
        elif 'UNKNOWN' in db:
            out.append((name, 'defined here, only declared in the target'))
        else:
            out.append((name, 'defined differently'))
    return out


if __name__ == '__main__':
    if len(sys.argv) == 4:
        for name, why in diff(load(sys.argv[1]), load(sys.argv[2]), sys.argv[3]):
            print(f'{name}: {why}')
    elif len(sys.argv) == 3:
        print('\n'.join(unknown(load(sys.argv[1]), sys.argv[2])))
    else:
        sys.exit('usage: symtypes.py OURS.symtypes [REF.symtypes] SYMBOL')
