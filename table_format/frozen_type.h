// Frozen collection and tuple types: frozen<list<T>>, frozen<set<T>>, frozen<map<K, V>> and
// tuple<T1, ..., Tn> (Cassandra's tuples are always frozen: tuple<...> and frozen<tuple<...>>
// are the same type). Elements are scalar types or, again, frozen types.
//
// A frozen type is a LogicalType handle at or above kFirstFrozenType, so every layer that
// passes a LogicalType (ColumnDef::type, Value::type(), the codecs) carries the full nested
// type without a second field; the scalar types keep their enum values and code paths. The
// handles are interned in a process-wide registry, one per distinct type (by canonical CQL
// name), and never freed; they are not stored anywhere (schemas store the CQL name).
//
// Values of a frozen type are byte strings (PhysicalType::kBytes): the canonical encoding of
// frozen_value.h, whose memcmp order is Cassandra's order of the values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "table_format/value.h"

namespace columnar {

inline constexpr uint16_t kFirstFrozenType = 64;
inline constexpr size_t kMaxFrozenTypes = 65536 - kFirstFrozenType;
// Deepest nesting of frozen types (frozen<list<frozen<list<...>>>> counts one per level).
inline constexpr int kMaxFrozenTypeDepth = 16;
// Most fields of one tuple type.
inline constexpr size_t kMaxTupleFields = 256;

enum class FrozenKind : uint8_t { kList, kSet, kMap, kTuple };

struct FrozenType {
  FrozenKind kind = FrozenKind::kList;
  // list / set: {element}; map: {key, value}; tuple: the field types in order.
  std::vector<LogicalType> elements;
  // Canonical CQL name: frozen<list<int>>, frozen<map<text, frozen<set<int>>>>,
  // frozen<tuple<int, text>> (what DESCRIBE shows and schemas store).
  std::string name;
  int depth = 1;  // 1 + the deepest frozen element's depth
};

inline bool IsFrozenType(LogicalType type) {
  return static_cast<uint16_t>(type) >= kFirstFrozenType;
}

// The descriptor of a handle returned by InternFrozenType. Precondition: IsFrozenType(type)
// and the handle came from InternFrozenType in this process.
const FrozenType& FrozenTypeOf(LogicalType type);

// The handle of the type (same kind and elements -> same handle). InvalidArgument when the
// element count does not fit the kind, an element is not a valid type, the nesting is deeper
// than kMaxFrozenTypeDepth, or the registry is full.
Status InternFrozenType(FrozenKind kind, const std::vector<LogicalType>& elements,
                        LogicalType* type);

}  // namespace columnar
