// Call signatures: a 64-bit hash of what a distributed call is (the operation, the element
// and operator types, the parameters every rank must agree on). Every distributed call starts
// with an all-gather of fixed-size call records that carry it, so ranks that called different
// things all see the difference in the same exchanged data and all throw mismatch_error,
// instead of some of them waiting forever in a later collective of another size.
#pragma once

#include <cstdint>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "scankit/dist/error.hpp"

namespace scankit::dist::detail {

/// The compiler's name of T (from the function signature; no RTTI needed). Every rank of a job
/// runs the same program, so equal types give equal names.
template <class T>
std::string_view type_name() {
#if defined(__GNUC__) || defined(__clang__)
  return __PRETTY_FUNCTION__;
#else
  return __FUNCSIG__;
#endif
}

/// FNV-1a over the parts added.
class signature {
 public:
  explicit signature(std::string_view operation) { add(operation); }
  signature& add(std::string_view s) { return add_bytes(s.data(), s.size()); }
  signature& add_bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) h_ = (h_ ^ b[i]) * 1099511628211ull;
    h_ = (h_ ^ 0xffu) * 1099511628211ull;  // separator: ("ab", "c") differs from ("a", "bc")
    return *this;
  }
  template <class T>
  signature& add_type() {
    return add(type_name<T>());
  }
  template <class T>
    requires std::is_trivially_copyable_v<T>
  signature& add_value(const T& v) {
    return add_bytes(&v, sizeof(T));
  }
  std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_ = 14695981039346656037ull;
};

/// One rank's call record: the signature, whether the rank's work before the exchange failed,
/// and a small operation-specific payload (a rank total, a count, a shard size). 64 bytes on
/// every rank whatever the call, so even calls of different operations exchange records of the
/// same size.
struct call_record {
  std::uint64_t signature = 0;
  std::uint32_t failed = 0;
  std::uint32_t reserved = 0;
  unsigned char payload[48] = {};
};
static_assert(sizeof(call_record) == 64);

inline constexpr std::size_t record_payload_bytes = sizeof(call_record::payload);

template <class P>
inline constexpr bool fits_record_v = std::is_trivially_copyable_v<P> && sizeof(P) <= record_payload_bytes;

template <class P>
  requires fits_record_v<P>
call_record make_record(std::uint64_t sig, const P& payload, bool failed = false) {
  call_record r;
  r.signature = sig;
  r.failed = failed ? 1 : 0;
  std::memcpy(r.payload, &payload, sizeof(P));
  return r;
}

template <class P>
  requires fits_record_v<P>
P record_payload(const call_record& r) {
  P p;
  std::memcpy(&p, r.payload, sizeof(P));
  return p;
}

/// Throws mismatch_error unless every rank's record carries `mine` (the same on all ranks that
/// made the same call, so all of them throw or none does); then, if a rank's work before the
/// exchange failed, rethrows that failure on that rank (`local`) and throws remote_error on the
/// others.
inline void check_records(const call_record* all, int ranks, std::uint64_t mine, int my_rank,
                          const std::exception_ptr& local, const char* operation) {
  for (int q = 0; q < ranks; ++q)
    if (all[q].signature != mine)
      throw mismatch_error(std::string(operation) + ": rank " + std::to_string(my_rank) +
                           "'s call does not match rank " + std::to_string(q) +
                           "'s (a different operation, element type, operator or parameter)");
  if (local) std::rethrow_exception(local);
  for (int q = 0; q < ranks; ++q)
    if (all[q].failed)
      throw remote_error(std::string(operation) + ": rank " + std::to_string(q) +
                         " failed before the exchange (it reports why); rank " + std::to_string(my_rank) +
                         "'s outputs are unspecified");
}

/// Runs f() and returns the exception it threw, if any: a rank's work before an exchange
/// runs under this, so that its failure is reported through the exchange instead of leaving
/// the other ranks waiting.
template <class F>
std::exception_ptr capture(F&& f) {
  try {
    f();
  } catch (...) {
    return std::current_exception();
  }
  return nullptr;
}

}  // namespace scankit::dist::detail
