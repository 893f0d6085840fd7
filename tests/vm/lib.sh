# Shared helpers for capture.sh / compare.sh (sourced, bash).

# corpus_lines KVER [FILE]: print the corpus lines that apply to KVER,
# with any "[K]" tag removed.
corpus_lines() {
    local kv=$1 file=${2:-$(dirname "${BASH_SOURCE[0]}")/corpus.txt} line tag
    while IFS= read -r line || [ -n "$line" ]; do
        case "$line" in ''|'#'*) continue ;; esac
        if [[ "$line" =~ ^\[([0-9.,]+)\][[:space:]]*(.*)$ ]]; then
            tag=${BASH_REMATCH[1]}
            line=${BASH_REMATCH[2]}
            [[ ",$tag," == *",$kv,"* ]] || continue
        fi
        printf '%s\n' "$line"
    done < "$file"
}

# corpus_name LINE: file-name stem for a command line, e.g.
# "-j res show qp" -> "rdma_-j_res_show_qp", "link show rxe0/1" -> "rdma_link_show_rxe0@1"
corpus_name() {
    local s="rdma $1"
    s=${s//\//@}
    s=$(printf '%s' "$s" | tr -s ' \t' '__' | tr -c 'A-Za-z0-9._@+=,_-' 'x')
    printf '%s\n' "$s"
}

# guest_corpus_script KVER OUTSUBDIR MODE [CORPUS]: print a bash script for the VM that
# runs every corpus line.  MODE "ref": iproute2's rdma plain and under strace;
# MODE "compare": iproute2's rdma and $RDMA_NEW, plain.  Results go to
# $OUT/OUTSUBDIR/NNN.{out,err,rc,strace} and NNN.new.{out,err,rc}.
# A line "@unpriv ARGS" runs both tools as uid 65534 without capabilities
# (what a user without CAP_NET_ADMIN gets from the kernel).
guest_corpus_script() {
    local kv=$1 sub=$2 mode=$3 corpus=${4:-}
    cat <<GEOF
#!/bin/bash
D=\$OUT/$sub
mkdir -p "\$D"
i=0
while IFS= read -r line; do
    i=\$((i + 1)); n=\$(printf '%03d' \$i)
    as=()
    case "\$line" in
        "@unpriv "*)
            as=(/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups --)
            line=\${line#@unpriv }
            # Not really unprivileged: the comparison must fail (below).
            "\${as[@]}" grep -Eq '^CapEff:[[:space:]]+0+\$' /proc/self/status \\
                || echo "@unpriv: the command still has capabilities" > "\$D/\$n.unpriv" ;;
    esac
    eval "set -- \$line"
    echo "[corpus \$n] \${as[*]} rdma \$line" > /dev/console
    "\${as[@]}" rdma "\$@" > "\$D/\$n.out" 2> "\$D/\$n.err" < /dev/null; echo \$? > "\$D/\$n.rc"
GEOF
    if [ "$mode" = ref ]; then
        cat <<'GEOF'
    strace -f -xx -s 65536 -e trace=socket,close,sendto,sendmsg,recvmsg,recvfrom \
        -e read=all -e write=all -o "$D/$n.strace" "${as[@]}" rdma "$@" > /dev/null 2>&1 < /dev/null
GEOF
    else
        cat <<'GEOF'
    # ours is called as "rdma" through PATH, exactly like iproute2's
    ( PATH=/opt/rdma-new:$PATH; "${as[@]}" rdma "$@" ) > "$D/$n.new.out" 2> "$D/$n.new.err" < /dev/null
    echo $? > "$D/$n.new.rc"
    if [ -e "$D/$n.unpriv" ]; then cat "$D/$n.unpriv" >> "$D/$n.new.err"; echo 99 > "$D/$n.new.rc"; fi
GEOF
    fi
    echo "done <<'CORPUS_EOF'"
    corpus_lines "$kv" $corpus
    echo "CORPUS_EOF"
    echo 'rdma -V > "$D/rdma-version" 2>&1'
    echo 'cat /proc/version > "$D/proc-version"'
}
