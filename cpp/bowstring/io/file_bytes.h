#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "bowstring/interchange/io.h"

namespace bowstring::io {

/// The bytes of a file, whole and decompressed: a read-only mapping of a plain file, or the
/// inflated contents of a ".gz" (gzip, several members allowed) or ".zst" (zstd frames) file,
/// the codec chosen by the name's ending as Hadoop's codecs are.
struct FileBytes {
  std::string path;
  std::string_view bytes;
  /// Keeps `bytes` alive.
  std::shared_ptr<const void> owner;
};

/// Reads `path`. Throws `IoError` naming the path when it cannot be opened, and naming the
/// path and the offset in the compressed stream when that is corrupt or truncated.
FileBytes read_file_bytes(const std::string& path);

/// Decompresses gzip (`zstd` false) or zstd data; `path` names it in errors.
std::string decompress(std::string_view data, bool zstd, const std::string& path);

/// An output stream compressing what is written to it into `sink` as gzip or zstd; `close`
/// finishes the stream and closes the sink.
std::unique_ptr<OutputStream> compressing_stream(std::shared_ptr<OutputStream> sink, bool zstd);

}  // namespace bowstring::io
