#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""abi-check: do our exports carry the target kernel's symbol versions?

For every symbol the target's Module.symvers lists for the in-tree RDMA core
modules (ib_core, ib_uverbs, ib_cm, rdma_cm, ...: all of
drivers/infiniband/core/), report whether we export it and whether its CRC,
its export type and the module that exports it are equal.  A CRC mismatch is
named with its reason, read from the .symtypes files the build wrote: the
types the export reaches that the exporting file saw differently.
With the target's module tree (--ulp-modules), report every RDMA module
of it: each module outside drivers/infiniband/core/ that imports from the
modules we replace (RDMA_PROVIDERS), how many of those imports we
satisfy with the target's CRC, which are missing, and a total line
"N of M modules resolve all their RDMA imports".  Exit status 1 on any
mismatch; a missing export is only counted.
"""
import argparse
import glob
import mmap
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import symtypes  # noqa: E402

CORE_MODULES = ('drivers/infiniband/core/',)
# The modules we replace whose exports make a module an RDMA module
RDMA_PROVIDERS = ('ib_core', 'ib_cm', 'iw_cm', 'rdma_cm', 'ib_uverbs',
                  'ib_umad')


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


def versions_elf(path):
    """The __versions names of an uncompressed ELF64 .ko, or None."""
    with open(path, 'rb') as f:
        try:
            data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except ValueError:      # empty file
            return None
    if data[:4] != b'\x7fELF' or data[4] != 2 or data[5] != 1:
        return None
    shoff = int.from_bytes(data[0x28:0x30], 'little')
    shentsize = int.from_bytes(data[0x3a:0x3c], 'little')
    shnum = int.from_bytes(data[0x3c:0x3e], 'little')
    shstrndx = int.from_bytes(data[0x3e:0x40], 'little')

    def section(i):
        h = data[shoff + i * shentsize:shoff + (i + 1) * shentsize]
        return (int.from_bytes(h[0:4], 'little'),
                int.from_bytes(h[0x18:0x20], 'little'),
                int.from_bytes(h[0x20:0x28], 'little'))
    _, stroff, _ = section(shstrndx)
    for i in range(shnum):
        name, off, size = section(i)
        end = data.find(b'\0', stroff + name)
        if data[stroff + name:end] == b'__versions':
            # struct modversion_info: an 8-byte CRC, then a 56-byte name
            return [data[e + 8:e + 64].split(b'\0', 1)[0].decode()
                    for e in range(off, off + size, 64)]
    return []


def imports_of(path):
    """Versioned imports of a module, read from its ELF when it can be."""
    if path.endswith('.ko'):
        found = versions_elf(path)
        if found is not None:
            return found
    return module_imports(path)


def tree_modules(moddir):
    """name -> path of every module of a module tree."""
    out = {}
    for path in sorted(glob.glob(os.path.join(moddir, '**', '*.ko*'),
                                 recursive=True)):
        name = os.path.basename(path).split('.ko')[0]
        out.setdefault(name, path)
    return out


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
        report_modules(args.ulp_modules, rdma, set(equal))
    return 1 if bad else 0


def report_modules(moddir, rdma, equal):
    """Each RDMA module of a module tree: its RDMA imports we satisfy."""
    if not os.path.isdir(moddir):
        print(f'abi: no module tree at {moddir}')
        return
    ok_mods, total = [], 0
    for name, path in tree_modules(moddir).items():
        if '/drivers/infiniband/core/' in path:
            continue        # the modules we replace
        imports = [s for s in imports_of(path) if s in rdma and
                   modname(rdma[s][1]) in RDMA_PROVIDERS]
        if not imports:
            continue
        total += 1
        parts, missing = [], []
        for mod in RDMA_PROVIDERS:
            want = [s for s in imports if modname(rdma[s][1]) == mod]
            if want:
                ok = [s for s in want if s in equal]
                parts.append(f'{mod} {len(ok)} of {len(want)}')
                missing += sorted(set(want) - set(ok))
        where = os.path.relpath(os.path.dirname(path), moddir)
        line = f'abi: module {name} ({where}): ' + ', '.join(parts)
        if missing:
            line += ' (missing: ' + ' '.join(missing) + ')'
        else:
            ok_mods.append(name)
        print(line)
    print(f'abi: {len(ok_mods)} of {total} modules resolve all their RDMA '
          'imports' + (': ' + ' '.join(ok_mods) if ok_mods else ''))


if __name__ == '__main__':
    sys.exit(main())
