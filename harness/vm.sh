#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vm.sh VARIANT MODE LOGNAME [CMDLINE...] - boot a built kernel with the
# initramfs under QEMU and wait for it to power off.
#
# The console (ttyS0) is saved in build/logs/LOGNAME.console and, when
# TS_QUIET is unset, shown; ttyS1 (the machine-readable channel) is saved in
# build/logs/LOGNAME.out.  TCG is used unless KVM really works (the CPU must
# offer vmx/svm and /dev/kvm be usable); TS_ICOUNT=1 selects deterministic
# -icount time (TCG only), TS_QEMU_ARGS extra QEMU options.  Exits 124 when the VM does not finish in
# TS_VM_TIMEOUT seconds.  TS_KERNEL boots another image than the variant's
# (make bisect boots each step's), TS_INITRD another initramfs.
#
# Without ACPI the guest learns its CPUs from SeaBIOS's MP table, which
# lists one CPU per socket: hence -smp N,sockets=N, or only one CPU boots.
# TCG runs the vCPUs in one host thread: with a thread per vCPU, a vCPU
# could still run code another vCPU had just live-patched (jump labels,
# static calls) and hit a stale int3, an oops real hardware never shows.
# TS_TCG_THREAD=multi gives each vCPU a thread all the same (KCSAN sees
# two CPUs race only when both really run at once): make fuzz KCSAN=1 and
# make stress, on arm64, where a stale copy of patched code is the valid
# instruction it replaced (see harness/fuzz.sh).
#
# ARCH=arm64 boots QEMU's "virt" machine (qemu-system-aarch64, a Cortex-A
# "max" CPU with the cheap pointer-authentication algorithm): its one
# PL011 UART is the console, and the machine-readable channel is a
# virtio console (/dev/hvc0).
. "$(dirname "$0")/lib.sh"

variant=$1 mode=$2 logname=$3
shift 3
kernel=${TS_KERNEL:-$(bzimage "$variant")}
[ -f "$kernel" ] || die "no kernel at $kernel"
initrd=${TS_INITRD:-$B/initramfs.cpio}
mkdir -p "$B/logs"
console=$B/logs/$logname.console out=$B/logs/$logname.out
: > "$console"; : > "$out"

accel="-accel tcg,thread=${TS_TCG_THREAD:-single}"
if [ -n "${TS_ICOUNT:-}" ]; then
	accel="-accel tcg -icount shift=0,sleep=off"
elif [ "${TS_ACCEL:-}" = kvm ] || { [ -z "${TS_ACCEL:-}" ] && [ -w /dev/kvm ] &&
		grep -qE '^flags.* (vmx|svm)( |$)' /proc/cpuinfo; }; then
	accel="-accel kvm"
fi

if [ "$TS_ARCH" = arm64 ]; then
	qemu=qemu-system-aarch64 tty=ttyAMA0
	[ "$accel" = "-accel kvm" ] && accel="-accel tcg,thread=single"
	args=(-machine "${TS_MACHINE:-virt}" -cpu max,pauth-impdef=on -smp "${TS_SMP:-2}")
	second=(-device virtio-serial-device -chardev "file,id=ts1,path=$out"
		-device virtconsole,chardev=ts1)
	shell_second=()
else
	qemu=qemu-system-x86_64 tty=ttyS0
	args=(-machine "${TS_MACHINE:-q35}" -cpu max -smp "${TS_SMP:-2},sockets=${TS_SMP:-2}")
	second=(-serial "file:$out")
	shell_second=(-serial null)
fi
args+=(-m "${TS_MEM:-1G}" $accel -nodefaults -no-reboot
	-display none -kernel "$kernel" -initrd "$initrd"
	-append "console=$tty panic=-1 ts.mode=$mode ts.variant=$variant $* ${TS_CMDLINE:-}"
	${TS_QEMU_ARGS:-})
if [ "$mode" = shell ]; then
	exec $qemu "${args[@]}" -serial mon:stdio "${shell_second[@]}"
fi
timeout_s=${TS_VM_TIMEOUT:-2400}
set +e
if [ -n "${TS_QUIET:-}" ]; then
	timeout "$timeout_s" $qemu "${args[@]}" -serial "file:$console" \
		"${second[@]}" < /dev/null
	rc=$?
else
	timeout "$timeout_s" $qemu "${args[@]}" -serial stdio \
		"${second[@]}" < /dev/null | tee "$console"
	rc=${PIPESTATUS[0]}
fi
set -e
if [ $rc = 124 ]; then
	echo "vm: the $variant VM did not finish within ${timeout_s}s" >&2
	exit 124
fi
exit 0
