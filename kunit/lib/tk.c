// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_lib: helpers of the device-model suites (tk.h).
 *
 * Nothing here keeps state between calls: what a helper makes belongs to
 * the case that asked for it.
 */
#include <linux/etherdevice.h>
#include <linux/fs.h>
#include <linux/kthread.h>
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

/**
 * tk_netdev - an Ethernet netdev, not registered, for RoCE ports
 * @test: the case; it fails if there is no memory
 *
 * Its MAC is 02:11:22:33:44:55, so the core's GIDs for it end in
 * 0011:22ff:fe33:4455.
 *
 * Return: the netdev; the case frees it with free_netdev() once no device
 * uses it.
 */
struct net_device *tk_netdev(struct kunit *test)
{
	static const u8 mac[ETH_ALEN] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
	struct net_device *ndev;

	ndev = alloc_netdev(0, "ktnet", NET_NAME_PREDICTABLE, ether_setup);
	KUNIT_ASSERT_NOT_NULL(test, ndev);
	eth_hw_addr_set(ndev, mac);
	return ndev;
}
EXPORT_SYMBOL_GPL(tk_netdev);

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
 * tk_expect_blocks - tk_start() a step that must wait for something
 * @test: the case; it fails if the step is over within 100 ms
 * @t: the thread's record, alive until tk_join()
 * @fn: the step
 * @arg: its argument
 */
void tk_expect_blocks(struct kunit *test, struct tk_thread *t,
		      void (*fn)(void *), void *arg)
{
	tk_start(test, t, fn, arg);
	msleep(100);
	KUNIT_EXPECT_FALSE(test, completion_done(&t->done));
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
