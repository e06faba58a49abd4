#!/bin/sh
# gen-grid.sh CLUSTERS HOSTS: a SimGrid platform on stdout laid out as
# Grid'5000's sites are: CLUSTERS clusters of HOSTS hosts each (125 MBps host
# links, a 2.25 GBps backbone behind a router), every router joined to the
# others through its own uplink (1.25 GBps, 2 ms) and one shared backbone
# link, renater (10 GBps, 5 ms).  tests/simgrid.sh loads 10 x 150 = 1500
# hosts with it (the loading cost: docs/formats.md).
C=${1:?usage: gen-grid.sh CLUSTERS HOSTS}
H=${2:?usage: gen-grid.sh CLUSTERS HOSTS}
cat <<HEAD
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="grid" routing="Full">
HEAD
i=0
while [ "$i" -lt "$C" ]; do
    printf '    <cluster id="c%d" prefix="c%d-" suffix="" radical="0-%d" speed="1Gf" bw="125MBps" lat="50us"\n' "$i" "$i" $((H - 1))
    printf '             bb_bw="2.25GBps" bb_lat="10us" router_id="c%d-router"/>\n' "$i"
    printf '    <link id="up%d" bandwidth="1.25GBps" latency="2ms"/>\n' "$i"
    i=$((i + 1))
done
printf '    <link id="renater" bandwidth="10GBps" latency="5ms"/>\n'
i=0
while [ "$i" -lt "$C" ]; do
    j=0
    while [ "$j" -lt "$C" ]; do
        [ "$i" -ne "$j" ] && printf '    <zoneRoute src="c%d" dst="c%d" gw_src="c%d-router" gw_dst="c%d-router" symmetrical="NO"><link_ctn id="up%d"/><link_ctn id="renater"/><link_ctn id="up%d"/></zoneRoute>\n' "$i" "$j" "$i" "$j" "$i" "$j"
        j=$((j + 1))
    done
    i=$((i + 1))
done
printf '  </zone>\n</platform>\n'
