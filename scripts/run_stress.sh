#!/usr/bin/env bash
# Runs RocksDB 7.8.3's db_stress (built by `make stress`, tests/stress/) on ColumnarTable: the
# plugin LD_PRELOADed, an OPTIONS file selecting the table factory, db_stress verifying every
# read against its expected state (--expected_values_dir). Configurations rotate until the time
# is up; the same rotation on BlockBasedTable (format bbt) is the control that tells db_stress's
# own flakiness from our defects.
#
#   scripts/run_stress.sh [--seconds=300] [--formats=columnar,bbt] [--configs=NAME,...]
#       [--db_stress=build/tests/stress/db_stress] [--plugin=build/plugin/libcolumnar_table.so]
#       [--work_dir=DIR] [--keep] [--seed=N] [--list]
#
# --seconds=0 runs every configuration once (on every format), however long that takes.
# Every run gets its own seed (printed with its command line); a failing run's log and
# database stay in the work directory and the script exits 1 after the rotation.
set -uo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds=300
formats="columnar,bbt"
configs=""
db_stress="${repo_root}/build/tests/stress/db_stress"
plugin="${repo_root}/build/plugin/libcolumnar_table.so"
work_dir=""
keep=0
seed="$(date +%s)"

# name | db_stress flags | [DBOptions] lines | [CFOptions] lines | table options, each prefixed
# with the format it applies to (lines space-separated)
rotation=(
  "basic|||"
  "merge|--use_merge=1||merge_operator=put"
  "range_deletions|--delpercent=10 --delrangepercent=5 --range_deletion_width=20||"
  "snapshots|--acquire_snapshot_one_in=20 --snapshot_hold_ops=200 --long_running_snapshots=1 --compare_full_db_state_snapshot=1||"
  "batched_snapshots|--test_batches_snapshots=1 --use_multiget=1||"
  "multiget|--use_multiget=1 --readpercent=40 --prefixpercent=10 --writepercent=30 --delpercent=10 --iterpercent=10||"
  # No CompactRange here: in 7.8.3 its change_level (RefitLevel) does not check for a file being
  # ingested into the target level at the same time (fixed upstream by rocksdb PR #10988), which
  # leaves overlapping files in a level on either table format.
  "ingestion|--ingest_external_file_one_in=30 --ingest_external_file_width=50 --compact_range_one_in=0||"
  "checkpoints|--checkpoint_one_in=40||"
  "entities|--use_put_entity_one_in=2||"
  # Caches of (next to) no capacity: reads go to the files, where the faults are (db_stress
  # injects them in Get and MultiGet and fails when a read succeeds although a fault was
  # injected). --cache_size is BlockBasedTable's block cache; a database without any block
  # cache would fail db_stress's check that every rocksdb.block-cache-* property answers.
  "read_faults|--read_fault_one_in=32 --readpercent=30 --writepercent=25 --cache_size=1|||columnar:cache_size=0"
  "mmap_reads||allow_mmap_reads=true|"
  "direct_reads||use_direct_reads=true use_direct_io_for_flush_and_compaction=true|"
  "universal|--compaction_style=1||compaction_style=kCompactionStyleUniversal"
  # Compactions split into subcompactions (ranges planned from the files' key anchors), several
  # output builders at once; RocksDB splits only into ranges of a target file size or more, so
  # the target is small.
  "subcompactions||max_subcompactions=4|target_file_size_base=8192"
  "atomic_flush|--atomic_flush=1 --test_cf_consistency=1|atomic_flush=true|"
  "zstd_dict|||compression=kZSTD compression_opts={max_dict_bytes=16384;zstd_max_train_bytes=65536;max_dict_buffer_bytes=1048576}"
  "timestamps|--user_timestamp_size=8 --prefixpercent=0 --readpercent=30||comparator=leveldb.BytewiseComparator.u64ts"
  "kill9|||"
)

usage() {
  sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit "${1:-2}"
}

for arg in "$@"; do
  case "${arg}" in
    --seconds=*) seconds="${arg#*=}" ;;
    --formats=*) formats="${arg#*=}" ;;
    --configs=*) configs="${arg#*=}" ;;
    --db_stress=*) db_stress="${arg#*=}" ;;
    --plugin=*) plugin="${arg#*=}" ;;
    --work_dir=*) work_dir="${arg#*=}" ;;
    --seed=*) seed="${arg#*=}" ;;
    --keep) keep=1 ;;
    --list) for entry in "${rotation[@]}"; do echo "${entry%%|*}"; done; exit 0 ;;
    --help | -h) usage 0 ;;
    *) echo "run_stress.sh: unknown argument ${arg}" >&2; usage ;;
  esac
done

fail() {
  echo "run_stress.sh: $*" >&2
  exit 2
}
[[ -x "${db_stress}" ]] || fail "${db_stress} not found (make stress builds it)"
[[ -f "${plugin}" ]] || fail "${plugin} not found (cmake --build build --target columnar_table)"
plugin="$(cd "$(dirname "${plugin}")" && pwd)/$(basename "${plugin}")"

if [[ -z "${work_dir}" ]]; then
  # On disk, not tmpfs: direct reads need O_DIRECT.
  work_dir="$(mktemp -d "${repo_root}/build/stress.XXXXXX")"
fi
mkdir -p "${work_dir}"
work_dir="$(cd "${work_dir}" && pwd)"

selected=()
for entry in "${rotation[@]}"; do
  name="${entry%%|*}"
  if [[ -z "${configs}" || ",${configs}," == *",${name},"* ]]; then selected+=("${entry}"); fi
done
[[ ${#selected[@]} -gt 0 ]] || fail "no configuration matches --configs=${configs} (see --list)"

# Writes the OPTIONS file of one format and configuration. Small memtables and files so that
# a few thousand operations go through flushes, compactions and several levels.
write_options() {
  local format="$1" db_lines="$2" cf_lines="$3" table_lines="$4" out="$5"
  {
    printf '[Version]\n  rocksdb_version=7.8.3\n  options_file_version=1.1\n\n[DBOptions]\n'
    printf '  create_if_missing=true\n  create_missing_column_families=true\n'
    printf '  max_background_jobs=2\n'
    [[ -z "${db_lines}" ]] || tr ' ' '\n' <<< "${db_lines}" | sed 's/^/  /'
    printf '\n[CFOptions "default"]\n'
    # db_stress's default --prefix_size=7 (its prefix scans), as its flag-built options have.
    # The configuration's lines replace these defaults (an OPTIONS file keeps the first).
    tr -s ' \n' '\n' <<< "write_buffer_size=65536 target_file_size_base=131072
      max_bytes_for_level_base=524288 level0_file_num_compaction_trigger=4 ttl=0
      periodic_compaction_seconds=0 prefix_extractor=rocksdb.FixedPrefix.7 ${cf_lines}" |
      grep . | tac | awk -F= '!seen[$1]++' | tac | sed 's/^/  /'
    if [[ "${format}" == columnar ]]; then
      printf '  table_factory=ColumnarTable\n\n[TableOptions/ColumnarTable "default"]\n'
      table_lines="rows_per_group=64 block_size=4096 bloom_bits_per_key=10 cache_size=8388608
        $(tr ' ' '\n' <<< "${table_lines}" | sed -n 's/^columnar://p')"
    else
      printf '  table_factory=BlockBasedTable\n\n[TableOptions/BlockBasedTable "default"]\n'
      table_lines="block_size=4096 filter_policy=bloomfilter:10:false
        $(tr ' ' '\n' <<< "${table_lines}" | sed -n 's/^bbt://p')"
    fi
    # The configuration's table options replace the defaults (an OPTIONS file keeps the first).
    tr -s ' \n' '\n' <<< "${table_lines}" | grep . | tac | awk -F= '!seen[$1]++' | tac | sed 's/^/  /'
  } > "${out}"
}

run_count=0
failures=()
summary=()

# Runs db_stress once; prints the command and returns its exit status. Output goes to $log.
run_db_stress() {
  local format="$1" log="$2"
  shift 2
  local preload=""
  [[ "${format}" == columnar ]] && preload="${plugin}"
  echo "+ LD_PRELOAD=${preload} ${db_stress} $*" >> "${log}"
  # A subshell, so that the shell's "Aborted" notice goes to the log too.
  (LD_PRELOAD="${preload}" "${db_stress}" "$@"; exit $?) >> "${log}" 2>&1
}

# One configuration on one format. Returns 0 when it verified (or, for timestamps on
# ColumnarTable, when the refusal came as the factory's clear error).
run_config() {
  local format="$1" entry="$2" run_seed="$3"
  local name extra db_lines cf_lines table_lines
  IFS='|' read -r name extra db_lines cf_lines table_lines <<< "${entry}"
  local dir="${work_dir}/${run_count}-${format}-${name}"
  rm -rf "${dir}" && mkdir -p "${dir}/expected"
  write_options "${format}" "${db_lines}" "${cf_lines}" "${table_lines}" "${dir}/OPTIONS"
  local log="${dir}/log"
  # shellcheck disable=SC2206
  local flags=(--db="${dir}/db" --expected_values_dir="${dir}/expected"
    --options_file="${dir}/OPTIONS" --seed="${run_seed}" --max_key=4000 --threads=4
    --column_families=3 --clear_column_family_one_in=0 --read_fault_one_in=0
    --flush_one_in=300 --compact_range_one_in=500 --compact_files_one_in=500
    --verify_checksum_one_in=500 --get_live_files_one_in=500 --verify_db_one_in=2000
    ${extra})
  case "${name}" in
    kill9)
      # db_crashtest's blackbox mode: kill -9 at a random moment, reopen with the same expected
      # state (db_stress verifies the whole database at start), three times, then a clean run.
      # Every round keeps the seed: it picks the keys that are never overwritten (SingleDelete's
      # contract), so a new seed would mix SingleDelete with Put on the same key.
      local round
      run_db_stress "${format}" "${log}" "${flags[@]}" --destroy_db_initially=1 --ops_per_thread=1 \
        --reopen=0 || return 1
      for round in 1 2 3; do
        local -a cmd=("${db_stress}" "${flags[@]}" --destroy_db_initially=0 --ops_per_thread=100000000
          --reopen=0)
        echo "+ (kill -9 after a random delay) ${cmd[*]}" >> "${log}"
        if [[ "${format}" == columnar ]]; then
          LD_PRELOAD="${plugin}" "${cmd[@]}" >> "${log}" 2>&1 &
        else
          "${cmd[@]}" >> "${log}" 2>&1 &
        fi
        local pid=$!
        sleep "$((2 + (run_seed + round) % 5))"
        if ! kill -0 "${pid}" 2> /dev/null; then
          wait "${pid}"
          echo "db_stress exited before the kill (status $?)" >> "${log}"
          return 1
        fi
        kill -9 "${pid}" && wait "${pid}" 2> /dev/null
      done
      run_db_stress "${format}" "${log}" "${flags[@]}" --destroy_db_initially=0 --ops_per_thread=4000 \
        --reopen=1
      ;;
    timestamps)
      if [[ "${format}" == columnar ]]; then
        run_db_stress "${format}" "${log}" "${flags[@]}" --destroy_db_initially=1 \
          --ops_per_thread=4000 --reopen=1
        local status=$?
        # ColumnarTable refuses user-defined timestamps at open; the run must end on that error.
        [[ ${status} -ne 0 ]] && grep -q "ColumnarTable does not support user-defined timestamps" "${log}"
        return
      fi
      run_db_stress "${format}" "${log}" "${flags[@]}" --destroy_db_initially=1 --ops_per_thread=4000 \
        --reopen=2
      ;;
    *)
      run_db_stress "${format}" "${log}" "${flags[@]}" --destroy_db_initially=1 --ops_per_thread=4000 \
        --reopen=2
      ;;
  esac
  local status=$?
  [[ ${status} -eq 0 ]] || return 1
  # Belt and braces: db_stress prints these on errors it does not always turn into exit codes.
  ! grep -qE "Verification failed|Corruption" "${log}"
}

echo "run_stress.sh: ${seconds} s, formats ${formats}, work dir ${work_dir}, seed ${seed}"
IFS=',' read -r -a format_list <<< "${formats}"
start=$(date +%s)
while true; do
  for entry in "${selected[@]}"; do
    if ((seconds > 0)); then
      (( run_count == 0 || $(date +%s) - start < seconds )) || break 2
    fi
    name="${entry%%|*}"
    for format in "${format_list[@]}"; do
      run_count=$((run_count + 1))
      run_seed=$((seed + run_count))
      t0=$(date +%s)
      if run_config "${format}" "${entry}" "${run_seed}"; then
        result=ok
        [[ "${keep}" == 1 ]] || rm -rf "${work_dir}/${run_count}-${format}-${name}"
      else
        result=FAILED
        failures+=("${work_dir}/${run_count}-${format}-${name}/log")
      fi
      line="$(printf '%-18s %-9s seed %-12s %4ss %s' "${name}" "${format}" "${run_seed}" \
        "$(( $(date +%s) - t0 ))" "${result}")"
      echo "${line}"
      summary+=("${line}")
    done
  done
  ((seconds > 0)) || break
done

echo "run_stress.sh: ${run_count} runs in $(( $(date +%s) - start )) s, ${#failures[@]} failed"
if [[ ${#failures[@]} -gt 0 ]]; then
  for log in "${failures[@]}"; do
    echo "--- ${log}"
    grep -m1 '^+ ' "${log}"
    grep -vE '^\+ ' "${log}" | grep -iE "fail|error|corrupt|mismatch|assert|abort" | head -5
  done
  exit 1
fi
[[ "${keep}" == 1 ]] || rm -rf "${work_dir}"
exit 0
