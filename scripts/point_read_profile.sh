#!/usr/bin/env bash
# Point-read cost of ColumnarTable against BlockBasedTable (configuration A) with Debian's
# db_bench, the same OPTIONS templates as scripts/db_bench_columnar.sh:
#
#   scripts/point_read_profile.sh [--num=300000] [--cache_size=8388608] [--value_size=100]
#       [--benchmarks="readrandom seekrandom"] [--instructions [--max_ratio=R]]
#       [--cpu_rounds=N] [--reads=N] [--plugin=build/plugin/libcolumnar_table.so]
#       [--db_bench=/usr/bin/db_bench] [--work_dir=DIR] [--keep]
#
# Both databases are filled once (fillrandom, seed 1, flushed and compacted; kept and reused
# when --work_dir names a directory that already holds them).
#   --instructions  instructions per operation under valgrind's callgrind (deterministic):
#                   (I(reads_high) - I(reads_low)) / (reads_high - reads_low), which leaves the
#                   process start and the DB open out. The callgrind profiles of the high run
#                   stay in the work dir (callgrind.<benchmark>.<format>.out) for
#                   callgrind_annotate --inclusive=yes. READS_LOW/READS_HIGH in the
#                   environment override 10000/30000.
#   --max_ratio=R   with --instructions: a check that exits 1 (after printing every figure)
#                   when ColumnarTable's instructions per operation exceed R times
#                   BlockBasedTable's on any benchmark. Not timed, so a loaded machine does
#                   not fail it; it takes minutes, so it is run by hand, not by ctest or CI.
#   --cpu_rounds=N  N rounds, formats alternating inside each, of each benchmark with --reads
#                   (default --num) operations: wall ops/s and ops per CPU second (user + sys
#                   of the whole db_bench process), the Columnar/BBT ratio per round, then
#                   median [min..max] over the rounds.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
options_dir="${repo_root}/scripts/db_bench_options"

num=300000
cache_size=$((8 << 20))
value_size=100
benchmarks="readrandom seekrandom"
instructions=0
cpu_rounds=0
reads=""
max_ratio=""
plugin="${repo_root}/build/plugin/libcolumnar_table.so"
db_bench=/usr/bin/db_bench
work_dir=""
keep=0
reads_low="${READS_LOW:-10000}"
reads_high="${READS_HIGH:-30000}"

usage() {
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"
  exit "${1:-2}"
}

for arg in "$@"; do
  case "${arg}" in
    --num=*) num="${arg#*=}" ;;
    --cache_size=*) cache_size="${arg#*=}" ;;
    --value_size=*) value_size="${arg#*=}" ;;
    --benchmarks=*) benchmarks="${arg#*=}" ;;
    --instructions) instructions=1 ;;
    --cpu_rounds=*) cpu_rounds="${arg#*=}" ;;
    --reads=*) reads="${arg#*=}" ;;
    --max_ratio=*) max_ratio="${arg#*=}" ;;
    --plugin=*) plugin="${arg#*=}" ;;
    --db_bench=*) db_bench="${arg#*=}" ;;
    --work_dir=*) work_dir="${arg#*=}" ;;
    --keep) keep=1 ;;
    --help | -h) usage 0 ;;
    *) echo "point_read_profile.sh: unknown argument ${arg}" >&2; usage ;;
  esac
done
reads="${reads:-${num}}"

fail() {
  echo "point_read_profile.sh: $*" >&2
  exit 1
}

[[ -x "${db_bench}" ]] || fail "${db_bench} not found (apt-get install rocksdb-tools)"
[[ -f "${plugin}" ]] || fail "${plugin} not found (cmake --build build --target columnar_table)"
plugin="$(cd "$(dirname "${plugin}")" && pwd)/$(basename "${plugin}")"
if [[ -n "${max_ratio}" ]]; then
  [[ "${instructions}" == 1 ]] || fail "--max_ratio needs --instructions"
  awk -v r="${max_ratio}" 'BEGIN { exit !(r + 0 > 0) }' || fail "bad --max_ratio ${max_ratio}"
fi
if [[ "${instructions}" == 1 ]]; then
  command -v valgrind > /dev/null || fail "valgrind not found (apt-get install valgrind)"
fi

if [[ -z "${work_dir}" ]]; then
  work_dir="$(mktemp -d /tmp/point_read_profile.XXXXXX)"
  [[ "${keep}" == 1 ]] || trap 'rm -rf "${work_dir}"' EXIT
fi
mkdir -p "${work_dir}"
echo "point_read_profile.sh: work dir ${work_dir}" >&2

sed -e "s/@COLUMN_COMPRESSION@/none/" -e "s/@CACHE_SIZE@/${cache_size}/" \
  "${options_dir}/columnar.ini" > "${work_dir}/OPTIONS-columnar"
cp "${options_dir}/block_based.ini" "${work_dir}/OPTIONS-bbt"
formats=(bbt columnar)
common=(--cache_size="${cache_size}" --num="${num}" --value_size="${value_size}" --threads=1
  --histogram=0)

# db_bench_command FORMAT: the command line prefix (environment and binary) of FORMAT.
db_bench_args() {
  local format="$1"
  args=(--db="${work_dir}/db-${format}" --options_file="${work_dir}/OPTIONS-${format}"
    "${common[@]}")
  preload=()
  [[ "${format}" == bbt ]] || preload=(LD_PRELOAD="${plugin}")
}

ops_of() { awk '$2 == ":" && / ops\/sec / { for (i = 1; i < NF; i++) if ($(i + 1) == "ops/sec") print $i }' "$1"; }

# The databases: filled once per work dir (a stamp records the fill's parameters).
stamp="num=${num} value_size=${value_size}"
for format in "${formats[@]}"; do
  if [[ -f "${work_dir}/db-${format}.stamp" && "$(cat "${work_dir}/db-${format}.stamp")" == "${stamp}" ]]; then
    continue
  fi
  echo "  fillrandom: ${format}" >&2
  rm -rf "${work_dir}/db-${format}"
  db_bench_args "${format}"
  env "${preload[@]}" "${db_bench}" "${args[@]}" --seed=1 \
    --benchmarks=fillrandom,flush,waitforcompaction > "${work_dir}/fill-${format}.log" 2>&1 ||
    fail "fill failed (${work_dir}/fill-${format}.log)"
  echo "${stamp}" > "${work_dir}/db-${format}.stamp"
done
for format in "${formats[@]}"; do
  printf '%s SST bytes: %s\n' "${format}" \
    "$(find "${work_dir}/db-${format}" -name '*.sst' -printf '%s\n' | awk '{ t += $1 } END { print t + 0 }')"
done
echo "db_bench --num=${num} --value_size=${value_size} --cache_size=${cache_size}, 1 thread"

# instructions_of FORMAT BENCHMARK READS: callgrind's instruction total of one run.
instructions_of() {
  local format="$1" benchmark="$2" count="$3"
  local out="${work_dir}/callgrind.${benchmark}.${format}"
  db_bench_args "${format}"
  env "${preload[@]}" valgrind --tool=callgrind --callgrind-out-file="${out}.out" \
    "${db_bench}" "${args[@]}" --use_existing_db=1 --reads="${count}" --seed=2 \
    --benchmarks="${benchmark}" > "${out}.log" 2>&1 || fail "callgrind run failed (${out}.log)"
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "${out}.log"
}

if [[ "${instructions}" == 1 ]]; then
  echo
  echo "instructions per operation (callgrind, reads ${reads_low} -> ${reads_high})"
  exceeded=()
  for benchmark in ${benchmarks}; do
    declare -A per_op=()
    for format in "${formats[@]}"; do
      low="$(instructions_of "${format}" "${benchmark}" "${reads_low}")"
      high="$(instructions_of "${format}" "${benchmark}" "${reads_high}")"
      per_op[${format}]=$(((high - low) / (reads_high - reads_low)))
    done
    ratio="$(awk -v a="${per_op[columnar]}" -v b="${per_op[bbt]}" 'BEGIN { printf "%.3f", a / b }')"
    printf '%-12s bbt %8d  columnar %8d  ratio %s\n' "${benchmark}" "${per_op[bbt]}" \
      "${per_op[columnar]}" "${ratio}"
    if [[ -n "${max_ratio}" ]] &&
      awk -v a="${ratio}" -v r="${max_ratio}" 'BEGIN { exit !(a + 0 > r + 0) }'; then
      exceeded+=("${benchmark} ${ratio}")
    fi
  done
  if [[ -n "${max_ratio}" ]]; then
    if [[ ${#exceeded[@]} -gt 0 ]]; then
      echo "point_read_profile.sh: instructions per operation above ${max_ratio}x of" \
        "BlockBasedTable: ${exceeded[*]}" >&2
      exit 1
    fi
    echo "instructions per operation within ${max_ratio}x of BlockBasedTable"
  fi
fi

# median [min..max] of the numbers on stdin.
spread() {
  sort -g | awk '{ v[NR] = $1 } END {
    m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%.3f [%.3f..%.3f] n=%d", m, v[1], v[NR], NR }'
}

if [[ "${cpu_rounds}" -gt 0 ]]; then
  echo
  echo "CPU time, ${cpu_rounds} rounds of --reads=${reads}; load before: $(uptime)"
  results="${work_dir}/cpu_rounds.txt"
  : > "${results}"
  for round in $(seq "${cpu_rounds}"); do
    for benchmark in ${benchmarks}; do
      for format in "${formats[@]}"; do
        db_bench_args "${format}"
        log="${work_dir}/cpu.${benchmark}.${format}.log"
        /usr/bin/time -f "CPU %U %S" -o "${log}.time" env "${preload[@]}" "${db_bench}" \
          "${args[@]}" --use_existing_db=1 --reads="${reads}" --seed=2 \
          --benchmarks="${benchmark}" > "${log}" 2>&1 || fail "db_bench failed (${log})"
        cpu_ops="$(awk -v n="${reads}" '/^CPU/ { printf "%d", n / ($2 + $3) }' "${log}.time")"
        echo "${round} ${benchmark} ${format} $(ops_of "${log}") ${cpu_ops}" | tee -a "${results}"
      done
    done
  done
  echo "load after: $(uptime)"
  echo
  echo "| benchmark | columnar/bbt wall ops/s | columnar/bbt ops per CPU second |"
  echo "|---|---|---|"
  for benchmark in ${benchmarks}; do
    wall="$(awk -v b="${benchmark}" '$2 == b { if ($3 == "bbt") w[$1] = $4; else print $4 / w[$1] }' \
      "${results}" | spread)"
    cpu="$(awk -v b="${benchmark}" '$2 == b { if ($3 == "bbt") c[$1] = $5; else print $5 / c[$1] }' \
      "${results}" | spread)"
    echo "| ${benchmark} | ${wall} | ${cpu} |"
  done
fi
