// The CQL lexer (table_format/cql_lexer.h) and the schema statement parser
// (table_format/cql_parser.h) on arbitrary text (the data statements of the Table API are
// parsed by statement_binder_fuzzer). Tables that parse must print back
// (ToCql) to CQL that parses to the same schema, and serialize/deserialize losslessly;
// ALTER statements are also applied to the fuzz schema.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "table_format/cql_lexer.h"
#include "table_format/cql_parser.h"
#include "tests/fuzz/fuzz_schema.h"

namespace columnar {
namespace {

void CheckSchemaRoundTrips(const TableSchema& schema) {
  CreateTableStatement reparsed;
  const std::string cql = schema.ToCql();
  Status s = ParseCreateTable(cql, &reparsed);
  if (!s.ok()) {
    std::fprintf(stderr, "ToCql() does not parse: %s\n%s\n", s.ToString().c_str(), cql.c_str());
  }
  FUZZ_CHECK(s.ok());
  FUZZ_CHECK(reparsed.schema == schema);
  TableSchema deserialized;
  FUZZ_CHECK(TableSchema::Deserialize(schema.Serialize(), &deserialized).ok());
  FUZZ_CHECK(deserialized == schema);
}

}  // namespace
}  // namespace columnar

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace columnar;
  const Slice cql(reinterpret_cast<const char*>(data), size);

  std::vector<Token> tokens;
  if (TokenizeCql(cql, &tokens).ok()) {
    FUZZ_CHECK(!tokens.empty() && tokens.back().kind == TokenKind::kEnd);
    for (const Token& token : tokens) {
      FUZZ_CHECK(token.offset <= size);
      (void)TokenLiteralText(token);
      (void)DescribeToken(token);
    }
  }

  CreateTableStatement create;
  if (ParseCreateTable(cql, &create).ok()) CheckSchemaRoundTrips(create.schema);

  TableSchema altered;
  if (ApplyAlterTable(cql, fuzz::FuzzSchema(), &altered).ok()) {
    FUZZ_CHECK(altered.version() == fuzz::FuzzSchema().version() + 1);
    TableSchema deserialized;
    FUZZ_CHECK(TableSchema::Deserialize(altered.Serialize(), &deserialized).ok());
    FUZZ_CHECK(deserialized == altered);
  }

  // Serialized schemas (SST properties, OPTIONS files) are parsed from bytes too.
  TableSchema deserialized;
  if (TableSchema::Deserialize(cql, &deserialized).ok()) {
    FUZZ_CHECK(Slice(deserialized.Serialize()) == cql);
  }
  return 0;
}
