#!/bin/sh
# Installs what the simulator suite (and the MAD code's build) needs on
# Debian 12: libibumad-dev, ibsim-utils (ibsim, libumad2sim), opensm,
# infiniband-diags, python3, python3-prometheus-client (the parser the
# OpenMetrics output is checked with), prometheus (promtool's lint), and
# slurmctld, slurm-client and munge (Slurm's own parser reads the
# topology.conf of `fabric topology slurm`, plan.sh).
set -e
export DEBIAN_FRONTEND=noninteractive
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  libibumad-dev ibsim-utils opensm infiniband-diags python3 python3-prometheus-client prometheus \
  slurmctld slurm-client munge >/dev/null
