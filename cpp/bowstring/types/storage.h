#pragma once

// What a type's arrays look like in memory, for code that walks buffers (validation, equality,
// concatenation, IPC bodies, the C Data Interface, batch sizes).

#include "bowstring/types/type.h"

namespace bowstring {

/// The type whose buffers and children an array of `type` has: an extension type's storage
/// type, `type` itself for every other type. A dictionary type is its own storage (its indices
/// and its dictionary are its layout; the dictionary's value type is not looked through). One
/// step suffices: `ExtensionType` refuses an extension type as its storage.
inline const DataType& storage_of(const DataType& type) {
  return type.id() == TypeId::kExtension ? *static_cast<const ExtensionType&>(type).storage_type()
                                         : type;
}

/// As `storage_of(const DataType&)`, keeping the shared pointer (for an `ArrayData` that
/// views an extension array as its storage).
inline const TypePtr& storage_of(const TypePtr& type) {
  return type->id() == TypeId::kExtension ? static_cast<const ExtensionType&>(*type).storage_type()
                                          : type;
}

/// Whether arrays of type `id` are views (utf8_view, binary_view): 16-byte views in buffer 1,
/// then any number of data buffers that the views point into.
constexpr bool is_view_type(TypeId id) {
  return id == TypeId::kStringView || id == TypeId::kBinaryView;
}

}  // namespace bowstring
