// SPDX-License-Identifier: GPL-2.0
/*
 * ib_umem_dmabuf: a umem over part of a dma-buf, memory that another
 * driver (a GPU's, an accelerator's) exports and userspace names by file
 * descriptor.  Nothing is pinned or charged here: the exporter owns the
 * pages and hands out DMA addresses for the RDMA device's DMA device.
 *
 * The life of a umem_dmabuf:
 *
 *  - ib_umem_dmabuf_get() takes a reference on the dma-buf behind the
 *    descriptor and attaches the device to it as a dynamic importer, with
 *    the driver's dma_buf_attach_ops and the umem as importer_priv.  The
 *    umem's address and length are the offset and size in the buffer.
 *  - ib_umem_dmabuf_map_pages() asks the exporter for the mapping and
 *    narrows its DMA side to the pages the umem covers; the umem's
 *    sgt_append.sgt then describes just those (nents, DMA addresses and
 *    lengths only: orig_nents stays 0, the pages are the exporter's).  It
 *    waits for the exporter's kernel fences (a move in progress) before it
 *    returns.
 *  - When the exporter moves the buffer it calls the driver's
 *    move_notify; the driver stops the device using the old addresses and
 *    calls ib_umem_dmabuf_unmap_pages(), which widens the entries it
 *    narrowed again and gives the mapping back.  The driver maps again
 *    when it needs the memory.
 *  - ib_umem_dmabuf_get_pinned() is the same for drivers that cannot stop
 *    the device: it pins the buffer where it is and maps it at once;
 *    move_notify then never comes (an exporter that still calls it only
 *    earns a warning).
 *  - ib_umem_release() of such a umem lands in ib_umem_dmabuf_release():
 *    unmap if mapped, unpin if pinned, detach, drop the dma-buf.
 *
 * Locking: the mapping state of a umem_dmabuf (sgt, first_sg, last_sg,
 * first_sg_offset, last_sg_trim and umem.sgt_append.sgt) is protected by
 * the dma-buf's reservation lock, attach->dmabuf->resv: map and unmap are
 * called with it held (the exporter holds it around move_notify), and
 * get_pinned and release take it themselves.  Everything else is fixed at
 * get and belongs to the driver that got the umem.
 */
#include "abi/ib_uverbs/umem_dmabuf.h"

MODULE_IMPORT_NS(DMA_BUF);

static struct dma_resv *umem_dmabuf_resv(struct ib_umem_dmabuf *umem_dmabuf)
{
	return umem_dmabuf->attach->dmabuf->resv;
}

/*
 * Narrows the entry at @pos (its offset in the buffer) that holds @start
 * so that it begins there, remembering by how much.
 */
static void umem_dmabuf_cut_head(struct ib_umem_dmabuf *umem_dmabuf,
				 struct scatterlist *sg, unsigned long pos,
				 unsigned long start)
{
	unsigned long skip = start - pos;

	umem_dmabuf->first_sg = sg;
	umem_dmabuf->first_sg_offset = skip;
	sg_dma_address(sg) += skip;
	sg_dma_len(sg) -= skip;
}

/* Narrows @sg, of which @excess bytes lie past the umem's last page. */
static void umem_dmabuf_cut_tail(struct ib_umem_dmabuf *umem_dmabuf,
				 struct scatterlist *sg, unsigned long excess)
{
	umem_dmabuf->last_sg = sg;
	umem_dmabuf->last_sg_trim = excess;
	sg_dma_len(sg) -= excess;
}

/* Widens the entries umem_dmabuf_narrow() narrowed back to the exporter's. */
static void umem_dmabuf_widen(struct ib_umem_dmabuf *umem_dmabuf)
{
	struct scatterlist *head = umem_dmabuf->first_sg;
	struct scatterlist *tail = umem_dmabuf->last_sg;

	if (head) {
		sg_dma_address(head) -= umem_dmabuf->first_sg_offset;
		sg_dma_len(head) += umem_dmabuf->first_sg_offset;
	}
	if (tail)
		sg_dma_len(tail) += umem_dmabuf->last_sg_trim;
	umem_dmabuf->first_sg = NULL;
	umem_dmabuf->first_sg_offset = 0;
	umem_dmabuf->last_sg = NULL;
	umem_dmabuf->last_sg_trim = 0;
}

/*
 * Narrows the exporter's DMA entries in place to the whole pages of the
 * umem, [address, address + length) rounded out to pages, and points the
 * umem's table at them.  -EINVAL, with everything widened again, if the
 * mapping ends before the umem does (an exporter that maps less than its
 * size).
 */
static int umem_dmabuf_narrow(struct ib_umem_dmabuf *umem_dmabuf,
			      struct sg_table *sgt)
{
	struct ib_umem *umem = &umem_dmabuf->umem;
	unsigned long start = umem->address & PAGE_MASK;
	unsigned long end = PAGE_ALIGN(umem->address + umem->length);
	struct scatterlist *sg;
	unsigned long pos = 0;
	unsigned int used = 0;
	int i;

	for_each_sgtable_dma_sg(sgt, sg, i) {
		unsigned long next = pos + sg_dma_len(sg);

		if (next > start) {
			if (!used++) {
				umem_dmabuf_cut_head(umem_dmabuf, sg, pos,
						     start);
				pos = start;
			}
			if (next >= end) {
				umem_dmabuf_cut_tail(umem_dmabuf, sg,
						     next - end);
				break;
			}
		}
		pos = next;
	}
	if (!umem_dmabuf->last_sg) {
		umem_dmabuf_widen(umem_dmabuf);
		return -EINVAL;
	}
	umem->sgt_append.sgt.sgl = umem_dmabuf->first_sg;
	umem->sgt_append.sgt.nents = used;
	return 0;
}

/*
 * Waits, without a time limit, for the fences the exporter put in the
 * reservation for its own work on the memory (a move, a clear).
 */
static int umem_dmabuf_wait_kernel_fences(struct ib_umem_dmabuf *umem_dmabuf)
{
	long left = dma_resv_wait_timeout(umem_dmabuf_resv(umem_dmabuf),
					  DMA_RESV_USAGE_KERNEL, false,
					  MAX_SCHEDULE_TIMEOUT);

	if (left < 0)
		return left;
	return left ? 0 : -ETIMEDOUT;
}

/**
 * ib_umem_dmabuf_map_pages() - map the umem's part of its dma-buf
 * @umem_dmabuf: the umem
 *
 * The caller holds the dma-buf's reservation lock.  If the umem is not
 * mapped, maps the attachment and sets umem_dmabuf->umem.sgt_append.sgt to
 * the DMA entries of the pages the umem covers (the first and last entries
 * narrowed until ib_umem_dmabuf_unmap_pages()); mapped or not, then waits
 * for the exporter's kernel fences.
 *
 * Return: 0, the exporter's errno, -EINVAL if its mapping is shorter than
 * the umem, or the fence's errno (the mapping then stays until unmapped).
 */
int ib_umem_dmabuf_map_pages(struct ib_umem_dmabuf *umem_dmabuf)
{
	struct sg_table *sgt;
	int ret;

	dma_resv_assert_held(umem_dmabuf_resv(umem_dmabuf));
	if (!umem_dmabuf->sgt) {
		sgt = dma_buf_map_attachment(umem_dmabuf->attach,
					     DMA_BIDIRECTIONAL);
		if (IS_ERR(sgt))
			return PTR_ERR(sgt);
		ret = umem_dmabuf_narrow(umem_dmabuf, sgt);
		if (ret) {
			dma_buf_unmap_attachment(umem_dmabuf->attach, sgt,
						 DMA_BIDIRECTIONAL);
			return ret;
		}
		umem_dmabuf->sgt = sgt;
	}
	return umem_dmabuf_wait_kernel_fences(umem_dmabuf);
}
EXPORT_SYMBOL(ib_umem_dmabuf_map_pages);

/**
 * ib_umem_dmabuf_unmap_pages() - give the mapping back to the exporter
 * @umem_dmabuf: the umem, mapped or not
 *
 * The caller holds the dma-buf's reservation lock (move_notify runs with
 * it held).  Restores the entries ib_umem_dmabuf_map_pages() narrowed and
 * unmaps the attachment; the umem's table is empty afterwards.
 */
void ib_umem_dmabuf_unmap_pages(struct ib_umem_dmabuf *umem_dmabuf)
{
	struct sg_table *sgt = umem_dmabuf->sgt;

	dma_resv_assert_held(umem_dmabuf_resv(umem_dmabuf));
	if (!sgt)
		return;
	umem_dmabuf_widen(umem_dmabuf);
	umem_dmabuf->umem.sgt_append.sgt.sgl = NULL;
	umem_dmabuf->umem.sgt_append.sgt.nents = 0;
	umem_dmabuf->sgt = NULL;
	dma_buf_unmap_attachment(umem_dmabuf->attach, sgt, DMA_BIDIRECTIONAL);
}
EXPORT_SYMBOL(ib_umem_dmabuf_unmap_pages);

/*
 * The checks made before the buffer is looked up: a range that wraps, an
 * importer that cannot be told of moves.
 */
static int umem_dmabuf_check(unsigned long offset, size_t size,
			     const struct dma_buf_attach_ops *ops,
			     unsigned long *end)
{
	if (check_add_overflow(offset, (unsigned long)size, end))
		return -EINVAL;
	return ops && ops->move_notify ? 0 : -EINVAL;
}

static struct ib_umem_dmabuf *umem_dmabuf_alloc(struct ib_device *device,
						unsigned long offset,
						size_t size, int access)
{
	struct ib_umem_dmabuf *umem_dmabuf;

	umem_dmabuf = kzalloc(sizeof(*umem_dmabuf), GFP_KERNEL);
	if (!umem_dmabuf)
		return NULL;
	/* iova stays 0 until the driver picks a page size (as in-tree) */
	umem_dmabuf->umem.ibdev = device;
	umem_dmabuf->umem.address = offset;
	umem_dmabuf->umem.length = size;
	umem_dmabuf->umem.writable = ib_access_writable(access);
	umem_dmabuf->umem.is_dmabuf = 1;
	return umem_dmabuf;
}

/**
 * ib_umem_dmabuf_get() - a umem over part of a dma-buf, mapped on demand
 * @device: the RDMA device that will access it
 * @offset: where the umem starts in the buffer
 * @size: its length in bytes
 * @fd: a file descriptor of the dma-buf, in the caller's table
 * @access: IB_ACCESS_* flags of the memory region
 * @ops: the driver's importer operations; move_notify is required
 *
 * Attaches @device's DMA device to the dma-buf as a dynamic importer, with
 * the new umem as the attachment's importer_priv.  Nothing is mapped: the
 * driver calls ib_umem_dmabuf_map_pages() under the reservation lock.
 *
 * Return: the umem, or an ERR_PTR: -EINVAL for a range that wraps, is
 * empty or ends beyond the buffer, for @ops without move_notify, or a
 * device without a DMA device; -EBADF if @fd is not open, -EINVAL if it is
 * not a dma-buf; -ENOMEM, or the exporter's errno from attaching.
 */
struct ib_umem_dmabuf *ib_umem_dmabuf_get(struct ib_device *device,
					  unsigned long offset, size_t size,
					  int fd, int access,
					  const struct dma_buf_attach_ops *ops)
{
	struct ib_umem_dmabuf *umem_dmabuf;
	struct dma_buf_attachment *attach;
	struct dma_buf *dmabuf;
	unsigned long end;
	int ret;

	ret = umem_dmabuf_check(offset, size, ops, &end);
	if (ret)
		return ERR_PTR(ret);
	dmabuf = dma_buf_get(fd);
	if (IS_ERR(dmabuf))
		return ERR_CAST(dmabuf);

	ret = -EINVAL;
	/* A virtual-DMA device has nothing to attach (no dma-buf support) */
	if (end > dmabuf->size || !size || !device->dma_device)
		goto put;
	ret = -ENOMEM;
	umem_dmabuf = umem_dmabuf_alloc(device, offset, size, access);
	if (!umem_dmabuf)
		goto put;
	attach = dma_buf_dynamic_attach(dmabuf, device->dma_device, ops,
					umem_dmabuf);
	if (!IS_ERR(attach)) {
		umem_dmabuf->attach = attach;
		return umem_dmabuf;
	}
	ret = PTR_ERR(attach);
	kfree(umem_dmabuf);
put:
	dma_buf_put(dmabuf);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL(ib_umem_dmabuf_get);

/*
 * A pinned buffer does not move, so an exporter has no reason to call
 * this; the mapping stays as it is.
 */
static void umem_dmabuf_pinned_moved(struct dma_buf_attachment *attach)
{
	struct ib_umem_dmabuf *umem_dmabuf = attach->importer_priv;

	ibdev_warn_ratelimited(umem_dmabuf->umem.ibdev,
			       "dma-buf exporter moved a pinned buffer; mapping kept\n");
}

static const struct dma_buf_attach_ops umem_dmabuf_pinned_ops = {
	.allow_peer2peer = true,
	.move_notify = umem_dmabuf_pinned_moved,
};

/* Pins the buffer and maps the umem, under the reservation lock. */
static int umem_dmabuf_pin_and_map(struct ib_umem_dmabuf *umem_dmabuf)
{
	struct dma_resv *resv = umem_dmabuf_resv(umem_dmabuf);
	int ret;

	dma_resv_lock(resv, NULL);
	ret = dma_buf_pin(umem_dmabuf->attach);
	if (!ret) {
		umem_dmabuf->pinned = 1;
		ret = ib_umem_dmabuf_map_pages(umem_dmabuf);
	}
	dma_resv_unlock(resv);
	return ret;
}

/**
 * ib_umem_dmabuf_get_pinned() - a umem over part of a dma-buf, pinned and
 *	mapped
 * @device: the RDMA device that will access it
 * @offset: where the umem starts in the buffer
 * @size: its length in bytes
 * @fd: a file descriptor of the dma-buf, in the caller's table
 * @access: IB_ACCESS_* flags of the memory region
 *
 * For drivers that cannot take a move: ib_umem_dmabuf_get() with importer
 * operations of ib_uverbs' own, then the buffer pinned where it is and the
 * umem mapped, until ib_umem_release().
 *
 * Return: the umem, or an ERR_PTR: ib_umem_dmabuf_get()'s errnos, the
 * exporter's from pinning or mapping, or ib_umem_dmabuf_map_pages()'s.
 */
struct ib_umem_dmabuf *ib_umem_dmabuf_get_pinned(struct ib_device *device,
						 unsigned long offset,
						 size_t size, int fd,
						 int access)
{
	struct ib_umem_dmabuf *umem_dmabuf;
	int ret;

	umem_dmabuf = ib_umem_dmabuf_get(device, offset, size, fd, access,
					 &umem_dmabuf_pinned_ops);
	if (IS_ERR(umem_dmabuf))
		return umem_dmabuf;
	ret = umem_dmabuf_pin_and_map(umem_dmabuf);
	if (!ret)
		return umem_dmabuf;
	ib_umem_release(&umem_dmabuf->umem);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL(ib_umem_dmabuf_get_pinned);

/**
 * ib_umem_dmabuf_release() - undo ib_umem_dmabuf_get() or _get_pinned()
 * @umem_dmabuf: the umem
 *
 * Called by ib_umem_release() for a umem with is_dmabuf (not exported, as
 * in the target): gives the mapping back and unpins the buffer under the
 * reservation lock, then detaches, drops the dma-buf and frees the umem.
 */
void ib_umem_dmabuf_release(struct ib_umem_dmabuf *umem_dmabuf)
{
	struct dma_buf_attachment *attach = umem_dmabuf->attach;
	struct dma_buf *dmabuf = attach->dmabuf;

	dma_resv_lock(dmabuf->resv, NULL);
	ib_umem_dmabuf_unmap_pages(umem_dmabuf);
	if (umem_dmabuf->pinned)
		dma_buf_unpin(attach);
	dma_resv_unlock(dmabuf->resv);
	/* Until detached, move_notify may still reach the umem */
	dma_buf_detach(dmabuf, attach);
	dma_buf_put(dmabuf);
	kfree(umem_dmabuf);
}
