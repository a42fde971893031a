/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * event_direct: a virtual device that puts lib_timer_adapter behind DPDK's
 * own rte_event_timer_adapter API, so that a DPDK application runs on our
 * adapter without being recompiled:
 *
 *     -d PATH/librte_event_direct.so --vdev=event_sw0 --vdev=event_direct0
 *
 * DPDK asks an event device for timer adapter ops through its
 * timer_adapter_caps_get op; event_sw and event_dsw return none, and DPDK
 * then uses its own software adapter. At probe, this driver gives each
 * event device it takes over (dev=NAME, or by default every device probed
 * before it whose caps_get gives no ops) a patched copy of its ops table,
 * whose caps_get returns our ops; other devices of the same driver keep
 * their table, and the original is put back when the vdev is removed.
 *
 * The caps exclude RTE_EVENT_TIMER_ADAPTER_CAP_INTERNAL_PORT, so DPDK's
 * create calls the application's (or its default) port callback exactly as
 * it does for its own adapter; our init then creates a lib_timer_adapter
 * adapter from the rte adapter's configuration on the port DPDK got, and
 * keeps its handle in the rte adapter's shared data (adapter_priv). The
 * fast-path ops DPDK copies into struct rte_event_timer_adapter call the
 * library with that handle, which is valid in every process (it is the
 * address of the library's memzone), so a secondary process that loads
 * this driver too attaches with rte_event_timer_adapter_lookup().
 */

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_event_timer_adapter.h>
#include <rte_eventdev.h>
#include <rte_kvargs.h>
#include <rte_log.h>
#include <rte_string_fns.h>
#include <rte_version.h>

#include <bus_vdev_driver.h>
#include <eventdev_pmd.h>
#include <event_timer_adapter_pmd.h>

#include "timer_adapter.h"

RTE_LOG_REGISTER(ed_logtype, pmd.event.direct, INFO);

#define ED_LOG(level, fmt, ...)						\
	rte_log(RTE_LOG_ ## level, ed_logtype, "%s(): " fmt "\n",	\
		__func__, ##__VA_ARGS__)

#define ED_ARG_DEV "dev"

/*
 * One event device taken over. The table is per process (so is DPDK's
 * rte_eventdevs[] whose dev_ops it patches) and indexed by device id; the
 * patched copy lives here, never freed, so that a device still pointing at
 * it after its vdev was removed never reads freed memory.
 */
struct ed_dev {
	const struct rte_vdev_device *owner; /* NULL: not taken over. */
	struct eventdev_ops *orig_ops;	/* The device's own table. */
	struct eventdev_ops ops;	/* The patched copy it uses now. */
};

static struct ed_dev ed_devs[RTE_EVENT_MAX_DEVS];

/* ---- The adapter ops: each calls the library with our handle ---- */

static inline struct timer_adapter *
ed_ta(const struct rte_event_timer_adapter *adapter)
{
	return adapter->data->adapter_priv;
}

/* Hands the library the port DPDK's port callback already set up. */
static int
ed_port_cb(uint16_t id, uint8_t dev_id, uint8_t *port_id, void *arg)
{
	RTE_SET_USED(id);
	RTE_SET_USED(dev_id);
	*port_id = *(const uint8_t *)arg;
	return 0;
}

static int
ed_init(struct rte_event_timer_adapter *adapter)
{
	struct rte_event_timer_adapter_data *data = adapter->data;
	uint8_t port = data->event_port_id;
	struct timer_adapter *ta;
	uint32_t service_id;
	int ret;

	ta = timer_adapter_create_ext(&data->conf, ed_port_cb, &port);
	if (ta == NULL)
		return -rte_errno;
	ret = timer_adapter_service_id_get(ta, &service_id);
	if (ret < 0) {
		timer_adapter_free(ta);
		return ret;
	}
	/* DPDK's rte_event_timer_adapter_service_id_get() reads these. */
	data->service_id = service_id;
	data->service_inited = 1;
	data->adapter_priv = ta;
	ED_LOG(DEBUG, "timer adapter %u on event device %u, port %u: "
	       "lib_timer_adapter service %u", data->id, data->event_dev_id,
	       port, service_id);
	return 0;
}

static int
ed_uninit(struct rte_event_timer_adapter *adapter)
{
	int ret = timer_adapter_free(ed_ta(adapter));

	if (ret == 0) {
		adapter->data->adapter_priv = NULL;
		adapter->data->service_inited = 0;
	}
	return ret;
}

static int
ed_start(const struct rte_event_timer_adapter *adapter)
{
	return timer_adapter_start(ed_ta(adapter));
}

static int
ed_stop(const struct rte_event_timer_adapter *adapter)
{
	return timer_adapter_stop(ed_ta(adapter));
}

/* DPDK fills conf, port and caps itself after this. */
static void
ed_get_info(const struct rte_event_timer_adapter *adapter,
	    struct rte_event_timer_adapter_info *info)
{
	struct rte_event_timer_adapter_info ours;

	if (timer_adapter_get_info(ed_ta(adapter), &ours) != 0)
		return;
	info->min_resolution_ns = ours.min_resolution_ns;
	info->max_tmo_ns = ours.max_tmo_ns;
}

static int
ed_stats_get(const struct rte_event_timer_adapter *adapter,
	     struct rte_event_timer_adapter_stats *stats)
{
	return timer_adapter_stats_get(ed_ta(adapter), stats);
}

static int
ed_stats_reset(const struct rte_event_timer_adapter *adapter)
{
	return timer_adapter_stats_reset(ed_ta(adapter));
}

static uint16_t
ed_arm_burst(const struct rte_event_timer_adapter *adapter,
	     struct rte_event_timer **tims, uint16_t nb_tims)
{
	return timer_adapter_arm_burst(ed_ta(adapter), tims, nb_tims);
}

static uint16_t
ed_arm_tmo_tick_burst(const struct rte_event_timer_adapter *adapter,
		      struct rte_event_timer **tims, uint64_t timeout_ticks,
		      uint16_t nb_tims)
{
	return timer_adapter_arm_tmo_tick_burst(ed_ta(adapter), tims,
						timeout_ticks, nb_tims);
}

static uint16_t
ed_cancel_burst(const struct rte_event_timer_adapter *adapter,
		struct rte_event_timer **tims, uint16_t nb_tims)
{
	return timer_adapter_cancel_burst(ed_ta(adapter), tims, nb_tims);
}

#if RTE_VERSION >= RTE_VERSION_NUM(23, 3, 0, 0)
static int
ed_remaining_ticks_get(const struct rte_event_timer_adapter *adapter,
		       const struct rte_event_timer *evtim,
		       uint64_t *ticks_remaining)
{
	return timer_adapter_remaining_ticks_get(ed_ta(adapter), evtim,
						 ticks_remaining);
}
#endif

static const struct event_timer_adapter_ops ed_timer_ops = {
	.init = ed_init,
	.uninit = ed_uninit,
	.start = ed_start,
	.stop = ed_stop,
	.get_info = ed_get_info,
	.stats_get = ed_stats_get,
	.stats_reset = ed_stats_reset,
	.arm_burst = ed_arm_burst,
	.arm_tmo_tick_burst = ed_arm_tmo_tick_burst,
	.cancel_burst = ed_cancel_burst,
#if RTE_VERSION >= RTE_VERSION_NUM(23, 3, 0, 0)
	.remaining_ticks_get = ed_remaining_ticks_get,
#endif
};

/* ---- The patched caps_get ---- */

/*
 * The device's own caps (DPDK's software adapter's when it has no
 * caps_get) without INTERNAL_PORT, with PERIODIC, and our ops.
 */
static int
ed_caps_get(const struct rte_eventdev *dev, uint64_t flags, uint32_t *caps,
	    const struct event_timer_adapter_ops **ops)
{
	const struct ed_dev *d = &ed_devs[dev->data->dev_id];
	const struct event_timer_adapter_ops *own = NULL;
	int ret;

	*caps = RTE_EVENT_TIMER_ADAPTER_SW_CAP;
	if (d->orig_ops != NULL && d->orig_ops->timer_adapter_caps_get != NULL) {
		ret = d->orig_ops->timer_adapter_caps_get(dev, flags, caps,
							  &own);
		if (ret < 0)
			return ret;
	}
	*caps &= ~(uint32_t)RTE_EVENT_TIMER_ADAPTER_CAP_INTERNAL_PORT;
	*caps |= RTE_EVENT_TIMER_ADAPTER_CAP_PERIODIC;
	*ops = &ed_timer_ops;
	return 0;
}

/* ---- Taking over event devices ---- */

/* Whether the device's own caps_get gives adapter ops (hardware timers). */
static bool
ed_dev_has_timer_ops(struct rte_eventdev *dev)
{
	const struct event_timer_adapter_ops *ops = NULL;
	uint32_t caps = 0;

	if (dev->dev_ops == NULL ||
	    dev->dev_ops->timer_adapter_caps_get == NULL)
		return false;
	if (dev->dev_ops->timer_adapter_caps_get(dev, 0, &caps, &ops) < 0)
		return true; /* Unknown: leave it alone. */
	return ops != NULL;
}

static void
ed_take(const struct rte_vdev_device *vdev, uint8_t dev_id)
{
	struct rte_eventdev *dev = &rte_eventdevs[dev_id];
	struct ed_dev *d = &ed_devs[dev_id];

	d->orig_ops = dev->dev_ops;
	d->ops = *dev->dev_ops;
	d->ops.timer_adapter_caps_get = ed_caps_get;
	d->owner = vdev;
	__atomic_store_n(&dev->dev_ops, &d->ops, __ATOMIC_RELEASE);
	ED_LOG(INFO, "%s: event device %u (%s) runs its event timer adapters "
	       "on lib_timer_adapter", rte_vdev_device_name(vdev), dev_id,
	       dev->data->name);
}

/* The device a dev=NAME argument names, checked; or -errno. */
static int
ed_named_dev(const char *name)
{
	int id = rte_event_dev_get_dev_id(name);

	if (id < 0 || !rte_event_pmd_is_valid_dev(id)) {
		ED_LOG(ERR, "no event device %s (it must be probed before "
		       "event_direct: give its --vdev first)", name);
		return -ENODEV;
	}
	if (ed_devs[id].owner != NULL) {
		ED_LOG(ERR, "event device %s is already taken over by %s",
		       name, rte_vdev_device_name(ed_devs[id].owner));
		return -EBUSY;
	}
	if (ed_dev_has_timer_ops(&rte_eventdevs[id])) {
		ED_LOG(ERR, "event device %s has its own event timer adapter",
		       name);
		return -ENOTSUP;
	}
	return id;
}

static int
ed_copy_arg(const char *key, const char *value, void *opaque)
{
	char *out = opaque;

	RTE_SET_USED(key);
	return rte_strscpy(out, value, RTE_EVENTDEV_NAME_MAX_LEN) < 0 ?
		-EINVAL : 0;
}

/* The dev= argument into name ("" when not given); 0 or -EINVAL. */
static int
ed_parse_args(const struct rte_vdev_device *vdev, char *name)
{
	static const char *const keys[] = { ED_ARG_DEV, NULL };
	const char *args = rte_vdev_device_args(vdev);
	struct rte_kvargs *kv;
	int ret = 0;

	name[0] = '\0';
	if (args == NULL || args[0] == '\0')
		return 0;
	kv = rte_kvargs_parse(args, keys);
	if (kv == NULL) {
		ED_LOG(ERR, "%s: bad arguments '%s' (only dev=NAME)",
		       rte_vdev_device_name(vdev), args);
		return -EINVAL;
	}
	if (rte_kvargs_count(kv, ED_ARG_DEV) > 1 ||
	    rte_kvargs_process(kv, ED_ARG_DEV, ed_copy_arg, name) < 0) {
		ED_LOG(ERR, "%s: dev= must name one event device",
		       rte_vdev_device_name(vdev));
		ret = -EINVAL;
	}
	rte_kvargs_free(kv);
	return ret;
}

static int
ed_probe(struct rte_vdev_device *vdev)
{
	char name[RTE_EVENTDEV_NAME_MAX_LEN];
	unsigned int taken = 0;
	int id, ret;

	ret = ed_parse_args(vdev, name);
	if (ret < 0)
		return ret;
	if (name[0] != '\0') {
		id = ed_named_dev(name);
		if (id < 0)
			return id;
		ed_take(vdev, id);
		return 0;
	}
	for (id = 0; id < RTE_EVENT_MAX_DEVS; id++) {
		if (!rte_event_pmd_is_valid_dev(id) ||
		    ed_devs[id].owner != NULL ||
		    ed_dev_has_timer_ops(&rte_eventdevs[id]))
			continue;
		ed_take(vdev, id);
		taken++;
	}
	if (taken == 0) {
		ED_LOG(ERR, "%s: no event device to take over (give the event "
		       "device's --vdev before this one)",
		       rte_vdev_device_name(vdev));
		return -ENODEV;
	}
	return 0;
}

static int
ed_remove(struct rte_vdev_device *vdev)
{
	struct rte_eventdev *dev;
	unsigned int id;

	for (id = 0; id < RTE_EVENT_MAX_DEVS; id++) {
		if (ed_devs[id].owner != vdev)
			continue;
		dev = &rte_eventdevs[id];
		/* Unless the device was released and set up anew since. */
		if (dev->dev_ops == &ed_devs[id].ops)
			__atomic_store_n(&dev->dev_ops, ed_devs[id].orig_ops,
					 __ATOMIC_RELEASE);
		ed_devs[id].owner = NULL;
		ed_devs[id].orig_ops = NULL;
		ED_LOG(INFO, "%s: event device %u has DPDK's event timer "
		       "adapter again (adapters created before keep "
		       "lib_timer_adapter until freed)",
		       rte_vdev_device_name(vdev), id);
	}
	return 0;
}

static struct rte_vdev_driver ed_vdev_driver = {
	.probe = ed_probe,
	.remove = ed_remove,
};

RTE_PMD_REGISTER_VDEV(event_direct, ed_vdev_driver);
RTE_PMD_REGISTER_PARAM_STRING(event_direct, ED_ARG_DEV "=<event device name>");
