// Values of frozen collection and tuple types (frozen_type.h): the canonical byte string of one
// cell, CQL literals and their parsing.
//
// Canonical encoding, the bytes of a Value of a frozen type (row codec cell, ColumnarTable
// byte-string column, and, escaped like a blob, key codec component):
//
//   value(T), T scalar         T's ASC key component encoding (key_codec.h): int as 4 bytes
//                              big-endian with the sign bit flipped, text as its bytes with
//                              0x00 -> 0x00 0xFF and the terminator 0x00 0x01, ...
//   value(T), T frozen         value of the nested type, as below (self-delimiting)
//   list<T>, set<T>            (0x01 value(T))* 0x00
//   map<K, V>                  (0x01 value(K) value(V))* 0x00
//   tuple<T1, ..., Tn>         field(T1) ... field(Tn),  field(T) := 0x00 (null) | 0x01 value(T)
//
// Canonical: set elements strictly ascending (sorted, duplicates dropped), map keys strictly
// ascending (unique; a repeated key in a literal keeps its last value, as Cassandra does); a
// tuple always holds all n fields (missing trailing fields of a literal are null). Elements
// of lists, sets and maps are never null. An empty collection is the single byte 0x00 (a
// value, not null, as in Cassandra).
//
// Every value(T) is prefix-free and memcmp-ordered like T, so memcmp of two canonical values
// is Cassandra's order of frozen values: lists and sets element by element, then the shorter
// first (0x00 < 0x01); maps key then value, entry by entry, then the shorter first; tuples
// field by field with null first. Sets sort their elements by that order too. Hence `=`, `<`
// and `>` on frozen cells compare the bytes, in pushdown and zone maps alike.
//
// Example: frozen<map<text, int>> {'b': 2, 'a': 1} is
//   01 'a' 00 01 80 00 00 01  01 'b' 00 01 80 00 00 02  00
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "table_format/frozen_type.h"
#include "table_format/value.h"

namespace columnar {

// The elements of one frozen value, in canonical order: list/set elements; map entries as
// key0, value0, key1, value1, ...; tuple fields (null Values for null fields).
using FrozenElements = std::vector<Value>;

// Canonical value of `type` from its elements (sets sorted and deduplicated, map entries sorted
// by key with the last of equal keys kept, missing trailing tuple fields null).
// InvalidArgument when an element has the wrong type, a collection element is null, a map has
// an odd element count or a tuple too many fields.
Status EncodeFrozenValue(LogicalType type, const FrozenElements& elements, Value* out);

// The elements of a canonical value. Corruption when `bytes` is not canonical.
Status DecodeFrozenValue(LogicalType type, const Slice& bytes, FrozenElements* elements);

// True when `bytes` is exactly one canonical value of `type`.
bool IsCanonicalFrozenValue(LogicalType type, const Slice& bytes);

// Parses a CQL literal of a frozen type: [1, 2], {'a', 'b'}, {'a': 1}, (1, 'x', null), nested,
// {} and [] (empty, not null). Errors name the type and the element that is wrong.
Status ParseFrozenLiteral(LogicalType type, const Slice& literal, Value* out);

// The value as a collection literal: [e, ...], {e, ...}, {k: v, ...}, (f, ...), with every
// scalar element formatted by `scalar_text` and null tuple fields as null. `scalar_text`
// decides the style (CQL literal, cqlsh).
std::string FormatFrozenValue(const Value& value,
                              const std::function<std::string(const Value&)>& scalar_text);

}  // namespace columnar
