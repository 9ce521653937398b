#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench's report: the guest's figures side by side, with ratios.

  bench.py DIR

DIR/figures.csv holds the guest's rows (lab/guest/scenarios/bench.sh):
stack,test,bytes,qps,procs,metric,value.  Prints one line per figure with
the stacks (a) intree, (b) core, (c) ours and the ratios b/a and c/a, the
issue's goals as facts (met or not: a benchmark passes nothing), and
writes DIR/bench.csv and DIR/bench.png.  Exit status 1 when a stack has
no figures at all.
"""
import csv
import os
import sys

STACKS = ('intree', 'core', 'ours')
LABEL = {'intree': '(a) in-tree stack', 'core': "(b) Debian's rdma_rxe on our core",
         'ours': '(c) our rdma_rxe on our core'}
BW_TOOLS = ('ib_write_bw', 'ib_send_bw', 'ib_read_bw')
LAT_TOOLS = ('ib_send_lat', 'ib_write_lat', 'ib_read_lat')
LAT_METRICS = ('typical_us', 'avg_us', 'p99_us')
# What counts retransmissions and losses, of the hw_counters both drivers have.
RETRY_COUNTERS = ('completer_retry_err', 'retry_exceeded_err', 'rcvd_seq_err',
                  'out_of_seq_request', 'duplicate_request')


def load(path):
    """{(test, bytes, qps, procs, metric): {stack: value}} and key order."""
    table, order = {}, []
    with open(path, newline='') as f:
        for row in csv.DictReader(f):
            key = (row['test'], int(row['bytes']), int(row['qps']),
                   int(row['procs']), row['metric'])
            if key not in table:
                table[key] = {}
                order.append(key)
            table[key][row['stack']] = float(row['value'])
    return table, order


def ratio(vals, stack):
    a, x = vals.get('intree'), vals.get(stack)
    if a is None or x is None or a == 0:
        return None
    return x / a


def fmt(v, digits=2):
    return '-' if v is None else f'{v:.{digits}f}'


def write_csv(path, table, order):
    with open(path, 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['test', 'bytes', 'qps', 'procs', 'metric', *STACKS,
                    'core/intree', 'ours/intree'])
        for key in order:
            vals = table[key]
            w.writerow([*key, *(fmt(vals.get(s)) for s in STACKS),
                        fmt(ratio(vals, 'core'), 3), fmt(ratio(vals, 'ours'), 3)])


# The figures printed (bench.csv has them all: the spread of each
# bandwidth's runs, wall times); counters only where a stack counted any.
SHOWN = ('MBps',) + LAT_METRICS


def shown(key, vals):
    if key[0] == 'counters':
        return any(vals.values())
    return key[4] in SHOWN


def print_table(table, order):
    head = f"{'test':<18}{'bytes':>9}{'qps':>4}{'procs':>6} {'metric':<28}"
    head += ''.join(f'{s:>11}' for s in STACKS) + f"{'b/a':>8}{'c/a':>8}"
    print(head)
    for key in order:
        test, size, qps, procs, metric = key
        vals = table[key]
        if not shown(key, vals):
            continue
        line = f'{test:<18}{size:>9}{qps:>4}{procs:>6} {metric:<28}'
        line += ''.join(f'{fmt(vals.get(s)):>11}' for s in STACKS)
        line += f"{fmt(ratio(vals, 'core')):>8}{fmt(ratio(vals, 'ours')):>8}"
        print(line)


def goals(table):
    """The issue's goals, each as a fact with its figures."""
    out = []
    for tool in BW_TOOLS:
        r = ratio(table.get((tool, 65536, 1, 1, 'MBps'), {}), 'ours')
        out.append(f'{tool} 64 KiB, ours/in-tree >= 2.0: {fmt(r)} '
                   f"({'met' if r is not None and r >= 2.0 else 'not met'})")
    for tool in LAT_TOOLS:
        r = ratio(table.get((tool, 2, 1, 1, 'typical_us'), {}), 'ours')
        out.append(f'{tool} 2 B typical, ours/in-tree <= 0.5: {fmt(r)} '
                   f"({'met' if r is not None and r <= 0.5 else 'not met'})")
    for stack in STACKS:
        vals = [f'{c} {int(table[k][stack])}'
                for c in RETRY_COUNTERS
                for k in [('counters', 0, 0, 0, f'counter/{c}')]
                if stack in table.get(k, {})]
        if vals:
            out.append(f'{stack} counters over its perftest runs: ' + ', '.join(vals))
    one = table.get(('ib_write_bw', 65536, 1, 1, 'MBps'), {})
    four = table.get(('ib_write_bw', 65536, 4, 1, 'MBps'), {})
    two = table.get(('ib_write_bw', 65536, 1, 2, 'MBps'), {})
    for stack in STACKS:
        if stack in one:
            out.append(f'{stack} ib_write_bw 64 KiB: 1 QP {fmt(one[stack])} MB/s, '
                       f'4 QPs {fmt(four.get(stack))}, 2 processes {fmt(two.get(stack))}')
    return out


def plot(path, table, order):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 4, figsize=(20, 5))
    for ax, tool in zip(axes, BW_TOOLS):
        for stack in STACKS:
            pts = sorted((k[1], table[k][stack]) for k in order
                         if k[0] == tool and k[2] == 1 and k[3] == 1 and k[4] == 'MBps'
                         and stack in table[k])
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker='o',
                        label=LABEL[stack])
        ax.set_xscale('log', base=2)
        ax.set_xlabel('message size (bytes)')
        ax.set_ylabel('MB/s')
        ax.set_title(f'{tool}, 1 QP')
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    ax = axes[3]
    width = 0.8 / len(STACKS)
    labels = [f'{t.replace("ib_", "")}\n{m.replace("_us", "")}'
              for t in LAT_TOOLS for m in LAT_METRICS]
    for i, stack in enumerate(STACKS):
        vals = [table.get((t, 2, 1, 1, m), {}).get(stack, 0)
                for t in LAT_TOOLS for m in LAT_METRICS]
        ax.bar([x + i * width for x in range(len(labels))], vals, width,
               label=LABEL[stack])
    ax.set_xticks([x + width for x in range(len(labels))])
    ax.set_xticklabels(labels, fontsize=6)
    ax.set_ylabel('microseconds')
    ax.set_title('latency at 2 B')
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    table, order = load(os.path.join(d, 'figures.csv'))
    print_table(table, order)
    print()
    for line in goals(table):
        print('bench: ' + line)
    write_csv(os.path.join(d, 'bench.csv'), table, order)
    try:
        plot(os.path.join(d, 'bench.png'), table, order)
    except ImportError as e:
        print(f'bench: no plot ({e})')
    print(f'bench: {d}/bench.csv, {d}/bench.png, {d}/env.txt')
    wanted = STACKS
    try:
        with open(os.path.join(d, 'env.txt')) as f:
            for line in f:
                if line.startswith('stacks '):
                    wanted = line.split()[1:]
    except OSError:
        pass
    seen = {s for vals in table.values() for s in vals}
    missing = [s for s in wanted if s not in seen]
    if missing:
        print(f"bench: no figures from {', '.join(missing)}")
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
