// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_lib: helpers of the device-model suites (tk.h).
 *
 * Nothing here keeps state between calls: what a helper makes belongs to
 * the case that asked for it.
 */
#include <linux/etherdevice.h>
#include <linux/fs.h>
#include <linux/kmsg_dump.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include "tk.h"

/**
 * tk_new_dev - a new test device, not registered yet
 * @test: the case; it fails if the device cannot be made
 * @p: what to make (NULL: the defaults)
 *
 * Return: the device; the case frees it with tdev_destroy().
 */
struct tdev *tk_new_dev(struct kunit *test, const struct tdev_params *p)
{
	struct tdev *td = tdev_create(p);

	KUNIT_ASSERT_FALSE(test, IS_ERR(td));
	return td;
}
EXPORT_SYMBOL_GPL(tk_new_dev);

/**
 * tk_dev - a new registered test device
 * @test: the case; it fails if the device cannot be made or registered
 * @p: what to make (NULL: the defaults)
 *
 * Return: the device; the case frees it with tdev_destroy().
 */
struct tdev *tk_dev(struct kunit *test, const struct tdev_params *p)
{
	struct tdev *td = tdev_create_registered(p);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(td), "tdev: %ld", PTR_ERR(td));
	return td;
}
EXPORT_SYMBOL_GPL(tk_dev);

/**
 * tk_dev_named - a registered test device with the default parameters
 * @test: the case; it fails if the device cannot be made or registered
 * @name: the name or name template ("kt...%d")
 *
 * Return: the device; the case frees it with tdev_destroy().
 */
struct tdev *tk_dev_named(struct kunit *test, const char *name)
{
	struct tdev_params p = { .name = name };

	return tk_dev(test, &p);
}
EXPORT_SYMBOL_GPL(tk_dev_named);

/* An event handler that waits for one event type */
struct tk_seen {
	struct ib_event_handler handler;
	enum ib_event_type type;
	struct completion done;
};

static void tk_seen_event(struct ib_event_handler *handler,
			  struct ib_event *event)
{
	struct tk_seen *s = container_of(handler, struct tk_seen, handler);

	if (event->event == s->type)
		complete(&s->done);
}

/**
 * tk_port_event - raise a port event and wait for the core to deliver it
 * @td: a registered test device
 * @port: the port
 * @type: the event
 *
 * The core calls a device's handlers in the order they registered, so
 * when this one's runs, those of the device's clients (registered with
 * the device) have.
 *
 * Return: true if it was delivered within 10 s.
 */
bool tk_port_event(struct tdev *td, u32 port, enum ib_event_type type)
{
	struct tk_seen s = { .type = type };
	bool seen;

	init_completion(&s.done);
	INIT_IB_EVENT_HANDLER(&s.handler, &td->ibdev, tk_seen_event);
	ib_register_event_handler(&s.handler);
	seen = !tdev_port_event(td, port, type) &&
	       wait_for_completion_timeout(&s.done, 10 * HZ);
	ib_unregister_event_handler(&s.handler);
	return seen;
}
EXPORT_SYMBOL_GPL(tk_port_event);

/* The MAC of the suites' netdevs: GIDs end in 0011:22ff:fe33:4455. */
static const u8 tk_mac[ETH_ALEN] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };

/**
 * tk_netdev - a registered Ethernet netdev, for RoCE ports
 * @test: the case; it fails if the netdev cannot be made
 *
 * Named "ktnet%d", down, without addresses, MAC 02:11:22:33:44:55, so the
 * core's default GIDs for it end in 0011:22ff:fe33:4455.
 *
 * Return: the netdev; the case frees it with tk_netdev_free() once no
 * device uses it.
 */
struct net_device *tk_netdev(struct kunit *test)
{
	struct net_device *ndev = tdev_netdev_create("ktnet%d", tk_mac);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(ndev), "netdev: %ld",
			       PTR_ERR(ndev));
	return ndev;
}
EXPORT_SYMBOL_GPL(tk_netdev);

/**
 * tk_netdev_free - unregister and free a netdev of tk_netdev()
 * @ndev: the netdev; no device uses it any more
 */
void tk_netdev_free(struct net_device *ndev)
{
	tdev_netdev_destroy(ndev);
}
EXPORT_SYMBOL_GPL(tk_netdev_free);

/**
 * tk_netdev_unregistered - an Ethernet netdev that is never registered
 * @test: the case; it fails if there is no memory
 *
 * Same MAC as tk_netdev()'s.  The stack does not know it: no address, no
 * event, no reg_state of NETREG_REGISTERED.
 *
 * Return: the netdev; the case frees it with free_netdev() once no
 * device uses it.
 */
struct net_device *tk_netdev_unregistered(struct kunit *test)
{
	struct net_device *ndev;

	ndev = alloc_netdev(0, "ktunreg", NET_NAME_PREDICTABLE, ether_setup);
	KUNIT_ASSERT_NOT_NULL(test, ndev);
	eth_hw_addr_set(ndev, tk_mac);
	return ndev;
}
EXPORT_SYMBOL_GPL(tk_netdev_unregistered);

/**
 * tk_file_read - read a file (a sysfs attribute, say) into a string
 * @path: the file
 * @buf: where its text goes, NUL-terminated
 * @len: the size of @buf
 *
 * Return: 0, or the negative errno of opening or reading it.
 */
int tk_file_read(const char *path, char *buf, size_t len)
{
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_read(f, buf, len - 1, &pos);
	filp_close(f, NULL);
	if (n < 0)
		return n;
	buf[n] = '\0';
	return 0;
}
EXPORT_SYMBOL_GPL(tk_file_read);

/**
 * tk_file_write - write a string to a file (a sysfs attribute, say)
 * @path: the file
 * @text: what to write, in one write
 *
 * Return: 0, the negative errno of opening or writing it, or -EIO if
 * only part of @text was taken.
 */
int tk_file_write(const char *path, const char *text)
{
	size_t len = strlen(text);
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	f = filp_open(path, O_WRONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_write(f, text, len, &pos);
	filp_close(f, NULL);
	if (n < 0)
		return n;
	return (size_t)n == len ? 0 : -EIO;
}
EXPORT_SYMBOL_GPL(tk_file_write);

static int tk_thread_main(void *data)
{
	struct tk_thread *t = data;

	complete(&t->started);
	t->fn(t->arg);
	complete(&t->done);
	return 0;
}

/**
 * tk_start - run a step in a kernel thread
 * @test: the case; it fails if the thread cannot be started
 * @t: the thread's record, alive until tk_join()
 * @fn: the step
 * @arg: its argument
 *
 * t->done tells whether @fn has returned yet.
 */
void tk_start(struct kunit *test, struct tk_thread *t,
	      void (*fn)(void *), void *arg)
{
	struct task_struct *task;

	t->fn = fn;
	t->arg = arg;
	init_completion(&t->started);
	init_completion(&t->done);
	task = kthread_run(tk_thread_main, t, "rdma_kunit");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
}
EXPORT_SYMBOL_GPL(tk_start);

/**
 * tk_join - wait until the step of tk_start() has returned
 * @t: the thread's record
 */
void tk_join(struct tk_thread *t)
{
	wait_for_completion(&t->done);
}
EXPORT_SYMBOL_GPL(tk_join);

/**
 * tk_join_timeout - wait a bounded time for the step of tk_start()
 * @t: the thread's record
 * @ms: how long to wait
 *
 * A step that does not return in time is left running: a case that sees
 * false must not free what the step uses.
 *
 * Return: true if the step returned.
 */
bool tk_join_timeout(struct tk_thread *t, unsigned int ms)
{
	return wait_for_completion_timeout(&t->done, msecs_to_jiffies(ms));
}
EXPORT_SYMBOL_GPL(tk_join_timeout);

/**
 * tk_expect_blocks - tk_start() a step that must wait for something
 * @test: the case; it fails if the step is over within 300 ms of its
 *	thread's start
 * @t: the thread's record, alive until tk_join()
 * @fn: the step
 * @arg: its argument
 *
 * The time counts from when the thread runs, not from when it was made:
 * on a busy host a thread may wait longer than that to run at all, and a
 * step that should have blocked (and did not) would pass unseen.
 */
void tk_expect_blocks(struct kunit *test, struct tk_thread *t,
		      void (*fn)(void *), void *arg)
{
	tk_start(test, t, fn, arg);
	wait_for_completion(&t->started);
	KUNIT_EXPECT_FALSE(test, wait_for_completion_timeout(&t->done,
							     msecs_to_jiffies(300)));
}
EXPORT_SYMBOL_GPL(tk_expect_blocks);

/**
 * tk_unregister_fn - a step for tk_start(): ib_unregister_device()
 * @arg: the struct ib_device
 */
void tk_unregister_fn(void *arg)
{
	ib_unregister_device(arg);
}
EXPORT_SYMBOL_GPL(tk_unregister_fn);

/**
 * tk_log_mark - where the kernel log ends now
 *
 * Return: the sequence number the next message will get, for
 * tk_log_count() and tk_log_find().
 */
u64 tk_log_mark(void)
{
	struct kmsg_dump_iter iter;

	kmsg_dump_rewind(&iter);
	return iter.next_seq;
}
EXPORT_SYMBOL_GPL(tk_log_mark);

/* Calls @fn for each line logged since @mark until it returns true. */
static bool tk_log_walk(u64 mark, bool (*fn)(const char *line, void *arg),
			void *arg)
{
	struct kmsg_dump_iter iter = { .cur_seq = mark };
	size_t len;
	char *line;
	bool stop = false;

	line = kmalloc(1024, GFP_KERNEL);
	if (!line)
		return false;
	while (!stop && kmsg_dump_get_line(&iter, true, line, 1023, &len)) {
		line[len] = '\0';
		stop = fn(line, arg);
	}
	kfree(line);
	return stop;
}

struct tk_log_match {
	const char *needle;
	int count;
	char *out;
	size_t len;
};

static bool tk_log_count_fn(const char *line, void *arg)
{
	struct tk_log_match *m = arg;

	if (strstr(line, m->needle))
		m->count++;
	return false;
}

/**
 * tk_log_count - how many kernel log lines since a mark contain a string
 * @mark: from tk_log_mark()
 * @needle: the string
 *
 * Return: the number of lines.
 */
int tk_log_count(u64 mark, const char *needle)
{
	struct tk_log_match m = { .needle = needle };

	tk_log_walk(mark, tk_log_count_fn, &m);
	return m.count;
}
EXPORT_SYMBOL_GPL(tk_log_count);

static bool tk_log_find_fn(const char *line, void *arg)
{
	struct tk_log_match *m = arg;

	if (!strstr(line, m->needle))
		return false;
	strscpy(m->out, line, m->len);
	return true;
}

/**
 * tk_log_find - the first kernel log line since a mark with a string
 * @mark: from tk_log_mark()
 * @needle: the string
 * @line: where the line goes, with its "<level>[time] " prefix
 * @len: the size of @line
 *
 * Return: true if there is one.
 */
bool tk_log_find(u64 mark, const char *needle, char *line, size_t len)
{
	struct tk_log_match m = { .needle = needle, .out = line, .len = len };

	return tk_log_walk(mark, tk_log_find_fn, &m);
}
EXPORT_SYMBOL_GPL(tk_log_find);
