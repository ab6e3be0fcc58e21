#!/bin/bash
# A stand-in R0 adapter for the CLI tests (schema/r0-adapter-2.schema.json): it does nothing on
# the folder and answers every request (apply/undo: nothing executed; journal: none kept), echoing
# the request's id, unless MODE says otherwise:
#   ok          as above
#   twice K     answers request K twice, both lines in one write (a surplus answer)
#   twice-late K  answers request K twice, the second line 0.2 s later
#   wrong-id K  answers request K with the id K+1
#   no-id K     answers request K without an id
#   at-end      answers a line more when its stdin closes
#   background  first starts a background child (`sleep`, named MARKER-bg), then answers
#   escape      first starts a child that leaves the group (setsid, MARKER-setsid) and a daemon
#               (setsid, then its parent exits: MARKER-daemon), then answers
#   hang K      answers K requests, then starts a background child, says so in READY (a file),
#               and sleeps (named MARKER-fg) without answering
# Usage: r0_fake_adapter.sh MODE K MARKER READY
mode=$1 k=${2:-0} marker=${3:-dc-r0-marker} ready=${4:-/dev/null}
background() { bash -c "exec -a $marker-bg sleep 1000" & }
[ "$mode" = background ] && background
if [ "$mode" = escape ]; then
    setsid bash -c "exec -a $marker-setsid sleep 1000" &
    setsid bash -c "bash -c 'exec -a $marker-daemon sleep 1000' & exit 0" &
fi
n=0
while IFS= read -r line; do
    n=$((n + 1))
    if [ "$mode" = hang ] && [ "$n" -gt "$k" ]; then
        background
        touch "$ready"
        exec -a "$marker-fg" sleep 1000
    fi
    id=null
    [[ $line =~ \"id\":([0-9]+) ]] && id=${BASH_REMATCH[1]}
    [ "$mode" = wrong-id ] && [ "$n" -eq "$k" ] && id=$((id + 1))
    idpart="\"id\":$id,"
    [ "$mode" = no-id ] && [ "$n" -eq "$k" ] && idpart=""
    case $line in
        *'"op":"journal"'*) answer="{$idpart\"lines\":null}" ;;
        *) answer="{$idpart\"task\":\"fake\",\"executed\":[],\"rolled_back\":[]}" ;;
    esac
    if [ "$mode" = twice ] && [ "$n" -eq "$k" ]; then
        cat <<< "$answer"$'\n'"$answer"  # one write (bash's own output is line-buffered)
        continue
    fi
    echo "$answer"
    [ "$mode" = twice-late ] && [ "$n" -eq "$k" ] && { sleep 0.2; echo "$answer"; }
done
[ "$mode" = at-end ] && echo "{\"id\":$((n + 1)),\"lines\":null}"
exit 0
