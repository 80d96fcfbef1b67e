#!/usr/bin/python3
"""The server half of the lab's launch agent (docs/rdma-lab.md, "mpirun
across the two guests"); the client is tests/lab/lab-rsh.

The lab's guests have no sshd, so mpirun's rsh launcher (`--mca plm_rsh_agent
lab-rsh`) cannot start `orted` in the other guest. Run this in that guest:

    lab-rsh-server.py --bind 192.0.2.2 [--port 7610]

For each connection it runs the command it is sent with `/bin/sh -c`, as sshd
would, in a session of its own, with stdin from /dev/null (mpirun gives its
agents /dev/null and orted reads nothing), and streams the command's stdout
and stderr back, then its exit status (128 + N for signal N). The command's
life is tied to the connection, as with ssh: when the client goes away (it
ended, was killed, or the connection dropped) the command's process group is
sent SIGTERM, then SIGKILL 2 s later. The group is also killed once the
command itself has exited, and when this server gets SIGTERM or SIGINT.

Wire format (client -> server): one frame, a 4-byte big-endian length and the
command (UTF-8). Server -> client: frames of a 1-byte kind (b"o" stdout,
b"e" stderr, b"x" exit status as ASCII digits), a 4-byte big-endian length and
the payload. No authentication: lab use only, on the guests' private cable.
"""
import argparse
import os
import selectors
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

DEFAULT_PORT = 7610
live_groups = set()  # process groups of the commands running now
live_lock = threading.Lock()


def log(msg):
    print(f"lab-rsh-server: {msg}", file=sys.stderr, flush=True)


def recv_exact(conn, n):
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            raise EOFError("connection closed")
        data += chunk
    return data


def send_frame(conn, kind, payload):
    conn.sendall(kind + struct.pack(">I", len(payload)) + payload)


def kill_group(pgid):
    """SIGTERM the group, SIGKILL what is left 2 s later."""
    try:
        os.killpg(pgid, signal.SIGTERM)
    except ProcessLookupError:
        return
    for _ in range(20):
        time.sleep(0.1)
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def run_command(conn, peer):
    (length,) = struct.unpack(">I", recv_exact(conn, 4))
    command = recv_exact(conn, length).decode()
    log(f"{peer}: running: {command}")
    proc = subprocess.Popen(["/bin/sh", "-c", command], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    with live_lock:
        live_groups.add(proc.pid)
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ, b"o")
    sel.register(proc.stderr, selectors.EVENT_READ, b"e")
    sel.register(conn, selectors.EVENT_READ, None)
    client_gone = False
    exited_at = None
    try:
        while len(sel.get_map()) > 1:
            # A background child of the command may hold its pipes open:
            # stop reading 2 s after the command itself has exited.
            if proc.poll() is not None:
                exited_at = exited_at or time.monotonic()
                if time.monotonic() - exited_at > 2:
                    break
            for key, _ in sel.select(timeout=0.5):
                if key.data is None:  # the client sends nothing more: EOF = gone
                    if not conn.recv(4096):
                        client_gone = True
                        break
                    continue
                chunk = os.read(key.fileobj.fileno(), 65536)
                if chunk:
                    send_frame(conn, key.data, chunk)
                else:
                    sel.unregister(key.fileobj)
            if client_gone:
                break
        if client_gone:
            log(f"{peer}: client gone, killing the command's process group")
        else:
            status = proc.wait()
            status = 128 - status if status < 0 else status
            log(f"{peer}: exit {status}")
            send_frame(conn, b"x", str(status).encode())
    except OSError as e:  # the connection broke while sending
        log(f"{peer}: connection lost ({e}), killing the command's process group")
    finally:
        kill_group(proc.pid)
        proc.wait()
        with live_lock:
            live_groups.discard(proc.pid)
        sel.close()
        proc.stdout.close()
        proc.stderr.close()


def handle(conn, peer):
    try:
        with conn:
            run_command(conn, peer)
    except (EOFError, OSError, UnicodeDecodeError, struct.error) as e:
        log(f"{peer}: bad request ({e})")


def stop(signum, _frame):
    with live_lock:
        groups = list(live_groups)
    for pgid in groups:
        try:
            os.killpg(pgid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    os._exit(128 + signum)


def main():
    ap = argparse.ArgumentParser(description="Run commands for tests/lab/lab-rsh clients.")
    ap.add_argument("--bind", required=True, help="address to listen on (the guest's lab0 address)")
    ap.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT})")
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((args.bind, args.port))
    srv.listen(16)
    log(f"listening on {args.bind}:{args.port}")
    while True:
        conn, (host, port) = srv.accept()
        # Notice a peer that vanished without closing (e.g. its guest died).
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, 10)
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, 5)
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, 3)
        threading.Thread(target=handle, args=(conn, f"{host}:{port}"), daemon=True).start()


if __name__ == "__main__":
    main()
