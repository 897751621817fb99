#include "table_format/encodings/chooser.h"

namespace columnar {

Status ChooseAndEncode(const std::vector<Encoding>& candidates, const ColumnVector& values,
                       std::string* out, Encoding* chosen) {
  std::string best;
  Encoding best_encoding = Encoding::kPlain;
  bool found = false;
  for (Encoding e : candidates) {
    std::string body;
    if (!EncodeValues(e, values, &body).ok()) continue;
    if (!found || body.size() < best.size()) {
      best.swap(body);
      best_encoding = e;
      found = true;
    }
  }
  if (!found) return EncodeValues(Encoding::kPlain, values, out);
  out->append(best);
  *chosen = best_encoding;
  return Status::OK();
}

}  // namespace columnar
