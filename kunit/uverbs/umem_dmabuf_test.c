// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites for dma-buf umems (uverbs/umem/dmabuf.c) and the ioctl()
 * method REG_DMABUF_MR (uverbs/objects/mr.c).
 *
 * The exporter is the suite's own (struct xb): a block of pages it
 * allocates, cut into scatterlist entries of a few pages each as the case
 * asks, DMA-mapped for the attaching device at map_dma_buf.  It is a
 * dynamic exporter (pin and unpin) and counts attachments, mappings and
 * pins; it records the DMA entries it hands out and checks, when a
 * mapping comes back, that the importer left them as they were.  It frees
 * itself in its release, the last put of the dma-buf's file, and counts
 * live buffers in xb_live.
 *
 * File descriptors: ib_umem_dmabuf_get() takes a descriptor and looks it
 * up in current->files.  A case runs in a kernel thread, and kernel
 * threads share init_task's table (kthreadd is forked with CLONE_FILES,
 * and so is every kthread), so a case can install a descriptor there with
 * dma_buf_fd() and close it with close_fd().  Since the table is shared
 * by every kernel thread, a descriptor lives only around the one call that
 * takes it (dt_fd_call()): installed, passed, closed, with no assertion in
 * between, so a failing case never leaves one behind; the umem keeps its
 * own reference to the file, as it must once userspace closes the
 * descriptor.  Borrowing the loader's table (as umem_test.c borrows its
 * mm) is not needed: nothing here is user memory.
 *
 * The RDMA device has a real DMA device (tdev_params.dma_device): a
 * dma-buf attaches to a struct device, which a virtual-DMA device lacks.
 * The counts of pins allow for CONFIG_DMABUF_MOVE_NOTIFY: without it, the
 * dma-buf core itself pins a dynamic exporter's buffer for each mapping.
 *
 * The second suite drives REG_DMABUF_MR through a real uverbsN (uvk.h) of
 * a test device whose reg_user_mr_dmabuf registers with
 * ib_umem_dmabuf_get_pinned(), as mlx5_ib does for its pinned MRs.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/dma-buf.h>
#include <linux/dma-fence.h>
#include <linux/dma-mapping.h>
#include <linux/dma-resv.h>
#include <linux/fdtable.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_user_ioctl_cmds.h>

#include "tdev.h"
#include "uvk.h"

MODULE_IMPORT_NS(DMA_BUF);

#define XB_MAX_ENTS	8
/* Pins the dma-buf core adds for each mapping of a dynamic exporter. */
#define XB_MAP_PINS	(IS_ENABLED(CONFIG_DMABUF_MOVE_NOTIFY) ? 0 : 1)

/* Exporter buffers not yet released (their file's last put). */
static atomic_t xb_live = ATOMIC_INIT(0);

/**
 * struct xb_ents - the DMA entries of a mapping as the exporter made them
 * @n: how many
 * @dma: the DMA address of each
 * @len: the DMA length of each
 */
struct xb_ents {
	unsigned int n;
	dma_addr_t dma[XB_MAX_ENTS];
	unsigned int len[XB_MAX_ENTS];
};

/**
 * struct xb_sgt - a mapping the exporter handed out
 * @sgt: the table the importer gets
 * @made: its DMA entries as handed out
 */
struct xb_sgt {
	struct sg_table sgt;
	struct xb_ents made;
};

/**
 * struct xb - the suite's dma-buf exporter, one buffer
 * @dmabuf: the dma-buf
 * @pages: its pages, one block of 2^@order
 * @order: the block's order
 * @npages: pages of the buffer
 * @ent: pages per scatterlist entry, in order
 * @nents: entries
 * @map_nents: entries map_dma_buf maps (fewer: a faulty exporter)
 * @attach_err: what the next attach returns instead of 0, once
 * @pin_err: what the next pin returns instead of 0, once
 * @map_err: what the next map_dma_buf fails with, once
 * @attached: attachments
 * @mapped: mappings handed out and not given back
 * @pins: pins not undone
 * @altered: mappings given back with DMA entries not as handed out
 * @last: the DMA entries of the last mapping handed out
 *
 * Counters change under the reservation lock or in attach/detach; cases
 * read them with nothing in flight.
 */
struct xb {
	struct dma_buf *dmabuf;
	struct page *pages;
	unsigned int order;
	unsigned int npages;
	unsigned int ent[XB_MAX_ENTS];
	unsigned int nents;
	unsigned int map_nents;
	int attach_err;
	int pin_err;
	int map_err;
	int attached;
	int mapped;
	int pins;
	int altered;
	struct xb_ents last;
};

static int xb_attach(struct dma_buf *dmabuf, struct dma_buf_attachment *at)
{
	struct xb *xb = dmabuf->priv;
	int err = xb->attach_err;

	xb->attach_err = 0;
	if (!err)
		xb->attached++;
	return err;
}

static void xb_detach(struct dma_buf *dmabuf, struct dma_buf_attachment *at)
{
	struct xb *xb = dmabuf->priv;

	xb->attached--;
}

static int xb_pin(struct dma_buf_attachment *at)
{
	struct xb *xb = at->dmabuf->priv;
	int err = xb->pin_err;

	dma_resv_assert_held(at->dmabuf->resv);
	xb->pin_err = 0;
	if (!err)
		xb->pins++;
	return err;
}

static void xb_unpin(struct dma_buf_attachment *at)
{
	struct xb *xb = at->dmabuf->priv;

	dma_resv_assert_held(at->dmabuf->resv);
	xb->pins--;
}

/* The DMA entries of @sgt as they are now. */
static void xb_read_ents(struct sg_table *sgt, struct xb_ents *e)
{
	struct scatterlist *sg;
	int i;

	memset(e, 0, sizeof(*e));
	for_each_sgtable_dma_sg(sgt, sg, i) {
		if (i == XB_MAX_ENTS)
			break;
		e->dma[i] = sg_dma_address(sg);
		e->len[i] = sg_dma_len(sg);
	}
	e->n = sgt->nents;
}

static struct sg_table *xb_map(struct dma_buf_attachment *at,
			       enum dma_data_direction dir)
{
	struct xb *xb = at->dmabuf->priv;
	unsigned int i, first = 0;
	struct scatterlist *sg;
	struct xb_sgt *m;
	int err = xb->map_err;

	dma_resv_assert_held(at->dmabuf->resv);
	xb->map_err = 0;
	if (err)
		return ERR_PTR(err);
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return ERR_PTR(-ENOMEM);
	err = sg_alloc_table(&m->sgt, xb->map_nents, GFP_KERNEL);
	if (err)
		goto free;
	for_each_sgtable_sg(&m->sgt, sg, i) {
		sg_set_page(sg, xb->pages + first, xb->ent[i] << PAGE_SHIFT, 0);
		first += xb->ent[i];
	}
	err = dma_map_sgtable(at->dev, &m->sgt, dir, 0);
	if (err)
		goto table;
	xb_read_ents(&m->sgt, &m->made);
	xb->last = m->made;
	xb->mapped++;
	return &m->sgt;
table:
	sg_free_table(&m->sgt);
free:
	kfree(m);
	return ERR_PTR(err);
}

static void xb_unmap(struct dma_buf_attachment *at, struct sg_table *sgt,
		     enum dma_data_direction dir)
{
	struct xb_sgt *m = container_of(sgt, struct xb_sgt, sgt);
	struct xb *xb = at->dmabuf->priv;
	struct xb_ents now;

	dma_resv_assert_held(at->dmabuf->resv);
	xb_read_ents(sgt, &now);
	if (memcmp(&now, &m->made, sizeof(now)))
		xb->altered++;
	dma_unmap_sgtable(at->dev, sgt, dir, 0);
	sg_free_table(sgt);
	kfree(m);
	xb->mapped--;
}

static void xb_release(struct dma_buf *dmabuf)
{
	struct xb *xb = dmabuf->priv;

	__free_pages(xb->pages, xb->order);
	kfree(xb);
	atomic_dec(&xb_live);
}

static const struct dma_buf_ops xb_ops = {
	.attach = xb_attach,
	.detach = xb_detach,
	.pin = xb_pin,
	.unpin = xb_unpin,
	.map_dma_buf = xb_map,
	.unmap_dma_buf = xb_unmap,
	.release = xb_release,
};

/* The DMA address of page @n of the buffer in the last mapping. */
static dma_addr_t xb_page_dma(const struct xb *xb, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < xb->last.n; i++) {
		if ((n << PAGE_SHIFT) < xb->last.len[i])
			return xb->last.dma[i] + (n << PAGE_SHIFT);
		n -= xb->last.len[i] >> PAGE_SHIFT;
	}
	return 0;
}

/**
 * struct dt - one case's fixture (test->priv)
 * @td: the test device (real DMA)
 * @xb: exporter buffers whose reference the case holds
 * @umem: umems got and not yet released
 * @fence_work: signals @fence later
 * @fence: a fence the case put in a reservation, or NULL
 */
struct dt {
	struct tdev *td;
	struct xb *xb[4];
	struct ib_umem_dmabuf *umem[4];
	struct delayed_work fence_work;
	struct dma_fence *fence;
};

/* What the driver's importer operations saw (one case at a time). */
static struct {
	int moves;
	void *priv;
	bool unmap;
} dt_log;

/* A driver's move_notify: stop using the mapping, give it back. */
static void dt_move_notify(struct dma_buf_attachment *at)
{
	dma_resv_assert_held(at->dmabuf->resv);
	dt_log.moves++;
	dt_log.priv = at->importer_priv;
	if (dt_log.unmap)
		ib_umem_dmabuf_unmap_pages(at->importer_priv);
}

static const struct dma_buf_attach_ops dt_ops = {
	.allow_peer2peer = true,
	.move_notify = dt_move_notify,
};

static const struct dma_buf_attach_ops dt_ops_no_move = {
	.allow_peer2peer = true,
};

/* A case's start: a test device with a DMA device, no buffer alive. */
static void dt_setup(struct kunit *test, struct dt *dt)
{
	struct tdev_params p = { .dma_device = true };

	memset(&dt_log, 0, sizeof(dt_log));
	/* What a case that died left to the delayed fput is gone by now */
	flush_delayed_fput();
	KUNIT_ASSERT_EQ(test, atomic_read(&xb_live), 0);
	dt->td = tdev_create_registered(&p);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dt->td);
	KUNIT_ASSERT_NOT_NULL(test, dt->td->ibdev.dma_device);
	test->priv = dt;
}

static int dt_init(struct kunit *test)
{
	struct dt *dt = kunit_kzalloc(test, sizeof(*dt), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, dt);
	dt_setup(test, dt);
	return 0;
}

static void dt_fence_signal(struct work_struct *work)
{
	struct dt *dt = container_of(work, struct dt, fence_work.work);

	dma_fence_signal(dt->fence);
}

/* Drops the case's buffer references; the last one releases (flushed). */
static void dt_put_buffers(struct dt *dt)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(dt->xb); i++)
		if (dt->xb[i])
			dma_buf_put(dt->xb[i]->dmabuf);
	memset(dt->xb, 0, sizeof(dt->xb));
	/* In the loader (a case that died) the task_work of its fput does */
	if (current->flags & PF_KTHREAD)
		flush_delayed_fput();
}

static void dt_exit(struct kunit *test)
{
	struct dt *dt = test->priv;
	int i;

	if (!dt)
		return;
	if (dt->fence) {
		cancel_delayed_work_sync(&dt->fence_work);
		dma_fence_signal(dt->fence);
		dma_fence_put(dt->fence);
	}
	for (i = 0; i < ARRAY_SIZE(dt->umem); i++)
		if (dt->umem[i])
			ib_umem_release(&dt->umem[i]->umem);
	dt_put_buffers(dt);
	tdev_destroy(dt->td);
}

static struct ib_device *dt_dev(struct kunit *test)
{
	return &((struct dt *)test->priv)->td->ibdev;
}

/*
 * A buffer of @nents entries of @ent[i] pages each; the case holds its one
 * reference until dt_put_buffers() or its end.
 */
static struct xb *dt_buffer(struct kunit *test, const unsigned int *ent,
			    unsigned int nents)
{
	DEFINE_DMA_BUF_EXPORT_INFO(info);
	struct dt *dt = test->priv;
	struct dma_buf *dmabuf;
	struct page *pages;
	struct xb *xb;
	int i, slot;

	KUNIT_ASSERT_LE(test, nents, (unsigned int)XB_MAX_ENTS);
	for (slot = 0; slot < ARRAY_SIZE(dt->xb) && dt->xb[slot]; slot++)
		;
	KUNIT_ASSERT_LT(test, slot, (int)ARRAY_SIZE(dt->xb));
	xb = kzalloc(sizeof(*xb), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, xb);
	for (i = 0; i < nents; i++)
		xb->npages += ent[i];
	memcpy(xb->ent, ent, nents * sizeof(*ent));
	xb->nents = xb->map_nents = nents;
	xb->order = get_order(xb->npages << PAGE_SHIFT);
	pages = alloc_pages(GFP_KERNEL | __GFP_ZERO, xb->order);
	if (!pages)
		kfree(xb);
	KUNIT_ASSERT_NOT_NULL(test, pages);
	xb->pages = pages;

	info.ops = &xb_ops;
	info.size = xb->npages << PAGE_SHIFT;
	info.flags = O_RDWR;
	info.priv = xb;
	dmabuf = dma_buf_export(&info);
	if (IS_ERR(dmabuf)) {
		__free_pages(xb->pages, xb->order);
		kfree(xb);
	}
	KUNIT_ASSERT_FALSE(test, IS_ERR(dmabuf));
	atomic_inc(&xb_live);
	xb->dmabuf = dmabuf;
	dt->xb[slot] = xb;
	return xb;
}

/* An open descriptor of @xb's dma-buf in this thread's table. */
static int dt_fd(struct kunit *test, struct xb *xb)
{
	int fd;

	get_file(xb->dmabuf->file);
	fd = dma_buf_fd(xb->dmabuf, O_CLOEXEC);
	if (fd < 0)
		fput(xb->dmabuf->file);
	KUNIT_ASSERT_GE(test, fd, 0);
	return fd;
}

/* An open descriptor of /dev/null, which is no dma-buf. */
static int dt_null_fd(struct kunit *test)
{
	struct file *f = filp_open("/dev/null", O_RDONLY, 0);
	int fd;

	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0)
		fput(f);
	KUNIT_ASSERT_GE(test, fd, 0);
	fd_install(fd, f);
	return fd;
}

/* Tracks a umem for the exit; NULL or an ERR_PTR are passed through. */
static struct ib_umem_dmabuf *dt_keep(struct kunit *test,
				      struct ib_umem_dmabuf *umem)
{
	struct dt *dt = test->priv;
	int i;

	if (IS_ERR_OR_NULL(umem))
		return umem;
	for (i = 0; i < ARRAY_SIZE(dt->umem) && dt->umem[i]; i++)
		;
	if (i == ARRAY_SIZE(dt->umem))
		ib_umem_release(&umem->umem);
	KUNIT_ASSERT_LT(test, i, (int)ARRAY_SIZE(dt->umem));
	dt->umem[i] = umem;
	return umem;
}

/* ib_umem_release() of a umem dt_keep() tracks. */
static void dt_release(struct kunit *test, struct ib_umem_dmabuf *umem)
{
	struct dt *dt = test->priv;
	int i;

	for (i = 0; i < ARRAY_SIZE(dt->umem); i++)
		if (dt->umem[i] == umem)
			dt->umem[i] = NULL;
	ib_umem_release(&umem->umem);
}

/* ib_umem_dmabuf_get() with @xb's descriptor, open only for the call. */
static struct ib_umem_dmabuf *dt_get(struct kunit *test, struct xb *xb,
				     unsigned long offset, size_t size,
				     int access,
				     const struct dma_buf_attach_ops *ops)
{
	int fd = dt_fd(test, xb);
	struct ib_umem_dmabuf *umem;

	umem = ib_umem_dmabuf_get(dt_dev(test), offset, size, fd, access, ops);
	close_fd(fd);
	return dt_keep(test, umem);
}

static struct ib_umem_dmabuf *dt_get_pinned(struct kunit *test,
					    struct xb *xb,
					    unsigned long offset, size_t size,
					    int access)
{
	int fd = dt_fd(test, xb);
	struct ib_umem_dmabuf *umem;

	umem = ib_umem_dmabuf_get_pinned(dt_dev(test), offset, size, fd,
					 access);
	close_fd(fd);
	return dt_keep(test, umem);
}

static int dt_map(struct ib_umem_dmabuf *umem)
{
	struct dma_resv *resv = umem->attach->dmabuf->resv;
	int ret;

	dma_resv_lock(resv, NULL);
	ret = ib_umem_dmabuf_map_pages(umem);
	dma_resv_unlock(resv);
	return ret;
}

static void dt_unmap(struct ib_umem_dmabuf *umem)
{
	struct dma_resv *resv = umem->attach->dmabuf->resv;

	dma_resv_lock(resv, NULL);
	ib_umem_dmabuf_unmap_pages(umem);
	dma_resv_unlock(resv);
}

/* What every case ends with: nothing attached, mapped or pinned. */
static void dt_expect_idle(struct kunit *test, const struct xb *xb)
{
	KUNIT_EXPECT_EQ(test, xb->attached, 0);
	KUNIT_EXPECT_EQ(test, xb->mapped, 0);
	KUNIT_EXPECT_EQ(test, xb->pins, 0);
	KUNIT_EXPECT_EQ(test, xb->altered, 0);
}

/* Drops the case's references: every buffer must be released. */
static void dt_expect_all_released(struct kunit *test)
{
	dt_put_buffers(test->priv);
	KUNIT_EXPECT_EQ(test, atomic_read(&xb_live), 0);
}

/*
 * The umem's table: exactly the pages of [address, address + length)
 * rounded out to pages, with the exporter's DMA addresses, in entries
 * that are (narrowed) exporter entries.
 */
static void dt_expect_table(struct kunit *test, const struct xb *xb,
			    struct ib_umem_dmabuf *umem,
			    unsigned int want_nents)
{
	struct sg_table *sgt = &umem->umem.sgt_append.sgt;
	unsigned long first = umem->umem.address >> PAGE_SHIFT;
	unsigned long last = (umem->umem.address + umem->umem.length - 1) >>
			     PAGE_SHIFT;
	struct sg_dma_page_iter it;
	struct scatterlist *sg;
	unsigned long n = 0;
	size_t total = 0;
	int i;

	KUNIT_EXPECT_EQ(test, sgt->nents, want_nents);
	KUNIT_EXPECT_EQ(test, sgt->orig_nents, 0U);
	KUNIT_ASSERT_NOT_NULL(test, sgt->sgl);
	for_each_sgtable_dma_sg(sgt, sg, i)
		total += sg_dma_len(sg);
	KUNIT_EXPECT_EQ(test, total, (last - first + 1) << PAGE_SHIFT);
	for_each_sgtable_dma_page(sgt, &it, 0) {
		KUNIT_EXPECT_EQ_MSG(test, sg_page_iter_dma_address(&it),
				    xb_page_dma(xb, first + n),
				    "page %lu of the buffer", first + n);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, last - first + 1);
}

/* ---- get, map, unmap, release ---- */

static void dmabuf_get_attaches(struct kunit *test)
{
	static const unsigned int ent[] = { 1, 3, 2, 2 };
	struct xb *xb = dt_buffer(test, ent, ARRAY_SIZE(ent));
	struct ib_umem_dmabuf *umem;

	umem = dt_get(test, xb, PAGE_SIZE + 100, 2 * PAGE_SIZE,
		      IB_ACCESS_LOCAL_WRITE, &dt_ops);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, umem);
	KUNIT_EXPECT_EQ(test, xb->attached, 1);
	KUNIT_EXPECT_EQ(test, xb->mapped, 0);
	KUNIT_EXPECT_EQ(test, xb->pins, 0);
	KUNIT_EXPECT_PTR_EQ(test, umem->attach->dmabuf, xb->dmabuf);
	KUNIT_EXPECT_PTR_EQ(test, umem->attach->importer_priv, (void *)umem);
	KUNIT_EXPECT_PTR_EQ(test, umem->attach->importer_ops, &dt_ops);
	KUNIT_EXPECT_PTR_EQ(test, umem->attach->dev,
			    dt_dev(test)->dma_device);
	KUNIT_EXPECT_PTR_EQ(test, umem->umem.ibdev, dt_dev(test));
	KUNIT_EXPECT_EQ(test, umem->umem.address, PAGE_SIZE + 100);
	KUNIT_EXPECT_EQ(test, umem->umem.length, 2 * PAGE_SIZE);
	KUNIT_EXPECT_TRUE(test, umem->umem.is_dmabuf);
	KUNIT_EXPECT_TRUE(test, umem->umem.writable);
	KUNIT_EXPECT_FALSE(test, umem->pinned);
	KUNIT_EXPECT_NULL(test, umem->sgt);
	KUNIT_EXPECT_EQ(test, umem->umem.sgt_append.sgt.nents, 0U);

	/* The umem holds its own reference: ours and the descriptor's gone */
	dt_put_buffers(test->priv);
	KUNIT_EXPECT_EQ(test, atomic_read(&xb_live), 1);
	KUNIT_EXPECT_EQ(test, xb->attached, 1);
	dt_release(test, umem);
	flush_delayed_fput();
	KUNIT_EXPECT_EQ(test, atomic_read(&xb_live), 0);

	/* Read-only access */
	xb = dt_buffer(test, ent, ARRAY_SIZE(ent));
	umem = dt_get(test, xb, 0, PAGE_SIZE, IB_ACCESS_REMOTE_READ, &dt_ops);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, umem);
	KUNIT_EXPECT_FALSE(test, umem->umem.writable);
	dt_release(test, umem);
	dt_expect_idle(test, xb);
	dt_expect_all_released(test);
}

/* Ranges against entries of 1, 3, 2 and 2 pages (pages 0, 1-3, 4-5, 6-7). */
static void dmabuf_map_trims(struct kunit *test)
{
	static const unsigned int ent[] = { 1, 3, 2, 2 };
	static const struct {
		unsigned long offset;
		size_t size;
		unsigned int nents;
	} r[] = {
		{ 0, 8 * PAGE_SIZE, 4 },		/* all of it */
		{ PAGE_SIZE + 0x800, 3 * PAGE_SIZE, 2 },/* pages 1-4 */
		{ 2 * PAGE_SIZE + 100, 10, 1 },		/* inside page 2 */
		{ 7 * PAGE_SIZE, PAGE_SIZE, 1 },	/* the last page */
		{ 0, 1, 1 },				/* the first byte */
		{ 4 * PAGE_SIZE - 1, 2, 2 },		/* pages 3-4 */
		{ 3 * PAGE_SIZE + 1, 3 * PAGE_SIZE, 3 },/* pages 3-6 */
	};
	struct xb *xb = dt_buffer(test, ent, ARRAY_SIZE(ent));
	struct ib_umem_dmabuf *umem;
	int i;

	for (i = 0; i < ARRAY_SIZE(r); i++) {
		kunit_info(test, "offset %#lx size %#zx", r[i].offset,
			   r[i].size);
		umem = dt_get(test, xb, r[i].offset, r[i].size, 0, &dt_ops);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, umem);
		KUNIT_ASSERT_EQ(test, dt_map(umem), 0);
		KUNIT_EXPECT_EQ(test, xb->mapped, 1);
		KUNIT_EXPECT_EQ(test, xb->pins, XB_MAP_PINS);
		KUNIT_EXPECT_NOT_NULL(test, umem->sgt);
		dt_expect_table(test, xb, umem, r[i].nents);

		/* Mapped already: the same table, no second mapping */
		KUNIT_EXPECT_EQ(test, dt_map(umem), 0);
		KUNIT_EXPECT_EQ(test, xb->mapped, 1);
		dt_expect_table(test, xb, umem, r[i].nents);

		/* Unmapped: the exporter gets its entries back as they were */
		dt_unmap(umem);
		KUNIT_EXPECT_EQ(test, xb->mapped, 0);
		KUNIT_EXPECT_EQ(test, xb->altered, 0);
		KUNIT_EXPECT_NULL(test, umem->sgt);
		KUNIT_EXPECT_NULL(test, umem->umem.sgt_append.sgt.sgl);
		KUNIT_EXPECT_EQ(test, umem->umem.sgt_append.sgt.nents, 0U);
		/* Unmapping what is not mapped does nothing */
		dt_unmap(umem);
		KUNIT_EXPECT_EQ(test, xb->mapped, 0);
		/* And it maps again */
		KUNIT_ASSERT_EQ(test, dt_map(umem), 0);
		dt_expect_table(test, xb, umem, r[i].nents);
		dt_release(test, umem);
		dt_expect_idle(test, xb);
	}
	dt_expect_all_released(test);
}

/* Released mapped and unmapped; the buffer outlives neither reference. */
static void dmabuf_release(struct kunit *test)
{
	static const unsigned int ent[] = { 2, 2 };
	struct xb *xb = dt_buffer(test, ent, ARRAY_SIZE(ent));
	struct ib_umem_dmabuf *a, *b;

	a = dt_get(test, xb, 0, 4 * PAGE_SIZE, 0, &dt_ops);
	b = dt_get(test, xb, PAGE_SIZE, PAGE_SIZE, 0, &dt_ops);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_EXPECT_EQ(test, xb->attached, 2);
	KUNIT_ASSERT_EQ(test, dt_map(a), 0);
	KUNIT_EXPECT_EQ(test, xb->mapped, 1);
	dt_put_buffers(test->priv);

	/* Mapped: unmapped (entries restored), unpinned, detached */
	dt_release(test, a);
	KUNIT_EXPECT_EQ(test, xb->attached, 1);
	KUNIT_EXPECT_EQ(test, xb->mapped, 0);
	KUNIT_EXPECT_EQ(test, xb->pins, 0);
	KUNIT_EXPECT_EQ(test, xb->altered, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&xb_live), 1);
	/* Never mapped: detached, and its reference was the last one */
	dt_release(test, b);
	flush_delayed_fput();
	KUNIT_EXPECT_EQ(test, atomic_read(&xb_live), 0);
}

/* The exporter moves the buffer: the driver is told and unmaps. */
static void dmabuf_move_notify(struct kunit *test)
{
	static const unsigned int ent[] = { 4 };
	struct xb *xb = dt_buffer(test, ent, ARRAY_SIZE(ent));
	struct ib_umem_dmabuf *umem;
	struct dma_resv *resv = xb->dmabuf->resv;

	umem = dt_get(test, xb, PAGE_SIZE, 2 * PAGE_SIZE, 0, &dt_ops);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, umem);
	KUNIT_ASSERT_EQ(test, dt_map(umem), 0);
	dt_expect_table(test, xb, umem, 1);

	dt_log.unmap = true;
	dma_resv_lock(resv, NULL);
	dma_buf_move_notify(xb->dmabuf);
	dma_resv_unlock(resv);
	KUNIT_EXPECT_EQ(test, dt_log.moves, 1);
	KUNIT_EXPECT_PTR_EQ(test, dt_log.priv, (void *)umem);
	KUNIT_EXPECT_EQ(test, xb->mapped, 0);
	KUNIT_EXPECT_EQ(test, xb->pins, 0);
	KUNIT_EXPECT_EQ(test, xb->altered, 0);
	KUNIT_EXPECT_NULL(test, umem->sgt);

	/* The driver maps again when it needs the memory */
	KUNIT_ASSERT_EQ(test, dt_map(umem), 0);
	dt_expect_table(test, xb, umem, 1);
	dt_release(test, umem);
	dt_expect_idle(test, xb);
	dt_expect_all_released(test);
}

/* get_pinned: pinned and mapped at once; a move is not the driver's. */
static void dmabuf_get_pinned(struct kunit *test)
{
	static const unsigned int ent[] = { 1, 1, 2 };
	struct xb *xb = dt_buffer(test, ent, ARRAY_SIZE(ent));
	struct ib_umem_dmabuf *umem;
	struct dma_resv *resv = xb->dmabuf->resv;
	struct sg_table *sgt;

	umem = dt_get_pinned(test, xb, 100, 2 * PAGE_SIZE,
			     IB_ACCESS_LOCAL_WRITE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, umem);
	KUNIT_EXPECT_TRUE(test, umem->pinned);
	KUNIT_EXPECT_EQ(test, xb->attached, 1);
	KUNIT_EXPECT_EQ(test, xb->mapped, 1);
	KUNIT_EXPECT_EQ(test, xb->pins, 1 + XB_MAP_PINS);
	KUNIT_EXPECT_NOT_NULL(test, umem->attach->importer_ops);
	KUNIT_EXPECT_NOT_NULL(test, umem->attach->importer_ops->move_notify);
	KUNIT_EXPECT_PTR_EQ(test, umem->attach->importer_priv, (void *)umem);
	dt_expect_table(test, xb, umem, 3);

	/* A move reaches ib_uverbs' own operations: the mapping stays */
	sgt = umem->sgt;
	dma_resv_lock(resv, NULL);
	dma_buf_move_notify(xb->dmabuf);
	dma_resv_unlock(resv);
	KUNIT_EXPECT_EQ(test, dt_log.moves, 0);
	KUNIT_EXPECT_PTR_EQ(test, umem->sgt, sgt);
	KUNIT_EXPECT_EQ(test, xb->mapped, 1);
	dt_expect_table(test, xb, umem, 3);

	dt_release(test, umem);
	dt_expect_idle(test, xb);
	dt_expect_all_released(test);
}

/* ---- the exporter's kernel fences ---- */

static const char *dt_fence_name(struct dma_fence *fence)
{
	return "rdma_kunit_dmabuf";
}

static const struct dma_fence_ops dt_fence_ops = {
	.get_driver_name = dt_fence_name,
	.get_timeline_name = dt_fence_name,
};

static DEFINE_SPINLOCK(dt_fence_lock);

/* A fence in @xb's reservation with @usage, signalled after @delay_ms. */
static void dt_add_fence(struct kunit *test, struct xb *xb,
			 enum dma_resv_usage usage, unsigned int delay_ms)
{
	struct dt *dt = test->priv;
	struct dma_resv *resv = xb->dmabuf->resv;
	struct dma_fence *fence;
	int ret;

	KUNIT_ASSERT_NULL(test, dt->fence);
	fence = kzalloc(sizeof(*fence), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fence);
	dma_fence_init(fence, &dt_fence_ops, &dt_fence_lock,
		       dma_fence_context_alloc(1), 1);
	dt->fence = fence;
	INIT_DELAYED_WORK(&dt->fence_work, dt_fence_signal);
	dma_resv_lock(resv, NULL);
	ret = dma_resv_reserve_fences(resv, 1);
	if (!ret)
		dma_resv_add_fence(resv, fence, usage);
	dma_resv_unlock(resv);
	KUNIT_ASSERT_EQ(test, ret, 0);
	schedule_delayed_work(&dt->fence_work, msecs_to_jiffies(delay_ms));
}

static void dt_drop_fence(struct dt *dt)
{
	cancel_delayed_work_sync(&dt->fence_work);
	dma_fence_signal(dt->fence);
	dma_fence_put(dt->fence);
	dt->fence = NULL;
}

static void dmabuf_map_waits_for_kernel_fences(struct kunit *test)
{
	static const unsigned int ent[] = { 2 };
	struct xb *xb = dt_buffer(test, ent, ARRAY_SIZE(ent));
	struct dt *dt = test->priv;
	struct ib_umem_dmabuf *umem;

	umem = dt_get(test, xb, 0, PAGE_SIZE, 0, &dt_ops);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, umem);

	/* The exporter's own work (a move): map returns once it is done */
	dt_add_fence(test, xb, DMA_RESV_USAGE_KERNEL, 200);
	KUNIT_EXPECT_EQ(test, dt_map(umem), 0);
	KUNIT_EXPECT_TRUE(test, dma_fence_is_signaled(dt->fence));
	dt_drop_fence(dt);
	dt_unmap(umem);

	/* Userspace's writes are not waited for (signalled much later) */
	dt_add_fence(test, xb, DMA_RESV_USAGE_WRITE, 3000);
	KUNIT_EXPECT_EQ(test, dt_map(umem), 0);
	KUNIT_EXPECT_FALSE(test, dma_fence_is_signaled(dt->fence));
	dt_drop_fence(dt);
	/* A mapped umem still waits for a new kernel fence */
	dt_add_fence(test, xb, DMA_RESV_USAGE_KERNEL, 200);
	KUNIT_EXPECT_EQ(test, dt_map(umem), 0);
	KUNIT_EXPECT_TRUE(test, dma_fence_is_signaled(dt->fence));
	dt_drop_fence(dt);

	dt_release(test, umem);
	dt_expect_idle(test, xb);
	dt_expect_all_released(test);
}

/* ---- failures of the exporter ---- */

static void dmabuf_exporter_failures(struct kunit *test)
{
	static const unsigned int ent[] = { 1, 2, 1 };
	struct xb *xb = dt_buffer(test, ent, ARRAY_SIZE(ent));
	struct ib_umem_dmabuf *umem;

	/* Attaching refused: its errno, the reference given back */
	xb->attach_err = -EBUSY;
	umem = dt_get(test, xb, 0, PAGE_SIZE, 0, &dt_ops);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(umem), -EBUSY);

	/* Mapping refused: its errno, nothing mapped or pinned */
	umem = dt_get(test, xb, 0, 4 * PAGE_SIZE, 0, &dt_ops);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, umem);
	xb->map_err = -ENOSPC;
	KUNIT_EXPECT_EQ(test, dt_map(umem), -ENOSPC);
	KUNIT_EXPECT_NULL(test, umem->sgt);
	KUNIT_EXPECT_EQ(test, xb->mapped, 0);
	KUNIT_EXPECT_EQ(test, xb->pins, 0);

	/* A mapping shorter than the buffer: -EINVAL, given back intact */
	xb->map_nents = 2;
	KUNIT_EXPECT_EQ(test, dt_map(umem), -EINVAL);
	KUNIT_EXPECT_NULL(test, umem->sgt);
	KUNIT_EXPECT_EQ(test, xb->mapped, 0);
	KUNIT_EXPECT_EQ(test, xb->altered, 0);
	dt_release(test, umem);
	/* ... which is fine for a umem inside what it maps */
	umem = dt_get(test, xb, PAGE_SIZE, 2 * PAGE_SIZE, 0, &dt_ops);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, umem);
	KUNIT_EXPECT_EQ(test, dt_map(umem), 0);
	dt_expect_table(test, xb, umem, 1);
	dt_release(test, umem);
	xb->map_nents = xb->nents;

	/* get_pinned: pinning or mapping refused, everything undone */
	xb->pin_err = -EBUSY;
	umem = dt_get_pinned(test, xb, 0, PAGE_SIZE, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(umem), -EBUSY);
	dt_expect_idle(test, xb);
	xb->map_err = -ENOSPC;
	umem = dt_get_pinned(test, xb, 0, PAGE_SIZE, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(umem), -ENOSPC);
	dt_expect_idle(test, xb);
	dt_expect_all_released(test);
}

/* ---- bad input ---- */

/* ib_umem_dmabuf_get() with a descriptor @fd: fails with @err. */
static void dt_get_fails(struct kunit *test, int fd, unsigned long offset,
			 size_t size, const struct dma_buf_attach_ops *ops,
			 int err)
{
	struct ib_umem_dmabuf *umem;

	umem = ib_umem_dmabuf_get(dt_dev(test), offset, size, fd, 0, ops);
	dt_keep(test, umem);
	KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(umem), err,
			    "fd %d offset %#lx size %#zx", fd, offset, size);
}

/* The same with a descriptor of @xb, open only for the call. */
static void dt_get_xb_fails(struct kunit *test, struct xb *xb,
			    unsigned long offset, size_t size,
			    const struct dma_buf_attach_ops *ops, int err)
{
	int fd = dt_fd(test, xb);
	struct ib_umem_dmabuf *umem;

	umem = ib_umem_dmabuf_get(dt_dev(test), offset, size, fd, 0, ops);
	close_fd(fd);
	dt_keep(test, umem);
	KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(umem), err,
			    "offset %#lx size %#zx", offset, size);
}

static void dmabuf_get_bad_input(struct kunit *test)
{
	static const unsigned int ent[] = { 2, 2 };
	struct xb *xb = dt_buffer(test, ent, ARRAY_SIZE(ent));
	size_t all = 4 * PAGE_SIZE;
	struct ib_umem_dmabuf *umem;
	int fd;

	/* Descriptors: not open, closed, not a dma-buf */
	dt_get_fails(test, -1, 0, PAGE_SIZE, &dt_ops, -EBADF);
	dt_get_fails(test, INT_MAX, 0, PAGE_SIZE, &dt_ops, -EBADF);
	fd = dt_fd(test, xb);
	close_fd(fd);
	dt_get_fails(test, fd, 0, PAGE_SIZE, &dt_ops, -EBADF);
	fd = dt_null_fd(test);
	dt_get_fails(test, fd, 0, PAGE_SIZE, &dt_ops, -EINVAL);
	close_fd(fd);

	/* Ranges beyond the buffer; an empty one */
	dt_get_xb_fails(test, xb, 0, all + 1, &dt_ops, -EINVAL);
	dt_get_xb_fails(test, xb, all, 1, &dt_ops, -EINVAL);
	dt_get_xb_fails(test, xb, PAGE_SIZE, all, &dt_ops, -EINVAL);
	dt_get_xb_fails(test, xb, all + PAGE_SIZE, 0, &dt_ops, -EINVAL);
	dt_get_xb_fails(test, xb, 0, 0, &dt_ops, -EINVAL);
	/* Ranges that wrap */
	dt_get_xb_fails(test, xb, ULONG_MAX - 10, 20, &dt_ops, -EINVAL);
	dt_get_xb_fails(test, xb, 1, SIZE_MAX, &dt_ops, -EINVAL);
	/* An importer that cannot be told of a move (no WARN either) */
	dt_get_xb_fails(test, xb, 0, PAGE_SIZE, NULL, -EINVAL);
	dt_get_xb_fails(test, xb, 0, PAGE_SIZE, &dt_ops_no_move, -EINVAL);
	KUNIT_EXPECT_EQ(test, xb->attached, 0);

	/* The target's order: range and importer first, then the descriptor */
	dt_get_fails(test, -1, ULONG_MAX, 2, &dt_ops, -EINVAL);
	dt_get_fails(test, -1, 0, PAGE_SIZE, &dt_ops_no_move, -EINVAL);
	dt_get_fails(test, -1, 0, 0, &dt_ops, -EBADF);
	dt_get_fails(test, -1, 0, all + 1, &dt_ops, -EBADF);

	/* The whole buffer is fine */
	umem = dt_get(test, xb, 0, all, 0, &dt_ops);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, umem);
	dt_release(test, umem);
	dt_expect_idle(test, xb);
	dt_expect_all_released(test);
}

/* A device without a DMA device cannot attach: -EINVAL, no WARN. */
static void dmabuf_get_virt_dma_device(struct kunit *test)
{
	static const unsigned int ent[] = { 1 };
	struct xb *xb = dt_buffer(test, ent, ARRAY_SIZE(ent));
	struct ib_umem_dmabuf *umem;
	struct tdev *td;
	int fd;

	td = tdev_create_registered(NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, td);
	fd = dt_fd(test, xb);
	umem = ib_umem_dmabuf_get(&td->ibdev, 0, PAGE_SIZE, fd, 0, &dt_ops);
	close_fd(fd);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(umem), -EINVAL);
	if (!IS_ERR(umem))
		ib_umem_release(&umem->umem);
	tdev_destroy(td);
	dt_expect_idle(test, xb);
	dt_expect_all_released(test);
}

static struct kunit_case dmabuf_cases[] = {
	KUNIT_CASE(dmabuf_get_attaches),
	KUNIT_CASE(dmabuf_map_trims),
	KUNIT_CASE(dmabuf_release),
	KUNIT_CASE(dmabuf_move_notify),
	KUNIT_CASE(dmabuf_get_pinned),
	KUNIT_CASE(dmabuf_map_waits_for_kernel_fences),
	KUNIT_CASE(dmabuf_exporter_failures),
	KUNIT_CASE(dmabuf_get_bad_input),
	KUNIT_CASE(dmabuf_get_virt_dma_device),
	{}
};

static struct kunit_suite dmabuf_suite = {
	.name = "rdma_uverbs_umem_dmabuf",
	.init = dt_init,
	.exit = dt_exit,
	.test_cases = dmabuf_cases,
};

/* ---- ioctl() REG_DMABUF_MR ---- */

/**
 * struct dm_mr - the test driver's dma-buf MR
 * @ibmr: the core's part
 * @umem: its pinned umem
 */
struct dm_mr {
	struct ib_mr ibmr;
	struct ib_umem_dmabuf *umem;
};

/* What the driver's reg_user_mr_dmabuf was asked (one case at a time). */
static struct {
	int calls;
	u64 offset, length, iova;
	int fd, access;
	struct ib_umem_dmabuf *umem;
} dm_log;

static struct ib_mr *dm_reg_dmabuf(struct ib_pd *pd, u64 offset, u64 length,
				   u64 iova, int fd, int access,
				   struct ib_udata *udata)
{
	struct ib_umem_dmabuf *umem;
	struct dm_mr *mr;

	dm_log.calls++;
	dm_log.offset = offset;
	dm_log.length = length;
	dm_log.iova = iova;
	dm_log.fd = fd;
	dm_log.access = access;
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	umem = ib_umem_dmabuf_get_pinned(pd->device, offset, length, fd,
					 access);
	if (IS_ERR(umem)) {
		kfree(mr);
		return ERR_CAST(umem);
	}
	mr->umem = umem;
	mr->ibmr.lkey = 0x1200 + dm_log.calls;
	mr->ibmr.rkey = 0x3400 + dm_log.calls;
	mr->ibmr.iova = iova;
	mr->ibmr.length = length;
	dm_log.umem = umem;
	return &mr->ibmr;
}

/* The double's own dereg_mr, which dm_dereg_mr() replaces. */
static int (*dm_tdev_dereg_mr)(struct ib_mr *ibmr, struct ib_udata *udata);

/*
 * The suite's dma-buf MRs are the device's user MRs; the others (the DMA
 * MR of the MAD layer's PD on each port) are the double's.
 */
static int dm_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct dm_mr *mr = container_of(ibmr, struct dm_mr, ibmr);

	if (ibmr->type != IB_MR_TYPE_USER)
		return dm_tdev_dereg_mr(ibmr, udata);
	ib_umem_release(&mr->umem->umem);
	kfree(mr);
	return 0;
}

/**
 * struct dm - one case's fixture (test->priv points at @dt)
 * @dt: the exporter's side, as in the first suite
 * @u: the device with reg_user_mr_dmabuf
 * @f: its open uverbsN, with a user context
 * @pd: a PD handle of @f
 * @xb: the case's exporter buffer
 */
struct dm {
	struct dt dt;
	struct uvk *u;
	struct file *f;
	u32 pd;
	struct xb *xb;
};

/* write() ALLOC_PD: the new PD's handle. */
static u32 dm_alloc_pd(struct kunit *test, struct uvk *u, struct file *f)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_alloc_pd cmd;
	} req = {};
	struct ib_uverbs_alloc_pd_resp resp;
	void __user *out = uvk_uptr(u, 8192);

	req.hdr.command = IB_USER_VERBS_CMD_ALLOC_PD;
	req.hdr.in_words = sizeof(req) / 4;
	req.hdr.out_words = sizeof(resp) / 4;
	req.cmd.response = (uintptr_t)out;
	KUNIT_ASSERT_EQ(test, uvk_write(u, f, &req, sizeof(req)),
			(ssize_t)sizeof(req));
	uvk_copy_out(u, &resp, out, sizeof(resp));
	return resp.pd_handle;
}

/* A device and its file, with a user context and a PD. */
static struct uvk *dm_device(struct kunit *test, bool dmabuf_op,
			     struct file **f, u32 *pd)
{
	struct uvk_params p = { .dma_device = true };
	struct uvk *u = uvk_new_unregistered(test, &p);
	int afd;

	if (dmabuf_op) {
		/* Before registration, as a driver's ops are */
		u->td->ibdev.ops.reg_user_mr_dmabuf = dm_reg_dmabuf;
		dm_tdev_dereg_mr = u->td->ibdev.ops.dereg_mr;
		u->td->ibdev.ops.dereg_mr = dm_dereg_mr;
	}
	KUNIT_ASSERT_EQ(test, uvk_register(u), 0);
	*f = uvk_open(u);
	KUNIT_ASSERT_FALSE(test, IS_ERR(*f));
	afd = uvk_get_context(u, *f);
	KUNIT_ASSERT_GE(test, afd, 0);
	uvk_close(u, uvk_take_fd(afd));
	*pd = dm_alloc_pd(test, u, *f);
	return u;
}

static int dm_init(struct kunit *test)
{
	static const unsigned int ent[] = { 2, 2 };
	struct dm *dm = kunit_kzalloc(test, sizeof(*dm), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, dm);
	dt_setup(test, &dm->dt);
	memset(&dm_log, 0, sizeof(dm_log));
	dm->xb = dt_buffer(test, ent, ARRAY_SIZE(ent));
	return 0;
}

static struct dm *dm_of(struct kunit *test)
{
	return container_of(test->priv, struct dm, dt);
}

/**
 * struct dm_req - a REG_DMABUF_MR request
 * @offset: OFFSET
 * @length: LENGTH
 * @iova: IOVA
 * @fd: FD
 * @access: ACCESS_FLAGS
 * @handle: the new MR's handle, after the call
 * @lkey: RESP_LKEY, after the call
 * @rkey: RESP_RKEY, after the call
 */
struct dm_req {
	u64 offset, length, iova;
	u32 fd, access;
	u32 handle, lkey, rkey;
};

static long dm_reg(struct uvk *u, struct file *f, u32 pd, struct dm_req *r)
{
	void __user *lkey, *rkey;
	struct uvk_ioctl req;
	long ret;

	uvk_ioctl_init(u, &req, UVERBS_OBJECT_MR, UVERBS_METHOD_REG_DMABUF_MR);
	uvk_attr_obj(&req, UVERBS_ATTR_REG_DMABUF_MR_HANDLE, 0);
	uvk_attr_obj(&req, UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE, pd);
	uvk_attr_in(u, &req, UVERBS_ATTR_REG_DMABUF_MR_OFFSET, &r->offset,
		    sizeof(r->offset));
	uvk_attr_in(u, &req, UVERBS_ATTR_REG_DMABUF_MR_LENGTH, &r->length,
		    sizeof(r->length));
	uvk_attr_in(u, &req, UVERBS_ATTR_REG_DMABUF_MR_IOVA, &r->iova,
		    sizeof(r->iova));
	uvk_attr_in(u, &req, UVERBS_ATTR_REG_DMABUF_MR_FD, &r->fd,
		    sizeof(r->fd));
	uvk_attr_u64(&req, UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS, r->access);
	lkey = uvk_attr_out(u, &req, UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY, 4);
	rkey = uvk_attr_out(u, &req, UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY, 4);
	ret = uvk_ioctl(u, f, &req);
	r->handle = req.attrs[0].data;
	if (!ret) {
		uvk_copy_out(u, &r->lkey, lkey, sizeof(r->lkey));
		uvk_copy_out(u, &r->rkey, rkey, sizeof(r->rkey));
	}
	return ret;
}

/* dm_reg() with a descriptor of @xb, open only for the call. */
static long dm_reg_xb(struct kunit *test, struct uvk *u, struct file *f,
		      u32 pd, struct xb *xb, struct dm_req *r)
{
	int fd = dt_fd(test, xb);
	long ret;

	r->fd = fd;
	ret = dm_reg(u, f, pd, r);
	close_fd(fd);
	return ret;
}

static long dm_destroy(struct uvk *u, struct file *f, u32 handle)
{
	struct uvk_ioctl req;

	uvk_ioctl_init(u, &req, UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY);
	uvk_attr_obj(&req, UVERBS_ATTR_DESTROY_MR_HANDLE, handle);
	return uvk_ioctl(u, f, &req);
}

static void reg_dmabuf_mr_registers(struct kunit *test)
{
	struct dm *dm = dm_of(test);
	struct xb *xb = dm->xb;
	struct dm_req r = {
		.offset = PAGE_SIZE + 0x40, .length = 2 * PAGE_SIZE,
		.iova = 0x7f0000040ULL,
		.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ |
			  IB_ACCESS_REMOTE_WRITE,
	};

	dm->u = dm_device(test, true, &dm->f, &dm->pd);
	KUNIT_ASSERT_EQ(test, dm_reg_xb(test, dm->u, dm->f, dm->pd, xb, &r),
			0);
	KUNIT_EXPECT_EQ(test, dm_log.calls, 1);
	KUNIT_EXPECT_EQ(test, dm_log.offset, r.offset);
	KUNIT_EXPECT_EQ(test, dm_log.length, r.length);
	KUNIT_EXPECT_EQ(test, dm_log.iova, r.iova);
	KUNIT_EXPECT_EQ(test, dm_log.fd, (int)r.fd);
	KUNIT_EXPECT_EQ(test, dm_log.access, (int)r.access);
	KUNIT_EXPECT_EQ(test, r.lkey, 0x1201U);
	KUNIT_EXPECT_EQ(test, r.rkey, 0x3401U);
	/* The driver's umem: pinned and mapped over pages 1-3 */
	KUNIT_EXPECT_EQ(test, xb->attached, 1);
	KUNIT_EXPECT_EQ(test, xb->mapped, 1);
	KUNIT_EXPECT_EQ(test, xb->pins, 1 + XB_MAP_PINS);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dm_log.umem);
	dt_expect_table(test, xb, dm_log.umem, 2);

	/* A second MR; then destroyed, and the first with the file */
	r.offset = 0;
	r.iova = 0;
	r.length = 4 * PAGE_SIZE;
	r.access = 0;
	KUNIT_ASSERT_EQ(test, dm_reg_xb(test, dm->u, dm->f, dm->pd, xb, &r),
			0);
	KUNIT_EXPECT_EQ(test, r.lkey, 0x1202U);
	KUNIT_EXPECT_EQ(test, xb->attached, 2);
	KUNIT_EXPECT_EQ(test, dm_destroy(dm->u, dm->f, r.handle), 0);
	KUNIT_EXPECT_EQ(test, xb->attached, 1);
	uvk_close(dm->u, dm->f);
	dt_expect_idle(test, xb);
	dt_expect_all_released(test);
}

static void reg_dmabuf_mr_checks(struct kunit *test)
{
	struct dm *dm = dm_of(test);
	struct xb *xb = dm->xb;
	struct dm_req r = { .length = PAGE_SIZE };
	struct file *f2;
	struct uvk *u2;
	u32 pd2;

	dm->u = dm_device(test, true, &dm->f, &dm->pd);
	/* Access flags: not one of the five, remote write without local */
	r.access = IB_ACCESS_MW_BIND;
	KUNIT_EXPECT_EQ(test, dm_reg_xb(test, dm->u, dm->f, dm->pd, xb, &r),
			-EINVAL);
	r.access = IB_ACCESS_REMOTE_WRITE;
	KUNIT_EXPECT_EQ(test, dm_reg_xb(test, dm->u, dm->f, dm->pd, xb, &r),
			-EINVAL);
	r.access = IB_ACCESS_REMOTE_ATOMIC;
	KUNIT_EXPECT_EQ(test, dm_reg_xb(test, dm->u, dm->f, dm->pd, xb, &r),
			-EINVAL);
	/* The I/O address must keep the offset's place in its page */
	r.access = IB_ACCESS_LOCAL_WRITE;
	r.offset = 0x100;
	r.iova = 0x10200;
	KUNIT_EXPECT_EQ(test, dm_reg_xb(test, dm->u, dm->f, dm->pd, xb, &r),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, dm_log.calls, 0);

	/* What the driver's umem refuses comes back as it is */
	r.iova = 0x10100;
	r.fd = (u32)-1;
	KUNIT_EXPECT_EQ(test, dm_reg(dm->u, dm->f, dm->pd, &r), -EBADF);
	r.length = 5 * PAGE_SIZE;
	KUNIT_EXPECT_EQ(test, dm_reg_xb(test, dm->u, dm->f, dm->pd, xb, &r),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, dm_log.calls, 2);
	dt_expect_idle(test, xb);
	/* Nothing was left behind: the file closes with no MR to destroy */
	uvk_close(dm->u, dm->f);

	/* A device without reg_user_mr_dmabuf: -EOPNOTSUPP */
	u2 = dm_device(test, false, &f2, &pd2);
	r.length = PAGE_SIZE;
	KUNIT_EXPECT_EQ(test, dm_reg_xb(test, u2, f2, pd2, xb, &r),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, dm_log.calls, 2);
	uvk_close(u2, f2);
	dt_expect_all_released(test);
}

static struct kunit_case reg_dmabuf_mr_cases[] = {
	KUNIT_CASE(reg_dmabuf_mr_registers),
	KUNIT_CASE(reg_dmabuf_mr_checks),
	{}
};

static struct kunit_suite reg_dmabuf_mr_suite = {
	.name = "rdma_uverbs_reg_dmabuf_mr",
	.suite_init = uvk_suite_init,
	.suite_exit = uvk_suite_exit,
	.init = dm_init,
	.exit = dt_exit,
	.test_cases = reg_dmabuf_mr_cases,
};

kunit_test_suites(&dmabuf_suite, &reg_dmabuf_mr_suite);
