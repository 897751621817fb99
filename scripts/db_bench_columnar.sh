#!/usr/bin/env bash
# Runs Debian's db_bench on ColumnarTable (the plugin LD_PRELOADed, selected by an OPTIONS file)
# and on BlockBasedTable (zstd, 16 KiB blocks: configuration A) in the same run, and prints a
# side-by-side table: SST bytes after each fill, ops/s per benchmark, ratio Columnar/BBT.
#
#   scripts/db_bench_columnar.sh [--num=1000000] [--reads=N] [--value_size=100]
#       [--cache_size=67108864] [--column_compression=none|zstd]
#       [--plugin=build/plugin/libcolumnar_table.so] [--db_bench=/usr/bin/db_bench]
#       [--work_dir=DIR] [--keep]
#
# Per format: fillseq (+ flush, wait for compactions; SST bytes measured), fillrandom (same),
# then readrandom, seekrandom, readseq, readreverse on the fillrandom database. Formats
# alternate at every step so that drift on a noisy machine hits both alike. Both formats get
# the same seeds (fills 1, reads 2), so readrandom's "found" counts must match; the script
# fails otherwise, and checks that every SST file of the columnar database really is a
# ColumnarTable file.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
options_dir="${repo_root}/scripts/db_bench_options"

num=1000000
reads=""
value_size=100
cache_size=$((64 << 20))
column_compression=none
plugin="${repo_root}/build/plugin/libcolumnar_table.so"
db_bench=/usr/bin/db_bench
work_dir=""
keep=0

usage() {
  sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit "${1:-2}"
}

for arg in "$@"; do
  case "${arg}" in
    --num=*) num="${arg#*=}" ;;
    --reads=*) reads="${arg#*=}" ;;
    --value_size=*) value_size="${arg#*=}" ;;
    --cache_size=*) cache_size="${arg#*=}" ;;
    --column_compression=*) column_compression="${arg#*=}" ;;
    --plugin=*) plugin="${arg#*=}" ;;
    --db_bench=*) db_bench="${arg#*=}" ;;
    --work_dir=*) work_dir="${arg#*=}" ;;
    --keep) keep=1 ;;
    --help | -h) usage 0 ;;
    *) echo "db_bench_columnar.sh: unknown argument ${arg}" >&2; usage ;;
  esac
done
reads="${reads:-${num}}"

fail() {
  echo "db_bench_columnar.sh: $*" >&2
  exit 1
}

[[ -x "${db_bench}" ]] || fail "${db_bench} not found (apt-get install rocksdb-tools)"
[[ -f "${plugin}" ]] || fail "${plugin} not found (build it: cmake --build build --target columnar_table)"
plugin="$(cd "$(dirname "${plugin}")" && pwd)/$(basename "${plugin}")"

if [[ -z "${work_dir}" ]]; then
  work_dir="$(mktemp -d /tmp/db_bench_columnar.XXXXXX)"
  [[ "${keep}" == 1 ]] || trap 'rm -rf "${work_dir}"' EXIT
fi
mkdir -p "${work_dir}"

formats=(bbt columnar)
declare -A db_dir options_file preload results

# Fills the OPTIONS templates.
sed -e "s/@COLUMN_COMPRESSION@/${column_compression}/" -e "s/@CACHE_SIZE@/${cache_size}/" \
  "${options_dir}/columnar.ini" > "${work_dir}/OPTIONS-columnar"
cp "${options_dir}/block_based.ini" "${work_dir}/OPTIONS-bbt"
for format in "${formats[@]}"; do
  db_dir[${format}]="${work_dir}/db-${format}"
  options_file[${format}]="${work_dir}/OPTIONS-${format}"
done
preload[bbt]=""
preload[columnar]="${plugin}"

# run_db_bench FORMAT LOG_NAME ARGS...: one db_bench process on FORMAT's database (ARGS
# include --seed).
run_db_bench() {
  local format="$1" log="${work_dir}/$2-$1.log"
  shift 2
  if ! env ${preload[${format}]:+LD_PRELOAD="${preload[${format}]}"} "${db_bench}" \
      --db="${db_dir[${format}]}" --options_file="${options_file[${format}]}" \
      --cache_size="${cache_size}" --num="${num}" --value_size="${value_size}" \
      --threads=1 --histogram=0 "$@" > "${log}" 2>&1; then
    tail -n 20 "${log}" >&2
    fail "db_bench failed for ${format} (log: ${log}). A crash right after 'Initializing RocksDB \
Options' means the plugin did not register ColumnarTable."
  fi
  record_ops "${format}" "${log}"
}

# Records "<benchmark> ops/s" and readrandom's found count from a db_bench log.
record_ops() {
  local format="$1" log="$2" name ops
  while read -r name ops; do
    results[${format},${name}]="${ops}"
  done < <(awk '$2 == ":" && / ops\/sec / {
      for (i = 1; i < NF; i++) if ($(i + 1) == "ops/sec") print $1, $i }' "${log}")
  local found
  found="$(sed -n 's/^readrandom .*(\([0-9]*\) of [0-9]* found).*/\1/p' "${log}")"
  [[ -z "${found}" ]] || results[${format},found]="${found}"
}

sst_bytes() {
  find "$1" -name '*.sst' -printf '%s\n' | awk '{ total += $1 } END { print total + 0 }'
}

# Every SST of the columnar database must end with the ColumnarTable magic ("columnar").
check_columnar_files() {
  local file
  for file in "${db_dir[columnar]}"/*.sst; do
    [[ "$(tail -c 8 "${file}")" == "columnar" ]] || fail "${file} is not a ColumnarTable file"
  done
  grep -q '^  table_factory=ColumnarTable$' "${db_dir[columnar]}"/OPTIONS-* ||
    fail "the columnar database's OPTIONS file does not name ColumnarTable"
}

fill() {
  local benchmark="$1" format
  for format in "${formats[@]}"; do
    echo "  ${benchmark}: ${format}" >&2
    run_db_bench "${format}" "${benchmark}" --seed=1 \
      --benchmarks="${benchmark},flush,waitforcompaction"
    results[${format},${benchmark}_bytes]="$(sst_bytes "${db_dir[${format}]}")"
  done
  check_columnar_files
}

echo "db_bench_columnar.sh: work dir ${work_dir}" >&2
fill fillseq
fill fillrandom
read_benchmarks=(readrandom seekrandom readseq readreverse)
for benchmark in "${read_benchmarks[@]}"; do
  for format in "${formats[@]}"; do
    echo "  ${benchmark}: ${format}" >&2
    run_db_bench "${format}" "${benchmark}" --use_existing_db=1 --reads="${reads}" --seed=2 \
      --benchmarks="${benchmark}"
  done
done

if [[ "${results[bbt,found]:-x}" != "${results[columnar,found]:-y}" ]]; then
  fail "readrandom found ${results[bbt,found]:-?} keys on BlockBasedTable but \
${results[columnar,found]:-?} on ColumnarTable"
fi

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
row() {
  printf '| %-28s | %15s | %15s | %12s |\n' "$1" "$2" "$3" "${4:-$(ratio "$3" "$2")}"
}

echo
echo "db_bench $("${db_bench}" --version 2>&1 | awk '{ print $3 }'): --num=${num}" \
  "--value_size=${value_size} --reads=${reads} --cache_size=${cache_size}, 1 thread;" \
  "BlockBasedTable zstd 16 KiB blocks, bloom 10; ColumnarTable zstd outer," \
  "column_compression=${column_compression}, 128 rows/group, bloom 10"
echo "readrandom found ${results[columnar,found]} of ${reads} keys in both"
echo
row "" "BlockBasedTable" "ColumnarTable" "Columnar/BBT"
printf '|%s|%s|%s|%s|\n' "------------------------------" "----------------:" \
  "----------------:" "-------------:"
for benchmark in fillseq fillrandom; do
  row "SST bytes after ${benchmark}" "${results[bbt,${benchmark}_bytes]}" \
    "${results[columnar,${benchmark}_bytes]}"
done
for benchmark in fillseq fillrandom "${read_benchmarks[@]}"; do
  row "${benchmark} ops/s" "${results[bbt,${benchmark}]:-0}" "${results[columnar,${benchmark}]:-0}"
done
