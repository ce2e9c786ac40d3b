#!/usr/bin/env bash
# tessera --version, tessera help and tessera help SUBCOMMAND answer as --help does; an unknown
# subcommand is one line on stderr and a non-zero exit.
set -u
tessera=$1
fail=0
check() {  # description, condition result
  if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi
}

out=$("$tessera" --version 2>&1); rc=$?
[[ $rc -eq 0 && "$out" =~ ^tessera\ [0-9]+\.[0-9]+\.[0-9]+$ ]]; check "--version: '$out' rc=$rc" $?

out=$("$tessera" help 2>&1); rc=$?
[[ $rc -eq 0 && "$out" == "$("$tessera" --help 2>&1)" ]]; check "help equals --help (rc=$rc)" $?
# The subcommands this build has (replay and sweep only with the replay tree).
subs=$(printf '%s\n' "$out" | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && NF { print $1 }')
for want in capture info verify query schemes report compare help; do
  printf '%s\n' "$subs" | grep -qx "$want"; check "help lists $want" $?
done

for sub in $subs; do
  want=$("$tessera" "$sub" --help 2>&1)
  out=$("$tessera" help "$sub" 2>&1); rc=$?
  [[ $rc -eq 0 && -n "$out" && "$out" == "$want" ]]; check "help $sub equals $sub --help (rc=$rc)" $?
done

err=$("$tessera" help nosuch 2>&1 >/dev/null); rc=$?
lines=$(printf '%s\n' "$err" | grep -c .)
[[ $rc -ne 0 && $lines -eq 1 && "$err" == *"nosuch"* ]]; check "help nosuch: rc=$rc: $err" $?
exit $fail
