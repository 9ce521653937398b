// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/infiniband/issmN: the process that holds it open is the port's
 * subnet manager.  Opening it sets IB_PORT_SM in the port's capability
 * mask (ib_modify_port()), closing it clears the bit; one opener at a
 * time (the others wait, or get -EAGAIN with O_NONBLOCK).
 *
 * Locking: the port's sm_sem is held by the opener from open() to
 * release(); the port's files_lock guards its device (internal.h).
 */
#include <linux/nsproxy.h>
#include "internal.h"

/* Sets (or clears) IB_PORT_SM; -ENXIO once the port is gone. */
static int issm_set(struct umad_port *port, bool on)
{
	struct ib_port_modify mod = {};
	int ret = -ENXIO;

	if (on)
		mod.set_port_cap_mask = IB_PORT_SM;
	else
		mod.clr_port_cap_mask = IB_PORT_SM;
	mutex_lock(&port->files_lock);
	if (port->ibdev && on &&
	    !rdma_dev_access_netns(port->ibdev, current->nsproxy->net_ns))
		ret = -EPERM;
	else if (port->ibdev)
		ret = ib_modify_port(port->ibdev, port->port_num, 0, &mod);
	mutex_unlock(&port->files_lock);
	return ret;
}

static int issm_open(struct inode *inode, struct file *filp)
{
	struct umad_port *port = container_of(inode->i_cdev, struct umad_port,
					      sm_cdev);
	int ret;

	if (filp->f_flags & O_NONBLOCK) {
		if (down_trylock(&port->sm_sem))
			return -EAGAIN;
	} else if (down_interruptible(&port->sm_sem)) {
		return -ERESTARTSYS;
	}
	ret = issm_set(port, true);
	if (ret) {
		up(&port->sm_sem);
		return ret;
	}
	filp->private_data = port;
	nonseekable_open(inode, filp);
	return 0;
}

static int issm_release(struct inode *inode, struct file *filp)
{
	struct umad_port *port = filp->private_data;
	int ret = issm_set(port, false);

	up(&port->sm_sem);
	/* A port that went has no capability left to clear */
	return ret == -ENXIO ? 0 : ret;
}

const struct file_operations umad_issm_fops = {
	.owner = THIS_MODULE,
	.open = issm_open,
	.release = issm_release,
	.llseek = no_llseek,
};
