# After poll returns, the test takes a /proc/PID of the sleep that is
# still there for "poll exits too soon".  But the event that wakes the
# poller, sched_process_exit, fires inside the exit of that sleep, before
# it is a zombie and long before the shell reaps it, so the directory may
# still be there when the test looks: the test fails now and then on
# either kernel (under TCG, 1 run in 4 on the base).  The sleep is waited
# for once tracing is off; the trace must still hold its exit, which
# poll returning too soon would leave out ("poll exits before event
# happens").  The first set makes the same change to the test itself
# (patches/0100-ftrace-hist-poll-wait-sleep.patch); the VM runs the
# base's ftracetest, so it is made here too.
/^echo 0 > tracing_on$/a wait ${BGPID} ||:
