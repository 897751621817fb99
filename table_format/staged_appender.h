// StagedAppender: many small appends to a std::string as one.

#pragma once

#include <cstddef>
#include <cstring>
#include <string>

namespace columnar {

// Appends small pieces to a string through a buffer on the stack, so that a row's header and
// fixed-width values (or a key's parts) cost one append instead of one each.
class StagedAppender {
 public:
  explicit StagedAppender(std::string* out) : out_(out) {}
  ~StagedAppender() { Flush(); }
  StagedAppender(const StagedAppender&) = delete;
  StagedAppender& operator=(const StagedAppender&) = delete;

  // Room for n <= kCapacity bytes at the returned pointer; Advance(written) after writing.
  char* Room(size_t n) {
    if (used_ + n > kCapacity) {
      Flush();
    }
    return buffer_ + used_;
  }
  void Advance(size_t n) { used_ += n; }
  void Append(const char* data, size_t n) {
    if (n > kCapacity - used_) {
      Flush();
      if (n > kCapacity) {
        out_->append(data, n);
        return;
      }
    }
    std::memcpy(buffer_ + used_, data, n);
    used_ += n;
  }
  void Flush() {
    out_->append(buffer_, used_);
    used_ = 0;
  }

 private:
  static constexpr size_t kCapacity = 256;
  std::string* out_;
  char buffer_[kCapacity];
  size_t used_ = 0;
};

}  // namespace columnar
