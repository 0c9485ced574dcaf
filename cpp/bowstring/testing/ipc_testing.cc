#include "bowstring/testing/ipc_testing.h"

#include <cstdint>
#include <cstring>

#include "bowstring/memory/allocator.h"
#include "bowstring/memory/buffer_builder.h"

namespace bowstring::testing {

RecordBatch batch_of(const std::vector<std::pair<std::string, Array>>& columns, Metadata metadata) {
  FieldVector fields;
  std::vector<Array> arrays;
  for (const auto& [name, array] : columns) {
    fields.push_back(field(name, array.type()));
    arrays.push_back(array);
  }
  const int64_t rows = arrays.empty() ? 0 : arrays[0].length();
  return RecordBatch(schema(fields, std::move(metadata)), rows, arrays);
}

std::shared_ptr<Buffer> flatten(const ipc::EncodedBody& body) {
  MutableBuffer bytes(body.body_length, default_allocator());
  std::memset(bytes.mutable_data(), 0, static_cast<size_t>(body.body_length));
  for (size_t i = 0; i < body.buffers.size(); ++i) {
    std::memcpy(bytes.mutable_data() + body.header.buffers[i].offset, body.buffers[i]->data(),
                static_cast<size_t>(body.buffers[i]->size()));
  }
  return bytes.finish();
}

void for_each_flipped_byte(const Buffer& data,
                           const std::function<void(std::shared_ptr<Buffer>)>& use) {
  for (int64_t i = 0; i < data.size(); ++i) {
    for (const uint8_t mask : {uint8_t{0x01}, uint8_t{0x80}, uint8_t{0xFF}}) {
      BufferBuilder copy;
      copy.append(data.data(), data.size());
      copy.mutable_data()[i] ^= mask;
      use(copy.finish());
    }
  }
}

}  // namespace bowstring::testing
