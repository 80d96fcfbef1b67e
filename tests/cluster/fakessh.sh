#!/usr/bin/env bash
# A stand-in for ssh as Open MPI's launch agent: runs the command on this
# machine, as ssh would on the named host. With it, a "two-node" mpirun
#   mpirun --host localhost:2,127.0.0.2:2 --mca plm_rsh_agent tests/cluster/fakessh.sh ...
# takes the real remote-launch path (an orted started through the agent, a
# fence across two daemons) on one machine. Every call is appended to
# $FAKESSH_LOG when it is set, so a test can check that the agent was used.
set -euo pipefail
# Skip ssh's options (mpirun passes none by default; plm_rsh_args may).
while [ $# -gt 0 ]; do
  case $1 in
    -[bcDEeFIiJLlmOopQRSWw]) shift 2 ;; # options that take a value
    -*) shift ;;
    *) break ;;
  esac
done
if [ $# -lt 2 ]; then
  echo "fakessh.sh: usage: fakessh.sh [ssh options] HOST COMMAND..." >&2
  exit 255 # what ssh returns for its own errors
fi
host=$1
shift
if [ -n "${FAKESSH_LOG:-}" ]; then
  printf '%s %s\n' "$host" "$*" >>"$FAKESSH_LOG"
fi
# ssh hands its arguments, joined by spaces, to the remote user's shell.
exec /bin/sh -c "$*"
