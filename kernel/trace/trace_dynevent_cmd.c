// SPDX-License-Identifier: GPL-2.0
/*
 * trace_dynevent_cmd - build a dynamic event definition piece by piece
 * and run it (the in-kernel synthetic and kprobe event APIs sit on this).
 *
 * The text lives in the caller's buffer behind cmd->seq.  Each add either
 * fits whole, NUL included, or fails with -E2BIG and changes nothing, so
 * a caller that gives up still holds a valid, truncated-at-a-piece
 * command and the buffer is never written past maxlen.
 */
#include <linux/kernel.h>
#include <linux/seq_buf.h>
#include <linux/string.h>
#include <linux/trace_events.h>

#include "trace_dynevent.h"

static __printf(2, 3) int dynevent_cmd_append(struct dynevent_cmd *cmd,
					      const char *fmt, ...)
{
	size_t room = seq_buf_buffer_left(&cmd->seq);
	va_list args;
	int need;

	va_start(args, fmt);
	need = vsnprintf(NULL, 0, fmt, args);
	va_end(args);
	/* the terminating NUL must fit too */
	if (!cmd->seq.buffer || need >= room) {
		pr_err("dynevent command too long for its %u byte buffer\n",
		       (unsigned int)cmd->seq.size);
		return -E2BIG;
	}
	va_start(args, fmt);
	seq_buf_vprintf(&cmd->seq, fmt, args);
	va_end(args);
	return 0;
}

/* Append " str<separator>" after an optional check of @arg. */
int dynevent_arg_add(struct dynevent_cmd *cmd, struct dynevent_arg *arg,
		     dynevent_check_arg_fn_t check_arg)
{
	int ret = check_arg ? check_arg(arg) : 0;

	if (ret)
		return ret;
	if (!arg->str)
		return -EINVAL;
	return dynevent_cmd_append(cmd, " %s%c", arg->str, arg->separator);
}

/* Append " lhs<operator>rhs<separator>" after an optional check. */
int dynevent_arg_pair_add(struct dynevent_cmd *cmd,
			  struct dynevent_arg_pair *arg_pair,
			  dynevent_check_arg_fn_t check_arg)
{
	int ret = check_arg ? check_arg(arg_pair) : 0;

	if (ret)
		return ret;
	if (!arg_pair->lhs || !arg_pair->rhs)
		return -EINVAL;
	return dynevent_cmd_append(cmd, " %s%c%s%c", arg_pair->lhs,
				   arg_pair->operator, arg_pair->rhs,
				   arg_pair->separator);
}

/* Append @str as it is: no blank before it, no separator, no check. */
int dynevent_str_add(struct dynevent_cmd *cmd, const char *str)
{
	if (!str)
		return -EINVAL;
	return dynevent_cmd_append(cmd, "%s", str);
}

/*
 * Start an empty command of kind @type in @buf (@maxlen bytes) that
 * dynevent_create() will hand to @run_command.
 */
void dynevent_cmd_init(struct dynevent_cmd *cmd, char *buf, int maxlen,
		       enum dynevent_type type,
		       dynevent_create_fn_t run_command)
{
	memset(cmd, 0, sizeof(*cmd));
	seq_buf_init(&cmd->seq, buf, maxlen);
	if (buf && maxlen > 0)
		buf[0] = '\0';
	cmd->type = type;
	cmd->run_command = run_command;
}

/* A zero separator means a blank. */
void dynevent_arg_init(struct dynevent_arg *arg, char separator)
{
	arg->str = NULL;
	arg->separator = separator ?: ' ';
}

/* A zero operator or separator means a blank. */
void dynevent_arg_pair_init(struct dynevent_arg_pair *arg_pair,
			    char operator, char separator)
{
	arg_pair->lhs = NULL;
	arg_pair->rhs = NULL;
	arg_pair->operator = operator ?: ' ';
	arg_pair->separator = separator ?: ' ';
}

/* Run the command built so far. */
int dynevent_create(struct dynevent_cmd *cmd)
{
	return cmd->run_command(cmd);
}
EXPORT_SYMBOL_GPL(dynevent_create);
