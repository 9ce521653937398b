// SPDX-License-Identifier: GPL-2.0
/*
 * The connection identifier: creation, its references, teardown and
 * destruction (iw_create_cm_id, iw_destroy_cm_id).  Its lock and lifetime
 * rules are in internal.h.
 *
 * Teardown moves an identifier to IWCM_DESTROYING once no connect, accept
 * or reject is in progress, and undoes what its state holds in the
 * driver: a listener stops listening, a connection is reset (its QP to the
 * error state), a request nobody answered is rejected.  From then on its
 * events are dropped.
 */
#include "abi/iw_cm/iwcm.h"
#include "internal.h"

/* The driver's add_ref() of the identifier. */
static void iwcm_driver_get(struct iw_cm_id *cm_id)
{
	iwcm_id_get(to_iwcm_id(cm_id));
}

/* The driver's rem_ref(); any context. */
static void iwcm_driver_put(struct iw_cm_id *cm_id)
{
	iwcm_id_put(to_iwcm_id(cm_id));
}

void iwcm_id_get(struct iwcm_id *id)
{
	refcount_inc(&id->refs);
}

/*
 * Drop a reference; any context.  Return: true if it was the last and
 * the identifier is gone.
 */
bool iwcm_id_put(struct iwcm_id *id)
{
	if (!refcount_dec_and_test(&id->refs))
		return false;
	kfree(id);
	return true;
}

/**
 * iw_create_cm_id - create an iWARP connection identifier
 * @device: the iWARP device it will connect or listen on
 * @cm_handler: the consumer's event handler; a non-zero return makes the
 *	identifier go as if iw_destroy_cm_id() had been called (the consumer
 *	must not call it then)
 * @context: the consumer's context, in cm_id->context
 *
 * The identifier starts idle.  Its handler runs in process context, for
 * one event of the identifier at a time, in the order the driver reported
 * them; the connect requests of a listener go to the listener's handler
 * with a new identifier, which inherits the handler and context.
 *
 * Return: the identifier, or ERR_PTR(-ENOMEM).
 */
struct iw_cm_id *iw_create_cm_id(struct ib_device *device,
				 iw_cm_handler cm_handler, void *context)
{
	struct iwcm_id *id;

	id = kzalloc(sizeof(*id), GFP_KERNEL);
	if (!id)
		return ERR_PTR(-ENOMEM);
	id->id.device = device;
	id->id.cm_handler = cm_handler;
	id->id.context = context;
	id->id.event_handler = iwcm_event_upcall;
	id->id.add_ref = iwcm_driver_get;
	id->id.rem_ref = iwcm_driver_put;
	refcount_set(&id->refs, 1);
	INIT_WORK(&id->work, iwcm_event_work);
	init_waitqueue_head(&id->wait);
	spin_lock_init(&id->lock);
	id->state = IWCM_IDLE;
	INIT_LIST_HEAD(&id->events);
	return &id->id;
}
EXPORT_SYMBOL(iw_create_cm_id);

/* A connect, accept or reject is over: wake teardown and disconnect. */
void iwcm_id_unbusy(struct iwcm_id *id)
{
	unsigned long flags;

	spin_lock_irqsave(&id->lock, flags);
	id->busy = false;
	wake_up_all(&id->wait);
	spin_unlock_irqrestore(&id->lock, flags);
}

/*
 * The addresses the driver uses (m_local_addr, m_remote_addr): without a
 * port mapper every address maps to itself.  -EINVAL for a device or
 * interface name the port mapper's messages could not carry, as the
 * target answers whether or not its port mapper runs.
 */
int iwcm_id_map(struct iw_cm_id *cm_id)
{
	struct ib_device *device = cm_id->device;

	if (strnlen(dev_name(&device->dev), IWPM_DEVNAME_SIZE) >=
	    IWPM_DEVNAME_SIZE ||
	    strnlen(device->iw_ifname, IWPM_IFNAME_SIZE) >= IWPM_IFNAME_SIZE)
		return -EINVAL;
	cm_id->m_local_addr = cm_id->local_addr;
	cm_id->m_remote_addr = cm_id->remote_addr;
	return 0;
}

/* What the driver holds for @was, undone; no lock held. */
static void iwcm_id_undo(struct iwcm_id *id, enum iwcm_state was,
			 struct ib_qp *qp)
{
	struct ib_device *device = id->id.device;

	switch (was) {
	case IWCM_LISTEN:
		device->ops.iw_destroy_listen(&id->id);
		break;
	case IWCM_ESTABLISHED:
		iwcm_qp_move(qp, IB_QPS_ERR);
		break;
	case IWCM_CONN_RECV:
		device->ops.iw_reject(&id->id, NULL, 0);
		break;
	default:
		break;
	}
	if (qp)
		iwcm_qp_put(device, qp);
}

/*
 * Tear @id down: wait for a connect, accept or reject in progress to be
 * answered, then drop its events and undo its state.  Process context.
 */
void iwcm_id_teardown(struct iwcm_id *id)
{
	enum iwcm_state was;
	struct ib_qp *qp;

	spin_lock_irq(&id->lock);
	wait_event_lock_irq(id->wait, !id->busy, id->lock);
	id->dropping = true;
	was = id->state;
	id->state = IWCM_DESTROYING;
	qp = id->qp;
	id->qp = NULL;
	spin_unlock_irq(&id->lock);
	iwcm_id_undo(id, was, qp);
}

/*
 * The owner gives @id up without waiting for its handler: a handler's
 * non-zero return, a connect request nobody takes.
 */
void iwcm_id_abandon(struct iwcm_id *id)
{
	iwcm_id_teardown(id);
	iwcm_id_put(id);
}

/**
 * iw_destroy_cm_id - destroy an iWARP connection identifier
 * @cm_id: the identifier
 *
 * Waits for a connect or accept in progress to be answered by the peer,
 * then stops a listener, resets an established connection (its QP to
 * the error state) or rejects a connect request not yet answered, and
 * gives the QP back.  Events still queued, and those the driver reports
 * later, are dropped; once a handler of @cm_id that is running has
 * returned, no other runs.  The memory goes when the driver has dropped
 * its references too.  Must not be called from @cm_id's own handler
 * (return non-zero there instead).
 */
void iw_destroy_cm_id(struct iw_cm_id *cm_id)
{
	struct iwcm_id *id = to_iwcm_id(cm_id);

	iwcm_id_teardown(id);
	spin_lock_irq(&id->lock);
	wait_event_lock_irq(id->wait, !id->in_handler, id->lock);
	spin_unlock_irq(&id->lock);
	iwcm_id_put(id);
}
EXPORT_SYMBOL(iw_destroy_cm_id);
