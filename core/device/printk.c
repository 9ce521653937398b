// SPDX-License-Identifier: GPL-2.0
/*
 * Log messages about a device: "<parent driver> <parent>: <ibdev>: text"
 * for a device with a parent (a DMA device), "<ibdev>: text" otherwise.
 */
#include "abi/ib_core/device.h"
#include "device/internal.h"

static void ibdev_emit(const char *level, const struct ib_device *ibdev,
		       const char *format, va_list *args)
{
	const struct device *parent = ibdev ? ibdev->dev.parent : NULL;
	struct va_format text = { .fmt = format, .va = args };

	if (!ibdev)
		printk("%s(no ib_device): %pV", level, &text);
	else if (!parent)
		printk("%s%s: %pV", level, dev_name(&ibdev->dev), &text);
	else
		dev_printk_emit(level[1] - '0', parent, "%s %s %s: %pV",
				dev_driver_string(parent), dev_name(parent),
				dev_name(&ibdev->dev), &text);
}

/**
 * ibdev_printk - log a message about a device at a given level
 * @level: KERN_* level
 * @ibdev: the device, or NULL
 * @format: printf format
 */
void ibdev_printk(const char *level, const struct ib_device *ibdev,
		  const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	ibdev_emit(level, ibdev, format, &ap);
	va_end(ap);
}
EXPORT_SYMBOL(ibdev_printk);

/*
 * ibdev_emerg() ... ibdev_info(): log a message about a device (or NULL)
 * at the level in the name.
 */
#define IBDEV_LEVEL_FN(name, level)					\
void name(const struct ib_device *ibdev, const char *format, ...)	\
{									\
	va_list ap;							\
									\
	va_start(ap, format);						\
	ibdev_emit(level, ibdev, format, &ap);				\
	va_end(ap);							\
}									\
EXPORT_SYMBOL(name)

IBDEV_LEVEL_FN(ibdev_emerg, KERN_EMERG);
IBDEV_LEVEL_FN(ibdev_alert, KERN_ALERT);
IBDEV_LEVEL_FN(ibdev_crit, KERN_CRIT);
IBDEV_LEVEL_FN(ibdev_err, KERN_ERR);
IBDEV_LEVEL_FN(ibdev_warn, KERN_WARNING);
IBDEV_LEVEL_FN(ibdev_notice, KERN_NOTICE);
IBDEV_LEVEL_FN(ibdev_info, KERN_INFO);
