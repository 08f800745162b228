/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Forget every form a trace header defines its events with.
 * define_trace.h includes this before giving the forms its own meaning,
 * and again when it is done, so that linux/tracepoint.h, which defines
 * them only while TRACE_EVENT is undefined, can define them anew for the
 * next trace header.  No include guard: each inclusion does the work.
 */
#undef DECLARE_EVENT_CLASS
#undef DECLARE_EVENT_SYSCALL_CLASS
#undef DECLARE_TRACE
#undef DECLARE_TRACE_CONDITION
#undef DECLARE_TRACE_EVENT
#undef DECLARE_TRACE_EVENT_CONDITION
#undef DEFINE_EVENT
#undef DEFINE_EVENT_CONDITION
#undef DEFINE_EVENT_FN
#undef DEFINE_EVENT_NOP
#undef DEFINE_EVENT_PRINT
#undef TRACE_EVENT
#undef TRACE_EVENT_CONDITION
#undef TRACE_EVENT_FN
#undef TRACE_EVENT_FN_COND
#undef TRACE_EVENT_NOP
#undef TRACE_EVENT_SYSCALL
