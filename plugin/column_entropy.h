// Column entropy estimates of a ColumnarTable file, computed by reading the file back.
//
// The estimate (table_format/entropy_estimate.h) is a storage report's yardstick: how far each
// column's encoded bytes are from the information its values carry. Files do not compute it
// while they are written: in profiles of compactions into string-heavy tables it took about a
// seventh of the CPU, for a figure only reports read. Reports (columnar_sst_dump,
// db_bench_ext) call this instead, which costs a read of the file.
//
// The file's entries are split into columns again by the layout the file was written with
// (its schema comes from the file's properties), in row groups of the file's rows_per_group,
// and each column's chunks go to its estimator in file order, as the writer sees them.
// Nothing is encoded: the chunks of the replay are plain and thrown away. Row groups the
// writer cut early (group_target_bytes) are not cut here, which moves the estimate of
// differences between consecutive values by a few boundaries at most.
#pragma once

#include <rocksdb/options.h>
#include <rocksdb/status.h>

#include <map>
#include <string>

namespace columnar {

// Bits per column name (the names of the file's column_stats property) of the table file at
// `path`. `options` supplies the comparator and, for schema-less files, the prefix extractor
// the file was written with. InvalidArgument for a file that is not a ColumnarTable file; an
// unreadable file gives the reader's error.
rocksdb::Status EstimateColumnEntropy(const rocksdb::Options& options, const std::string& path,
                                      std::map<std::string, double>* bits_by_column);

}  // namespace columnar
