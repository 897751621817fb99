// The machine's speed at one moment: a fixed single-threaded workload timed in the calling
// thread's CPU time. On a shared VM the same work's CPU time drifts by tens of percent from one
// minute to the next (BlockBasedTable's own CPU per ingested devops row measured 6.4 and 10.4
// s/M rows in two loads of one series), and a ratio of two loads' CPU figures means something
// only when the machine ran both at the same speed. db_bench_ext probes before and after each
// load; scripts/load_rounds.py divides each load's CPU by its probe time.
//
// The work: dependent reads around a random cycle of 32 MiB of indices (memory latency, as an
// LSM's merges and lookups have) and a chain of multiply-xorshift rounds (arithmetic). Neither
// allocates while timed; the cycle is built on the first call.
#pragma once

namespace columnar {
namespace bench {

// Thread CPU milliseconds the probe's fixed work took.
double ProbeMachineMilliseconds();

}  // namespace bench
}  // namespace columnar
