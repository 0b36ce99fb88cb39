#!/bin/sh
# run-checks.sh PROGRAM DATA_DIR [RUNNER]: runs jt's commands on the committed documents,
# printing each command line, its output and a non-zero exit status, for `make check`.
# Reads the documents in DATA_DIR by their names (so the output does not depend on where the
# source tree is) and writes its scratch files in the current directory.
prog=$1 data=$2 runner=$3 out=$(pwd)
case $prog in /*) ;; *) prog=$out/$prog ;; esac
cd "$data" || exit 1
jt() {
  line='$ jt'
  for arg in "$@"; do
    case $arg in
    *[!A-Za-z0-9._/-]*) line="$line '$arg'" ;;
    *) line="$line $arg" ;;
    esac
  done
  echo "$line"
  $runner "$prog" "$@"
  rc=$?
  [ $rc = 0 ] || echo "(exit $rc)"
}
jt validate catalog.json catalog-v2.json strings.json broken.json
jt stats catalog.json
jt fmt -s strings.json
jt fmt -a strings.json
jt min strings.json
jt q '.store.name, (.items | length)' catalog.json
jt q '[.items[] | select(.stock == 0) | .sku]' catalog.json
jt q '[.items[].price] | add, min, max' catalog.json
jt q '.items | group_by(.category) | map({category: .[0].category, items: length, stock_value: (map(.price * .stock) | add)}) | .[]' catalog.json
jt q '[.items[].tags[]] | unique | join(" ")' catalog.json
jt q '.items | max_by(.rating) | {sku, name, rating}' catalog.json
jt q '.items[] | select(.name | contains("lamp") or startswith("Desk")) | .name | ascii_upcase' catalog.json
jt q '.items | sort_by(.price, .sku) | reverse | .[0, 1, 2] | .sku' catalog.json
jt q '.items | sort_by(-.price) | [.[0].sku, .[1].sku, .[-1].sku]' catalog.json
jt q '.items | map(select(.price > 20 and .stock > 0)) | length' catalog.json
jt q '.store | to_entries | map(.key) | join(",")' catalog.json
jt q '(.items[0].name | length), (.missing.deeper | type)' catalog.json
jt q '[.items[] | .price % 7] | unique' catalog.json
jt q '.items[' catalog.json
jt q '.store.name | floor' catalog.json
jt q '.greek, .emoji | length' strings.json
jt paths strings.json
jt diff catalog.json catalog-v2.json
echo '$ jt pack catalog.json > catalog.pack'
$runner "$prog" pack catalog.json > "$out/catalog.pack"
cat "$out/catalog.pack"
echo '$ jt unpack catalog.pack > roundtrip.json'
$runner "$prog" unpack "$out/catalog.pack" > "$out/roundtrip.json"
(cd "$out" && jt q '.items | length' roundtrip.json)
$runner "$prog" min catalog.json > "$out/a.json"
$runner "$prog" min "$out/roundtrip.json" > "$out/b.json"
cmp -s "$out/a.json" "$out/b.json" && echo "pack/unpack round trip: identical"
jt sum catalog.json strings.json
rm -f "$out/catalog.pack" "$out/roundtrip.json" "$out/a.json" "$out/b.json"
