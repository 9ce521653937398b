// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_kunit_lib: ib_uverbs driven as userspace drives it (uvk.h).
 *
 * The test devices are found by their ib_device index in uvk_devs (its own
 * lock); each belongs to the case that made it, which frees it through a
 * KUnit resource, whether the case ends or dies.  The borrowed address
 * space (uvk_mm) is set by the suite's init and put by its exit.
 */
#include <linux/fdtable.h>
#include <linux/file.h>
#include <linux/kthread.h>
#include <linux/mman.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <rdma/rdma_user_ioctl.h>
#include "tk.h"
#include "uvk.h"

/*
 * A case's user memory: the ioctl() header and attributes, then the
 * request's data, the write() buffer (where uvk_get_context() answers
 * just below the read buffer), and the read() buffer.
 */
#define UVK_IOCTL_OFF	0
#define UVK_DATA_OFF	4096
#define UVK_WRITE_OFF	(UVK_USER_LEN - 16384)
#define UVK_READ_OFF	(UVK_USER_LEN - 8192)

/* The loader's address space, from a suite's init to its exit. */
static struct mm_struct *uvk_mm;
/* ib_device index -> struct uvk. */
static DEFINE_XARRAY(uvk_devs);

/**
 * struct uvk_ucontext - the test driver's user context
 * @base: the core's part
 * @entry: the mmap entry of the device page
 */
struct uvk_ucontext {
	struct ib_ucontext base;
	struct rdma_user_mmap_entry entry;
};

/**
 * uvk_suite_init() - borrow the loader's address space for a suite
 * @suite: the suite
 *
 * Return: 0.
 */
int uvk_suite_init(struct kunit_suite *suite)
{
	uvk_mm = get_task_mm(current);
	return 0;
}
EXPORT_SYMBOL_GPL(uvk_suite_init);

/**
 * uvk_suite_exit() - give the address space back
 * @suite: the suite
 */
void uvk_suite_exit(struct kunit_suite *suite)
{
	if (uvk_mm)
		mmput(uvk_mm);
	uvk_mm = NULL;
}
EXPORT_SYMBOL_GPL(uvk_suite_exit);

/**
 * uvk_of() - the uvk of a test device
 * @ibdev: the device
 *
 * Return: its uvk, or NULL.
 */
struct uvk *uvk_of(struct ib_device *ibdev)
{
	return xa_load(&uvk_devs, ibdev->index);
}
EXPORT_SYMBOL_GPL(uvk_of);

static int uvk_alloc_ucontext(struct ib_ucontext *ibuc, struct ib_udata *udata)
{
	struct uvk_ucontext *uc = container_of(ibuc, struct uvk_ucontext, base);
	struct uvk *u = uvk_of(ibuc->device);
	int err = u->alloc_ucontext_err;

	atomic_inc(&u->alloc_ucontext);
	if (err) {
		u->alloc_ucontext_err = 0;
		return err;
	}
	u->ucontext = ibuc;
	return rdma_user_mmap_entry_insert(ibuc, &uc->entry, PAGE_SIZE);
}

static void uvk_dealloc_ucontext(struct ib_ucontext *ibuc)
{
	struct uvk_ucontext *uc = container_of(ibuc, struct uvk_ucontext, base);

	rdma_user_mmap_entry_remove(&uc->entry);
	atomic_inc(&uvk_of(ibuc->device)->dealloc_ucontext);
}

static void uvk_disassociate_ucontext(struct ib_ucontext *ibuc)
{
	atomic_inc(&uvk_of(ibuc->device)->disassociate_ucontext);
}

/* The device page, for the context's entry's offset. */
static int uvk_mmap(struct ib_ucontext *ibuc, struct vm_area_struct *vma)
{
	struct uvk *u = uvk_of(ibuc->device);
	struct rdma_user_mmap_entry *entry;
	int ret;

	entry = rdma_user_mmap_entry_get(ibuc, vma);
	if (!entry)
		return -EINVAL;
	ret = rdma_user_mmap_io(ibuc, vma, page_to_pfn(u->page), PAGE_SIZE,
				vma->vm_page_prot, entry);
	rdma_user_mmap_entry_put(entry);
	return ret;
}

static void uvk_mmap_free(struct rdma_user_mmap_entry *entry)
{
	atomic_inc(&uvk_of(entry->ucontext->device)->mmap_free);
}

static const struct ib_device_ops uvk_ops = {
	.alloc_ucontext = uvk_alloc_ucontext,
	.dealloc_ucontext = uvk_dealloc_ucontext,
	.mmap = uvk_mmap,
	.mmap_free = uvk_mmap_free,
	INIT_RDMA_OBJ_SIZE(ib_ucontext, uvk_ucontext, base),
};

static const struct ib_device_ops uvk_disassociate_ops = {
	.disassociate_ucontext = uvk_disassociate_ucontext,
};

/* The case's end: its files, the device, the user memory. */
static void uvk_free(struct kunit_resource *res)
{
	struct uvk *u = res->data;
	u32 index = u->td->ibdev.index;
	int i;

	for (i = 0; i < UVK_MAX_FILES; i++)
		if (u->files[i])
			fput(u->files[i]);
	flush_delayed_fput();
	tdev_destroy(u->td);
	xa_erase(&uvk_devs, index);
	__free_page(u->page);
	/* In the case's thread, or in the loader, whose mm this is too. */
	if (u->user && current->mm == uvk_mm)
		vm_munmap(u->user, UVK_USER_LEN);
	if (current == u->thread) {
		kthread_unuse_mm(uvk_mm);
		mmput(uvk_mm);
	}
}

/**
 * uvk_adopt_mm() - a helper thread of a case uses the borrowed address
 *	space (the case's scratch memory) until uvk_drop_mm()
 */
void uvk_adopt_mm(void)
{
	mmget(uvk_mm);
	kthread_use_mm(uvk_mm);
}
EXPORT_SYMBOL_GPL(uvk_adopt_mm);

/**
 * uvk_drop_mm() - the helper thread is done with the address space
 */
void uvk_drop_mm(void)
{
	kthread_unuse_mm(uvk_mm);
	mmput(uvk_mm);
}
EXPORT_SYMBOL_GPL(uvk_drop_mm);

/* The case adopts the loader's address space and maps its scratch area. */
static void uvk_user_init(struct uvk *u)
{
	/* The first device of a case adopts it for the case's thread. */
	if (current->mm != uvk_mm) {
		/* A reference for the thread: if it dies, exit drops it */
		mmget(uvk_mm);
		kthread_use_mm(uvk_mm);
		u->thread = current;
	}
	u->user = vm_mmap(NULL, 0, UVK_USER_LEN, PROT_READ | PROT_WRITE,
			  MAP_ANONYMOUS | MAP_PRIVATE, 0);
	KUNIT_ASSERT_FALSE(u->test, IS_ERR_VALUE(u->user));
}

/**
 * uvk_new_unregistered() - a test device for userspace, not registered
 * @test: the case; skipped without an address space to borrow, failed if
 *	the device cannot be made
 * @p: the device's parameters (NULL: defaults)
 *
 * Return: the case's uvk; freed when the case ends.
 */
struct uvk *uvk_new_unregistered(struct kunit *test,
				 const struct uvk_params *p)
{
	static const struct uvk_params defaults;
	struct tdev_params tp = { .name = "kuv%d" };
	struct uvk *u;

	if (!uvk_mm)
		kunit_skip(test, "no user address space to borrow");
	p = p ?: &defaults;
	u = kunit_kzalloc(test, sizeof(*u), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, u);
	u->test = test;
	u->devnum = -1;
	u->page = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, u->page);
	memset(page_address(u->page), 0x5a, PAGE_SIZE);

	tp.driver_id = p->driver_id;
	tp.dma_device = p->dma_device;
	tp.mcast = p->mcast;
	u->td = tdev_create(&tp);
	if (IS_ERR(u->td))
		__free_page(u->page);
	KUNIT_ASSERT_FALSE(test, IS_ERR(u->td));
	ib_set_device_ops(&u->td->ibdev, &uvk_ops);
	if (p->disassociate)
		ib_set_device_ops(&u->td->ibdev, &uvk_disassociate_ops);
	u->td->ibdev.ops.uverbs_abi_ver = p->uverbs_abi_ver;
	u->td->ibdev.driver_def = p->driver_def;
	/* Set by _ib_alloc_device(); cleared bits are disabled commands. */
	u->td->ibdev.uverbs_cmd_mask &= ~p->cmd_mask_clear;
	u->td->ibdev.uverbs_cmd_mask |= p->cmd_mask_set;
	xa_store(&uvk_devs, u->td->ibdev.index, u, GFP_KERNEL);
	kunit_alloc_resource(test, NULL, uvk_free, GFP_KERNEL, u);
	uvk_user_init(u);
	return u;
}
EXPORT_SYMBOL_GPL(uvk_new_unregistered);

/* N of the uverbsN whose ibdev is @name, or -ENOENT. */
static int uvk_find_uverbs(const char *name)
{
	char path[64], buf[IB_DEVICE_NAME_MAX + 2];
	int n;

	for (n = 0; n < 64; n++) {
		snprintf(path, sizeof(path),
			 "/sys/class/infiniband_verbs/uverbs%d/ibdev", n);
		if (tk_file_read(path, buf, sizeof(buf)))
			continue;
		if (!strcmp(strim(buf), name))
			return n;
	}
	return -ENOENT;
}

/**
 * uvk_register() - register a test device and find its uverbsN
 * @u: the device
 *
 * Return: 0 (u->devnum set), the registration's error, or -ENOENT if
 * ib_uverbs gave it no uverbsN.
 */
int uvk_register(struct uvk *u)
{
	int ret = tdev_register(u->td);

	if (ret)
		return ret;
	u->devnum = uvk_find_uverbs(dev_name(&u->td->ibdev.dev));
	return u->devnum < 0 ? u->devnum : 0;
}
EXPORT_SYMBOL_GPL(uvk_register);

/**
 * uvk_unregister() - unregister a test device (its uverbsN goes)
 * @u: the device
 */
void uvk_unregister(struct uvk *u)
{
	tdev_unregister(u->td);
}
EXPORT_SYMBOL_GPL(uvk_unregister);

/**
 * uvk_new() - a registered test device for userspace, with its uverbsN
 * @test: the case; it fails if the device or its uverbsN is missing
 * @p: the device's parameters (NULL: defaults)
 *
 * Return: the case's uvk.
 */
struct uvk *uvk_new(struct kunit *test, const struct uvk_params *p)
{
	struct uvk *u = uvk_new_unregistered(test, p);

	KUNIT_ASSERT_EQ(test, uvk_register(u), 0);
	return u;
}
EXPORT_SYMBOL_GPL(uvk_new);

/**
 * uvk_open() - open the device's /dev/infiniband/uverbsN
 * @u: the device
 *
 * Return: the file, or an ERR_PTR; the case closes it with uvk_close(),
 * or its end does.
 */
struct file *uvk_open(struct uvk *u)
{
	char path[48];
	struct file *f;
	int i;

	snprintf(path, sizeof(path), "/dev/infiniband/uverbs%d", u->devnum);
	f = filp_open(path, O_RDWR, 0);
	if (IS_ERR(f))
		return f;
	for (i = 0; i < UVK_MAX_FILES && u->files[i]; i++)
		;
	KUNIT_ASSERT_LT(u->test, i, UVK_MAX_FILES);
	u->files[i] = f;
	return f;
}
EXPORT_SYMBOL_GPL(uvk_open);

/**
 * uvk_close() - release a file now: its release has run on return
 * @u: the case's device
 * @f: a file of uvk_open() or uvk_take_fd(), whose last reference this is
 */
void uvk_close(struct uvk *u, struct file *f)
{
	int i;

	for (i = 0; i < UVK_MAX_FILES; i++)
		if (u->files[i] == f)
			u->files[i] = NULL;
	__fput_sync(f);
}
EXPORT_SYMBOL_GPL(uvk_close);

/**
 * uvk_take_fd() - take a file out of the descriptor table
 * @fd: a descriptor a request installed (an async event file, ...)
 *
 * Return: its file, holding the only reference (uvk_close() releases it),
 * or NULL if @fd is not open.
 */
struct file *uvk_take_fd(int fd)
{
	struct file *f = fget(fd);

	if (f)
		close_fd(fd);
	return f;
}
EXPORT_SYMBOL_GPL(uvk_take_fd);

/**
 * uvk_uptr() - an address in the case's user memory
 * @u: the case's device
 * @off: the offset
 *
 * Return: the user address.
 */
void __user *uvk_uptr(struct uvk *u, unsigned long off)
{
	return (void __user *)(u->user + off);
}
EXPORT_SYMBOL_GPL(uvk_uptr);

/**
 * uvk_udata() - copy data to the request's data area in user memory
 * @u: the case's device
 * @data: the data, or NULL for @len zero bytes
 * @len: its size
 *
 * Return: its user address (valid until the next uvk_ioctl_init()).
 */
void __user *uvk_udata(struct uvk *u, const void *data, size_t len)
{
	void __user *p = uvk_uptr(u, u->next_data);

	KUNIT_ASSERT_LE(u->test, u->next_data + len, (unsigned long)UVK_WRITE_OFF);
	if (data)
		KUNIT_ASSERT_EQ(u->test, copy_to_user(p, data, len), 0);
	else
		KUNIT_ASSERT_EQ(u->test, clear_user(p, len), 0);
	u->next_data += ALIGN(len, 8);
	return p;
}
EXPORT_SYMBOL_GPL(uvk_udata);

/**
 * uvk_copy_out() - read the case's user memory
 * @u: the case's device
 * @to: the kernel buffer
 * @from: the user address
 * @len: bytes
 */
void uvk_copy_out(struct uvk *u, void *to, const void __user *from,
		  size_t len)
{
	KUNIT_ASSERT_EQ(u->test, copy_from_user(to, from, len), 0);
}
EXPORT_SYMBOL_GPL(uvk_copy_out);

/**
 * uvk_write() - write() a command
 * @u: the case's device
 * @f: the file
 * @cmd: the command, headers first
 * @len: its bytes
 *
 * Return: what write() returns.
 */
ssize_t uvk_write(struct uvk *u, struct file *f, const void *cmd, size_t len)
{
	void __user *p = uvk_uptr(u, UVK_WRITE_OFF);
	loff_t pos = 0;

	KUNIT_ASSERT_LE(u->test, len, (size_t)(UVK_READ_OFF - UVK_WRITE_OFF));
	KUNIT_ASSERT_EQ(u->test, copy_to_user(p, cmd, len), 0);
	return f->f_op->write(f, p, len, &pos);
}
EXPORT_SYMBOL_GPL(uvk_write);

/**
 * uvk_read() - read() a file
 * @u: the case's device
 * @f: the file
 * @buf: what was read, up to @count bytes
 * @count: the size asked for (at most 8 KiB)
 * @nonblock: with O_NONBLOCK
 *
 * Return: what read() returns.
 */
ssize_t uvk_read(struct uvk *u, struct file *f, void *buf, size_t count,
		 bool nonblock)
{
	void __user *p = uvk_uptr(u, UVK_READ_OFF);
	loff_t pos = 0;
	ssize_t n;

	KUNIT_ASSERT_LE(u->test, count, (size_t)(UVK_USER_LEN - UVK_READ_OFF));
	spin_lock(&f->f_lock);
	if (nonblock)
		f->f_flags |= O_NONBLOCK;
	else
		f->f_flags &= ~O_NONBLOCK;
	spin_unlock(&f->f_lock);
	n = f->f_op->read(f, p, count, &pos);
	if (n > 0)
		uvk_copy_out(u, buf, p, n);
	return n;
}
EXPORT_SYMBOL_GPL(uvk_read);

/**
 * uvk_ioctl_init() - start an ioctl() request
 * @u: the case's device; its request data area is emptied
 * @req: the request
 * @object: its object id
 * @method: its method id
 */
void uvk_ioctl_init(struct uvk *u, struct uvk_ioctl *req, u16 object,
		   u16 method)
{
	memset(req, 0, sizeof(*req));
	req->hdr.object_id = object;
	req->hdr.method_id = method;
	req->hdr.driver_id = u->td->ibdev.ops.driver_id;
	u->next_data = UVK_DATA_OFF;
}
EXPORT_SYMBOL_GPL(uvk_ioctl_init);

/**
 * uvk_attr() - add an attribute, zeroed but for its id and flags
 * @req: the request
 * @id: the attribute id
 * @flags: UVERBS_ATTR_F_MANDATORY or 0
 *
 * Return: the attribute, to fill in.
 */
struct ib_uverbs_attr *uvk_attr(struct uvk_ioctl *req, u16 id, u16 flags)
{
	struct ib_uverbs_attr *a;

	if (WARN_ON(req->hdr.num_attrs >= UVK_MAX_ATTRS))
		return &req->attrs[UVK_MAX_ATTRS - 1];
	a = &req->attrs[req->hdr.num_attrs++];
	a->attr_id = id;
	a->flags = flags;
	return a;
}
EXPORT_SYMBOL_GPL(uvk_attr);

/**
 * uvk_attr_in() - add a mandatory input attribute: inline up to 8 bytes,
 *	else in user memory
 * @u: the case's device
 * @req: the request
 * @id: the attribute id
 * @data: the data
 * @len: its bytes
 */
void uvk_attr_in(struct uvk *u, struct uvk_ioctl *req, u16 id,
		 const void *data, u16 len)
{
	struct ib_uverbs_attr *a = uvk_attr(req, id, UVERBS_ATTR_F_MANDATORY);

	a->len = len;
	if (len <= sizeof(a->data))
		memcpy(&a->data, data, len);
	else
		a->data = (uintptr_t)uvk_udata(u, data, len);
}
EXPORT_SYMBOL_GPL(uvk_attr_in);

/**
 * uvk_attr_u64() - add a mandatory inline 8-byte input (a const)
 * @req: the request
 * @id: the attribute id
 * @val: the value
 */
void uvk_attr_u64(struct uvk_ioctl *req, u16 id, u64 val)
{
	struct ib_uverbs_attr *a = uvk_attr(req, id, UVERBS_ATTR_F_MANDATORY);

	a->len = sizeof(val);
	a->data = val;
}
EXPORT_SYMBOL_GPL(uvk_attr_u64);

/**
 * uvk_attr_out() - add a mandatory output attribute in user memory
 * @u: the case's device
 * @req: the request
 * @id: the attribute id
 * @len: its bytes, zeroed before the call
 *
 * Return: its user address, for uvk_copy_out().
 */
void __user *uvk_attr_out(struct uvk *u, struct uvk_ioctl *req, u16 id,
			  u16 len)
{
	struct ib_uverbs_attr *a = uvk_attr(req, id, UVERBS_ATTR_F_MANDATORY);
	void __user *p = uvk_udata(u, NULL, len);

	a->len = len;
	a->data = (uintptr_t)p;
	return p;
}
EXPORT_SYMBOL_GPL(uvk_attr_out);

/**
 * uvk_attr_obj() - add a mandatory object attribute (IDR handle or FD)
 * @req: the request
 * @id: the attribute id
 * @handle: the handle (ignored for a NEW object: the kernel writes its
 *	handle back in attrs[].data)
 */
void uvk_attr_obj(struct uvk_ioctl *req, u16 id, s64 handle)
{
	uvk_attr(req, id, UVERBS_ATTR_F_MANDATORY)->data_s64 = handle;
}
EXPORT_SYMBOL_GPL(uvk_attr_obj);

/**
 * uvk_ioctl() - send an ioctl() request
 * @u: the case's device
 * @f: the file
 * @req: the request; its attributes are read back after the call
 *
 * Return: what ioctl() returns (0 or a negative errno).
 */
long uvk_ioctl(struct uvk *u, struct file *f, struct uvk_ioctl *req)
{
	void __user *p = uvk_uptr(u, UVK_IOCTL_OFF + 1024 * (req->lane & 3));
	size_t attrs_len = sizeof(req->attrs[0]) *
			   min_t(u16, req->hdr.num_attrs, UVK_MAX_ATTRS);
	long ret;

	if (!req->raw_hdr)
		req->hdr.length = sizeof(req->hdr) + attrs_len;
	KUNIT_ASSERT_EQ(u->test, copy_to_user(p, &req->hdr, sizeof(req->hdr)), 0);
	KUNIT_ASSERT_EQ(u->test, copy_to_user(p + sizeof(req->hdr), req->attrs,
					      attrs_len), 0);
	ret = f->f_op->unlocked_ioctl(f, RDMA_VERBS_IOCTL, (unsigned long)p);
	uvk_copy_out(u, req->attrs, p + sizeof(req->hdr), attrs_len);
	return ret;
}
EXPORT_SYMBOL_GPL(uvk_ioctl);

/**
 * uvk_get_context() - write() GET_CONTEXT
 * @u: the case's device
 * @f: the file
 *
 * Return: the async event file's descriptor, or a negative errno.
 */
int uvk_get_context(struct uvk *u, struct file *f)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_get_context cmd;
	} req = {};
	struct ib_uverbs_get_context_resp resp;
	void __user *out = uvk_uptr(u, UVK_READ_OFF - sizeof(resp));
	ssize_t n;

	req.hdr.command = IB_USER_VERBS_CMD_GET_CONTEXT;
	req.hdr.in_words = sizeof(req) / 4;
	req.hdr.out_words = sizeof(resp) / 4;
	req.cmd.response = (uintptr_t)out;
	n = uvk_write(u, f, &req, sizeof(req));
	if (n < 0)
		return n;
	uvk_copy_out(u, &resp, out, sizeof(resp));
	return resp.async_fd;
}
EXPORT_SYMBOL_GPL(uvk_get_context);
