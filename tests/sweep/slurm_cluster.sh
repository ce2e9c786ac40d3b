#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for the sweep's tests and benchmark: munged,
# slurmctld and slurmd of Debian's slurm-wlm and munge, started as root with a generated
# slurm.conf (loopback address, free ports, one node with this machine's CPUs, one partition);
# every file under DIR. Clients reach it through SLURM_CONF=DIR/slurm.conf.
#   slurm_cluster.sh start DIR   starts the daemons, waits until the node is idle
#   slurm_cluster.sh stop DIR    stops the daemons it started (by their pid files)
set -euo pipefail
action=$1 dir=$2

pids() { cat "$dir"/slurmd.pid "$dir"/slurmctld.pid "$dir"/munge/munged.pid 2>/dev/null || true; }

stop() {
  local pid
  for pid in $(pids); do kill "$pid" 2>/dev/null || true; done
  for _ in $(seq 100); do
    local alive=0
    for pid in $(pids); do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && return 0
    sleep 0.1
  done
  for pid in $(pids); do kill -9 "$pid" 2>/dev/null || true; done
}

free_port() {  # a loopback port nothing listens on
  local p
  while true; do
    p=$((20000 + RANDOM % 40000))
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo $p; return; }
  done
}

start() {
  [ "$(id -u)" = 0 ] || { echo "slurm_cluster.sh: the daemons run as root"; return 1; }
  for tool in munged slurmctld slurmd sbatch squeue sinfo; do
    command -v $tool >/dev/null || { echo "slurm_cluster.sh: $tool missing (Debian slurm-wlm, munge)"; return 1; }
  done
  mkdir -p "$dir"/state "$dir"/spool "$dir"/log
  chmod 755 "$dir"
  # munged wants its socket directory searchable by all and its key private.
  mkdir -p -m 755 "$dir"/munge
  mkdir -p -m 700 "$dir"/munge-private
  head -c 1024 /dev/urandom > "$dir"/munge-private/munge.key
  chmod 400 "$dir"/munge-private/munge.key
  munged --key-file="$dir"/munge-private/munge.key --socket="$dir"/munge/munge.socket \
         --pid-file="$dir"/munge/munged.pid --log-file="$dir"/munge-private/munged.log \
         --seed-file="$dir"/munge-private/munged.seed
  local host cpus mem
  host=$(hostname -s)
  cpus=$(nproc)
  mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 * 8 / 10 ))
  cat > "$dir"/slurm.conf <<CONF
ClusterName=tessera-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
# No cgroups here: processes tracked through /proc, tasks not confined.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
MinJobAge=10
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=sweep Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF="$dir"/slurm.conf
  slurmctld -i
  slurmd
  for _ in $(seq 150); do
    [ "$(sinfo --noheader --format %t 2>/dev/null)" = idle ] && return 0
    sleep 0.2
  done
  echo "slurm_cluster.sh: the node did not become idle:"
  sinfo || true
  tail -5 "$dir"/log/slurmctld.log "$dir"/log/slurmd.log || true
  return 1
}

case $action in
  start) start || { stop; exit 1; } ;;
  stop) stop ;;
  *) echo "usage: slurm_cluster.sh start|stop DIR"; exit 2 ;;
esac
