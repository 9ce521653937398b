// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_tdev: the engine, i.e. the "hardware" of a device.
 *
 * Each completion vector has an interrupt context of the kind the device
 * was made with (enum tdev_exec): an hrtimer in hard mode or an irq_work
 * (hard interrupt context), a work item (process context) or a timer
 * (softirq).  Whoever has something for the hardware to do schedules it
 * on a vector (tv_sched_kick()); the vector's context then runs, one
 * thing at a time and in order, what was scheduled: a QP's send queue, a
 * CQ's notification.  Vector 0 also raises the device's asynchronous
 * events (ib_dispatch_event()), in the order they were queued.
 *
 * A vector's context never runs twice at once: a run that finds another
 * one running leaves the work to it.
 *
 * Locking: vec->lock (IRQ-safe) protects the vector's list, its flags and
 * the event ring; each scheduled thing's link and queued flag.  Nothing
 * is called with it held.
 */
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/dma-direct.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include "tdev_priv.h"

#define TV_EVENTS	32	/* device events queued at most */
#define TV_RUN_BUDGET	64	/* things one run handles before yielding */
#define TV_HRTIMER_NS	10000	/* "interrupt latency" of hrtimer vectors */

/**
 * struct tv_vec - one completion vector's interrupt context
 * @eng: the device's engine
 * @lock: protects @list, @armed, @running and the engine's event ring
 * @list: what is scheduled, oldest first
 * @armed: the context is scheduled to run
 * @running: a run is in progress
 * @hrt: TDEV_EXEC_HRTIMER
 * @iw: TDEV_EXEC_IRQ_WORK
 * @work: TDEV_EXEC_WORK
 * @timer: TDEV_EXEC_TIMER
 */
struct tv_vec {
	struct tv_engine *eng;
	spinlock_t lock;
	struct list_head list;
	bool armed;
	bool running;
	struct hrtimer hrt;
	struct irq_work iw;
	struct work_struct work;
	struct timer_list timer;
};

/**
 * struct tv_engine - the vectors of a device and its event ring
 * @td: the device
 * @exec: the kind of context
 * @nvec: vectors
 * @events: device events to raise, @ev_count of them from @ev_head;
 *	under vec[0].lock
 * @ev_head: see @events
 * @ev_count: see @events
 * @vec: the vectors
 */
struct tv_engine {
	struct tdev *td;
	enum tdev_exec exec;
	u32 nvec;
	struct ib_event events[TV_EVENTS];
	u32 ev_head;
	u32 ev_count;
	struct tv_vec vec[];
};

/* Starts the vector's context.  Caller holds vec->lock. */
static void tv_vec_arm_locked(struct tv_vec *v)
{
	lockdep_assert_held(&v->lock);
	if (v->armed)
		return;
	v->armed = true;
	switch (v->eng->exec) {
	case TDEV_EXEC_HRTIMER:
		hrtimer_start(&v->hrt, ns_to_ktime(TV_HRTIMER_NS),
			      HRTIMER_MODE_REL_HARD);
		break;
	case TDEV_EXEC_IRQ_WORK:
		irq_work_queue(&v->iw);
		break;
	case TDEV_EXEC_WORK:
		queue_work(tdev_wq, &v->work);
		break;
	case TDEV_EXEC_TIMER:
		mod_timer(&v->timer, jiffies + 1);
		break;
	}
}

/* The next device event to raise, if @v is vector 0.  Under vec->lock. */
static bool tv_vec_take_event(struct tv_vec *v, struct ib_event *ev)
{
	struct tv_engine *eng = v->eng;

	if (v != &eng->vec[0] || !eng->ev_count)
		return false;
	*ev = eng->events[eng->ev_head];
	eng->ev_head = (eng->ev_head + 1) % TV_EVENTS;
	eng->ev_count--;
	return true;
}

static void tv_sched_put(struct tv_sched *s)
{
	if (refcount_dec_and_test(&s->ref))
		complete(&s->idle);
}

/* One run of a vector's context: what was scheduled, in order. */
static void tv_vec_run(struct tv_vec *v)
{
	struct tv_sched *s;
	struct ib_event ev;
	unsigned long flags;
	int done = 0;

	spin_lock_irqsave(&v->lock, flags);
	v->armed = false;
	if (v->running)
		goto out;
	v->running = true;
	while (done++ < TV_RUN_BUDGET) {
		if (tv_vec_take_event(v, &ev)) {
			spin_unlock_irqrestore(&v->lock, flags);
			ib_dispatch_event(&ev);
			spin_lock_irqsave(&v->lock, flags);
			continue;
		}
		s = list_first_entry_or_null(&v->list, struct tv_sched, link);
		if (!s)
			break;
		list_del_init(&s->link);
		s->queued = false;
		spin_unlock_irqrestore(&v->lock, flags);
		if (s->run(s))
			tv_sched_kick(s);
		tv_sched_put(s);
		spin_lock_irqsave(&v->lock, flags);
	}
	v->running = false;
	/* Out of budget: the rest in the next run */
	if (!list_empty(&v->list) || (v == &v->eng->vec[0] && v->eng->ev_count))
		tv_vec_arm_locked(v);
out:
	spin_unlock_irqrestore(&v->lock, flags);
}

static enum hrtimer_restart tv_vec_hrtimer(struct hrtimer *t)
{
	tv_vec_run(container_of(t, struct tv_vec, hrt));
	return HRTIMER_NORESTART;
}

static void tv_vec_irq_work(struct irq_work *iw)
{
	tv_vec_run(container_of(iw, struct tv_vec, iw));
}

static void tv_vec_work(struct work_struct *w)
{
	tv_vec_run(container_of(w, struct tv_vec, work));
}

static void tv_vec_timer(struct timer_list *t)
{
	struct tv_vec *v = from_timer(v, t, timer);

	tv_vec_run(v);
}

/**
 * tv_engine_create - the interrupt contexts of a device
 * @td: the device; params.exec and params.vectors say what to make
 *
 * Return: 0 or -ENOMEM.
 */
int tv_engine_create(struct tdev *td)
{
	struct tv_engine *eng;
	u32 i;

	eng = kzalloc(struct_size(eng, vec, td->params.vectors), GFP_KERNEL);
	if (!eng)
		return -ENOMEM;
	eng->td = td;
	eng->exec = td->params.exec;
	eng->nvec = td->params.vectors;
	for (i = 0; i < eng->nvec; i++) {
		struct tv_vec *v = &eng->vec[i];

		v->eng = eng;
		spin_lock_init(&v->lock);
		INIT_LIST_HEAD(&v->list);
		hrtimer_init(&v->hrt, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
		v->hrt.function = tv_vec_hrtimer;
		/* Hard interrupt context even where irq_work is threaded */
		v->iw = IRQ_WORK_INIT_HARD(tv_vec_irq_work);
		INIT_WORK(&v->work, tv_vec_work);
		timer_setup(&v->timer, tv_vec_timer, 0);
	}
	td->engine = eng;
	return 0;
}

/**
 * tv_engine_destroy - stop and free a device's interrupt contexts
 * @td: the device; its QPs and CQs are gone
 *
 * Events not raised yet are dropped.
 */
void tv_engine_destroy(struct tdev *td)
{
	struct tv_engine *eng = td->engine;
	u32 i;

	if (!eng)
		return;
	/* With nothing scheduled and no event left, no run re-arms */
	spin_lock_irq(&eng->vec[0].lock);
	eng->ev_count = 0;
	spin_unlock_irq(&eng->vec[0].lock);
	for (i = 0; i < eng->nvec; i++) {
		struct tv_vec *v = &eng->vec[i];

		hrtimer_cancel(&v->hrt);
		irq_work_sync(&v->iw);
		cancel_work_sync(&v->work);
		del_timer_sync(&v->timer);
		WARN_ON(!list_empty(&v->list));
	}
	kfree(eng);
	td->engine = NULL;
}

/**
 * tv_sched_init - make something schedulable on a vector
 * @s: the QP's or CQ's record
 * @td: the device
 * @vector: the completion vector (taken modulo the device's)
 * @run: what the engine calls
 */
void tv_sched_init(struct tv_sched *s, struct tdev *td, u32 vector,
		   bool (*run)(struct tv_sched *s))
{
	INIT_LIST_HEAD(&s->link);
	s->queued = false;
	refcount_set(&s->ref, 1);
	init_completion(&s->idle);
	s->vec = &td->engine->vec[vector % td->engine->nvec];
	s->run = run;
}

/**
 * tv_sched_kick - have the engine run @s soon
 * @s: a QP or CQ that is not retired; any context
 */
void tv_sched_kick(struct tv_sched *s)
{
	struct tv_vec *v = s->vec;
	unsigned long flags;

	spin_lock_irqsave(&v->lock, flags);
	if (!s->queued) {
		s->queued = true;
		refcount_inc(&s->ref);
		list_add_tail(&s->link, &v->list);
	}
	tv_vec_arm_locked(v);
	spin_unlock_irqrestore(&v->lock, flags);
}

/**
 * tv_sched_busy - whether the engine has @s scheduled or is running it
 * @s: the QP or CQ
 *
 * Return: true while the engine holds a reference.
 */
bool tv_sched_busy(struct tv_sched *s)
{
	return refcount_read(&s->ref) > 1;
}

/**
 * tv_sched_retire - wait until the engine is done with @s, for good
 * @s: the QP or CQ being destroyed; nobody kicks it any more
 *
 * Process context.
 */
void tv_sched_retire(struct tv_sched *s)
{
	struct tv_vec *v = s->vec;
	unsigned long flags;
	bool unqueued = false;

	spin_lock_irqsave(&v->lock, flags);
	if (s->queued) {
		list_del_init(&s->link);
		s->queued = false;
		unqueued = true;
	}
	spin_unlock_irqrestore(&v->lock, flags);
	if (unqueued)
		tv_sched_put(s);
	tv_sched_put(s);
	wait_for_completion(&s->idle);
}

/**
 * tv_engine_event - raise an asynchronous device event from the device's
 *	interrupt context
 * @td: the device
 * @event: the event; its device is @td's
 *
 * Events are raised in the order they are queued, from vector 0.
 *
 * Return: 0, or -EBUSY when TV_EVENTS events are waiting already.
 */
int tv_engine_event(struct tdev *td, const struct ib_event *event)
{
	struct tv_engine *eng = td->engine;
	struct tv_vec *v = &eng->vec[0];
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&v->lock, flags);
	if (eng->ev_count == TV_EVENTS) {
		ret = -EBUSY;
	} else {
		eng->events[(eng->ev_head + eng->ev_count) % TV_EVENTS] = *event;
		eng->ev_count++;
		tv_vec_arm_locked(v);
	}
	spin_unlock_irqrestore(&v->lock, flags);
	return ret;
}

/**
 * tv_is_virt - whether a device uses virtual DMA
 * @td: the device
 *
 * Return: true when its DMA addresses are kernel virtual addresses.
 */
bool tv_is_virt(struct tdev *td)
{
	return !td->params.dma_device;
}

/**
 * tv_dma_va - where a DMA address of a device is in the kernel's memory
 * @td: the device
 * @addr: the DMA address (ib_dma_map_*()), or a kernel virtual address
 *	for a device with virtual DMA
 *
 * What the "hardware" reads and writes: a real-DMA device reaches memory
 * by physical address (dma-direct), through the kernel's linear map.
 *
 * Return: the kernel address, or NULL if @addr is no memory.
 */
void *tv_dma_va(struct tdev *td, u64 addr)
{
	phys_addr_t phys;

	if (tv_is_virt(td))
		return (void *)(uintptr_t)addr;
	phys = dma_to_phys(tdev_dma_device(), addr);
	if (!pfn_valid(PHYS_PFN(phys)))
		return NULL;
	return phys_to_virt(phys);
}
