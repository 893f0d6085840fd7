#!/bin/bash
# Tests bash-completion/rdma: sources it in bash with a fake "rdma" (canned
# JSON for "rdma -j dev" and "rdma -j link") and a fake "ip" (netns names)
# first on PATH, completes command lines and compares COMPREPLY.
#
# Every case runs twice: with bash-completion's helpers loaded (as on a
# real system) and in plain bash (the script's own fallback).
#
# Usage: tests/completion/completion_test.sh [-v]
# Ends with "N passed, M failed"; exits non-zero if anything failed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
COMPLETION=$ROOT/bash-completion/rdma
BASH_COMPLETION=${BASH_COMPLETION:-/usr/share/bash-completion/bash_completion}
VERBOSE=0
[ "${1:-}" = -v ] && VERBOSE=1

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/bin" "$TMP/files"
export FAKE_LOG=$TMP/rdma.log

# The fake rdma: logs its arguments, answers "-j dev" and "-j link" with
# what the real program prints for two devices (rxe0 with one port,
# mlx5_0 with two), wherever the options stand. The devices come indented
# (as with -p), the ports on one line.
cat >"$TMP/bin/rdma" <<'EOF'
#!/bin/bash
echo "$*" >>"$FAKE_LOG"
obj=""
json=0
words=""
while [ $# -gt 0 ]; do
  case $1 in
    -j | --json | -json) json=1 ;;
    -n | --netns) shift ;;
    -*) ;;
    *) [ -z "$obj" ] && obj=$1 || words="$words $1" ;;
  esac
  shift
done
if [ "$obj $words" = "mad  help" ]; then
  echo "Usage: rdma mad get ATTR TARGET [ mod N ] [ port N ] [via DEV/PORT]"
  echo "       rdma mad decode < FILE   (a MAD as hex bytes)"
  echo "where  ATTR := { NodeDescription | NodeInfo | PortInfo | PortCounters | SMInfo | MlnxExtPortInfo | LinearForwardingTable | MulticastForwardingTable }"
  echo "       TARGET := { lid LID | LID | guid GUID | gid GID | dr PATH }"
  exit 0
fi
[ $json = 1 ] || { echo "fake rdma: only -j output" >&2; exit 1; }
case $obj in
  dev)
    # Indented, as with -p, to check that the parser does not care.
    cat <<'JSON'
[ {
    "ifindex": 0,
    "ifname": "rxe0",
    "node_type": "ca",
    "node_guid": "5054:00ff:fe12:3456",
    "sys_image_guid": "5054:00ff:fe12:3456"
  },{
    "ifindex": 1,
    "ifname": "mlx5_0",
    "node_type": "ca",
    "fw": "16.35.2000",
    "node_guid": "0c42:a103:0065:1a2c",
    "sys_image_guid": "0c42:a103:0065:1a2c",
    "adaptive-moderation": true
  } ]
JSON
    ;;
  link)
    echo '[{"ifindex":0,"ifname":"rxe0","port":1,"state":"ACTIVE","physical_state":"LINK_UP","netdev":"eth0"},{"ifindex":1,"ifname":"mlx5_0","port":1,"subnet_prefix":"fe80:0000:0000:0000","lid":3,"sm_lid":1,"lmc":0,"state":"ACTIVE","physical_state":"LINK_UP"},{"ifindex":1,"ifname":"mlx5_0","port":2,"state":"DOWN","physical_state":"DISABLED"}]'
    ;;
  *) echo '[]'; exit 1 ;;
esac
EOF
cat >"$TMP/bin/ip" <<'EOF'
#!/bin/sh
[ "$*" = "netns list" ] || exit 1
echo "blue (id: 0)"
echo "red"
EOF
chmod +x "$TMP/bin/rdma" "$TMP/bin/ip"
touch "$TMP/files/cmds.txt" "$TMP/files/other.batch"

# The cases, run in a child bash; prints "PASS name" or "FAIL name ...".
cat >"$TMP/cases.sh" <<'EOF'
mode=$1
if [ "$mode" = bash-completion ]; then
  # shellcheck disable=SC1090
  source "$BASH_COMPLETION" || { echo "FAIL cannot source $BASH_COMPLETION"; exit 1; }
fi
# shellcheck disable=SC1090
source "$COMPLETION"
complete -p rdma >/dev/null 2>&1 || echo "FAIL [$mode] no completion registered for rdma"

# Completes LINE with the cursor at its end, as readline would call the
# function; prints the sorted COMPREPLY on one line.
complete_line() {
  local line=$1
  local -a w
  # Readline's word breaks that matter here: blanks and "=".
  read -ra w <<<"${line//=/ = }"
  [[ $line == *" " || ${#w[@]} -eq 0 ]] && w+=("")
  COMP_LINE=$line
  COMP_POINT=${#line}
  COMP_WORDS=("${w[@]}")
  COMP_CWORD=$((${#w[@]} - 1))
  COMPREPLY=()
  _rdma rdma "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
  printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort -u | tr '\n' ' ' | sed 's/ $//'
}

# check NAME LINE EXPECTED: COMPREPLY is exactly EXPECTED (sorted words).
check() {
  local got
  got=$(complete_line "$2")
  if [ "$got" = "$3" ]; then
    echo "PASS [$mode] $1"
  else
    echo "FAIL [$mode] $1: '$2' gave '$got', expected '$3'"
  fi
}

# check_has NAME LINE WORD...: COMPREPLY holds every WORD.
check_has() {
  local name=$1 line=$2 got w
  shift 2
  got=" $(complete_line "$line") "
  for w; do
    if [[ $got != *" $w "* ]]; then
      echo "FAIL [$mode] $name: '$line' gave '$got', missing '$w'"
      return
    fi
  done
  echo "PASS [$mode] $name"
}

# check_log NAME LINE TEXT: completing LINE ran the fake rdma with TEXT.
check_log() {
  : >"$FAKE_LOG"
  complete_line "$2" >/dev/null
  if grep -qxF -- "$3" "$FAKE_LOG"; then
    echo "PASS [$mode] $1"
  else
    echo "FAIL [$mode] $1: '$2' ran '$(tr '\n' ';' <"$FAKE_LOG")', expected '$3'"
  fi
}

objects="bw cc dev fabric gid help link mad monitor node perf port resource route sa sm statistic system"
check "objects" "rdma " "$objects"
check "object prefix" "rdma s" "sa sm statistic system"
check "object prefix unique" "rdma li" "link"
check "help OBJECT" "rdma help " "${objects/help /}"
check "help OBJECT COMMAND" "rdma help fabric " "check counters diff edit errors help links list plan report save show top topology"
check "help OBJECT COMMAND, abbreviated" "rdma help de " "add chardev delete help limits list set show"
check "help OBJECT COMMAND: nothing after" "rdma help dev show " ""
check "dev commands" "rdma dev " "add chardev delete help limits list set show"
check "dev chardev DEV" "rdma dev chardev " "mlx5_0 rxe0"
check "dev limits DEV" "rdma dev limits " "mlx5_0 rxe0"
check "link status DEV/PORT" "rdma link status mlx5_0/" "mlx5_0/1 mlx5_0/2"
check "link commands" "rdma link " "add delete help list show status"
check "gid commands" "rdma gid " "help list show"
check "bw commands" "rdma bw " "client help path server"
check "bw server: links and keywords" "rdma bw server " "mlx5_0 mlx5_0/1 mlx5_0/2 port rxe0 rxe0/1 wait"
check "bw server DEV: keywords only" "rdma bw server rxe0 " "port wait"
check "bw server port N: nothing" "rdma bw server port " ""
check "bw client TARGET: the InfiniBand keywords" "rdma bw client " "gid guid lid name"
check "bw client lid N: nothing" "rdma bw client lid " ""
check "bw client lid N: keywords" "rdma bw client lid 4 si" "size"
check "bw path TARGET: links" "rdma bw path name h4 " "mlx5_0 mlx5_0/1 mlx5_0/2 rxe0 rxe0/1"
check "bw client: links and keywords" "rdma bw client 192.0.2.1 si" "size"
check "bw client after a value" "rdma bw client 192.0.2.1 size 4096 " \
  "iterations mlx5_0 mlx5_0/1 mlx5_0/2 port rxe0 rxe0/1"
check "bw client DEV: each keyword once" "rdma bw client 192.0.2.1 rxe0/1 it 5 " "port size"
check "gid show: links and keywords" "rdma gid show " "mlx5_0 mlx5_0/1 mlx5_0/2 netdev rxe0 rxe0/1 type"
check "gid show DEV: keywords" "rdma gid show rxe0/1 " "netdev type"
check "gid show type" "rdma gid show rxe0 type " "ib roce-v1 roce-v2"
check "gid show type after abbreviation" "rdma g s t " "ib roce-v1 roce-v2"
check "gid show: each keyword once" "rdma gid show type roce-v2 " "netdev"
check_has "gid show netdev" "rdma gid show type ib netdev " lo
check "abbreviated object and command" "rdma d s " "mlx5_0 rxe0"
check "device name prefix" "rdma dev show r" "rxe0"
check "no second device" "rdma dev show rxe0 " ""
check "link DEV and DEV/PORT" "rdma link show " "mlx5_0 mlx5_0/1 mlx5_0/2 rxe0 rxe0/1"
check "link DEV/ prefix" "rdma link show mlx5_0/" "mlx5_0/1 mlx5_0/2"
check "dev set keywords" "rdma dev set rxe0 " "adaptive-moderation name netns"
check "dev set abbreviated keyword" "rdma dev set rxe0 a" "adaptive-moderation"
check "on/off" "rdma dev set rxe0 adaptive-moderation " "off on"
check "on/off after abbreviation" "rdma d se rxe0 ad o" "off on"
check "dev set netns names" "rdma dev set rxe0 netns " "blue red"
check "dev set name is free text" "rdma dev set rxe0 name " ""
check "dev add keywords" "rdma dev add smi0 " "parent type"
check "dev add type" "rdma dev add smi0 type " "smi"
check "dev add parent" "rdma dev add smi0 type smi parent " "mlx5_0 rxe0"
check "link add keywords" "rdma link add rxe1 " "netdev type"
check "link add type" "rdma link add rxe1 type " "rxe siw"
check_has "link add netdev from /sys/class/net" "rdma link add rxe1 type rxe netdev " lo
check "link delete" "rdma link delete " "mlx5_0 rxe0"
check "system commands" "rdma system " "help set show"
check "system set keywords" "rdma system set " "netns privileged-qkey"
check "system show parameters" "rdma system show " "monitor netns privileged-qkey"
check "system show takes one" "rdma system show monitor " ""
check "oneline option" "rdma --one" "--oneline"
check "system set netns" "rdma system set netns " "exclusive shared"
check "system set privileged-qkey" "rdma sys set p o" "off on"
check "system set takes one setting" "rdma system set netns shared " ""
check "option before object" "rdma -j d" "dev"
check "option between object and command" "rdma dev -j show " "mlx5_0 rxe0"
check "option after command" "rdma link show -d rxe0/" "rxe0/1"
check "long option" "rdma dev show --js" "--json"
check "single-dash long option" "rdma -js" "-json"
check_has "all options" "rdma -" -V -d -j -p -r -f -b -n -h --version --details --json --pretty --raw --force --batch --netns --help
check "long options by prefix" "rdma --t" "--timeout --timestamp"
check "-w takes a number" "rdma -w " ""
check "after -w SECONDS" "rdma -w 2 stat show " "help link mr"
check "after --retries N" "rdma --retries 3 --timeout 500 d" "dev"
check "--kernel-timeout by prefix" "rdma --ke" "--kernel-timeout"
check "after --kernel-timeout MS" "rdma --kernel-timeout 500 d" "dev"
check "--openmetrics by prefix" "rdma --ope" "--openmetrics"
check "--prometheus by prefix" "rdma --prom" "--prometheus"
check "after --openmetrics" "rdma --openmetrics f" "fabric"
check "--node-name-map by prefix" "rdma --no" "--node-name-map"
check "--node-name-map files" "rdma --node-name-map c" "cmds.txt"
check "after --node-name-map FILE" "rdma --node-name-map cmds.txt f" "fabric"
check "--show-keys by prefix" "rdma --sh" "--show-keys"
check "after --show-keys" "rdma --show-keys s" "sa sm statistic system"
check "after -c COUNT clustered" "rdma -jc5 stat " "help list mode mr qp set show unset"
check "--timestamp takes no value" "rdma --timestamp m" "mad monitor"
check "-n netns names" "rdma -n " "blue red"
check "--netns netns names" "rdma --netns " "blue red"
check "--netns=value" "rdma --netns=b" "blue"
check "after -n NETNS" "rdma -n blue d" "dev"
check_log "-n NETNS passed to rdma" "rdma -n blue dev show " "-n blue -j dev"
check_log "clustered -jn NETNS passed to rdma" "rdma -jn red link show " "-n red -j link"
check "-b files" "rdma -b c" "cmds.txt"
check "-batch files" "rdma -f -batch o" "other.batch"
check "nothing after -b FILE" "rdma -b cmds.txt " ""
check "-bFILE" "rdma -bcmds.txt " ""
check "unknown object" "rdma foo " ""
check "unknown command" "rdma dev frob " ""
check "resource show" "rdma res show " "cm_id cq ctx frmr_pools mlx5_0 mr pd qp rxe0 srq"
check "resource commands" "rdma resource " "help list set show"
check "frmr_pools filters" "rdma res show frmr_pools " "access_flags ats dev in_use max_in_use num_dma_blocks pinned queue vendor_key"
check "frmr_pools abbreviated" "rdma res show fr dev " "mlx5_0 rxe0"
check "frmr_pools ats values" "rdma res show frmr_pools ats " "0 1"
check "resource set" "rdma res set " "frmr_pools"
check "resource set dev" "rdma res set frmr_pools " "dev"
check "resource set DEV" "rdma res set frmr_pools dev " "mlx5_0 rxe0"
check "resource set parameters" "rdma res set frmr_pools dev rxe0 " "aging pinned"
check "resource set values are free" "rdma res set frmr_pools dev rxe0 aging " ""
check "resource filter keys" "rdma res show qp l" "link lqpn"
check "resource filter link" "rdma r s qp link " "mlx5_0 mlx5_0/1 mlx5_0/2 rxe0 rxe0/1"
check "resource filter dev" "rdma res show cq dev " "mlx5_0 rxe0"
check "resource show DEV" "rdma res show rxe0 " ""
check "statistic by prefix" "rdma st " "help list mode mr qp set show unset"
check "statistic qp commands" "rdma stat qp " "bind help list mode set show unbind"
check "statistic show" "rdma stat show " "help link mr"
check "statistic show link" "rdma stat show link m" "mlx5_0 mlx5_0/1 mlx5_0/2"
check "statistic show mr" "rdma stat show mr " "dev list mrn show"
check "statistic qp set auto" "rdma stat qp set link rxe0/1 auto " "off pid type type,pid"
check "statistic qp set after auto" "rdma stat qp set link rxe0/1 auto type " "on optional-counters"
check "statistic qp show filters" "rdma stat qp show link rxe0/1 " "cntn lqpn pid qp-type"
check "statistic qp-type values" "rdma stat qp show qp-type R" "RAW_ETHERTYPE RAW_IPV6 RAW_PACKET RC"
check "statistic unset flag" "rdma stat unset optional-counters " "link"
check "statistic mode" "rdma stat mode " "help link show supported"
check "statistic mode supported" "rdma stat mode supported " "link"
check "statistic mr" "rdma stat mr show dev " "mlx5_0 rxe0"
check "keys given once" "rdma res show mr dev rxe0 pid 5 " "link lkey mrlen mrn pdn rkey"
check "resource filter values" "rdma res show qp state R" "RESET RTR RTS"
check "cm_id transport-type values" "rdma res show cm_id transport-type i" "ib iwarp"
check "cm_id dev-type values" "rdma res show cm_id dev-type " "ether infiniband"
check "resource abbreviated type" "rdma res show c " "cm-idn dev dev-type dst-addr dst-port link lqpn pid ps qp-type src-addr src-port state transport-type"
check "monitor" "rdma monitor " "dev help ports"
check "monitor ports takes no value" "rdma monitor ports " "dev"
check "node" "rdma node " "help list ping set show sysstat vendor"
check "port" "rdma port " "check help list peer set show"
check "port peer DEV/PORT" "rdma port peer mlx5_0/" "mlx5_0/1 mlx5_0/2"
check "perf" "rdma perf " "caps help list reset show"
check "perf caps targets" "rdma perf caps " "dr gid guid lid"
check "node targets" "rdma node show " "dr gid guid lid name"
check "node after lid" "rdma node show lid 3 " "from via"
check "node via" "rdma node show 3 via " "mlx5_0 mlx5_0/1 mlx5_0/2 rxe0 rxe0/1"
check "node ping: targets or serve" "rdma node ping " "gid guid lid name serve"
check "node ping after a LID" "rdma node ping 3 " "count flood oui via"
check "node ping serve" "rdma node ping serve " "count oui via"
check "node sysstat queries" "rdma node sysstat lid 3 " "cpu host oui ping via"
check "node vendor" "rdma node vendor 2 " "config general groups via xmitwait"
check "node vendor groups" "rdma node vendor 2 groups " "port set via"
check "node vendor config" "rdma node vendor lid 2 config " "mask read via write"
check "node vendor general: nothing more" "rdma node vendor 2 general " "via"
check "port set" "rdma port set 0x1f " "active arm disable down enable espeed fdr10 init lid lmc mkey mkeylease mkeyprot mtu port reset smlid speed via vls width"
check "port set mkeyprot values" "rdma port set 4 port 1 mkeyprot " "0 1 2 3"
check "fabric topology full" "rdma fabric topology full " "from grouped via"
check "fabric topology grouped" "rdma fabric topology grouped " "from full via"
check "fabric errors peer" "rdma fabric errors pe" "peer"
check "port set targets" "rdma port set " "all dr gid guid lid"
check "port set all" "rdma port set all " "init via"
check "port set mtu values" "rdma port set 4 port 1 mtu " "1024 2048 256 4096 512"
check "port set fdr10 values" "rdma port set 4 port 1 fdr10 " "0 1"
check "port set width values" "rdma port set 4 port 1 width " "12x 1x 2x 4x 8x all"
check "port set speed values" "rdma port set 4 port 1 speed " "all ddr qdr sdr"
check "port show tables" "rdma port show guid 0x0002c903000e0b72 port 1 " "from guids pkeys sl2vl via vlarb"
check "port check words" "rdma port check lid 5 port 1 " "errors speed state thresholds via width"
check "port show tables, combined route" "rdma port show dr lid 4 0,1 port 1 " "from guids pkeys sl2vl via vlarb"
check "port check port all" "rdma port check lid 5 port " "all"
check "port check words once" "rdma port check lid 5 state " "errors port speed thresholds via width"
check "port check thresholds FILE" "rdma port check lid 5 thresholds c" "cmds.txt"
check "perf targets (dr: resolved to its LID)" "rdma perf show " "dr gid guid lid name"
check "perf show dr PATH keywords" "rdma perf show dr 0,1 " "congestion counters details extended flowctl op port reset samples sl speeds via vl"
check "perf show keywords" "rdma perf show 7 " "congestion counters details extended flowctl op port reset samples sl speeds via vl"
check "perf port all" "rdma perf reset 7 port " "all each"
check "perf via DEV/PORT" "rdma perf show 7 via rxe" "rxe0 rxe0/1"
check "sm" "rdma sm " "help list set show"
check "sm set" "rdma sm set " "activity control dr gid guid lid priority state via"
check "sm set state" "rdma sm set state " "discovering master notactive standby"
check "sm set control" "rdma sm set 1 control " "acknowledge disable discover handover standby"
check "sm target optional" "rdma sm show " "dr gid guid lid via"
check "mad" "rdma mad " "decode get help set"
check "fabric" "rdma fabric " "check counters diff edit errors help links list plan report save show top topology"
check "fabric counters" "rdma fabric counters " "cas dr from guid lid port routers switches via"
check "fabric top" "rdma fabric top " "from via"
check "fabric report after DIR" "rdma fabric report out " "from plan via window"
check "fabric show" "rdma fabric show " "cas from hosts pkeys routers switches via"
check "fabric links" "rdma fabric links a" "all"
check "fabric topology" "rdma fabric topology " "dot from full grouped slurm via"
check "fabric topology slurm" "rdma fabric topology slurm " "block from tree via"
check "fabric topology dot" "rdma fabric topology dot " "errors from via"
check "route" "rdma route " "help list show trace users"
check "route show" "rdma route show lid 2 " "all-entries from lid lids mcast via"
check "route show mcast" "rdma route show lid 2 mcast " "all-entries from lid lids via"
check "route show" "rdma route show " "all dr gid guid lid name"
check "route show all" "rdma route show all " "all-entries from lid lids mcast via"
check "route users" "rdma route users lid 2 " "from port via"
check "fabric check" "rdma fabric check r" "routes"
check "fabric check fattree nodes" "rdma fabric check f" "fattree from"
check "fabric plan" "rdma fabric plan " "check write"
check "fabric plan check PLAN" "rdma fabric plan check cmds.txt " "from via"
check "fabric plan write FILE" "rdma fabric plan write x.csv " "csv from topology via"
check "fabric diff FILE" "rdma fabric diff old.json " "cas descriptions from lids links ports routers switches via"
check "fabric diff FILE links" "rdma fabric diff old.json links l" "lids"
check "fabric check severity" "rdma fabric check severity " "error info warning"
check "fabric show hosts" "rdma fabric show h" "hosts"
check "fabric show pkeys" "rdma fabric show p" "pkeys"
check "fabric check pkeys" "rdma fabric check p" "pkeys"
check "route trace second target" "rdma route trace lid 2 " "dr from gid guid lid mcast name via"
check "route trace mcast MLID" "rdma route trace lid 2 lid 3 mcast " ""
check "route trace after mcast" "rdma route trace lid 2 mcast 0xc001 " "dr from gid guid lid name via"
check "fabric links keywords" "rdma fabric links " "all cas degraded down from hops node port since switches via"
check "fabric links from" "rdma fabric links from " "cmds.txt dr gid guid lid other.batch"
check "fabric links from lid N" "rdma fabric links from lid " ""
check "fabric links after from TARGET" "rdma fabric links from dr 0,1 " "all cas degraded down hops node port since switches via"
check "fabric links after from a combined route" "rdma fabric links from dr lid 4 0,1 " "all cas degraded down hops node port since switches via"
check "fabric links node, a combined route" "rdma fabric links node dr lid 4 0,1 " "all cas degraded down from hops port since switches via"
check "fabric errors dr lid: its LID" "rdma fabric errors dr lid " ""
check "fabric errors dr lid N: its path" "rdma fabric errors dr lid 4 " ""
check "fabric links from dr lid N: its path" "rdma fabric links from dr lid 4 " ""
check "route show dr lid N: its path" "rdma route show dr lid 4 " ""
check "fabric errors after a combined route" "rdma fabric errors dr lid 4 0,1 pe" "peer"
check "route show, a combined route" "rdma route show dr lid 4 0,1 " "all-entries from lid lids mcast via"
check "fabric links after hops N" "rdma fabric links hops 2 " "all cas degraded down from node port since switches via"
check "sa" "rdma sa " "delete help list set show"
check "sa show kinds" "rdma sa show " \
  "classportinfo guids inform lft links mcast mft nodes paths pkeys ports services sl2vl sm smports switches vlarb"
check "sa show s" "rdma sa show s" "services sl2vl sm smports switches"
check "sa show nodes filters" "rdma sa show nodes " "from guid lid name smkey via"
check "sa show ports filters" "rdma sa show ports " "from guid lid name port smkey via"
check "sa show smports filters (no file answers them)" "rdma sa show smports " "guid lid name port smkey via"
check "sa show pkeys filters" "rdma sa show pkeys " "block guid lid name port smkey via"
check "sa show sl2vl filters" "rdma sa show sl2vl lid 3 " "guid in_port name out_port smkey via"
check "sa show mcast filters" "rdma sa show mcast " "guid mgid mlid smkey via"
check "sa show services filters" "rdma sa show services " "guid id name smkey via"
check "sa show classportinfo" "rdma sa show classportinfo " "via"
check "sa show paths mtu" "rdma sa show paths lid 1 lid 2 mtu " "1024 2048 256 4096 512"
check "sa show paths ends" "rdma sa show paths " "gid guid lid name"
check "sa show paths words" "rdma sa show paths lid 1 lid 2 " \
  "flow_label gid guid hop_limit mtu name numb_path pkey pkt_lifetime qos_class rate reversible service_id sl smkey tclass via"
check "sa show paths reversible" "rdma sa show paths lid 2 reversible " "0 1"
check "sa show smports filters" "rdma sa show smports " "guid lid name port smkey via"
check "sa show mft filters" "rdma sa show mft " "block guid lid name position smkey via"
check "sa show inform filters" "rdma sa show inform " "gid smkey via"
check "fabric links d" "rdma fabric links d" "degraded down"
check "fabric links switches: not cas" "rdma fabric links switches " "all degraded down from hops node port since via"
check "fabric links cas: not switches" "rdma fabric links down cas " "all degraded from hops node port since via"
check "fabric errors" "rdma fabric errors " "cas clear congestion counters data details dr from guid lid peer reset routers save since switches threshold thresholds via window"
check "fabric errors window congestion" "rdma fabric errors window 10 con" "congestion"
check "fabric errors clear" "rdma fabric errors clear a" "all"
check "fabric errors lid L port" "rdma fabric errors lid 4 po" "port"
check "--output FILE" "rdma --prometheus --outp" "--output"
check "--mkey KEY" "rdma --mk" "--mkey --mkey-file"
check "--pkey-idx IDX" "rdma --pk" "--pkey-idx"
check "--discovery modes" "rdma --discovery " "dr lid sa"
check "--discovery=MODE" "rdma --discovery=l" "lid"
check "after --discovery lid, the objects" "rdma --discovery lid fab" "fabric"
check "--discovery lid fabric words" "rdma --discovery lid fabric t" "top topology"
check "node set" "rdma node set " "description dev"
check "node set description TEXT" "rdma node set description x " "dev"
check "fabric edit words" "rdma fabric edit f.json " "caguid portguid switchguid sysimgguid to"
check "fabric edit: GUIDs typed" "rdma fabric edit f.json caguid 0x1 " ""
check "fabric edit: next edit" "rdma fabric edit f.json portguid 0x1 0x2 0x3 s" "switchguid sysimgguid"
check "--yes" "rdma --ye" "--yes"
check "fabric errors reset" "rdma fabric errors reset " "all dr from guid lid port via"
check "fabric errors reset port N" "rdma fabric errors reset lid 4 port " ""
check "fabric errors counters" "rdma fabric errors counters symbol" "symbol_errors"
check "mad get attributes from rdma mad help" "rdma mad get Node" "NodeDescription NodeInfo"
check "mad get keywords" "rdma mad get PortInfo dr 0,1 " "mod port via"
check "mad decode reads stdin" "rdma mad decode " ""
check "mad set attributes" "rdma mad set Node" "NodeDescription NodeInfo"
check "mad get forwarding tables by name" "rdma mad get M" "MlnxExtPortInfo MulticastForwardingTable"
check "mad set forwarding tables by name" "rdma mad set Li" "LinearForwardingTable"
check "mad set keywords" "rdma mad set PortInfo lid 3 " "mod port via"
check "sa set guid" "rdma sa set " "guid"
check "sa set guid keywords" "rdma sa set guid lid 3 " "index smkey via"
check "sa delete guid targets" "rdma sa delete guid " "gid guid lid"
check "cc" "rdma cc " "help set show"
check "cc show targets (no dr)" "rdma cc show " "gid guid lid"
check "cc show attributes" "rdma cc show lid 3 Congestion" \
  "CongestionControlTable CongestionInfo CongestionKeyInfo CongestionLog"
check "cc set keywords" "rdma cc set lid 3 SwitchPortCongestionSetting " "block port via"
check "cc show ClassPortInfo" "rdma cc show lid 3 Cl" "ClassPortInfo"
check "cc set: no ClassPortInfo (read only)" "rdma cc set lid 3 Cl" ""
check "cc show after ClassPortInfo" "rdma cc show lid 3 ClassPortInfo " "block port via"
check "cc show after SwitchCongestionSetting" "rdma cc show lid 3 SwitchCongestionSetting " "block port via"
check "--cckey" "rdma --cc" "--cckey"
check "--config FILE" "rdma --con" "--config"
check "after --, no options" "rdma -- -" ""

# The completion knows what the program knows: its objects and options in
# the program's order, and every command of every table in rdma/*.cc
# (rdma/ib/*.cc for the InfiniBand objects).
table_names() { # FILE: the quoted names of the file's first command table
  awk '/k(Table|Objects)\[\] = \{/ { on = 1 } on { print } on && /};/ { exit }' "$1" |
    grep -o '{"[^"]*"' | tr -d '{"' | tr '\n' ' ' | sed 's/ $//'
}
check_same() { # NAME GOT EXPECTED
  if [ "$2" = "$3" ]; then
    echo "PASS [$mode] $1"
  else
    echo "FAIL [$mode] $1: completion has '$2', the program '$3'"
  fi
}
check_same "objects in rdma/rdma.cc order" "$_rdma_objects" "$(table_names "$ROOT/rdma/rdma.cc")"
# {'V', "version", false} -> V:version, {'\1', "retries", true} -> -:retries=
# (a fourth member, the shortest prefix, is dropped)
options=$(awk '/kOptions\[\] = \{/ { on = 1 } on { print } on && /};/ { exit }' "$ROOT/rdma/options.cc" |
  grep -oE "\{'[^']*', *\"[a-z-]+\", *(true|false)(, *[0-9]+)?\}" |
  sed -E -e "s/^\{'\\\\[0-9]+'/{'-'/" -e 's/, *[0-9]+\}$/}/' \
    -e "s/^\{'(.)', *\"([a-z-]+)\", *(true|false)\}$/\1:\2 \3/" -e 's/ true$/=/' -e 's/ false$//' |
  tr '\n' ' ' | sed 's/ $//')
# shellcheck disable=SC2086
check_same "options in rdma/options.cc order" "$(echo $_rdma_options)" "$options"
while read -r file line; do
  if [ ! -r "$ROOT/rdma/$file" ]; then
    echo "FAIL [$mode] commands of rdma/$file: no such file"
    continue
  fi
  names=$(table_names "$ROOT/rdma/$file")
  [ -n "$names" ] || continue
  # shellcheck disable=SC2086
  check_has "commands of rdma/$file" "$line " $names
done <<'TABLES'
dev.cc rdma dev
link.cc rdma link
system.cc rdma system
res.cc rdma resource
stat.cc rdma statistic
stat_qp.cc rdma statistic qp
stat_mode.cc rdma statistic mode
stat_show.cc rdma statistic show
monitor.cc rdma monitor
ib/node.cc rdma node
ib/port.cc rdma port
ib/perf.cc rdma perf
ib/sm.cc rdma sm
ib/mad.cc rdma mad
ib/fabric.cc rdma fabric
ib/route.cc rdma route
ib/sa.cc rdma sa
ib/cc.cc rdma cc
TABLES
EOF

run_mode() {
  local mode=$1
  (
    cd "$TMP/files" || exit 1
    PATH=$TMP/bin:$PATH COMPLETION=$COMPLETION BASH_COMPLETION=$BASH_COMPLETION ROOT=$ROOT \
      bash --norc --noprofile "$TMP/cases.sh" "$mode" 2>"$TMP/stderr.$mode"
    if [ -s "$TMP/stderr.$mode" ]; then
      echo "FAIL [$mode] messages on stderr:"
      sed 's/^/    /' "$TMP/stderr.$mode"
    fi
  )
}

PASSED=0
FAILED=0
MODES=(plain)
if [ -r "$BASH_COMPLETION" ]; then
  MODES+=(bash-completion)
else
  echo "FAIL bash-completion is not installed ($BASH_COMPLETION); apt-get install bash-completion"
  FAILED=$((FAILED + 1))
fi
for mode in "${MODES[@]}"; do
  while IFS= read -r line; do
    case $line in
      PASS*)
        PASSED=$((PASSED + 1))
        [ $VERBOSE = 1 ] && echo "$line"
        ;;
      FAIL*)
        FAILED=$((FAILED + 1))
        echo "$line"
        ;;
      *) echo "$line" ;;
    esac
  done < <(run_mode "$mode")
done
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
