// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_traffic: RDMA traffic between two devices, checked byte for byte.
 *
 * An ib_client that knows every RDMA device.  Two of them
 * are named as a pair (debugfs "pair"); "run" (debugfs "control") connects
 * an RC QP on port 1 of each and runs send/recv, RDMA WRITE, RDMA READ and,
 * where both devices support atomics, fetch-and-add and compare-and-swap
 * over sizes from 1 B to max_size, verifying every transfer, and reports
 * per operation and size (debugfs "report" and the kernel log).  There is
 * no connection manager: the module builds both address vectors itself.
 *
 * The run executes on traffic_wq.  When a device of the run goes away,
 * remove() aborts the run and waits until it has drained its QPs and freed
 * everything; the run then reports "state=aborted".
 *
 * Locking: traffic_lock protects traffic_devs, the pair's names, the
 * 'gone' marks and the run's state, number and report (struct
 * traffic_run says the rest).  It is never held while waiting for the run.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include "traffic.h"
#include "rdma_version.h"

static unsigned int depth = 8;
module_param(depth, uint, 0644);
MODULE_PARM_DESC(depth, "work requests in flight per round (1-64)");

static unsigned int iters = 16;
module_param(iters, uint, 0644);
MODULE_PARM_DESC(iters, "rounds per operation and size, at most");

static unsigned long max_bytes = 4UL << 20;
module_param(max_bytes, ulong, 0644);
MODULE_PARM_DESC(max_bytes, "bytes per operation and size, at most");

static unsigned long max_size = 1UL << 20;
module_param(max_size, ulong, 0644);
MODULE_PARM_DESC(max_size, "largest transfer in bytes (sizes are powers of 4)");

static unsigned int timeout_ms = 5000;
module_param(timeout_ms, uint, 0644);
MODULE_PARM_DESC(timeout_ms, "time one round of work requests may take");

/**
 * struct traffic_dev - a device the client was given
 * @list: in traffic_devs
 * @dev: the device
 * @gone: its removal began: no new run may use it
 */
struct traffic_dev {
	struct list_head list;
	struct ib_device *dev;
	bool gone;
};

/* Protects what the file header says. */
DEFINE_MUTEX(traffic_lock);
/* The devices of the client; under traffic_lock. */
static LIST_HEAD(traffic_devs);
/* The names of the pair; under traffic_lock. */
static char traffic_pair[2][IB_DEVICE_NAME_MAX];
/* The run: one at a time. */
struct traffic_run traffic_run;
/* Executes the run. */
static struct workqueue_struct *traffic_wq;

static struct ib_client traffic_client;

/**
 * traffic_main_set_pair() - name the two devices of the next run
 * @a: the requester's device
 * @b: the responder's device (may be @a)
 *
 * Return: 0, or -EINVAL for a name too long.
 */
int traffic_main_set_pair(const char *a, const char *b)
{
	if (strlen(a) >= IB_DEVICE_NAME_MAX || strlen(b) >= IB_DEVICE_NAME_MAX)
		return -EINVAL;
	mutex_lock(&traffic_lock);
	strscpy(traffic_pair[0], a, IB_DEVICE_NAME_MAX);
	strscpy(traffic_pair[1], b, IB_DEVICE_NAME_MAX);
	mutex_unlock(&traffic_lock);
	return 0;
}

/**
 * traffic_main_get_pair() - the names of the pair
 * @a: IB_DEVICE_NAME_MAX bytes for the requester's
 * @b: IB_DEVICE_NAME_MAX bytes for the responder's
 */
void traffic_main_get_pair(char *a, char *b)
{
	mutex_lock(&traffic_lock);
	strscpy(a, traffic_pair[0], IB_DEVICE_NAME_MAX);
	strscpy(b, traffic_pair[1], IB_DEVICE_NAME_MAX);
	mutex_unlock(&traffic_lock);
}

static struct ib_device *traffic_find(const char *name)
{
	struct traffic_dev *td;

	lockdep_assert_held(&traffic_lock);
	list_for_each_entry(td, &traffic_devs, list)
		if (!td->gone && !strcmp(dev_name(&td->dev->dev), name))
			return td->dev;
	return NULL;
}

static void traffic_params_take(struct traffic_params *p)
{
	p->depth = clamp_t(unsigned int, READ_ONCE(depth), 1,
			   TRAFFIC_MAX_DEPTH);
	p->iters = max_t(unsigned int, READ_ONCE(iters), 1);
	p->max_bytes = max_t(unsigned long, READ_ONCE(max_bytes), 1);
	p->max_size = clamp_t(unsigned long, READ_ONCE(max_size), 1,
			      1UL << (2 * (TRAFFIC_NSIZES - 1)));
	p->timeout_ms = max_t(unsigned int, READ_ONCE(timeout_ms), 10);
}

/* Resets the run for a new start; under traffic_lock, no run active. */
static void traffic_run_reset(struct traffic_run *run, struct ib_device *a,
			      struct ib_device *b)
{
	lockdep_assert_held(&traffic_lock);
	memset(run->end, 0, sizeof(run->end));
	run->end[0].dev = a;
	run->end[1].dev = b;
	run->state = TRAFFIC_RUNNING;
	run->seq++;
	WRITE_ONCE(run->abort, false);
	run->reason[0] = '\0';
	run->fail[0] = '\0';
	memset(&run->total, 0, sizeof(run->total));
	run->report_len = 0;
	run->report[0] = '\0';
	traffic_params_take(&run->params);
}

/**
 * traffic_main_start() - start a run on the named pair
 *
 * Return: 0, -EBUSY while a run is active, -EINVAL without a pair,
 * -ENODEV if a device of the pair is not (or no longer) there.
 */
int traffic_main_start(void)
{
	struct traffic_run *run = &traffic_run;
	struct ib_device *a, *b;
	int ret = 0;

	mutex_lock(&traffic_lock);
	if (run->state == TRAFFIC_RUNNING) {
		ret = -EBUSY;
		goto out;
	}
	if (!traffic_pair[0][0]) {
		ret = -EINVAL;
		goto out;
	}
	a = traffic_find(traffic_pair[0]);
	b = traffic_find(traffic_pair[1]);
	if (!a || !b) {
		ret = -ENODEV;
		goto out;
	}
	traffic_run_reset(run, a, b);
	queue_work(traffic_wq, &run->work);
out:
	mutex_unlock(&traffic_lock);
	return ret;
}

/**
 * traffic_main_abort() - make a run stop as soon as it can
 * @run: the run
 * @reason: why, for its report (the first reason given stays)
 *
 * Any context but hard interrupts; the run reports "state=aborted".
 */
void traffic_main_abort(struct traffic_run *run, const char *reason)
{
	if (!READ_ONCE(run->abort)) {
		strscpy(run->reason, reason, sizeof(run->reason));
		/* The reason is written before the run can see the flag */
		smp_store_release(&run->abort, true);
	}
	wake_up(&run->wait);
}

/**
 * traffic_main_stop() - abort the active run, if there is one
 * @reason: why
 */
void traffic_main_stop(const char *reason)
{
	mutex_lock(&traffic_lock);
	if (traffic_run.state == TRAFFIC_RUNNING)
		traffic_main_abort(&traffic_run, reason);
	mutex_unlock(&traffic_lock);
}

static void traffic_work(struct work_struct *work)
{
	struct traffic_run *run = container_of(work, struct traffic_run, work);
	enum traffic_state end;
	int ret;

	traffic_report(run, "run=%u state=running pair=%s,%s depth=%u",
		       run->seq, dev_name(&run->end[0].dev->dev),
		       dev_name(&run->end[1].dev->dev), run->params.depth);
	ret = traffic_conn_open(run);
	if (!ret)
		ret = traffic_ops_run(run);
	traffic_conn_close(run);

	if (traffic_aborted(run))
		end = TRAFFIC_ABORTED;
	else if (ret || run->total.errors)
		end = TRAFFIC_FAILED;
	else
		end = TRAFFIC_DONE;
	traffic_report_end(run, end);
	mutex_lock(&traffic_lock);
	run->state = end;
	mutex_unlock(&traffic_lock);
}

static int traffic_add(struct ib_device *dev)
{
	struct traffic_dev *td = kzalloc(sizeof(*td), GFP_KERNEL);

	if (!td)
		return -ENOMEM;
	td->dev = dev;
	mutex_lock(&traffic_lock);
	list_add_tail(&td->list, &traffic_devs);
	mutex_unlock(&traffic_lock);
	ib_set_client_data(dev, &traffic_client, td);
	return 0;
}

static bool traffic_run_uses(struct traffic_run *run, struct ib_device *dev)
{
	lockdep_assert_held(&traffic_lock);
	return run->state == TRAFFIC_RUNNING &&
	       (run->end[0].dev == dev || run->end[1].dev == dev);
}

static void traffic_remove(struct ib_device *dev, void *client_data)
{
	struct traffic_dev *td = client_data;
	char why[sizeof(traffic_run.reason)];
	bool busy;

	mutex_lock(&traffic_lock);
	td->gone = true;
	busy = traffic_run_uses(&traffic_run, dev);
	if (busy) {
		snprintf(why, sizeof(why), "removed:%s", dev_name(&dev->dev));
		traffic_main_abort(&traffic_run, why);
	}
	mutex_unlock(&traffic_lock);
	/* The run drains and frees everything on both devices first */
	if (busy)
		flush_work(&traffic_run.work);

	mutex_lock(&traffic_lock);
	list_del(&td->list);
	mutex_unlock(&traffic_lock);
	kfree(td);
}

/* Devices without every kernel verb too: a run checks what it uses. */
static struct ib_client traffic_client = {
	.name = "rdma_traffic",
	.add = traffic_add,
	.remove = traffic_remove,
	.no_kverbs_req = 1,
};

static int __init traffic_init(void)
{
	int ret;

	INIT_WORK(&traffic_run.work, traffic_work);
	init_waitqueue_head(&traffic_run.wait);
	traffic_wq = alloc_ordered_workqueue("rdma_traffic", 0);
	if (!traffic_wq)
		return -ENOMEM;
	ret = ib_register_client(&traffic_client);
	if (ret) {
		destroy_workqueue(traffic_wq);
		return ret;
	}
	traffic_debugfs_init();
	return 0;
}

static void __exit traffic_exit(void)
{
	/* No new run from debugfs, then every device's remove() stops one */
	traffic_debugfs_exit();
	ib_unregister_client(&traffic_client);
	destroy_workqueue(traffic_wq);
}

module_init(traffic_init);
module_exit(traffic_exit);

MODULE_DESCRIPTION("RDMA traffic between two devices, verified, with figures");
MODULE_LICENSE("GPL");
MODULE_VERSION(RDMA_VERSION_STRING);
