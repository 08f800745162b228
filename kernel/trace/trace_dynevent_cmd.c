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

/**
 * dynevent_arg_add - append one word and its separator to a command
 * @cmd: the command being built
 * @arg: the piece: @arg->str, then @arg->separator
 * @check_arg: an optional veto, asked before anything is written
 *
 * Appends " <str><separator>", whole or not at all.
 *
 * Return: 0, the veto's error, -EINVAL when @arg has no string, or
 * -E2BIG when the piece and the terminating NUL do not fit.
 */
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

/**
 * dynevent_arg_pair_add - append "lhs<operator>rhs" and a separator
 * @cmd: the command being built
 * @arg_pair: the piece: its two words, the operator between them and the
 *	separator after them
 * @check_arg: an optional veto, asked before anything is written
 *
 * Appends " <lhs><operator><rhs><separator>" (" u64 lat;" for a field of
 * a synthetic event), whole or not at all.
 *
 * Return: 0, the veto's error, -EINVAL when a word is missing, or -E2BIG
 * when the piece and the terminating NUL do not fit.
 */
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

/**
 * dynevent_str_add - append text to a command as it is
 * @cmd: the command being built
 * @str: the text: no blank goes before it and no separator after it
 *
 * Return: 0, -EINVAL for a NULL @str, or -E2BIG when @str and the
 * terminating NUL do not fit (nothing is appended then).
 */
int dynevent_str_add(struct dynevent_cmd *cmd, const char *str)
{
	if (!str)
		return -EINVAL;
	return dynevent_cmd_append(cmd, "%s", str);
}

/**
 * dynevent_cmd_init - start an empty dynamic event command
 * @cmd: the command to set up
 * @buf: the caller's buffer for its text; it must outlive @cmd's use
 * @maxlen: bytes in @buf, the terminating NUL included
 * @type: the kind of dynamic event the command defines
 * @run_command: the kind's function that dynevent_create() calls to
 *	parse the text and create the event
 *
 * Used by each kind's own init function (synth_event_cmd_init(), say)
 * rather than by the callers of the API.
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

/**
 * dynevent_arg_init - set up an empty one-word piece
 * @arg: the piece; its caller sets @arg->str before adding it
 * @separator: the character written after the word; 0 for a blank
 */
void dynevent_arg_init(struct dynevent_arg *arg, char separator)
{
	arg->str = NULL;
	arg->separator = separator ?: ' ';
}

/**
 * dynevent_arg_pair_init - set up an empty "lhs<operator>rhs" piece
 * @arg_pair: the piece; its caller sets both words before adding it
 * @operator: the character between the words; 0 for a blank
 * @separator: the character written after the piece; 0 for a blank
 */
void dynevent_arg_pair_init(struct dynevent_arg_pair *arg_pair,
			    char operator, char separator)
{
	arg_pair->lhs = NULL;
	arg_pair->rhs = NULL;
	arg_pair->operator = operator ?: ' ';
	arg_pair->separator = separator ?: ' ';
}

/**
 * dynevent_create - create the dynamic event a command defines
 * @cmd: the command, set up by its kind's init function and built with
 *	that kind's add functions
 *
 * Hands the text built so far to the kind's run_command(), which parses
 * it and creates the event.  The text is not needed afterwards: the
 * caller may reuse or free its buffer once this returns.
 *
 * Context: process context; may sleep.
 *
 * Return: 0 when the event was created, else the negative error of the
 * kind's function (-EINVAL for a definition it refuses, -EEXIST for a
 * name in use, -ENOMEM, ...).
 */
int dynevent_create(struct dynevent_cmd *cmd)
{
	return cmd->run_command(cmd);
}
EXPORT_SYMBOL_GPL(dynevent_create);
