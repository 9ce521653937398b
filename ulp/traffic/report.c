// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_traffic: the report.
 *
 * Every line goes to the kernel log (prefixed "rdma_traffic: ") and to the
 * run's report (debugfs "report"), one line per event, as key=value fields
 * separated by single spaces, values without spaces:
 *
 *   run=N state=running pair=A,B depth=D
 *   run=N op=OP size=BYTES ops=N bytes=N errors=N ns=N ops_per_s=N
 *	bytes_per_s=N status=ok|errors|aborted
 *   run=N op=OP size=BYTES status=skipped reason=WHY
 *   run=N state=done|failed|aborted ops=N bytes=N errors=N [reason=WHY]
 *
 * OP is send, write, read, fetch_add or cmp_swap.  ns is the time from
 * posting each round to its last completion, summed; the rates are
 * computed from it.  The report keeps the lines of the last run.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/math64.h>
#include <linux/printk.h>
#include "traffic.h"

static const char * const traffic_op_names[TRAFFIC_NOPS] = {
	[TRAFFIC_SEND] = "send",
	[TRAFFIC_WRITE] = "write",
	[TRAFFIC_READ] = "read",
	[TRAFFIC_FETCH_ADD] = "fetch_add",
	[TRAFFIC_CMP_SWAP] = "cmp_swap",
};

static const char * const traffic_state_names[] = {
	[TRAFFIC_IDLE] = "idle",
	[TRAFFIC_RUNNING] = "running",
	[TRAFFIC_DONE] = "done",
	[TRAFFIC_FAILED] = "failed",
	[TRAFFIC_ABORTED] = "aborted",
};

/**
 * traffic_report_op() - the report's name of an operation
 * @op: the operation
 *
 * Return: its name.
 */
const char *traffic_report_op(enum traffic_op op)
{
	return traffic_op_names[op];
}

/**
 * traffic_report_state() - the report's name of a run state
 * @state: the state
 *
 * Return: its name.
 */
const char *traffic_report_state(enum traffic_state state)
{
	return traffic_state_names[state];
}

/**
 * traffic_report() - add a line to the run's report and the kernel log
 * @run: the run
 * @fmt: the line, without newline
 *
 * A line that no longer fits the report only goes to the log.
 */
void traffic_report(struct traffic_run *run, const char *fmt, ...)
{
	char line[256];
	va_list args;
	size_t room;

	va_start(args, fmt);
	vsnprintf(line, sizeof(line), fmt, args);
	va_end(args);
	pr_info("%s\n", line);

	mutex_lock(&traffic_lock);
	room = sizeof(run->report) - run->report_len;
	if (strlen(line) + 1 < room)
		run->report_len += scnprintf(run->report + run->report_len,
					     room, "%s\n", line);
	mutex_unlock(&traffic_lock);
}

/* @count per second over @ns nanoseconds. */
static u64 traffic_rate(u64 count, u64 ns)
{
	return ns ? mul_u64_u64_div_u64(count, NSEC_PER_SEC, ns) : 0;
}

/**
 * traffic_report_stats() - report the figures of an operation and size
 * @run: the run, whose stats hold the figures; added to its total
 * @op: the operation
 * @size: the transfer size in bytes
 * @status: "ok", "errors" or "aborted"
 */
void traffic_report_stats(struct traffic_run *run, enum traffic_op op,
			  unsigned long size, const char *status)
{
	struct traffic_stats *s = &run->stats;

	traffic_report(run,
		       "run=%u op=%s size=%lu ops=%llu bytes=%llu errors=%llu ns=%llu ops_per_s=%llu bytes_per_s=%llu status=%s",
		       run->seq, traffic_report_op(op), size, s->ops, s->bytes,
		       s->errors, s->ns, traffic_rate(s->ops, s->ns),
		       traffic_rate(s->bytes, s->ns), status);
	run->total.ops += s->ops;
	run->total.bytes += s->bytes;
	run->total.errors += s->errors;
	run->total.ns += s->ns;
}

/**
 * traffic_report_end() - report how the run ended
 * @run: the run
 * @end: its final state
 */
void traffic_report_end(struct traffic_run *run, enum traffic_state end)
{
	const char *why = end == TRAFFIC_ABORTED ? run->reason : run->fail;

	traffic_report(run, "run=%u state=%s ops=%llu bytes=%llu errors=%llu%s%s",
		       run->seq, traffic_report_state(end), run->total.ops,
		       run->total.bytes, run->total.errors,
		       why[0] ? " reason=" : "", why);
}
