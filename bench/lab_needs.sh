# Sourced by the lab's bench scripts: what each checks before it starts.
# lab_needs NAME TOOL...: sets addr to the lab's RDMA address, and exits 2
# (saying so as NAME) outside the lab or when a TOOL is not on PATH.
lab_needs() {
    local name=$1 t
    shift
    addr=${CMDBENCH_RDMA_ADDR:-}
    if [ -z "$addr" ]; then
        echo "$name: CMDBENCH_RDMA_ADDR is not set: run inside tools/rdma-lab" >&2
        exit 2
    fi
    for t in "$@"; do
        command -v "$t" > /dev/null && continue
        echo "$name: $t not found (tools/install-deps.sh)" >&2
        exit 2
    done
}
