/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdma_kunit_lib: driving ib_uverbs from a KUnit case as userspace does
 * (uvk_*): a test device that can serve userspace, its
 * /dev/infiniband/uverbsN opened for real, and write(), ioctl(), read()
 * and mmap() on it with the requests in user memory.
 *
 * The device is a test double (tdev) with the user-context operations
 * added: alloc_ucontext and dealloc_ucontext (counted, and made to fail on
 * request), disassociate_ucontext if asked for, and mmap, which maps the
 * device's one page of "device memory" through an mmap entry
 * (rdma_user_mmap_entry_insert(), rdma_user_mmap_io()).  Its
 * ops.driver_def is the case's chain, so a suite declares its own objects
 * and methods the way a driver does.
 *
 * User memory: a case borrows the address space of the process that loads
 * the suite module (uvk_suite_init() takes it; KUnit runs the suites in
 * that process's finit_module()), maps a scratch area in it and builds
 * its requests there.  uvk_new() fails the case if there is no such
 * address space (suites built in) - it skips.
 */
#ifndef RDMA_KUNIT_UVK_H
#define RDMA_KUNIT_UVK_H

#include <kunit/test.h>
#include <linux/fs.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include "tdev.h"

/* Bytes of the case's scratch user memory. */
#define UVK_USER_LEN		(64 * 1024)
#define UVK_MAX_ATTRS		16
#define UVK_MAX_FILES		16

/**
 * struct uvk_params - what uvk_new() makes
 * @driver_def: the driver's chain of definitions, or NULL
 * @disassociate: the device has ops.disassociate_ucontext
 * @driver_id: its driver id
 * @uverbs_abi_ver: its uverbs ABI version
 * @cmd_mask_clear: write() commands taken out of its uverbs_cmd_mask
 * @cmd_mask_set: write() commands added to it
 * @dma_device: the device has a real DMA device (tdev_params.dma_device)
 * @mcast: the device has multicast (tdev_params.mcast)
 */
struct uvk_params {
	const struct uapi_definition *driver_def;
	bool disassociate;
	enum rdma_driver_id driver_id;
	u32 uverbs_abi_ver;
	u64 cmd_mask_clear;
	u64 cmd_mask_set;
	bool dma_device;
	bool mcast;
};

/**
 * struct uvk - one case's device and user memory (uvk_new())
 * @test: the case
 * @td: the test device
 * @devnum: N of its /dev/infiniband/uverbsN, -1 if it has none
 * @user: the scratch user memory, UVK_USER_LEN bytes
 * @next_data: where the next request's data goes in @user
 * @thread: the case's thread, if this device made it adopt the borrowed
 *	address space (the first device of a case does)
 * @files: files uvk_open() opened that are still open
 * @alloc_ucontext: calls of the driver's alloc_ucontext
 * @dealloc_ucontext: calls of dealloc_ucontext
 * @disassociate_ucontext: calls of disassociate_ucontext
 * @alloc_ucontext_err: what the next alloc_ucontext returns instead of
 *	succeeding, once (0: succeed)
 * @ucontext: the user context alloc_ucontext set up last
 * @page: the device memory its mmap maps
 * @mmap_free: calls of ops.mmap_free
 */
struct uvk {
	struct kunit *test;
	struct tdev *td;
	int devnum;
	unsigned long user;
	unsigned long next_data;
	struct task_struct *thread;
	struct file *files[UVK_MAX_FILES];
	atomic_t alloc_ucontext;
	atomic_t dealloc_ucontext;
	atomic_t disassociate_ucontext;
	int alloc_ucontext_err;
	struct ib_ucontext *ucontext;
	struct page *page;
	atomic_t mmap_free;
};

/**
 * struct uvk_ioctl - an ioctl() request being built (uvk_ioctl_init())
 * @hdr: its header; uvk_ioctl() fills length and num_attrs unless
 *	@raw_hdr
 * @attrs: its attributes; after the call, as the kernel left them
 * @raw_hdr: send @hdr as it is
 * @lane: where in user memory the header and attributes go (0 to 3), so
 *	that requests of several threads do not overlap
 */
struct uvk_ioctl {
	struct ib_uverbs_ioctl_hdr hdr;
	struct ib_uverbs_attr attrs[UVK_MAX_ATTRS];
	bool raw_hdr;
	unsigned int lane;
};

int uvk_suite_init(struct kunit_suite *suite);
void uvk_suite_exit(struct kunit_suite *suite);

struct uvk *uvk_new(struct kunit *test, const struct uvk_params *p);
struct uvk *uvk_new_unregistered(struct kunit *test,
				 const struct uvk_params *p);
int uvk_register(struct uvk *u);
void uvk_unregister(struct uvk *u);
struct uvk *uvk_of(struct ib_device *ibdev);
void uvk_adopt_mm(void);
void uvk_drop_mm(void);

struct file *uvk_open(struct uvk *u);
void uvk_close(struct uvk *u, struct file *f);
struct file *uvk_take_fd(int fd);

void __user *uvk_uptr(struct uvk *u, unsigned long off);
void __user *uvk_udata(struct uvk *u, const void *data, size_t len);
void uvk_copy_out(struct uvk *u, void *to, const void __user *from,
		  size_t len);

ssize_t uvk_write(struct uvk *u, struct file *f, const void *cmd, size_t len);
ssize_t uvk_read(struct uvk *u, struct file *f, void *buf, size_t count,
		 bool nonblock);

void uvk_ioctl_init(struct uvk *u, struct uvk_ioctl *req, u16 object,
		   u16 method);
struct ib_uverbs_attr *uvk_attr(struct uvk_ioctl *req, u16 id, u16 flags);
void uvk_attr_in(struct uvk *u, struct uvk_ioctl *req, u16 id,
		 const void *data, u16 len);
void uvk_attr_u64(struct uvk_ioctl *req, u16 id, u64 val);
void __user *uvk_attr_out(struct uvk *u, struct uvk_ioctl *req, u16 id,
			  u16 len);
void uvk_attr_obj(struct uvk_ioctl *req, u16 id, s64 handle);
long uvk_ioctl(struct uvk *u, struct file *f, struct uvk_ioctl *req);

int uvk_get_context(struct uvk *u, struct file *f);

#endif
