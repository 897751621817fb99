// columnar_sst_dump: prints ColumnarTable SST files (Debian's sst_dump rejects foreign table
// formats). For each file, or each .sst file of a database directory: RocksDB's table
// properties, the columnar ones, the per-column storage breakdown and, on request, the
// entries and a checksum verification.
//
//   columnar_sst_dump [--entries[=N]] [--hex] [--verify] [--no-checksums] [--no-properties]
//                     PATH...
//
// Exit status: 0 when every file was read (and verified), 1 when any could not be, 2 for a
// usage error.
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "tools/sst_dumper.h"

namespace {

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

void PrintUsage(std::ostream& out) {
  out << "usage: columnar_sst_dump [options] FILE.sst|DB_DIR...\n"
         "  --entries[=N]    print the entries (all, or the first N): user key, sequence\n"
         "                   number, type and value; range tombstones last\n"
         "  --hex            print keys and values in hex\n"
         "  --verify         verify every checksum of the file\n"
         "  --no-checksums   read the entries without verifying data block checksums (to\n"
         "                   salvage a damaged file; damaged blocks may show wrong entries)\n"
         "  --no-properties  omit the properties and the column storage breakdown\n"
         "  --help           this text\n";
}

bool ParseEntryLimit(const char* text, uint64_t* limit) {
  char* end = nullptr;
  *limit = std::strtoull(text, &end, 10);
  return *text != '\0' && *end == '\0';
}

// Fills `options` and `paths` from argv; false (after a message) on a usage error.
bool ParseArguments(int argc, char** argv, columnar::DumpOptions* options,
                    std::vector<std::string>* paths, bool* help) {
  for (int i = 1; i < argc; i++) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      *help = true;
    } else if (arg == "--entries") {
      options->show_entries = true;
    } else if (arg.rfind("--entries=", 0) == 0) {
      options->show_entries = true;
      if (!ParseEntryLimit(argv[i] + std::strlen("--entries="), &options->entry_limit)) {
        std::cerr << "columnar_sst_dump: --entries wants a number, got '" << arg << "'\n";
        return false;
      }
    } else if (arg == "--hex") {
      options->hex = true;
    } else if (arg == "--verify") {
      options->verify = true;
    } else if (arg == "--no-checksums") {
      options->verify_reads = false;
    } else if (arg == "--no-properties") {
      options->show_properties = false;
    } else if (arg.rfind("--", 0) == 0) {
      std::cerr << "columnar_sst_dump: unknown option " << arg << "\n";
      return false;
    } else {
      paths->push_back(arg);
    }
  }
  if (paths->empty() && !*help) {
    std::cerr << "columnar_sst_dump: no file or directory given\n";
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  columnar::DumpOptions options;
  std::vector<std::string> paths;
  bool help = false;
  if (!ParseArguments(argc, argv, &options, &paths, &help)) {
    PrintUsage(std::cerr);
    return kExitUsage;
  }
  if (help) {
    PrintUsage(std::cout);
    return EXIT_SUCCESS;
  }
  int exit_code = EXIT_SUCCESS;
  bool first = true;
  for (const std::string& path : paths) {
    std::vector<std::string> files;
    rocksdb::Status s = columnar::ListSstFiles(path, &files);
    if (!s.ok()) {
      std::cerr << "columnar_sst_dump: " << s.ToString() << "\n";
      exit_code = kExitFailure;
      continue;
    }
    for (const std::string& file : files) {
      if (!first) std::cout << "\n";
      first = false;
      s = columnar::DumpSstFile(file, options, std::cout);
      std::cout.flush();
      if (!s.ok()) {
        std::cerr << "columnar_sst_dump: " << file << ": " << s.ToString() << "\n";
        exit_code = kExitFailure;
      }
    }
  }
  return exit_code;
}
