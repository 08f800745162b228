/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal header of the event trigger engine, shared by the core
 * (trace_events_trigger.c: lists, hot path, tracefs file, parsing) and
 * the built-in commands (trace_trigger_cmds.c).  The interface the rest
 * of kernel/trace uses (histograms, event probes, trace_events.c) stays
 * in trace.h.
 */
#ifndef _TRACE_TRIGGER_H
#define _TRACE_TRIGGER_H

#include "trace.h"

/* Room for "trigger:<system>:<event>", the error_log location. */
#define TRIGGER_LOC_MAX			128

/* Count value meaning "fire every time"; never decremented. */
#define TRIGGER_COUNT_UNLIMITED		((unsigned long)-1)

/*
 * Everything the engine can complain about in error_log.  The text of
 * each entry lives in trigger_err_text[] (trace_events_trigger.c); this
 * enum is the index into it.
 */
enum trigger_err {
	TRIGGER_ERR_NONE,		/* placeholder, never logged */
	TRIGGER_ERR_UNKNOWN_CMD,	/* no command registered under that name */
	TRIGGER_ERR_BAD_COUNT,		/* ":count" is not a number in range */
	TRIGGER_ERR_NEED_IF,		/* text after the command is not "if ..." */
	TRIGGER_ERR_BAD_FILTER,		/* the filter engine rejected the filter */
	TRIGGER_ERR_NEED_TARGET,	/* enable/disable without <system>:<event> */
	TRIGGER_ERR_NO_TARGET,		/* <system>:<event> does not exist here */
	TRIGGER_ERR_TARGET_GONE,	/* target event is being removed */
	TRIGGER_ERR_EXISTS,		/* same kind of trigger already attached */
};

/* Command names as typed by users; also used when listing triggers. */
#define TRIGGER_TRACEON_STR	"traceon"
#define TRIGGER_TRACEOFF_STR	"traceoff"
#define TRIGGER_SNAPSHOT_STR	"snapshot"
#define TRIGGER_STACKTRACE_STR	"stacktrace"

/* Spellings used by the listing of the "trigger" file. */
#define TRIGGER_UNLIMITED_STR	":unlimited"
#define TRIGGER_COUNT_FMT	":count=%lu"
#define TRIGGER_FILTER_FMT	" if %s"
#define TRIGGER_AVAILABLE_HDR	"# Available triggers:\n#"

void trigger_log_err(struct trace_event_file *ef, enum trigger_err err,
		     const char *where);
int trigger_set_count_filter(struct event_command *cmd,
			     struct trace_event_file *ef,
			     struct event_trigger_data *trig,
			     char *count, char *filter);
bool trigger_count_take(struct event_trigger_data *trig);
void trigger_print_tail(struct seq_file *m, struct event_trigger_data *trig);

int trigger_attach(struct event_trigger_data *trig,
		   struct trace_event_file *ef);
void trigger_detach(struct event_trigger_data *trig,
		    struct trace_event_file *ef);
int trigger_generic_parse(struct event_command *cmd,
			  struct trace_event_file *ef,
			  char *word, char *name, char *args);
int trigger_generic_reg(char *word, struct event_trigger_data *trig,
			struct trace_event_file *ef);
bool trigger_generic_unreg_found(struct event_trigger_data *key,
				 struct trace_event_file *ef);
void trigger_generic_unreg(char *word, struct event_trigger_data *key,
			   struct trace_event_file *ef);
void trigger_generic_free(struct event_trigger_data *trig);

#endif /* _TRACE_TRIGGER_H */
