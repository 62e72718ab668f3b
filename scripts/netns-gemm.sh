#!/usr/bin/env bash
# A distributed GEMM across two "hosts": two network namespaces joined by a
# veth pair, each with its own address and host name, with Open MPI's TCP
# transport only (no shared memory, no loopback).
#
#   scripts/netns-gemm.sh PROGRAM [NP]     # PROGRAM: an executable from
#                                          # dist-run -o (default NP 4)
#   scripts/netns-gemm.sh --probe          # exit 0 iff namespaces work here
#   scripts/netns-gemm.sh --cut-after S PROGRAM [NP]
#                                          # take the link down after S s
#
# Layout: namespace A (10.77.<k>.1, host name distnodea) runs mpirun and
# NP/2 ranks; namespace B (10.77.<k>.2, distnodeb) runs an orted, started
# through a plm_rsh_agent wrapper that enters B with `ip netns exec`, and
# the other NP/2 ranks.  Both the out-of-band channel and the BTL are
# restricted to the veth subnet (btl tcp,self; btl_tcp_if_include and
# oob_tcp_if_include 10.77.<k>.0/24).  Prints the program's output, the
# bytes that crossed the veth link and "netns-gemm: PASSED" when the
# program exits 0, ranks ran on both hosts and at least NETNS_MIN_BYTES
# crossed the link (default 16 KiB: SUMMA 64x64 on 2x2 gathers two 32x32
# f64 result tiles from the second host to rank 0 for its check alone).
# Everything (namespaces, veth, /etc/netns entries, leftover processes) is
# removed on exit, including on failure or interruption.  The daemons'
# TCP keepalive (NETNS_KEEPALIVE s idle, default 1, then 3 probes 1 s
# apart) makes mpirun notice a lost host within seconds instead of the
# default 8 minutes.  Needs root,
# iproute2 and unshare(1); where namespaces cannot be made it prints
# "netns-gemm: SKIPPED: reason" and exits 77.  The whole run is bounded by
# NETNS_TIMEOUT seconds (default 120).  NETNS_MPIRUN_ARGS: more mpirun
# options (e.g. --map-by node: ranks dealt round robin over the hosts).
set -uo pipefail

prog=netns-gemm
skip() { echo "$prog: SKIPPED: $*"; exit 77; }
fail() { echo "$prog: FAILED: $*" >&2; exit 1; }

probe_only=0
cut_after=""
if [ "${1:-}" = --probe ]; then probe_only=1; fi
if [ "${1:-}" = --cut-after ]; then cut_after="${2:?--cut-after needs seconds}"; shift 2; fi

[ "$(id -u)" = 0 ] || skip "needs root to create network namespaces"
command -v ip >/dev/null 2>&1 || skip "ip (iproute2) not found"
command -v unshare >/dev/null 2>&1 || skip "unshare (util-linux) not found"
command -v mpirun >/dev/null 2>&1 || [ "$probe_only" = 1 ] || skip "mpirun not found"

# Unique names: several runs may share the machine.
id="$$"
k=$(( (id % 200) + 20 ))
nsa="distnsa$id"
nsb="distnsb$id"
va="dva$id"
vb="dvb$id"
net="10.77.$k"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/netns-gemm.XXXXXX")" || fail "mktemp"

cleanup() {
  for ns in "$nsa" "$nsb"; do
    if ip netns list 2>/dev/null | grep -qw "$ns"; then
      pids="$(ip netns pids "$ns" 2>/dev/null)"
      [ -n "$pids" ] && kill -9 $pids 2>/dev/null
      ip netns del "$ns" 2>/dev/null
    fi
    rm -rf "/etc/netns/$ns"
  done
  ip link del "$va" 2>/dev/null
  rmdir /etc/netns 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ip netns add "$nsa" 2>"$tmp/err" || skip "cannot create a network namespace: $(head -1 "$tmp/err")"
ip netns add "$nsb" 2>"$tmp/err" || skip "cannot create a network namespace: $(head -1 "$tmp/err")"
ip link add "$va" type veth peer name "$vb" 2>"$tmp/err" || skip "cannot create a veth pair: $(head -1 "$tmp/err")"
ip link set "$va" netns "$nsa" && ip link set "$vb" netns "$nsb" || fail "moving the veth ends"
ip -n "$nsa" addr add "$net.1/24" dev "$va" && ip -n "$nsb" addr add "$net.2/24" dev "$vb" || fail "addresses"
for ns in "$nsa" "$nsb"; do ip -n "$ns" link set lo up || fail "lo up"; done
ip -n "$nsa" link set "$va" up && ip -n "$nsb" link set "$vb" up || fail "veth up"
# Reachability without ping: a connection to a closed port is refused.
reachable=0
for _ in 1 2 3 4 5 6 7 8 9 10; do
  probe="$(ip netns exec "$nsa" timeout 2 bash -c "exec 3<>/dev/tcp/$net.2/9" 2>&1)"
  if [[ "$probe" == *refused* ]]; then
    reachable=1; break
  fi
  sleep 0.5
done
[ "$reachable" = 1 ] || fail "$net.1 cannot reach $net.2 over the veth link"
# Host names: `ip netns exec` bind-mounts /etc/netns/NS/hosts on /etc/hosts.
for ns in "$nsa" "$nsb"; do
  mkdir -p "/etc/netns/$ns"
  printf '127.0.0.1 localhost\n%s distnodea\n%s distnodeb\n' "$net.1" "$net.2" > "/etc/netns/$ns/hosts"
done
echo "$prog: namespaces $nsa ($net.1, distnodea) and $nsb ($net.2, distnodeb)"
if [ "$probe_only" = 1 ]; then echo "$prog: network namespaces work"; exit 0; fi

exe="${1:?usage: $prog PROGRAM [NP]}"
np="${2:-4}"
exe="$(cd "$(dirname "$exe")" && pwd)/$(basename "$exe")"
[ -x "$exe" ] || fail "'$exe' is not an executable"
half=$(( (np + 1) / 2 ))
printf 'distnodea slots=%d\ndistnodeb slots=%d\n' "$half" "$(( np - half ))" > "$tmp/hosts"

# plm_rsh_agent: Open MPI calls it as `agent [ssh options] HOST COMMAND...`
# to start its daemon on HOST; enter that host's namespace and UTS instead.
cat > "$tmp/agent" <<AGENT
#!/bin/sh
while [ \$# -gt 0 ]; do case "\$1" in -*) shift ;; *) break ;; esac; done
host="\$1"; shift
case "\$host" in
  distnodea|$net.1) ns=$nsa ;;
  distnodeb|$net.2) ns=$nsb ;;
  *) echo "netns agent: unknown host \$host" >&2; exit 1 ;;
esac
exec ip netns exec "\$ns" unshare --uts sh -c "hostname \$host; exec \$*"
AGENT
chmod +x "$tmp/agent"

# Only what is given here: drop the suite's loopback-only MCA settings.
for v in $(env | sed -n 's/^\(OMPI_MCA_[A-Za-z0-9_]*\)=.*/\1/p; s/^\(PMIX_MCA_[A-Za-z0-9_]*\)=.*/\1/p'); do
  unset "$v"
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OPENBLAS_NUM_THREADS=1

# Bytes through the second host's end of the link, both directions.
bytes() {
  local rx tx
  rx="$(ip netns exec "$nsb" cat "/sys/class/net/$vb/statistics/rx_bytes")"
  tx="$(ip netns exec "$nsb" cat "/sys/class/net/$vb/statistics/tx_bytes")"
  echo $(( rx + tx ))
}
min_bytes="${NETNS_MIN_BYTES:-16384}"
before="$(bytes)"
if [ -n "$cut_after" ]; then
  # Fault injection: take the second host's end of the link down mid-run.
  ( sleep "$cut_after"; ip -n "$nsb" link set "$vb" down &&
    echo "$prog: link cut after $cut_after s" >&2 ) &
fi
timeout_s="${NETNS_TIMEOUT:-120}"
ip netns exec "$nsa" unshare --uts sh -c "hostname distnodea; exec timeout -k 5 $timeout_s mpirun --allow-run-as-root --oversubscribe \
    -np $np --hostfile $tmp/hosts \
    --mca plm_rsh_agent $tmp/agent \
    --mca btl tcp,self --mca btl_tcp_if_include $net.0/24 \
    --mca oob_tcp_if_include $net.0/24 \
    --mca oob_tcp_keepalive_time ${NETNS_KEEPALIVE:-1} --mca oob_tcp_keepalive_intvl 1 \
    --mca oob_tcp_keepalive_probes 3 ${NETNS_MPIRUN_ARGS:-} \
    -x OPENBLAS_NUM_THREADS \
    sh -c 'echo \"netns-gemm: rank \$OMPI_COMM_WORLD_RANK on \$(hostname)\" >&2; exec $exe'" > "$tmp/out" 2>&1
rc=$?
# (A file, not a pipe: a daemon left on the far side of a cut link would
# keep a pipe open; the cleanup kills it.)
cat "$tmp/out"
after="$(bytes)"
crossed=$(( after - before ))
echo "$prog: $crossed bytes crossed the veth link (both directions)"
[ "$rc" = 124 ] || [ "$rc" = 137 ] && fail "the run did not finish within $timeout_s s"
[ "$rc" = 0 ] || fail "mpirun exited with status $rc"
grep -q "on distnodeb" "$tmp/out" || fail "no rank ran on the second host"
grep -q "on distnodea" "$tmp/out" || fail "no rank ran on the first host"
[ "$crossed" -ge "$min_bytes" ] || fail "only $crossed bytes crossed the link (expected at least $min_bytes)"
echo "$prog: PASSED"
