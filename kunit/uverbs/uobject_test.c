// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the lives of ib_uverbs' user objects (uverbs/core/
 * uobject.c, idr.c, fd.c, cleanup.c, ucontext.c, device.c): creation,
 * commit and abort, lookups that share or take an object and the -EBUSY
 * of a busy one, destruction (refused by the driver, raced), the teardown
 * of a closed file with live objects, and disassociation.  The exports
 * under test: uverbs_idr_class, uverbs_fd_class, uverbs_uobject_put,
 * uverbs_uobject_fd_release, uverbs_destroy_def_handler,
 * uverbs_finalize_uobj_create and ib_uverbs_get_ucontext_file.
 *
 * The objects are the test driver's (tobj.h): their destroy_object
 * records its reason and answer in tobj_log.
 */
#include <kunit/test.h>
#include <linux/fdtable.h>
#include <linux/file.h>
#include "tk.h"
#include "tobj.h"

/**
 * struct ut - one case's fixture (test->priv)
 * @u: the test device
 * @f: its open uverbsN, with a context
 * @afd: the context's async event file, taken out of the fd table
 */
struct ut {
	struct uvk *u;
	struct file *f;
	struct file *afd;
};

static struct ut *ut_setup(struct kunit *test, bool disassociate)
{
	struct uvk_params p = { .driver_def = tobj_driver_def,
				.disassociate = disassociate };
	struct ut *ut = kunit_kzalloc(test, sizeof(*ut), GFP_KERNEL);
	int afd;

	KUNIT_ASSERT_NOT_NULL(test, ut);
	tobj_reset();
	ut->u = uvk_new(test, &p);
	ut->f = uvk_open(ut->u);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ut->f));
	afd = uvk_get_context(ut->u, ut->f);
	KUNIT_ASSERT_GE(test, afd, 0);
	ut->afd = uvk_take_fd(afd);
	KUNIT_ASSERT_NOT_NULL(test, ut->afd);
	return ut;
}

static void ut_close(struct ut *ut)
{
	if (ut->afd)
		uvk_close(ut->u, ut->afd);
	ut->afd = NULL;
	if (ut->f)
		uvk_close(ut->u, ut->f);
	ut->f = NULL;
}

static void uobj_create_use_destroy(struct kunit *test)
{
	struct ut *ut = ut_setup(test, false);
	u32 h1, h2;
	u64 v;

	KUNIT_ASSERT_EQ(test, tobj_create(ut->u, ut->f, 11, &h1), 0);
	KUNIT_ASSERT_EQ(test, tobj_create(ut->u, ut->f, 22, &h2), 0);
	KUNIT_EXPECT_NE(test, h1, h2);
	KUNIT_EXPECT_EQ(test, tobj_use(ut->u, ut->f, h2, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 22ULL);

	KUNIT_EXPECT_EQ(test, tobj_destroy(ut->u, ut->f, h1), 0);
	KUNIT_ASSERT_EQ(test, tobj_log.ndestroys, 1);
	KUNIT_EXPECT_EQ(test, tobj_log.destroys[0].value, 11ULL);
	KUNIT_EXPECT_EQ(test, tobj_log.destroys[0].why, RDMA_REMOVE_DESTROY);
	/* The handle is gone */
	KUNIT_EXPECT_EQ(test, tobj_destroy(ut->u, ut->f, h1), -ENOENT);
	KUNIT_EXPECT_EQ(test, tobj_use(ut->u, ut->f, h1, NULL), -ENOENT);
	KUNIT_EXPECT_EQ(test, tobj_use(ut->u, ut->f, h2, &v), 0);
	ut_close(ut);
	/* The teardown destroyed the other one */
	KUNIT_ASSERT_EQ(test, tobj_log.ndestroys, 2);
	KUNIT_EXPECT_EQ(test, tobj_log.destroys[1].why, RDMA_REMOVE_CLOSE);
	KUNIT_EXPECT_EQ(test, atomic_read(&ut->u->dealloc_ucontext), 1);
}

static void uobj_wrong_type_and_file(struct kunit *test)
{
	struct ut *ut = ut_setup(test, false);
	struct uvk_ioctl req;
	struct file *f2;
	u32 h, h2;
	int afd;

	KUNIT_ASSERT_EQ(test, tobj_create(ut->u, ut->f, 1, &h), 0);
	uvk_ioctl_init(ut->u, &req, TOBJ_OBJ2, TOBJ_M_CREATE2);
	uvk_attr_obj(&req, TOBJ_A_HANDLE, 0);
	KUNIT_ASSERT_EQ(test, uvk_ioctl(ut->u, ut->f, &req), 0);
	h2 = req.attrs[0].data;
	/* A handle of another type */
	KUNIT_EXPECT_EQ(test, tobj_use(ut->u, ut->f, h2, NULL), -EINVAL);

	/* Handles are per file */
	f2 = uvk_open(ut->u);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f2));
	KUNIT_EXPECT_EQ(test, tobj_use(ut->u, f2, h, NULL), -ENOENT);
	afd = uvk_get_context(ut->u, f2);
	KUNIT_ASSERT_GE(test, afd, 0);
	uvk_close(ut->u, uvk_take_fd(afd));
	KUNIT_EXPECT_EQ(test, tobj_use(ut->u, f2, h, NULL), -ENOENT);
	uvk_close(ut->u, f2);
	ut_close(ut);
}

/* A request run in a helper thread (tk_start()). */
struct ut_async {
	struct ut *ut;
	u16 method;
	u32 handle;
	long ret;
};

static void ut_async_fn(void *arg)
{
	struct ut_async *a = arg;
	struct uvk_ioctl req;

	uvk_adopt_mm();
	uvk_ioctl_init(a->ut->u, &req, TOBJ_OBJ, a->method);
	req.lane = 1;
	uvk_attr_obj(&req, TOBJ_A_HANDLE, a->handle);
	uvk_attr_u64(&req, TOBJ_A_WAIT, 1);
	if (a->method == TOBJ_M_SET)
		uvk_attr_u64(&req, TOBJ_A_VALUE, 77);
	a->ret = uvk_ioctl(a->ut->u, a->ut->f, &req);
	uvk_drop_mm();
}

static long ut_set(struct ut *ut, u32 h, u64 value)
{
	struct uvk_ioctl req;

	uvk_ioctl_init(ut->u, &req, TOBJ_OBJ, TOBJ_M_SET);
	uvk_attr_obj(&req, TOBJ_A_HANDLE, h);
	uvk_attr_u64(&req, TOBJ_A_VALUE, value);
	return uvk_ioctl(ut->u, ut->f, &req);
}

static void uobj_shared_use_blocks_exclusive(struct kunit *test)
{
	struct ut *ut = ut_setup(test, false);
	struct ut_async a = { .ut = ut, .method = TOBJ_M_USE };
	struct tk_thread t;
	u64 v;

	KUNIT_ASSERT_EQ(test, tobj_create(ut->u, ut->f, 5, &a.handle), 0);
	tk_start(test, &t, ut_async_fn, &a);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&tobj_gate.entered,
							    10 * HZ));
	/* Shared: another reader gets it; a writer or a destroy does not */
	KUNIT_EXPECT_EQ(test, tobj_use(ut->u, ut->f, a.handle, &v), 0);
	KUNIT_EXPECT_EQ(test, ut_set(ut, a.handle, 6), -EBUSY);
	KUNIT_EXPECT_EQ(test, tobj_destroy(ut->u, ut->f, a.handle), -EBUSY);
	KUNIT_EXPECT_EQ(test, tobj_log.ndestroys, 0);
	complete(&tobj_gate.release);
	tk_join(&t);
	KUNIT_EXPECT_EQ(test, a.ret, 0);
	/* Released: all of it works again */
	KUNIT_EXPECT_EQ(test, ut_set(ut, a.handle, 6), 0);
	KUNIT_EXPECT_EQ(test, tobj_destroy(ut->u, ut->f, a.handle), 0);
	ut_close(ut);
}

static void uobj_exclusive_use_blocks_all(struct kunit *test)
{
	struct ut *ut = ut_setup(test, false);
	struct ut_async a = { .ut = ut, .method = TOBJ_M_SET };
	struct tk_thread t;
	u64 v;

	KUNIT_ASSERT_EQ(test, tobj_create(ut->u, ut->f, 5, &a.handle), 0);
	tk_start(test, &t, ut_async_fn, &a);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&tobj_gate.entered,
							    10 * HZ));
	KUNIT_EXPECT_EQ(test, tobj_use(ut->u, ut->f, a.handle, &v), -EBUSY);
	KUNIT_EXPECT_EQ(test, ut_set(ut, a.handle, 6), -EBUSY);
	KUNIT_EXPECT_EQ(test, tobj_destroy(ut->u, ut->f, a.handle), -EBUSY);
	complete(&tobj_gate.release);
	tk_join(&t);
	KUNIT_EXPECT_EQ(test, a.ret, 0);
	KUNIT_EXPECT_EQ(test, tobj_use(ut->u, ut->f, a.handle, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 77ULL);
	ut_close(ut);
}

/* Two threads destroy the same handle at once: exactly one wins. */
struct ut_race {
	struct ut *ut;
	u32 handle;
	long ret;
	struct completion go;
};

static void ut_race_fn(void *arg)
{
	struct ut_race *r = arg;
	struct uvk_ioctl req;

	uvk_adopt_mm();
	uvk_ioctl_init(r->ut->u, &req, TOBJ_OBJ, TOBJ_M_DESTROY);
	req.lane = 2;
	uvk_attr_obj(&req, TOBJ_A_HANDLE, r->handle);
	wait_for_completion(&r->go);
	r->ret = uvk_ioctl(r->ut->u, r->ut->f, &req);
	uvk_drop_mm();
}

static void uobj_destroy_race(struct kunit *test)
{
	struct ut *ut = ut_setup(test, false);
	struct ut_race r = { .ut = ut };
	struct tk_thread t;
	int i, wins = 0;
	long ret;

	for (i = 0; i < 50; i++) {
		KUNIT_ASSERT_EQ(test, tobj_create(ut->u, ut->f, i, &r.handle), 0);
		init_completion(&r.go);
		tk_start(test, &t, ut_race_fn, &r);
		complete(&r.go);
		ret = tobj_destroy(ut->u, ut->f, r.handle);
		tk_join(&t);
		KUNIT_EXPECT_TRUE(test, ret == 0 || ret == -EBUSY ||
					ret == -ENOENT);
		KUNIT_EXPECT_TRUE(test, r.ret == 0 || r.ret == -EBUSY ||
					r.ret == -ENOENT);
		KUNIT_EXPECT_EQ(test, (ret == 0) + (r.ret == 0), 1);
		wins += ret == 0;
	}
	/* Every object was destroyed once */
	KUNIT_EXPECT_EQ(test, tobj_log.ndestroys, 50);
	kunit_info(test, "the case's thread won %d of 50 races", wins);
	ut_close(ut);
}

static void uobj_driver_refuses_destroy(struct kunit *test)
{
	struct ut *ut = ut_setup(test, false);
	u32 p, c;
	u64 v;

	KUNIT_ASSERT_EQ(test, tobj_create(ut->u, ut->f, 1, &p), 0);
	KUNIT_ASSERT_EQ(test, tobj_create_child(ut->u, ut->f, 2, p, &c), 0);
	/* In use by its child: refused, and nothing changed */
	KUNIT_EXPECT_EQ(test, tobj_destroy(ut->u, ut->f, p), -EBUSY);
	KUNIT_EXPECT_EQ(test, tobj_use(ut->u, ut->f, p, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 1ULL);
	KUNIT_EXPECT_EQ(test, tobj_destroy(ut->u, ut->f, c), 0);
	KUNIT_EXPECT_EQ(test, tobj_destroy(ut->u, ut->f, p), 0);
	KUNIT_ASSERT_EQ(test, tobj_log.ndestroys, 3);
	KUNIT_EXPECT_EQ(test, tobj_log.destroys[0].ret, -EBUSY);
	ut_close(ut);
	KUNIT_EXPECT_EQ(test, tobj_log.ndestroys, 3);
}

static void uobj_close_orders_teardown(struct kunit *test)
{
	struct ut *ut = ut_setup(test, false);
	struct uvk_ioctl req;
	u32 a, b, c;

	/* c is the newest, but a, older, uses it: c's first try fails */
	KUNIT_ASSERT_EQ(test, tobj_create(ut->u, ut->f, 1, &a), 0);
	KUNIT_ASSERT_EQ(test, tobj_create(ut->u, ut->f, 2, &b), 0);
	KUNIT_ASSERT_EQ(test, tobj_create(ut->u, ut->f, 3, &c), 0);
	uvk_ioctl_init(ut->u, &req, TOBJ_OBJ, TOBJ_M_ADOPT);
	uvk_attr_obj(&req, TOBJ_A_HANDLE, a);
	uvk_attr_obj(&req, TOBJ_A_PARENT, c);
	KUNIT_ASSERT_EQ(test, uvk_ioctl(ut->u, ut->f, &req), 0);
	ut_close(ut);

	KUNIT_ASSERT_EQ(test, tobj_log.ndestroys, 4);
	KUNIT_EXPECT_EQ(test, tobj_log.destroys[0].value, 3ULL);
	KUNIT_EXPECT_EQ(test, tobj_log.destroys[0].ret, -EBUSY);
	KUNIT_EXPECT_EQ(test, tobj_log.destroys[1].value, 2ULL);
	KUNIT_EXPECT_EQ(test, tobj_log.destroys[2].value, 1ULL);
	KUNIT_EXPECT_EQ(test, tobj_log.destroys[3].value, 3ULL);
	KUNIT_EXPECT_EQ(test, tobj_log.destroys[3].ret, 0);
	KUNIT_EXPECT_EQ(test, tobj_log.destroys[3].why, RDMA_REMOVE_CLOSE);
	KUNIT_EXPECT_EQ(test, atomic_read(&ut->u->dealloc_ucontext), 1);
}

static void uobj_close_forgets_stuck_object(struct kunit *test)
{
	struct ut *ut = ut_setup(test, false);
	u32 h;

	KUNIT_ASSERT_EQ(test, tobj_create(ut->u, ut->f, TOBJ_VALUE_STUCK, &h), 0);
	KUNIT_ASSERT_EQ(test, tobj_create(ut->u, ut->f, 1, &h), 0);
	ut_close(ut);
	/* Tried once in the pass that destroyed the other, then forgotten */
	KUNIT_EXPECT_EQ(test, tobj_log.ndestroys, 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&ut->u->dealloc_ucontext), 1);
	KUNIT_EXPECT_NOT_NULL(test, tobj_log.stuck);
	kfree(tobj_log.stuck);
}

static long ut_create_failing(struct ut *ut, u64 fail, u32 *h)
{
	struct uvk_ioctl req;
	long ret;

	uvk_ioctl_init(ut->u, &req, TOBJ_OBJ, TOBJ_M_CREATE);
	uvk_attr_obj(&req, TOBJ_A_HANDLE, 0);
	uvk_attr_u64(&req, TOBJ_A_VALUE, 40 + fail);
	uvk_attr_u64(&req, TOBJ_A_FAIL, fail);
	ret = uvk_ioctl(ut->u, ut->f, &req);
	*h = req.attrs[0].data;
	return ret;
}

static void uobj_create_aborts(struct kunit *test)
{
	struct ut *ut = ut_setup(test, false);
	u32 h, h_ok;

	/* Failing before the object exists: nothing to destroy */
	KUNIT_EXPECT_EQ(test, ut_create_failing(ut, TOBJ_FAIL_BEFORE_HW, &h),
			-ENOMEM);
	KUNIT_EXPECT_EQ(test, tobj_log.ndestroys, 0);
	KUNIT_EXPECT_EQ(test, tobj_use(ut->u, ut->f, h, NULL), -ENOENT);
	/* After uverbs_finalize_uobj_create(): destroyed as an abort */
	KUNIT_EXPECT_EQ(test, ut_create_failing(ut, TOBJ_FAIL_AFTER_HW, &h),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, tobj_log.ndestroys, 1);
	KUNIT_EXPECT_EQ(test, tobj_log.destroys[0].why, RDMA_REMOVE_ABORT);
	KUNIT_EXPECT_EQ(test, tobj_log.destroys[0].value,
			40ULL + TOBJ_FAIL_AFTER_HW);
	KUNIT_EXPECT_EQ(test, tobj_use(ut->u, ut->f, h, NULL), -ENOENT);
	/* The handles are free again; the file works on */
	KUNIT_EXPECT_EQ(test, tobj_create(ut->u, ut->f, 1, &h_ok), 0);
	ut_close(ut);
	KUNIT_EXPECT_EQ(test, tobj_log.ndestroys, 2);
}

static void uobj_create_needs_context(struct kunit *test)
{
	struct uvk_params p = { .driver_def = tobj_driver_def };
	struct uvk *u;
	struct file *f;
	u32 h;

	tobj_reset();
	u = uvk_new(test, &p);
	f = uvk_open(u);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	KUNIT_EXPECT_EQ(test, tobj_create(u, f, 1, &h), -EINVAL);
	uvk_close(u, f);
	KUNIT_EXPECT_EQ(test, atomic_read(&u->alloc_ucontext), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&u->dealloc_ucontext), 0);
}

static long ut_fd_create(struct ut *ut, int *fd)
{
	struct uvk_ioctl req;
	long ret;

	uvk_ioctl_init(ut->u, &req, TOBJ_FD, TOBJ_M_FD_CREATE);
	uvk_attr_obj(&req, TOBJ_A_HANDLE, 0);
	ret = uvk_ioctl(ut->u, ut->f, &req);
	*fd = req.attrs[0].data;
	return ret;
}

static long ut_fd_use(struct ut *ut, int fd)
{
	struct uvk_ioctl req;

	uvk_ioctl_init(ut->u, &req, TOBJ_FD, TOBJ_M_FD_USE);
	uvk_attr_obj(&req, TOBJ_A_HANDLE, fd);
	return uvk_ioctl(ut->u, ut->f, &req);
}

static void uobj_fd_object(struct kunit *test)
{
	struct ut *ut = ut_setup(test, false);
	struct file *file;
	int fd, fd2, afd;

	KUNIT_ASSERT_EQ(test, ut_fd_create(ut, &fd), 0);
	KUNIT_EXPECT_EQ(test, ut_fd_use(ut, fd), 0);
	/* Not a descriptor, or one of another type */
	KUNIT_EXPECT_EQ(test, ut_fd_use(ut, 100000), -EBADF);
	afd = get_unused_fd_flags(0);
	KUNIT_ASSERT_GE(test, afd, 0);
	get_file(ut->afd);
	fd_install(afd, ut->afd);
	KUNIT_EXPECT_EQ(test, ut_fd_use(ut, afd), -EBADF);
	close_fd(afd);

	/* Its file's release destroys it */
	file = uvk_take_fd(fd);
	KUNIT_ASSERT_NOT_NULL(test, file);
	uvk_close(ut->u, file);
	KUNIT_EXPECT_EQ(test, tobj_log.fd_destroys, 1);
	KUNIT_EXPECT_EQ(test, tobj_log.fd_why, RDMA_REMOVE_CLOSE);

	/* The uverbs file's close destroys another; its release does not */
	KUNIT_ASSERT_EQ(test, ut_fd_create(ut, &fd2), 0);
	file = uvk_take_fd(fd2);
	ut_close(ut);
	KUNIT_EXPECT_EQ(test, tobj_log.fd_destroys, 2);
	uvk_close(ut->u, file);
	KUNIT_EXPECT_EQ(test, tobj_log.fd_destroys, 2);
}

static void uobj_disassociate(struct kunit *test)
{
	struct ut *ut = ut_setup(test, true);
	struct ib_uverbs_async_event_desc ev;
	struct file *fdfile;
	u32 h1, h2;
	int fd;

	KUNIT_ASSERT_EQ(test, tobj_create(ut->u, ut->f, 1, &h1), 0);
	KUNIT_ASSERT_EQ(test, tobj_create(ut->u, ut->f, 2, &h2), 0);
	KUNIT_ASSERT_EQ(test, ut_fd_create(ut, &fd), 0);
	fdfile = uvk_take_fd(fd);

	/* Returns with the file open */
	uvk_unregister(ut->u);
	KUNIT_EXPECT_EQ(test, tobj_log.ndestroys, 2);
	KUNIT_EXPECT_EQ(test, tobj_log.destroys[0].why,
			RDMA_REMOVE_DRIVER_REMOVE);
	KUNIT_EXPECT_EQ(test, tobj_log.fd_destroys, 1);
	KUNIT_EXPECT_EQ(test, tobj_log.fd_why, RDMA_REMOVE_DRIVER_REMOVE);
	KUNIT_EXPECT_EQ(test, atomic_read(&ut->u->disassociate_ucontext), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&ut->u->dealloc_ucontext), 1);

	/* The async file's last event says so */
	KUNIT_EXPECT_EQ(test, uvk_read(ut->u, ut->afd, &ev, sizeof(ev), true),
			(ssize_t)sizeof(ev));
	KUNIT_EXPECT_EQ(test, ev.event_type, (u32)IB_EVENT_DEVICE_FATAL);
	/* Everything but destruction is -EIO; a destroy still succeeds */
	KUNIT_EXPECT_EQ(test, tobj_use(ut->u, ut->f, h1, NULL), -EIO);
	KUNIT_EXPECT_EQ(test, tobj_create(ut->u, ut->f, 3, &h1), -EIO);
	KUNIT_EXPECT_EQ(test, uvk_get_context(ut->u, ut->f), -EIO);
	KUNIT_EXPECT_EQ(test, tobj_destroy(ut->u, ut->f, h2), 0);
	KUNIT_EXPECT_EQ(test, tobj_destroy(ut->u, ut->f, h2), -ENOENT);
	/* Closing destroys nothing more */
	uvk_close(ut->u, fdfile);
	ut_close(ut);
	KUNIT_EXPECT_EQ(test, tobj_log.ndestroys, 2);
	KUNIT_EXPECT_EQ(test, tobj_log.fd_destroys, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&ut->u->dealloc_ucontext), 1);
}

static void uobj_disassociate_without_driver_support(struct kunit *test)
{
	struct ut *ut = ut_setup(test, false);
	u32 h;

	KUNIT_ASSERT_EQ(test, tobj_create(ut->u, ut->f, 1, &h), 0);
	uvk_unregister(ut->u);
	KUNIT_EXPECT_EQ(test, tobj_log.ndestroys, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&ut->u->disassociate_ucontext), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ut->u->dealloc_ucontext), 1);
	KUNIT_EXPECT_EQ(test, tobj_use(ut->u, ut->f, h, NULL), -EIO);
	ut_close(ut);
}

static void ut_unregister_fn(void *arg)
{
	uvk_unregister(arg);
}

/* CQ_CREATE naming only @fd as its async event file: the lookup's errno. */
static long ut_cq_create_event_fd(struct ut *ut, int fd)
{
	struct uvk_ioctl req;

	uvk_ioctl_init(ut->u, &req, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
	uvk_attr_obj(&req, UVERBS_ATTR_CREATE_CQ_EVENT_FD, fd);
	return uvk_ioctl(ut->u, ut->f, &req);
}

/*
 * A command naming an FD object after its file was torn down at
 * disassociation, while the device's other files are still being torn
 * down (the types are revoked only after the last): -EIO, and the lookup
 * gives back the reference it took on the object's file.  It used to put
 * the object's file pointer, which the teardown had cleared: fput(NULL),
 * and the reference leaked (issue 18, point 2).  For a driver without
 * disassociate_ucontext, whose objects go at once all the same.
 */
static void uobj_fd_lookup_after_teardown(struct kunit *test)
{
	struct ut *ut = ut_setup(test, false);
	struct file *f2, *afd2;
	struct tk_thread t;
	long count;
	int fd;
	u32 h;

	/* A second file, torn down after the first, blocks in a destroy */
	f2 = uvk_open(ut->u);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f2));
	fd = uvk_get_context(ut->u, f2);
	KUNIT_ASSERT_GE(test, fd, 0);
	afd2 = uvk_take_fd(fd);
	KUNIT_ASSERT_NOT_NULL(test, afd2);
	KUNIT_ASSERT_EQ(test, tobj_create(ut->u, f2, TOBJ_VALUE_GATE, &h), 0);
	/* The first file's async event file, under a descriptor again */
	fd = get_unused_fd_flags(0);
	KUNIT_ASSERT_GE(test, fd, 0);
	get_file(ut->afd);
	fd_install(fd, ut->afd);
	count = file_count(ut->afd);

	tk_start(test, &t, ut_unregister_fn, ut->u);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&tobj_gate.entered,
							    10 * HZ));
	/* The first file is torn down; its event file is still open */
	KUNIT_EXPECT_EQ(test, atomic_read(&ut->u->dealloc_ucontext), 1);
	KUNIT_EXPECT_EQ(test, ut_cq_create_event_fd(ut, fd), -EIO);
	KUNIT_EXPECT_EQ(test, file_count(ut->afd), count);
	complete(&tobj_gate.release);
	tk_join(&t);
	/* And once the types are revoked */
	KUNIT_EXPECT_EQ(test, ut_cq_create_event_fd(ut, fd), -EIO);
	KUNIT_EXPECT_EQ(test, file_count(ut->afd), count);
	KUNIT_EXPECT_EQ(test, atomic_read(&ut->u->dealloc_ucontext), 2);
	close_fd(fd);
	uvk_close(ut->u, afd2);
	uvk_close(ut->u, f2);
	ut_close(ut);
}

static void uobj_context_alloc_failure(struct kunit *test)
{
	struct uvk_params p = { .driver_def = tobj_driver_def };
	struct uvk *u = uvk_new(test, &p);
	struct file *f = uvk_open(u);
	int afd;

	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	u->alloc_ucontext_err = -ENOSPC;
	KUNIT_EXPECT_EQ(test, uvk_get_context(u, f), -ENOSPC);
	/* Nothing was kept: a second try works */
	afd = uvk_get_context(u, f);
	KUNIT_ASSERT_GE(test, afd, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&u->alloc_ucontext), 2);
	KUNIT_EXPECT_EQ(test, uvk_get_context(u, f), -EINVAL);
	uvk_close(u, uvk_take_fd(afd));
	uvk_close(u, f);
	KUNIT_EXPECT_EQ(test, atomic_read(&u->dealloc_ucontext), 1);
}

static struct kunit_case uobject_cases[] = {
	KUNIT_CASE(uobj_create_use_destroy),
	KUNIT_CASE(uobj_wrong_type_and_file),
	KUNIT_CASE(uobj_shared_use_blocks_exclusive),
	KUNIT_CASE(uobj_exclusive_use_blocks_all),
	KUNIT_CASE(uobj_destroy_race),
	KUNIT_CASE(uobj_driver_refuses_destroy),
	KUNIT_CASE(uobj_close_orders_teardown),
	KUNIT_CASE(uobj_close_forgets_stuck_object),
	KUNIT_CASE(uobj_create_aborts),
	KUNIT_CASE(uobj_create_needs_context),
	KUNIT_CASE(uobj_fd_object),
	KUNIT_CASE(uobj_disassociate),
	KUNIT_CASE(uobj_disassociate_without_driver_support),
	KUNIT_CASE(uobj_fd_lookup_after_teardown),
	KUNIT_CASE(uobj_context_alloc_failure),
	{}
};

static struct kunit_suite uobject_suite = {
	.name = "rdma_uverbs_uobject",
	.suite_init = uvk_suite_init,
	.suite_exit = uvk_suite_exit,
	.test_cases = uobject_cases,
};

kunit_test_suites(&uobject_suite);
