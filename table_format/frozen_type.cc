#include "table_format/frozen_type.h"

#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>

namespace columnar {
namespace {

// Handles are published once and never change, so lookups read an atomic slot without a lock;
// interning (schema parsing) takes the mutex.
struct Registry {
  std::mutex mutex;
  std::map<std::string, LogicalType> by_name;
  std::vector<std::unique_ptr<FrozenType>> owned;
  std::array<std::atomic<const FrozenType*>, kMaxFrozenTypes> slots{};
};

Registry& TheRegistry() {
  static Registry* registry = new Registry();  // never destroyed: handles outlive statics
  return *registry;
}

bool IsValidElementType(LogicalType type) {
  if (!IsFrozenType(type)) return static_cast<int>(type) < kNumLogicalTypes;
  const size_t slot = static_cast<uint16_t>(type) - kFirstFrozenType;
  return TheRegistry().slots[slot].load(std::memory_order_acquire) != nullptr;
}

int DepthOf(LogicalType type) { return IsFrozenType(type) ? FrozenTypeOf(type).depth : 0; }

// The element as written inside a frozen type: scalars by name, frozen types by their name.
std::string CanonicalName(FrozenKind kind, const std::vector<LogicalType>& elements) {
  static const char* const kKindNames[] = {"list", "set", "map", "tuple"};
  std::string name = std::string("frozen<") + kKindNames[static_cast<int>(kind)] + "<";
  for (size_t i = 0; i < elements.size(); i++) {
    if (i > 0) name += ", ";
    name += LogicalTypeName(elements[i]);
  }
  return name + ">>";
}

}  // namespace

const FrozenType& FrozenTypeOf(LogicalType type) {
  const size_t slot = static_cast<uint16_t>(type) - kFirstFrozenType;
  return *TheRegistry().slots[slot].load(std::memory_order_acquire);
}

Status InternFrozenType(FrozenKind kind, const std::vector<LogicalType>& elements,
                        LogicalType* type) {
  const size_t expected = kind == FrozenKind::kMap ? 2 : 1;
  if (kind == FrozenKind::kTuple ? elements.empty() || elements.size() > kMaxTupleFields
                                 : elements.size() != expected) {
    return Status::InvalidArgument(kind == FrozenKind::kTuple
                                       ? "a tuple type needs 1 to 256 field types"
                                       : "wrong number of element types");
  }
  int depth = 0;
  for (LogicalType element : elements) {
    if (!IsValidElementType(element)) return Status::InvalidArgument("unknown element type");
    depth = std::max(depth, DepthOf(element));
  }
  if (depth + 1 > kMaxFrozenTypeDepth) {
    return Status::InvalidArgument("frozen types nest at most " +
                                   std::to_string(kMaxFrozenTypeDepth) + " levels deep");
  }
  std::string name = CanonicalName(kind, elements);
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  const auto found = registry.by_name.find(name);
  if (found != registry.by_name.end()) {
    *type = found->second;
    return Status::OK();
  }
  if (registry.owned.size() >= kMaxFrozenTypes) {
    return Status::InvalidArgument("too many distinct frozen types in this process");
  }
  auto descriptor = std::make_unique<FrozenType>();
  descriptor->kind = kind;
  descriptor->elements = elements;
  descriptor->name = name;
  descriptor->depth = depth + 1;
  const size_t slot = registry.owned.size();
  *type = static_cast<LogicalType>(kFirstFrozenType + slot);
  registry.slots[slot].store(descriptor.get(), std::memory_order_release);
  registry.owned.push_back(std::move(descriptor));
  registry.by_name.emplace(std::move(name), *type);
  return Status::OK();
}

}  // namespace columnar
