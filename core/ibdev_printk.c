// SPDX-License-Identifier: GPL-2.0
/*
 * Log messages about a device: "<parent driver> <parent>: <ibdev>: text"
 * for a device with a parent (a DMA device), "<ibdev>: text" otherwise.
 */
#include "abi_device.h"
#include "dev_priv.h"

static void ibdev_vprintk(const char *level, const struct ib_device *ibdev,
			  struct va_format *vaf)
{
	const struct device *parent = ibdev ? ibdev->dev.parent : NULL;

	if (parent)
		dev_printk_emit(level[1] - '0', parent, "%s %s %s: %pV",
				dev_driver_string(parent), dev_name(parent),
				dev_name(&ibdev->dev), vaf);
	else if (ibdev)
		printk("%s%s: %pV", level, dev_name(&ibdev->dev), vaf);
	else
		printk("%s(no ib_device): %pV", level, vaf);
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
	struct va_format vaf;
	va_list args;

	va_start(args, format);
	vaf.fmt = format;
	vaf.va = &args;
	ibdev_vprintk(level, ibdev, &vaf);
	va_end(args);
}
EXPORT_SYMBOL(ibdev_printk);

#define IBDEV_LEVEL_FN(name, level)					\
/**									\
 * name - log a message about a device at this level			\
 * @ibdev: the device, or NULL						\
 * @format: printf format						\
 */									\
void name(const struct ib_device *ibdev, const char *format, ...)	\
{									\
	struct va_format vaf;						\
	va_list args;							\
									\
	va_start(args, format);						\
	vaf.fmt = format;						\
	vaf.va = &args;							\
	ibdev_vprintk(level, ibdev, &vaf);				\
	va_end(args);							\
}									\
EXPORT_SYMBOL(name)

IBDEV_LEVEL_FN(ibdev_emerg, KERN_EMERG);
IBDEV_LEVEL_FN(ibdev_alert, KERN_ALERT);
IBDEV_LEVEL_FN(ibdev_crit, KERN_CRIT);
IBDEV_LEVEL_FN(ibdev_err, KERN_ERR);
IBDEV_LEVEL_FN(ibdev_warn, KERN_WARNING);
IBDEV_LEVEL_FN(ibdev_notice, KERN_NOTICE);
IBDEV_LEVEL_FN(ibdev_info, KERN_INFO);
