// JSON text of result values and rows, as Cassandra's SELECT JSON (and toJson()) writes them:
//
//   text, ascii     "a string" (escapes \" \\ \n \t \r \b \f, \u00XX for other control bytes)
//   int, bigint     42
//   float, double   1.5, 22 (the shortest text that reads back to the same number); NaN,
//                   Infinity and -Infinity as strings (JSON has no literal for them)
//   boolean         true, false
//   timestamp       "2024-05-01 10:00:05.000Z" (years outside 1..9999: integer milliseconds)
//   date            "2024-05-01" (outside 1..9999: integer days since the epoch)
//   blob            "0xcafe"
//   uuid            "123e4567-e89b-12d3-a456-426614174000"
//   null            null
//   frozen list, set, tuple   a JSON array of the elements: [1, 2], ["a", null]
//   frozen map      an object, keys as JSON strings: {"a": 1}, {"1": "x"} (as Cassandra)
//
// A row is an object of its columns in result order, {"name": value, ...}, on one line.
#pragma once

#include <string>
#include <vector>

#include "table_format/value.h"

namespace columnar {

// `text` as a JSON string, quotes included.
std::string JsonQuoted(const std::string& text);
// One value, as above.
std::string JsonValueText(const Value& value);
// One row: names[i] -> row[i].
std::string JsonObjectText(const std::vector<std::string>& names, const Row& row);

}  // namespace columnar
