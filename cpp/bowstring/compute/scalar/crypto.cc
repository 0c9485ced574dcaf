// md5, sha1, sha2 and crc32 as Spark computes them: digests of the bytes of a BINARY value (a
// STRING is read as its UTF-8 bytes), as lower-case hex strings; crc32 as a BIGINT.

// The low-level digest functions (see Digest) are declared deprecated in OpenSSL 3.0.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/md5.h>
#include <openssl/sha.h>
#include <zlib.h>

#include <algorithm>
#include <string>

#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/compute/core/kernel_util.h"
#include "bowstring/compute/core/registry_areas.h"
#include "bowstring/compute/scalar/string_function.h"
#include "bowstring/compute/scalar/string_util.h"

namespace bowstring::compute {

namespace {

using strings::IntArg;
using strings::StringArg;
using strings::StringOutput;

/// Writes `size` bytes as lower-case hex digits at `out` (2 * size bytes).
void write_hex_lower(const uint8_t* bytes, size_t size, uint8_t* out) {
  static constexpr char kDigits[] = "0123456789abcdef";
  for (size_t i = 0; i < size; ++i) {
    out[2 * i] = static_cast<uint8_t>(kDigits[bytes[i] >> 4]);
    out[2 * i + 1] = static_cast<uint8_t>(kDigits[bytes[i] & 0x0F]);
  }
}

/// One of OpenSSL's digests through its low-level functions on a context on the stack: for
/// values of a few dozen bytes the EVP interface costs two to three times as much (it allocates
/// a provider context per digest in OpenSSL 3.0). They are deprecated in 3.0 but kept through
/// the 3.x series.
template <typename Context, int (*kInit)(Context*), int (*kUpdate)(Context*, const void*, size_t),
          int (*kFinal)(unsigned char*, Context*), size_t kSize>
struct Digest {
  /// Appends the digest of `bytes`, in hex, to the current row of `out`.
  static void append_hex(std::string_view bytes, StringOutput& out) {
    Context context;
    unsigned char digest[kSize];
    kInit(&context);
    kUpdate(&context, bytes.data(), bytes.size());
    kFinal(digest, &context);
    write_hex_lower(digest, kSize, out.extend(static_cast<int64_t>(2 * kSize)));
  }
};

using Md5 = Digest<MD5_CTX, MD5_Init, MD5_Update, MD5_Final, MD5_DIGEST_LENGTH>;
using Sha1 = Digest<SHA_CTX, SHA1_Init, SHA1_Update, SHA1_Final, SHA_DIGEST_LENGTH>;
using Sha224 = Digest<SHA256_CTX, SHA224_Init, SHA224_Update, SHA224_Final, SHA224_DIGEST_LENGTH>;
using Sha256 = Digest<SHA256_CTX, SHA256_Init, SHA256_Update, SHA256_Final, SHA256_DIGEST_LENGTH>;
using Sha384 = Digest<SHA512_CTX, SHA384_Init, SHA384_Update, SHA384_Final, SHA384_DIGEST_LENGTH>;
using Sha512 = Digest<SHA512_CTX, SHA512_Init, SHA512_Update, SHA512_Final, SHA512_DIGEST_LENGTH>;

template <typename D>
Datum hex_digest(std::span<const Datum> arguments, ExecContext& context) {
  StringArg value(arguments[0]);
  return strings::map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    D::append_hex(value.value(i), out);
    return true;
  });
}

/// sha2's digest for a bit length (0 means 256), or nullptr where Spark's result is null.
using AppendHex = void (*)(std::string_view, StringOutput&);
AppendHex sha2_variant(int64_t bits) {
  switch (bits) {
    case 224:
      return Sha224::append_hex;
    case 0:
    case 256:
      return Sha256::append_hex;
    case 384:
      return Sha384::append_hex;
    case 512:
      return Sha512::append_hex;
    default:
      return nullptr;
  }
}

Datum sha2(std::span<const Datum> arguments, ExecContext& context) {
  StringArg value(arguments[0]);
  IntArg bits(arguments[1]);
  return strings::map_to_string(arguments, utf8(), context, [&](int64_t i, StringOutput& out) {
    const AppendHex append_hex = sha2_variant(bits.value(i));
    if (append_hex == nullptr) {
      return false;
    }
    append_hex(value.value(i), out);
    return true;
  });
}

Datum crc32_kernel(std::span<const Datum> arguments, ExecContext& context) {
  StringArg value(arguments[0]);
  return strings::map_to_values<int64_t>(arguments, int64(), context, [&](int64_t i) {
    const std::string_view bytes = value.value(i);
    // zlib's crc32 is java.util.zip.CRC32's (the polynomial 0xEDB88320); it takes 32-bit
    // lengths.
    uLong crc = crc32(0L, Z_NULL, 0);
    const auto* data = reinterpret_cast<const Bytef*>(bytes.data());
    size_t left = bytes.size();
    while (left > 0) {
      const auto chunk = static_cast<uInt>(std::min<size_t>(left, size_t{1} << 30));
      crc = crc32(crc, data, chunk);
      data += chunk;
      left -= chunk;
    }
    return static_cast<int64_t>(crc);
  });
}

}  // namespace

void register_crypto_functions(FunctionRegistry& registry) {
  using strings::add_function;
  using strings::Param;
  const Param kBin = Param::kBinary;
  add_function(registry, "md5", {}, {1, 1}, "The MD5 digest of a binary value, as 32 hex digits.",
               {"(binary) -> string"}, {kBin}, utf8(), hex_digest<Md5>);
  add_function(registry, "sha1", {"sha"}, {1, 1},
               "The SHA-1 digest of a binary value, as 40 hex digits.", {"(binary) -> string"},
               {kBin}, utf8(), hex_digest<Sha1>);
  add_function(registry, "sha2", {}, {2, 2},
               "The SHA-2 digest of a binary value, as hex digits, for bitLength 224, 256 (or 0), "
               "384 or 512; null for other bit lengths.",
               {"(binary, bitLength: int) -> string"}, {kBin, Param::kInt}, utf8(), sha2);
  add_function(registry, "crc32", {}, {1, 1}, "The CRC-32 checksum of a binary value, as a bigint.",
               {"(binary) -> bigint"}, {kBin}, int64(), crc32_kernel);
}

}  // namespace bowstring::compute
