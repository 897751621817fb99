// Dictionary bodies without materialising the values, for predicate pushdown: evaluate a
// predicate once per dictionary entry, then test the codes.
//
// The dictionary is sorted and has no duplicates, so code order is value order:
//   int32 / int64   ascending signed value
//   bytes           ascending bytewise (memcmp order, a prefix before its extensions)
//   float / double  ascending by OrderedImage (float_order.h) of the bit pattern: numeric
//                   order for ordinary values, -0.0 just before +0.0, negative-signed NaNs
//                   first and positive-signed NaNs last; distinct NaN payloads are distinct
//                   entries
// DecodeDictionary checks the order and rejects a body that breaks it.
#pragma once

#include <cstdint>
#include <vector>

#include "table_format/column_vector.h"
#include "table_format/types.h"

namespace columnar {

// Decodes a kDictionary body of `count` values of `type`: *dictionary (reset to `type`)
// receives the distinct values in the order above, *codes the `count` codes, each smaller
// than dictionary->size(). Value i of the column is dictionary entry (*codes)[i].
Status DecodeDictionary(PhysicalType type, const Slice& body, size_t count,
                        ColumnVector* dictionary, std::vector<uint32_t>* codes);

}  // namespace columnar
