#!/bin/sh
# Installs what the simulator suite (and the MAD code's build) needs on
# Debian 12: libibumad-dev, ibsim-utils (ibsim, libumad2sim), opensm,
# infiniband-diags, python3, python3-prometheus-client (the parser the
# OpenMetrics output is checked with) and prometheus (promtool's lint);
# for the report suite, Debian's chromium and chromium-driver with
# python3-selenium (the page in a real browser) and python3-html5lib (an
# HTML5 parser), and graphviz (the picture); tmux, the real terminal
# `fabric top` is tested in; slurmctld, slurm-client and munge (Slurm's own
# parser reads the topology.conf of `fabric topology slurm`, plan.sh);
# valgrind (fabric.sh checks cmake/hot_text.ld under callgrind).
set -e
export DEBIAN_FRONTEND=noninteractive
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  libibumad-dev ibsim-utils opensm infiniband-diags python3 python3-prometheus-client prometheus \
  chromium chromium-driver python3-selenium python3-html5lib graphviz tmux slurmctld slurm-client munge valgrind >/dev/null
