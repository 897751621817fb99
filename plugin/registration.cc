// Registers the plugin's table factories in RocksDB's ObjectLibrary, so that
// TableFactory::CreateFromString("id=ColumnarTable;..."), OPTIONS files and the stock tools
// (db_bench, ldb with the plugin LD_PRELOADed) can create them by name.
#include <rocksdb/utilities/object_registry.h>

#include <mutex>

#include "plugin/columnar_table.h"
#include "plugin/columnar_table_factory.h"
#include "plugin/tiered_table_factory.h"

namespace columnar {

int RegisterColumnarTableFactories(rocksdb::ObjectLibrary& library, const std::string& /*arg*/) {
  library.AddFactory<rocksdb::TableFactory>(
      rocksdb::ObjectLibrary::PatternEntry(ColumnarTableFactory::kClassName())
          .AnotherName("columnar"),
      [](const std::string& /*uri*/, std::unique_ptr<rocksdb::TableFactory>* guard,
         std::string* /*errmsg*/) {
        guard->reset(new ColumnarTableFactory());
        return guard->get();
      });
  library.AddFactory<rocksdb::TableFactory>(
      rocksdb::ObjectLibrary::PatternEntry(TieredTableFactory::kClassName()),
      [](const std::string& /*uri*/, std::unique_ptr<rocksdb::TableFactory>* guard,
         std::string* /*errmsg*/) {
        guard->reset(new TieredTableFactory());
        return guard->get();
      });
  return 2;
}

void RegisterColumnarTableFactories() {
  static std::once_flag once;
  std::call_once(once,
                 [] { RegisterColumnarTableFactories(*rocksdb::ObjectLibrary::Default(), ""); });
}

namespace {
// Runs when this object file is part of the program: always for the shared plugin library
// (linked or LD_PRELOADed, after librocksdb's own static initialisers, since the plugin
// depends on it); for the static library only when something references this file (e.g.
// Database::Open calling RegisterColumnarTableFactories()).
const bool kRegistered = (RegisterColumnarTableFactories(), true);
}  // namespace

}  // namespace columnar

// C entry point in RocksDB's plugin convention (`<name>_FUNC`), for builds that compile the
// plugin into RocksDB itself.
extern "C" int columnar_table_reg(rocksdb::ObjectLibrary& library, const std::string& arg) {
  return columnar::RegisterColumnarTableFactories(library, arg);
}
