#!/usr/bin/env bash
# Fails when a source file includes upward across the layers (ARCHITECTURE.md section 2):
#
#   table_format/ <- filter/ <- plugin/ <- table_api/ <- tools/, db_bench_ext/, examples/
#
# and when a file outside plugin/ (and its tests) includes a RocksDB internal header. A quoted
# include names the layer it comes from by its first path component; anything that is not one
# of our folders is a RocksDB internal header (public ones are included as <rocksdb/...>).
# tests/<layer>/ may include what <layer> may, plus tests/ helpers of the same or lower layers.
#
#   scripts/check_layering.sh [source root]      prints each violation, exits 1 if any
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

# Rank of each layer: a file may include its own rank or lower.
declare -A rank=([table_format]=0 [filter]=1 [plugin]=2 [table_api]=3 [tools]=4
                 [db_bench_ext]=4 [examples]=4)
# Folders at the same rank that must not include each other.
declare -A own_folders=([tools]=1 [db_bench_ext]=1 [examples]=1)

violations=0
report() {
  echo "layering: $1:$2: $3" >&2
  violations=$((violations + 1))
}

check_file() {
  local file=$1 layer=$2 test_layer=$3
  local line_no=0 line target target_layer
  while IFS= read -r line; do
    line_no=$((line_no + 1))
    [[ $line =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]+)\" ]] || continue
    target=${BASH_REMATCH[1]}
    target_layer=${target%%/*}
    if [[ $target != */* ]]; then
      continue  # a file of the same folder, included by its bare name
    fi
    if [[ $target_layer == tests ]]; then
      local tested=${target#tests/}
      tested=${tested%%/*}
      if [[ -z $test_layer ]]; then
        report "$file" "$line_no" "includes test code \"$target\""
      elif [[ -z ${rank[$tested]+x} ]] || ((rank[$tested] > rank[$test_layer])); then
        report "$file" "$line_no" "tests/$test_layer includes \"$target\" of a higher layer"
      fi
      continue
    fi
    if [[ -z ${rank[$target_layer]+x} ]]; then
      # A RocksDB internal header (db/, table/, file/, ...).
      if [[ $layer != plugin ]]; then
        report "$file" "$line_no" "RocksDB internal header \"$target\" outside plugin/"
      fi
      continue
    fi
    if ((rank[$target_layer] > rank[$layer])); then
      report "$file" "$line_no" "$layer/ includes \"$target\" of the higher layer $target_layer/"
    elif [[ $target_layer != "$layer" && -n ${own_folders[$target_layer]+x} ]]; then
      report "$file" "$line_no" "$layer/ includes \"$target\" of the sibling layer $target_layer/"
    fi
  done <"$file"
}

checked=0
while IFS= read -r file; do
  top=${file%%/*}
  if [[ $top == tests ]]; then
    rest=${file#tests/}
    layer=${rest%%/*}
    [[ -n ${rank[$layer]+x} ]] || continue
    check_file "$file" "$layer" "$layer"
  elif [[ -n ${rank[$top]+x} ]]; then
    check_file "$file" "$top" ""
  else
    continue
  fi
  checked=$((checked + 1))
done < <(find table_format filter plugin table_api tools db_bench_ext examples tests \
           \( -name '*.h' -o -name '*.cc' -o -name '*.cpp' \) -type f 2>/dev/null | sort)

if ((checked == 0)); then
  echo "layering: no source files found under $root" >&2
  exit 1
fi
if ((violations > 0)); then
  echo "layering: $violations upward include(s) in $checked files" >&2
  exit 1
fi
echo "layering: $checked files, every include points down"
