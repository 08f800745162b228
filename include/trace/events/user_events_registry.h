/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the user_events registry: who registers which event (the
 * registering task is the record's common_pid), when an event goes away,
 * and when its status bit changes because a consumer came or went.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM user_events_registry

#if !defined(_TRACE_USER_EVENTS_REGISTRY_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_USER_EVENTS_REGISTRY_H

#include <linux/tracepoint.h>
#include <linux/user_events.h>

TRACE_DEFINE_ENUM(USER_EVENT_REG_PERSIST);
TRACE_DEFINE_ENUM(USER_EVENT_REG_MULTI_FORMAT);
TRACE_DEFINE_ENUM(USER_EVENT_REG_REPORT_LOSS);

/*
 * A registration, through DIAG_IOCSREG or dynamic_events: the command as
 * written, the event it named (created = 1 when it did not exist yet), its
 * status bit (0 until a status-page registration asks for one) and its
 * USER_EVENT_REG_* flags: the event's (dynamic_events makes persistent
 * events), and REPORT_LOSS when this registration asked for loss counts.
 */
TRACE_EVENT(user_event_register,
	    TP_PROTO(const char *name, const char *cmd, unsigned int bit,
		     u16 flags, bool created),
	    TP_ARGS(name, cmd, bit, flags, created),
	    TP_STRUCT__entry(__string(name, name)
			     __string(cmd, cmd)
			     __field(unsigned int, bit)
			     __field(u16, flags)
			     __field(bool, created)),
	    TP_fast_assign(__assign_str(name);
			   __assign_str(cmd);
			   __entry->bit = bit;
			   __entry->flags = flags;
			   __entry->created = created;),
	    TP_printk("name=%s bit=%u flags=%s created=%d cmd=%s",
		      __get_str(name), __entry->bit,
		      __print_flags(__entry->flags, "|",
				    { USER_EVENT_REG_PERSIST, "PERSIST" },
				    { USER_EVENT_REG_MULTI_FORMAT, "MULTI_FORMAT" },
				    { USER_EVENT_REG_REPORT_LOSS, "REPORT_LOSS" }),
		      __entry->created, __get_str(cmd))
);

/* An event destroyed: deleted, or a transient one unpinned and unused */
TRACE_EVENT(user_event_delete,
	    TP_PROTO(const char *name, unsigned int bit),
	    TP_ARGS(name, bit),
	    TP_STRUCT__entry(__string(name, name)
			     __field(unsigned int, bit)),
	    TP_fast_assign(__assign_str(name);
			   __entry->bit = bit;),
	    TP_printk("name=%s bit=%u", __get_str(name), __entry->bit)
);

/* An event's status bit set (a first consumer) or cleared (the last gone) */
TRACE_EVENT(user_event_status,
	    TP_PROTO(const char *name, unsigned int bit, bool on,
		     unsigned int ftrace_users, unsigned int perf_users),
	    TP_ARGS(name, bit, on, ftrace_users, perf_users),
	    TP_STRUCT__entry(__string(name, name)
			     __field(unsigned int, bit)
			     __field(bool, on)
			     __field(unsigned int, ftrace_users)
			     __field(unsigned int, perf_users)),
	    TP_fast_assign(__assign_str(name);
			   __entry->bit = bit;
			   __entry->on = on;
			   __entry->ftrace_users = ftrace_users;
			   __entry->perf_users = perf_users;),
	    TP_printk("name=%s bit=%u %s ftrace=%u perf=%u", __get_str(name),
		      __entry->bit, __entry->on ? "on" : "off",
		      __entry->ftrace_users, __entry->perf_users)
);

#endif /* _TRACE_USER_EVENTS_REGISTRY_H */

#include <trace/define_trace.h>
