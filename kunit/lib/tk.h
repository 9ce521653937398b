/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdma_kunit_lib: helpers of the device-model suites (tk_*): test devices
 * that must exist, netdevs for RoCE ports, RoCE pairs on a veth pair
 * (roce_pair.c), reading and writing files
 * such as sysfs attributes, running a step in a kernel thread, and
 * reading what the kernel logged since a mark.
 *
 * Device names in the suites start with "kt" so they cannot collide with
 * the devices of rdma_kunit_tdev's ndevs parameter ("tdev%d").
 */
#ifndef RDMA_KUNIT_TK_H
#define RDMA_KUNIT_TK_H

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/netdevice.h>
#include "tdev.h"

struct tdev *tk_new_dev(struct kunit *test, const struct tdev_params *p);
struct tdev *tk_dev(struct kunit *test, const struct tdev_params *p);
struct tdev *tk_dev_named(struct kunit *test, const char *name);
bool tk_port_event(struct tdev *td, u32 port, enum ib_event_type type);
struct net_device *tk_netdev(struct kunit *test);
void tk_netdev_free(struct net_device *ndev);
struct net_device *tk_netdev_unregistered(struct kunit *test);
void tk_roce_pair(struct kunit *test, const char *name, struct tdev **a,
		  struct tdev **b);

int tk_file_read(const char *path, char *buf, size_t len);
int tk_file_write(const char *path, const char *text);

/**
 * struct tk_thread - a step run in a kernel thread (tk_start())
 * @fn: the step
 * @arg: its argument
 * @started: completed when the thread runs, before @fn
 * @done: completed when @fn has returned
 */
struct tk_thread {
	void (*fn)(void *arg);
	void *arg;
	struct completion started;
	struct completion done;
};

void tk_start(struct kunit *test, struct tk_thread *t,
	      void (*fn)(void *), void *arg);
void tk_join(struct tk_thread *t);
bool tk_join_timeout(struct tk_thread *t, unsigned int ms);
void tk_expect_blocks(struct kunit *test, struct tk_thread *t,
		      void (*fn)(void *), void *arg);
void tk_unregister_fn(void *arg);

u64 tk_log_mark(void);
int tk_log_count(u64 mark, const char *needle);
bool tk_log_find(u64 mark, const char *needle, char *line, size_t len);

/*
 * Some effects reach the suites from the core's work queues (port events,
 * GID table rereads): wait (at most 5 s) until @cond holds, and give its
 * final value.
 */
#define tk_wait_for(cond)						\
	({								\
		int __i;						\
		for (__i = 0; __i < 250 && !(cond); __i++)		\
			msleep(20);					\
		(cond);							\
	})

#endif
