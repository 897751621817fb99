// Prefixes a status message with where it happened ("table ks.t: ..."), keeping its code.
#pragma once

#include <string>

#include "table_format/types.h"

namespace columnar {

inline Status WithContext(const std::string& context, const Status& status) {
  if (status.ok()) return status;
  const std::string message =
      context + ": " + (status.getState() != nullptr ? status.getState() : status.ToString());
  return Status(status.code(), status.subcode(), status.severity(), message);
}

}  // namespace columnar
