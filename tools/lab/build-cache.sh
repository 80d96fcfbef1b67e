#!/usr/bin/env bash
# Builds the RDMA lab's boot files for one kernel into OUTDIR:
#   OUTDIR/vmlinux          the kernel, uncompressed (boots faster under TCG)
#                           or, if extraction fails, a copy of the bzImage
#   OUTDIR/initramfs.cpio   busybox-static, the modules the lab needs (in
#                           load order) and tools/lab/init as /init
# Usage: build-cache.sh KERNEL_IMAGE MODULES_DIR OUTDIR
# Called by tools/rdma-lab; not meant to be run by hand (but harmless).
set -euo pipefail

kernel=$1 moddir=$2 out=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rel=$(basename "$moddir")

# Modules loaded in the initramfs, in this order (their dependencies first,
# as modprobe --show-depends resolves them). Everything the guest needs to
# mount the host's file system and to bring up Soft-RoCE.
wanted=(virtio_pci virtio_console virtio_net 9pnet_virtio 9p overlay dummy
        rdma_rxe rdma_ucm)

die() { echo "build-cache: $*" >&2; exit 1; }

tmp=$(mktemp -d "${out}.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# --- the kernel: extract vmlinux from the bzImage ---------------------------
# Find each compressed-stream magic inside the bzImage and try to
# decompress from there; the first result that is an ELF file wins.
extract() {
  local magic=$1; shift
  local off
  for off in $(LC_ALL=C grep -obUaP "$magic" "$kernel" 2>/dev/null | cut -d: -f1 | head -5); do
    tail -c +$((off + 1)) "$kernel" | "$@" > "$tmp/vmlinux" 2>/dev/null || true
    if [ "$(head -c 4 "$tmp/vmlinux" 2>/dev/null | od -An -c | tr -d ' ')" = '177ELF' ]; then
      return 0
    fi
  done
  return 1
}
if { command -v xz >/dev/null && extract '\xfd7zXZ\x00' xz -dc; } ||
   { command -v gzip >/dev/null && extract '\x1f\x8b\x08' gzip -dc; } ||
   { command -v zstd >/dev/null && extract '\x28\xb5\x2f\xfd' zstd -dc; }; then
  :
else
  echo "build-cache: could not extract vmlinux from $kernel; booting the compressed image (slower)" >&2
  cp "$kernel" "$tmp/vmlinux"
fi

# --- the initramfs -----------------------------------------------------------
root=$tmp/root
mkdir -p "$root"/{bin,sbin,dev,proc,sys,lower,rw,newroot,lib/modules}
busybox=$(command -v busybox) || die "busybox not found (install busybox-static)"
if ldd "$busybox" >/dev/null 2>&1; then
  die "$busybox is dynamically linked; the lab needs busybox-static"
fi
cp "$busybox" "$root/bin/busybox"
install -m 0755 "$here/init" "$root/init"

: > "$root/lib/modules/order"
declare -A seen=()
for m in "${wanted[@]}"; do
  lines=$(modprobe -S "$rel" -d "$(dirname "$(dirname "$(dirname "$moddir")")")" \
            --show-depends "$m" 2>&1) || die "module $m: $lines"
  while read -r verb path rest; do
    [ "$verb" = insmod ] || continue     # "builtin ..." needs nothing
    name=$(basename "$path"); name=${name%%.ko*}
    [ -n "${seen[$name]:-}" ] && continue
    seen[$name]=1
    case "$path" in
      *.ko)     cp "$path" "$root/lib/modules/$name.ko" ;;
      *.ko.xz)  xz -dc "$path" > "$root/lib/modules/$name.ko" ;;
      *.ko.gz)  gzip -dc "$path" > "$root/lib/modules/$name.ko" ;;
      *.ko.zst) zstd -qdc "$path" > "$root/lib/modules/$name.ko" ;;
      *) die "unknown module file $path" ;;
    esac
    echo "$name $rest" >> "$root/lib/modules/order"
  done <<< "$lines"
done
grep -q '^rdma_rxe' "$root/lib/modules/order" || die "rdma_rxe not found for kernel $rel"

(cd "$root" && find . | LC_ALL=C sort | busybox cpio -o -H newc 2>/dev/null) > "$tmp/initramfs.cpio"

mkdir -p "$out"
mv "$tmp/vmlinux" "$out/vmlinux"
mv "$tmp/initramfs.cpio" "$out/initramfs.cpio"
