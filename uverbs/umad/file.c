// SPDX-License-Identifier: GPL-2.0
/*
 * An open /dev/infiniband/umadN: its agents (REGISTER_AGENT,
 * REGISTER_AGENT2, UNREGISTER_AGENT), the header form of read() and
 * write() (ENABLE_PKEY), poll(), the queue read() takes from, and its
 * end (close, or the port going away).
 *
 * Locking: internal.h.  Registration holds the port's files_lock (so
 * that the port cannot go meanwhile) and the file's lock; agents are
 * unregistered with only files_lock held, since their handlers take the
 * file's qlock.
 */
#include <linux/nospec.h>
#include <linux/nsproxy.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "internal.h"

/**
 * file_queue - queue a packet for read()
 * @file: the file
 * @packet: a received MAD, or the report of a send
 *
 * Received MADs beyond UMAD_MAX_QUEUED are refused; nothing is queued on
 * a dead file.  Any context.
 *
 * Return: true if queued (the packet is the file's), false if the caller
 * keeps it.
 */
bool file_queue(struct umad_file *file, struct umad_packet *packet)
{
	unsigned long flags;
	bool queued = false;

	spin_lock_irqsave(&file->qlock, flags);
	if (!file->dead &&
	    (!packet->rwc || file->nqueued < UMAD_MAX_QUEUED)) {
		list_add_tail(&packet->link, &file->recvs);
		file->nqueued++;
		queued = true;
	}
	spin_unlock_irqrestore(&file->qlock, flags);
	if (queued)
		wake_up_interruptible(&file->wait);
	return queued;
}

/* Marks @file dead and takes its queued packets off to @out. */
static void file_set_dead(struct umad_file *file, struct list_head *out)
{
	lockdep_assert_held(&file->lock);
	spin_lock_irq(&file->qlock);
	file->dead = true;
	list_splice_init(&file->recvs, out);
	file->nqueued = 0;
	spin_unlock_irq(&file->qlock);
	wake_up_interruptible(&file->wait);
}

/* Unregisters every agent of @file, which is dead; files_lock held. */
static void file_drop_agents(struct umad_file *file)
{
	struct umad_agent *ua;
	int id;

	lockdep_assert_held(&file->port->files_lock);
	for (id = 0; id < UMAD_MAX_AGENTS; id++) {
		mutex_lock(&file->lock);
		ua = file->agents[id];
		file->agents[id] = NULL;
		mutex_unlock(&file->lock);
		if (!ua)
			continue;
		ib_unregister_mad_agent(ua->agent);
		kfree(ua);
	}
}

static void file_free_packets(struct list_head *list)
{
	struct umad_packet *packet, *tmp;

	list_for_each_entry_safe(packet, tmp, list, link)
		recv_free(packet);
}

/**
 * file_kill - the port is going: a file's agents go, read() fails
 * @file: the file; its port's files_lock held
 */
void file_kill(struct umad_file *file)
{
	LIST_HEAD(dropped);

	mutex_lock(&file->lock);
	file_set_dead(file, &dropped);
	mutex_unlock(&file->lock);
	file_drop_agents(file);
	file_free_packets(&dropped);
}

/* Whether a process may open a file of @port now; files_lock held. */
static int file_may_open(struct umad_port *port)
{
	lockdep_assert_held(&port->files_lock);
	if (!port->ibdev)
		return -ENXIO;
	/* A device of another network namespace is not this process's */
	return rdma_dev_access_netns(port->ibdev, current->nsproxy->net_ns) ?
	       0 : -EPERM;
}

static int file_open(struct inode *inode, struct file *filp)
{
	struct umad_port *port = container_of(inode->i_cdev, struct umad_port,
					      cdev);
	struct umad_file *file = kzalloc(sizeof(*file), GFP_KERNEL);
	int ret;

	if (!file)
		return -ENOMEM;
	file->port = port;
	mutex_init(&file->lock);
	spin_lock_init(&file->qlock);
	INIT_LIST_HEAD(&file->recvs);
	INIT_LIST_HEAD(&file->sends);
	init_waitqueue_head(&file->wait);

	mutex_lock(&port->files_lock);
	ret = file_may_open(port);
	if (!ret)
		list_add_tail(&file->port_link, &port->files);
	mutex_unlock(&port->files_lock);
	if (ret) {
		mutex_destroy(&file->lock);
		kfree(file);
		return ret;
	}
	filp->private_data = file;
	return stream_open(inode, filp);
}

static int file_release(struct inode *inode, struct file *filp)
{
	struct umad_file *file = filp->private_data;
	struct umad_port *port = file->port;
	LIST_HEAD(dropped);

	mutex_lock(&port->files_lock);
	mutex_lock(&file->lock);
	file_set_dead(file, &dropped);
	mutex_unlock(&file->lock);
	list_del(&file->port_link);
	file_drop_agents(file);
	mutex_unlock(&port->files_lock);

	file_free_packets(&dropped);
	mutex_destroy(&file->lock);
	kfree(file);
	return 0;
}

static __poll_t file_poll(struct file *filp, struct poll_table_struct *wait)
{
	struct umad_file *file = filp->private_data;
	__poll_t mask = EPOLLOUT | EPOLLWRNORM;

	poll_wait(filp, &file->wait, wait);
	spin_lock_irq(&file->qlock);
	if (!list_empty(&file->recvs))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (file->dead)
		mask = EPOLLERR;
	spin_unlock_irq(&file->qlock);
	return mask;
}

/* What REGISTER_AGENT and REGISTER_AGENT2 ask for, in one form. */
struct file_reg {
	u32 qpn;
	u32 flags;
	u8 rmpp_version;
	bool has_req;
	struct ib_mad_reg_req req;
};

/* The first free agent id of @file, or -ENOMEM; under its lock. */
static int file_free_id(struct umad_file *file)
{
	int id;

	lockdep_assert_held(&file->lock);
	for (id = 0; id < UMAD_MAX_AGENTS; id++)
		if (!file->agents[id])
			return id;
	return -ENOMEM;
}

/*
 * Registers the agent @r describes under the first free id, which is
 * written to @uid.  @pkey_mode: the first registration fixes the header
 * form (REGISTER_AGENT2 chooses the one with pkey_index).
 */
static int file_register(struct umad_file *file, const struct file_reg *r,
			 u32 __user *uid, bool pkey_mode)
{
	struct umad_port *port = file->port;
	struct ib_mad_agent *agent;
	struct umad_agent *ua;
	int id;

	lockdep_assert_held(&port->files_lock);
	if (r->qpn > 1)
		return -EINVAL;
	mutex_lock(&file->lock);
	id = file->dead ? -EIO : file_free_id(file);
	mutex_unlock(&file->lock);
	if (id < 0)
		return id;
	ua = kzalloc(sizeof(*ua), GFP_KERNEL);
	if (!ua)
		return -ENOMEM;
	ua->file = file;
	ua->id = id;
	agent = ib_register_mad_agent(port->ibdev, port->port_num,
				      r->qpn ? IB_QPT_GSI : IB_QPT_SMI,
				      r->has_req ? (struct ib_mad_reg_req *)&r->req :
				      NULL, r->rmpp_version, send_handler,
				      recv_handler, ua, r->flags);
	if (IS_ERR(agent)) {
		kfree(ua);
		return PTR_ERR(agent);
	}
	ua->agent = agent;
	if (put_user(id, uid)) {
		ib_unregister_mad_agent(agent);
		kfree(ua);
		return -EFAULT;
	}
	mutex_lock(&file->lock);
	if (!file->used) {
		file->used = true;
		if (pkey_mode)
			WRITE_ONCE(file->use_pkey_index, true);
		else if (!file->use_pkey_index)
			dev_notice(&port->dev,
				   "%s uses the header without pkey_index\n",
				   current->comm);
	}
	file->agents[id] = ua;
	mutex_unlock(&file->lock);
	return 0;
}

/* REGISTER_AGENT: struct ib_user_mad_reg_req. */
static long file_reg_agent(struct umad_file *file, void __user *arg,
			   bool compat)
{
	struct ib_user_mad_reg_req ureq;
	struct file_reg r = {};
	u32 words[IB_MGMT_MAX_METHODS / 32];

	if (copy_from_user(&ureq, arg, sizeof(ureq)))
		return -EFAULT;
	r.qpn = ureq.qpn;
	r.rmpp_version = ureq.rmpp_version;
	if (ureq.mgmt_class) {
		r.has_req = true;
		r.req.mgmt_class = ureq.mgmt_class;
		r.req.mgmt_class_version = ureq.mgmt_class_version;
		memcpy(r.req.oui, ureq.oui, sizeof(r.req.oui));
		/* A 32-bit process's longs are 32-bit words */
		if (compat) {
			memcpy(words, ureq.method_mask, sizeof(words));
			bitmap_from_arr32(r.req.method_mask, words,
					  IB_MGMT_MAX_METHODS);
		} else {
			memcpy(r.req.method_mask, ureq.method_mask,
			       sizeof(r.req.method_mask));
		}
	}
	return file_register(file, &r,
			     arg + offsetof(struct ib_user_mad_reg_req, id),
			     false);
}

/* REGISTER_AGENT2: struct ib_user_mad_reg_req2. */
static long file_reg_agent2(struct umad_file *file, void __user *arg)
{
	struct ib_user_mad_reg_req2 ureq;
	struct file_reg r = {};

	if (copy_from_user(&ureq, arg, sizeof(ureq)))
		return -EFAULT;
	if (ureq.qpn > 1)
		return -EINVAL;
	if (ureq.flags & ~IB_USER_MAD_REG_FLAGS_CAP) {
		/* Tell userspace what it may ask for */
		if (put_user((u32)IB_USER_MAD_REG_FLAGS_CAP,
			     (u32 __user *)(arg +
				offsetof(struct ib_user_mad_reg_req2, flags))))
			return -EFAULT;
		return -EINVAL;
	}
	r.qpn = ureq.qpn;
	r.flags = ureq.flags;
	r.rmpp_version = ureq.rmpp_version;
	if (ureq.mgmt_class) {
		if (ureq.oui & 0xff000000)
			return -EINVAL;
		r.has_req = true;
		r.req.mgmt_class = ureq.mgmt_class;
		r.req.mgmt_class_version = ureq.mgmt_class_version;
		r.req.oui[0] = ureq.oui >> 16;
		r.req.oui[1] = ureq.oui >> 8;
		r.req.oui[2] = ureq.oui;
		bitmap_from_arr64(r.req.method_mask, ureq.method_mask,
				  IB_MGMT_MAX_METHODS);
	}
	return file_register(file, &r,
			     arg + offsetof(struct ib_user_mad_reg_req2, id),
			     true);
}

/* Registration, with the port held; -EPIPE once it is going. */
static long file_reg(struct umad_file *file, void __user *arg, int which,
		     bool compat)
{
	struct umad_port *port = file->port;
	long ret;

	mutex_lock(&port->files_lock);
	if (!port->ibdev)
		ret = -EPIPE;
	else if (which == 2)
		ret = file_reg_agent2(file, arg);
	else
		ret = file_reg_agent(file, arg, compat);
	mutex_unlock(&port->files_lock);
	return ret;
}

static long file_unreg_agent(struct umad_file *file, u32 __user *arg)
{
	struct umad_port *port = file->port;
	struct umad_agent *ua;
	u32 id;

	if (get_user(id, arg))
		return -EFAULT;
	if (id >= UMAD_MAX_AGENTS)
		return -EINVAL;
	id = array_index_nospec(id, UMAD_MAX_AGENTS);
	mutex_lock(&port->files_lock);
	mutex_lock(&file->lock);
	ua = file->dead ? NULL : file->agents[id];
	if (ua)
		file->agents[id] = NULL;
	mutex_unlock(&file->lock);
	if (ua) {
		ib_unregister_mad_agent(ua->agent);
		kfree(ua);
	}
	mutex_unlock(&port->files_lock);
	return ua ? 0 : -EINVAL;
}

/* The header with pkey_index, before any agent is registered. */
static long file_enable_pkey(struct umad_file *file)
{
	long ret = 0;

	mutex_lock(&file->lock);
	if (file->used)
		ret = -EINVAL;
	else
		WRITE_ONCE(file->use_pkey_index, true);
	mutex_unlock(&file->lock);
	return ret;
}

static long file_do_ioctl(struct file *filp, unsigned int cmd,
			  void __user *arg, bool compat)
{
	struct umad_file *file = filp->private_data;

	switch (cmd) {
	case IB_USER_MAD_REGISTER_AGENT:
		return file_reg(file, arg, 1, compat);
	case IB_USER_MAD_REGISTER_AGENT2:
		return file_reg(file, arg, 2, compat);
	case IB_USER_MAD_UNREGISTER_AGENT:
		return file_unreg_agent(file, arg);
	case IB_USER_MAD_ENABLE_PKEY:
		return file_enable_pkey(file);
	}
	return -ENOIOCTLCMD;
}

static long file_ioctl(struct file *filp, unsigned int cmd,
		       unsigned long arg)
{
	return file_do_ioctl(filp, cmd, (void __user *)arg, false);
}

#ifdef CONFIG_COMPAT
static long file_compat_ioctl(struct file *filp, unsigned int cmd,
			      unsigned long arg)
{
	return file_do_ioctl(filp, cmd, compat_ptr(arg), true);
}
#endif

const struct file_operations umad_fops = {
	.owner = THIS_MODULE,
	.open = file_open,
	.release = file_release,
	.read = recv_read,
	.write = send_write,
	.poll = file_poll,
	.unlocked_ioctl = file_ioctl,
#ifdef CONFIG_COMPAT
	.compat_ioctl = file_compat_ioctl,
#endif
	.llseek = no_llseek,
};
