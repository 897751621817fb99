// A small streaming JSON writer: pretty-printed, keys in the order written, strings escaped per
// RFC 8259, doubles in their shortest round-trip form (non-finite ones as null).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace columnar {
namespace bench {

// `text` as a JSON string literal, quotes included.
std::string JsonQuote(std::string_view text);

class JsonWriter {
 public:
  void BeginObject();
  void EndObject();
  void BeginArray();
  void EndArray();
  // Inside an object, before each value.
  void Key(std::string_view key);

  void String(std::string_view value);
  void Number(double value);
  void Integer(int64_t value);
  void Unsigned(uint64_t value);
  void Bool(bool value);
  void Null();

  // The document so far (complete once every container is closed), newline-terminated.
  std::string Finish() const { return out_ + "\n"; }

 private:
  struct Level {
    bool is_object;
    bool empty = true;
  };

  // Separator and indentation before a value (or a key inside an object).
  void BeforeValue();
  void Open(char bracket, bool is_object);
  void Close(char bracket);
  void NewLine();

  std::string out_;
  std::vector<Level> levels_;
  bool after_key_ = false;
};

}  // namespace bench
}  // namespace columnar
