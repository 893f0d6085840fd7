#!/bin/sh
# /init of the test VM (see tests/vm/run).  Runs the fixture, then /cmd.sh,
# and sends /out back to the host as a base64 tar on /dev/ttyS1.
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
export HOME=/root
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm /run/netns
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
echo 1 > /proc/sys/kernel/printk
echo /sbin/modprobe > /proc/sys/kernel/modprobe
ip link set lo up
stty -F /dev/ttyS1 raw -echo 2>/dev/null
echo RDMA-VM-INIT > /dev/ttyS1
mkdir -p /out
export RDMA_NEW=/opt/rdma-new/rdma OUT=/out
echo "uname=$(uname -r)" > /out/vm-info
mode=$(cat /fixture-mode 2>/dev/null || echo resources)
t0=$(cut -d' ' -f1 /proc/uptime)
( . /fixture.sh; fixture "$mode" ) > /out/fixture.log 2> /out/fixture.err < /dev/null
echo $? > /out/fixture.status
echo "fixture_start=$t0 fixture_end=$(cut -d' ' -f1 /proc/uptime)" >> /out/vm-info
cd /tmp
sh /cmd.sh > /out/stdout 2> /out/stderr < /dev/null
echo $? > /out/status
echo "cmd_end=$(cut -d' ' -f1 /proc/uptime)" >> /out/vm-info
{
    echo RDMA-VM-OUT-BEGIN
    tar c -C /out . | gzip -1 | base64
    echo RDMA-VM-OUT-END
} > /dev/ttyS1
sleep 1
poweroff -f
