#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""abi-check: do our exports carry the target kernel's symbol versions?

For every symbol the target's Module.symvers lists for the in-tree RDMA core
modules (ib_core, ib_uverbs, ib_cm, rdma_cm, ...: all of
drivers/infiniband/core/), report whether we export it and whether its CRC,
its export type and the module that exports it are equal.  A CRC mismatch is
named with its reason, read from the .symtypes files the build wrote: the
types the export reaches that the exporting file saw differently.
For each distribution ULP module, report how many of its ib_core (and
rdma_cm) imports we satisfy.  Exit status 1 on any mismatch.
"""
import argparse
import glob
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import symtypes  # noqa: E402

CORE_MODULES = ('drivers/infiniband/core/',)
ULPS = ('nvme-rdma', 'nvmet-rdma', 'ib_iser', 'ib_isert', 'rpcrdma')
# Distribution drivers that import from the core modules we replace
DRIVERS = ('rdma_rxe',)
# Modules whose missing imports are listed by name
LIST_MISSING = ('ib_core', 'ib_uverbs')


def modname(path):
    """The module name of a Module.symvers module path."""
    return os.path.basename(path)


def read_symvers(path):
    """symbol -> (crc, module, export type) of a Module.symvers file."""
    out = {}
    with open(path) as f:
        for line in f:
            cols = line.rstrip('\n').split('\t')
            if len(cols) >= 4:
                out[cols[1]] = (cols[0], cols[2], cols[3])
    return out


def symtypes_by_symbol(build, sources_only=False):
    """symbol -> (.symtypes path, parsed file) for every file we built.

    With sources_only, a .symtypes file whose source is gone (a file moved
    or removed since an earlier build in the same directory) is skipped.
    """
    out = {}
    for path in glob.glob(os.path.join(build, '**', '*.symtypes'), recursive=True):
        if sources_only and not os.path.exists(path[:-len('.symtypes')] + '.c'):
            continue
        defs = symtypes.load(path)
        for name in defs:
            if '#' not in name:
                out[name] = (path, defs)
    return out


def ref_symtypes(refdir):
    return symtypes_by_symbol(refdir) if refdir else {}


def reason(sym, ours, ref):
    """Why sym's CRC differs, as far as the symtypes files can tell."""
    if sym not in ours:
        return ['no .symtypes for it (was the build run with KBUILD_SYMTYPES=1?)']
    path, defs = ours[sym]
    where = os.path.basename(path).replace('.symtypes', '.c')
    if sym in ref:
        lines = [f'{n}: {why}' for n, why in symtypes.diff(defs, ref[sym][1], sym)]
        return [f'{where}: {line}' for line in lines] or [f'{where}: declaration differs']
    unknown = symtypes.unknown(defs, sym)
    return [f'{where}: prototype {defs[sym].strip()}',
            f'{where}: {len(unknown)} reached types only declared here; '
            'compare with the target file\'s visible types (Documentation/abi.rst)']


def module_imports(path):
    """Symbols a .ko imports with a version (its __versions table)."""
    res = subprocess.run(['/sbin/modprobe', '--dump-modversions', path],
                         capture_output=True, text=True, check=True)
    return [line.split()[1] for line in res.stdout.splitlines() if line.strip()]


def find_modules(moddir, names):
    found = {}
    for name in names:
        hits = glob.glob(os.path.join(moddir, '**', name + '.ko*'), recursive=True)
        if hits:
            found[name] = hits[0]
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--ours', required=True, help='our build directory')
    ap.add_argument('--target', required=True, help="the target kernel's Module.symvers")
    ap.add_argument('--ulp-modules', help="the target kernel's module tree")
    ap.add_argument('--ref-symtypes', help='.symtypes of the target, for exact reasons')
    args = ap.parse_args()

    target = read_symvers(args.target)
    ours = read_symvers(os.path.join(args.ours, 'Module.symvers'))
    types = symtypes_by_symbol(args.ours, sources_only=True)
    ref = ref_symtypes(args.ref_symtypes)

    rdma = {s: v for s, v in target.items() if v[1].startswith(CORE_MODULES)}
    have = [s for s in rdma if s in ours]
    equal = [s for s in have if ours[s][0] == rdma[s][0] and ours[s][2] == rdma[s][2]
             and modname(ours[s][1]) == modname(rdma[s][1])]
    bad = sorted(set(have) - set(equal))
    print(f'abi: {len(have)} of {len(rdma)} in-tree RDMA exports implemented, '
          f'{len(equal)} with equal CRC')
    for sym in bad:
        crc, mod, kind = ours[sym]
        tcrc, tmod, tkind = rdma[sym]
        print(f'abi: MISMATCH {sym} (ours {crc} {kind} in {mod}, '
              f'target {tcrc} {tkind} in {tmod})')
        if kind != tkind:
            print(f'abi:   export type differs: {kind} vs {tkind}')
        if modname(mod) != modname(tmod):
            print(f'abi:   exported by {modname(mod)}, in-tree by {modname(tmod)}')
        if crc != tcrc:
            for line in reason(sym, types, ref):
                print(f'abi:   {line}')

    by_mod = {}
    for sym in equal:
        by_mod.setdefault(modname(rdma[sym][1]), []).append(sym)
    for mod in sorted(by_mod):
        total = sum(1 for v in rdma.values() if modname(v[1]) == mod)
        print(f'abi:   {mod}: {len(by_mod[mod])} of {total} equal')

    if args.ulp_modules:
        for kind, names in (('ulp', ULPS), ('driver', DRIVERS)):
            report_imports(kind, names, args.ulp_modules, rdma, equal)
    return 1 if bad else 0


def report_imports(kind, names, moddir, rdma, equal):
    """For each module of names, how many of its core imports we satisfy."""
    found = find_modules(moddir, names)
    for name in names:
        if name not in found:
            print(f'abi: {kind} {name}: module not found under {moddir}')
            continue
        imports = [s for s in module_imports(found[name]) if s in rdma]
        parts = []
        for mod in ('ib_core', 'rdma_cm', 'ib_cm', 'iw_cm', 'ib_uverbs'):
            want = [s for s in imports if modname(rdma[s][1]) == mod]
            if want:
                ok = [s for s in want if s in equal]
                parts.append(f'{mod} {len(ok)} of {len(want)}')
                missing = sorted(set(want) - set(ok))
                if missing and mod in LIST_MISSING:
                    parts[-1] += ' (missing: ' + ' '.join(missing) + ')'
        print(f'abi: {kind} {name}: ' + ', '.join(parts))


if __name__ == '__main__':
    sys.exit(main())
