#pragma once

// Seeds for the IPC fuzzers: one table per sample array of testing/array_data_testing.h (every
// type, nested, sliced, with nulls), written by our own writers uncompressed, with lz4 and with
// zstd; each table holds the array and its slice from 1, so files have two record batches.

#include <cstdint>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bowstring/interchange/compression.h"
#include "bowstring/interchange/ipc.h"
#include "bowstring/table/record_batch.h"
#include "bowstring/table/table.h"
#include "bowstring/testing/array_data_testing.h"

namespace bowstring::fuzz {

/// Calls `write(table, options)` for every seed and stores what it returns in `directory`.
inline int write_ipc_seeds(
    int argc, char** argv,
    const std::function<std::shared_ptr<Buffer>(const Table&, const ipc::WriteOptions&)>& write) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " CORPUS_DIRECTORY\n";
    return 2;
  }
  const std::string directory = argv[1];
  std::vector<std::pair<std::string, Table>> tables;
  for (const auto& [name, array] : testing::sample_arrays()) {
    const RecordBatch batch(schema({field("column", array.type())}), {array});
    tables.emplace_back(name, Table::from_batches({batch, batch.slice(1)}));
  }
  int written = 0;
  for (const Compression compression :
       {Compression::kNone, Compression::kLz4Frame, Compression::kZstd}) {
    ipc::WriteOptions options;
    options.compression = compression;
    for (const auto& [name, table] : tables) {
      const std::shared_ptr<Buffer> bytes = write(table, options);
      std::ofstream out(directory + "/seed-" + std::to_string(written++),
                        std::ios::binary | std::ios::trunc);
      out.write(reinterpret_cast<const char*>(bytes->data()), bytes->size());
    }
  }
  std::cout << "wrote " << written << " seeds into " << directory << "\n";
  return 0;
}

}  // namespace bowstring::fuzz
