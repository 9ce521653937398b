// SPDX-License-Identifier: GPL-2.0
/*
 * Listeners: a cm_id in the listen state takes the REQs and SIDR REQs
 * of one device for one service ID.  At most one listener per (device,
 * service ID); ib_cm_insert_listen() shares one among callers with the
 * same handler.  The list is under cm_lock.
 */
#include "abi/ib_cm/cm.h"
#include "internal.h"

static LIST_HEAD(cm_listeners);

/* Service IDs handed out for IB_CM_ASSIGN_SERVICE_ID (under cm_lock) */
static u64 cm_next_service_id;

static struct cm_id_priv *cm_listener_lookup(struct ib_device *ibdev,
					     __be64 service_id)
{
	struct cm_id_priv *p;

	list_for_each_entry(p, &cm_listeners, listen_link)
		if (p->id.device == ibdev && p->id.service_id == service_id)
			return p;
	return NULL;
}

/**
 * cm_listener_find - the listener of a device and service ID, referenced
 * @ibdev: the device a REQ came in on
 * @service_id: the REQ's service ID
 *
 * Return: the listener (cm_id_put() it), or NULL.
 */
struct cm_id_priv *cm_listener_find(struct ib_device *ibdev,
				    __be64 service_id)
{
	struct cm_id_priv *p;
	unsigned long flags;

	spin_lock_irqsave(&cm_lock, flags);
	p = cm_listener_lookup(ibdev, service_id);
	if (p)
		refcount_inc(&p->refs);
	spin_unlock_irqrestore(&cm_lock, flags);
	return p;
}

/**
 * cm_listener_remove - a listener stops listening
 * @priv: the listener, locked
 */
void cm_listener_remove(struct cm_id_priv *priv)
{
	unsigned long flags;

	spin_lock_irqsave(&cm_lock, flags);
	list_del_init(&priv->listen_link);
	spin_unlock_irqrestore(&cm_lock, flags);
}

/**
 * cm_listener_unshare - one user of a shared listener lets go
 * @priv: a cm_id being destroyed
 *
 * Return: true when other users remain (the listener stays); otherwise
 * a listener stops listening here, so that nobody shares it any more.
 */
bool cm_listener_unshare(struct cm_id_priv *priv)
{
	unsigned long flags;
	bool shared;

	spin_lock_irqsave(&cm_lock, flags);
	shared = priv->listen_share > 0;
	if (shared)
		priv->listen_share--;
	else
		list_del_init(&priv->listen_link);
	spin_unlock_irqrestore(&cm_lock, flags);
	return shared;
}

/* Enter an idle cm_id as listener; under its lock and cm_lock */
static int cm_listen_locked(struct cm_id_priv *priv, __be64 service_id)
{
	if (priv->id.state != IB_CM_IDLE)
		return -EINVAL;
	if (service_id == IB_CM_ASSIGN_SERVICE_ID) {
		do {
			service_id = cpu_to_be64(cm_next_service_id++ |
				be64_to_cpu(IB_CM_ASSIGN_SERVICE_ID));
		} while (cm_listener_lookup(priv->id.device, service_id));
	} else if ((service_id & IB_SERVICE_ID_AGN_MASK) ==
		   IB_CM_ASSIGN_SERVICE_ID) {
		/* That range is ours to assign */
		return -EINVAL;
	} else if (cm_listener_lookup(priv->id.device, service_id)) {
		return -EBUSY;
	}
	priv->id.service_id = service_id;
	priv->id.state = IB_CM_LISTEN;
	list_add_tail(&priv->listen_link, &cm_listeners);
	return 0;
}

/**
 * ib_cm_listen - take the connection requests of a service
 * @cm_id: an idle identifier; its device's REQs and SIDR REQs for
 *	@service_id create new identifiers, reported to its handler
 * @service_id: the service ID, or IB_CM_ASSIGN_SERVICE_ID for one chosen
 *	here (then in &ib_cm_id.service_id)
 *
 * Return: 0; -EINVAL when @cm_id is not idle or @service_id is in the
 * range reserved for assignment; -EBUSY when the device has a listener
 * for it already.
 */
int ib_cm_listen(struct ib_cm_id *cm_id, __be64 service_id)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&priv->lock, flags);
	spin_lock(&cm_lock);
	ret = cm_listen_locked(priv, service_id);
	spin_unlock(&cm_lock);
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_cm_listen);

/* Share an existing listener; under cm_lock */
static struct cm_id_priv *cm_share_listener(struct ib_device *device,
					    ib_cm_handler h,
					    __be64 service_id)
{
	struct cm_id_priv *p = cm_listener_lookup(device, service_id);

	if (!p)
		return NULL;
	if (p->id.cm_handler != h || p->id.context)
		return ERR_PTR(-EINVAL);
	p->listen_share++;
	return p;
}

/**
 * ib_cm_insert_listen - a listener for a service, shared
 * @device: the device
 * @cm_handler: the listener's handler
 * @service_id: the service ID
 *
 * If the device has a listener for @service_id with @cm_handler and no
 * context, it is returned and counts one more user; otherwise a new one
 * is made.  Each user destroys it once (ib_destroy_cm_id()); the last
 * destruction ends it.
 *
 * Return: the listener; ERR_PTR(-EINVAL) when another handler or a
 * context listens there; another ERR_PTR on failure.
 */
struct ib_cm_id *ib_cm_insert_listen(struct ib_device *device,
				     ib_cm_handler cm_handler,
				     __be64 service_id)
{
	struct cm_id_priv *priv, *p;
	unsigned long flags;
	int ret;

	priv = cm_id_alloc(device, cm_handler, NULL);
	if (IS_ERR(priv))
		return ERR_CAST(priv);
	spin_lock_irqsave(&priv->lock, flags);
	spin_lock(&cm_lock);
	p = cm_share_listener(device, cm_handler, service_id);
	ret = p ? 0 : cm_listen_locked(priv, service_id);
	spin_unlock(&cm_lock);
	spin_unlock_irqrestore(&priv->lock, flags);
	if (!p && !ret)
		return &priv->id;
	ib_destroy_cm_id(&priv->id);
	if (IS_ERR(p))
		return ERR_CAST(p);
	return p ? &p->id : ERR_PTR(ret);
}
EXPORT_SYMBOL(ib_cm_insert_listen);
