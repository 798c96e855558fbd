#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for trying the job-array recipe for real
# (deploy/slurm/check.sh uses it). Needs root and Debian's slurm-wlm and munge
# (`apt-get install -y slurm-wlm munge`); there is no systemd here, so the daemons are started by hand
# and stopped by the PIDs they wrote.
#
#   deploy/slurm/cluster.sh start    munged, slurmctld and slurmd; waits until the node is idle
#   deploy/slurm/cluster.sh stop     stops the three daemons (by their PID files)
#   deploy/slurm/cluster.sh status   sinfo
#   deploy/slurm/cluster.sh running  exit 0 when the three daemons run (check.sh stops only a cluster it started)
#   deploy/slurm/cluster.sh env      the line to eval so that sbatch/squeue/sinfo talk to this cluster
#
# Everything lives in one folder, $SPIDERSOLVE_SLURM_DIR (default /tmp/spidersolve-slurm): the munge
# key and socket, slurm.conf, spool, logs and PID files. Nothing under /etc is changed, and the daemons
# listen on ports 16817/16818, so an existing Slurm installation is left alone. Slurm's commands find
# this cluster through SLURM_CONF (printed by `env`; check.sh sets it).
set -euo pipefail

DIR=${SPIDERSOLVE_SLURM_DIR:-/tmp/spidersolve-slurm}
CONF=$DIR/etc/slurm.conf
export SLURM_CONF=$CONF

die() { echo "cluster.sh: $*" >&2; exit 1; }

alive() { # pidfile -> true when its process runs
  [[ -s $1 ]] && kill -0 "$(cat "$1")" 2>/dev/null
}

start() {
  [[ $(id -u) == 0 ]] || die "run me as root (slurmd and munged need it)"
  for c in munged slurmctld slurmd sinfo; do
    command -v "$c" >/dev/null || die "$c not found: apt-get install -y slurm-wlm munge"
  done
  mkdir -p "$DIR"/{etc,spool/ctld,spool/d,log,run,munge}
  chmod 755 "$DIR" "$DIR"/run

  # munge: a key of 1024 random bytes, owner munge, mode 400; munged runs as munge
  chown munge:munge "$DIR/munge"
  chmod 700 "$DIR/munge"
  if [[ ! -s $DIR/munge/munge.key ]]; then
    dd if=/dev/urandom of="$DIR/munge/munge.key" bs=1024 count=1 status=none
  fi
  chown munge:munge "$DIR/munge/munge.key"
  chmod 400 "$DIR/munge/munge.key"
  mkdir -p "$DIR/munge-socket"
  chown munge:munge "$DIR/munge-socket"
  chmod 755 "$DIR/munge-socket"
  if ! alive "$DIR/munge/munged.pid"; then
    runuser -u munge -- munged \
      --key-file="$DIR/munge/munge.key" --socket="$DIR/munge-socket/munge.socket" \
      --pid-file="$DIR/munge/munged.pid" --log-file="$DIR/munge/munged.log" --seed-file="$DIR/munge/munged.seed"
  fi

  local host cpus mem
  host=$(hostname)
  cpus=$(nproc)
  mem=$(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' | head -1)
  mem=$(( ${mem:-1024} * 9 / 10 ))
  cat >"$CONF" <<EOF
# written by deploy/slurm/cluster.sh
ClusterName=spidersolve
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$DIR/munge-socket/munge.socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
StateSaveLocation=$DIR/spool/ctld
SlurmdSpoolDir=$DIR/spool/d
SlurmctldPidFile=$DIR/run/slurmctld.pid
SlurmdPidFile=$DIR/run/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
PlugStackConfig=$DIR/etc/plugstack.conf
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  : >"$DIR/etc/plugstack.conf"

  if ! alive "$DIR/run/slurmctld.pid"; then slurmctld -f "$CONF"; fi
  if ! alive "$DIR/run/slurmd.pid"; then slurmd -f "$CONF"; fi

  # wait until the node takes work
  local state=''
  for _ in $(seq 1 60); do
    state=$(sinfo -h -N -o '%T' 2>/dev/null | head -1 || true)
    [[ $state == idle* || $state == mixed* || $state == allocated* ]] && { echo "slurm: node $host $state ($cpus CPUs), SLURM_CONF=$CONF"; return 0; }
    sleep 1
  done
  echo "--- slurmctld.log" >&2; tail -20 "$DIR/log/slurmctld.log" >&2 || true
  echo "--- slurmd.log" >&2; tail -20 "$DIR/log/slurmd.log" >&2 || true
  die "the node did not come up (state: ${state:-none})"
}

stop_pid() { # name pidfile
  local pid
  alive "$2" || return 0
  pid=$(cat "$2")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || { echo "stopped $1 ($pid)"; return 0; }; sleep 0.2; done
  kill -9 "$pid" 2>/dev/null || true
  echo "killed $1 ($pid)"
}

stop() {
  stop_pid slurmd "$DIR/run/slurmd.pid"
  stop_pid slurmctld "$DIR/run/slurmctld.pid"
  stop_pid munged "$DIR/munge/munged.pid"
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  status) sinfo ;;
  running) alive "$DIR/munge/munged.pid" && alive "$DIR/run/slurmctld.pid" && alive "$DIR/run/slurmd.pid" ;;
  env) echo "export SLURM_CONF=$CONF" ;;
  *) echo "usage: $0 start|stop|status|running|env" >&2; exit 2 ;;
esac
