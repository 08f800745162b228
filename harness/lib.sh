# SPDX-License-Identifier: GPL-2.0
# Shared settings and helpers of the harness scripts.  Sourced, not run.

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
B=$ROOT/build
CACHE=${TS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tracing-series}
BASE_PKG=linux-source-6.12
JOBS=${JOBS:-$(nproc)}

# Directories of ours that mirror kernel paths and replace base files.
OVERLAY_DIRS="kernel include samples Documentation tools lib"

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# need_pkgs CMD:PKG ... - install the Debian packages whose probe fails.
# A probe is a command name or an absolute path that must exist.
need_pkgs() {
	local want="" p probe pkg
	for p in "$@"; do
		probe=${p%%:*} pkg=${p#*:}
		case $probe in
		/*) [ -e "$probe" ] && continue ;;
		*) command -v "$probe" >/dev/null 2>&1 && continue ;;
		esac
		want="$want $pkg"
	done
	[ -z "$want" ] && return 0
	say "installing:$want"
	if [ "$(id -u)" -ne 0 ]; then
		die "missing packages:$want (run as root or install them)"
	fi
	[ -n "$(find /var/lib/apt/lists -name '*Packages*' -mmin -1440 2>/dev/null | head -n1)" ] ||
		apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $want >&2
}

need_build_deps() {
	need_pkgs gcc:gcc make:make flex:flex bison:bison bc:bc perl:perl \
		cpio:cpio xz:xz-utils git:git python3:python3 \
		/usr/include/libelf.h:libelf-dev /usr/include/openssl/ssl.h:libssl-dev \
		/usr/lib/x86_64-linux-gnu/libc.a:libc6-dev
}

need_vm_deps() {
	need_pkgs qemu-system-x86_64:qemu-system-x86 /bin/busybox:busybox-static
	file_static /bin/busybox || die "/bin/busybox is not static: install busybox-static"
}

file_static() { ! LC_ALL=C ldd "$1" >/dev/null 2>&1; }

# base_tree - print the pristine base tree: $KSRC, or the unpacked Debian
# linux-source-6.12 package kept in $CACHE.
base_tree() {
	if [ -n "${KSRC:-}" ]; then
		[ -f "$KSRC/Makefile" ] || die "KSRC=$KSRC is not a kernel tree"
		(cd "$KSRC" && pwd)
		return
	fi
	local dir=$CACHE/$BASE_PKG tarball=/usr/src/$BASE_PKG.tar.xz
	if [ ! -f "$dir/.unpacked" ]; then
		need_pkgs "$tarball:$BASE_PKG"
		say "unpacking $tarball into $CACHE (once)"
		rm -rf "$dir" && mkdir -p "$CACHE"
		tar -xf "$tarball" -C "$CACHE"
		touch "$dir/.unpacked"
	fi
	echo "$dir"
}

base_version() {
	make -s -C "$1" kernelversion 2>/dev/null
}

# Build variants: where the sources and objects live and which fragments apply.
variant_src() { if [ "$1" = base ]; then base_tree; else echo "$B/src"; fi; }
variant_obj() { echo "$B/obj-$1"; }
variant_fragments() {
	case $1 in
	base) echo "$ROOT/config/tracing.config" ;;
	ours) echo "$ROOT/config/tracing.config $ROOT/config/ours.config" ;;
	debug) echo "$ROOT/config/tracing.config $ROOT/config/ours.config $ROOT/config/debug.config" ;;
	*) die "unknown variant $1" ;;
	esac
}
bzimage() { echo "$(variant_obj "$1")/arch/x86/boot/bzImage"; }
